#!/usr/bin/env python3
"""env_client.py — drive `cuarena env` from Python, the way an RL trainer does.

`cuarena env` keeps one process for a whole training session: reset(task) starts
an episode and returns the task prompt; step(code) compiles, checks and times the
kernel and returns the verdict, the reward and the next observation. The trainer
owns the loop (sampling, batching, the policy update); cuarena is the reward.
Protocol: docs/AGENT-PROTOCOL.md, "cuarena env". Standard library only.

    python3 agents/examples/env_client.py [TASK] [--cuarena build/cuarena]

The demo resets TASK (default relu), steps once with a kernel that does not
compile and once with the task's own reference (copied from the prompt), and
prints what came back. Without a GPU the second step reports that it could not
run; on the GPU machine it is correct at a speedup of about 1 vs nvcc.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from echo_agent import reference_code  # noqa: E402  (same folder)


class CuarenaEnv:
    """One `cuarena env` process; reset/step/close as method calls."""

    def __init__(self, cuarena="cuarena"):
        self.proc = subprocess.Popen([cuarena, "env"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def _call(self, request):
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("cuarena env exited (status %s)" % self.proc.wait())
        reply = json.loads(line)
        if not reply.get("ok"):
            raise ValueError(reply.get("error", "cuarena env refused the request"))
        return reply

    def reset(self, task, turns=8, reward="cuda-agent", remeasure=False):
        """Starts an episode; returns {"task", "turn", "max_turns", "observation",
        "baselines": "measured" | "cached" | "none", ...}. A task's baselines are
        timed on its first reset and reused later in the session."""
        return self._call({"cmd": "reset", "task": task, "turns": turns,
                           "reward": reward, "remeasure": remeasure})

    def step(self, code):
        """Evaluates code as the next turn; returns {"turn", "verdict", "reward",
        "done", "observation", "result", and "rewards" once done}."""
        return self._call({"cmd": "step", "code": code})

    def close(self):
        try:
            self._call({"cmd": "close"})
        finally:
            self.proc.stdin.close()
            self.proc.wait()


BROKEN = ("#include \"cuarena.h\"\n"
          "int cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b,\n"
          "              cudaStream_t s) { return this is not C; }\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("task", nargs="?", default="relu")
    ap.add_argument("--cuarena", default="cuarena", help="path to the cuarena binary")
    a = ap.parse_args()
    env = CuarenaEnv(a.cuarena)
    try:
        first = env.reset(a.task, turns=2)
        print("reset %s: turn %d of %d, baselines %s" % (
            first["task"], first["turn"], first["max_turns"], first["baselines"]))
        for name, code in (("broken kernel", BROKEN),
                           ("reference", reference_code(first["observation"]))):
            r = env.step(code)
            speedup = r["result"].get("speedup") or {}
            print("step %d (%s): %s, reward %g, done %s%s" % (
                r["turn"], name, r["verdict"], r["reward"], r["done"],
                ", %.3fx vs nvcc" % speedup["nvcc"] if speedup.get("nvcc") else ""))
        print("rewards of the episode: %s" % r.get("rewards"))
    finally:
        env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
