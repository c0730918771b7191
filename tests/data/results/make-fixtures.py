#!/usr/bin/env python3
"""make-fixtures.py — writes the hand-made run folders under tests/data/results/.

The files are committed; this script documents how each number was chosen and
regenerates them (`python3 tests/data/results/make-fixtures.py`). The expected
answers the tests assert are computed by hand in the comments below, not here.
Format: docs/RESULTS-FORMAT.md (schema 1).
"""
import hashlib
import json
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def stats(median, q1=None, q3=None, n=50):
    q1 = median * 0.99 if q1 is None else q1
    q3 = median * 1.01 if q3 is None else q3
    return {"n": n, "median": median, "q1": q1, "q3": q3, "iqr": q3 - q1,
            "mean": median, "stdev": (q3 - q1) / 1.35, "min": q1 * 0.98,
            "max": q3 * 1.05, "rel_sem": 0.001}


def ev(subject, verdict="ok", median=None, q1=None, q3=None, pct_sol=None, mhz=1980.0,
       imported=False, message="", n=50):
    """An evaluation object as harness/judge/verdict.c writes it."""
    e = {"subject": subject, "verdict": verdict,
         "message": message or ("" if verdict == "ok" else "the " + verdict.replace("_", " ")),
         "compile": {"cache_hit": False, "seconds": 1.3, "so_sha256": "ab" * 32},
         "violations": [],
         "cases": [{"shape": "timed", "seed": 1, "recheck": False, "ok": verdict == "ok",
                    "n": 1000, "bad": 0 if verdict == "ok" else 7, "nan": 0, "unwritten": 0,
                    "max_abs": 0.0, "max_rel": 0.0}]}
    if imported:
        e["imported"] = True
    if median is not None:
        e["timing"] = {"event_ms": stats(median, q1, q3, n), "host_ms": stats(median * 1.02),
                       "overhead_ms": 0.004, "sm_mhz_before": mhz, "sm_mhz_after": mhz,
                       "input_sets": 1, "set_median_ms": [median], "flush_bytes": 134217728}
    e["sol_ms"] = None if pct_sol is None else (median or 1.0) * pct_sol / 100
    e["pct_sol"] = pct_sol
    e["seconds"] = {"check": 0.2, "timing": 0.5, "run": 0.9}
    e["net_isolated"] = True
    return e


class Run:
    def __init__(self, name, agent, version, created, tasks, device="NVIDIA H200"):
        self.dir = os.path.join(HERE, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.run = {"schema": 1, "run_id": os.path.basename(name), "created": created,
                    "harness": {"version": "0.2.0", "git": "0c2e69b"},
                    "catalogue_hash": "60752a0d" + "0" * 56,
                    "device": {"name": device, "cc_major": 9, "cc_minor": 0, "sms": 132,
                               "driver_version": "580.159.04", "runtime": 13000},
                    "nvcc": "release 13.0, V13.0.88",
                    "agent": {"name": agent, "version": version, "config": {},
                              "prompts_sha256": "cd" * 32},
                    "turns": 8, "reward": "cuda-agent", "public_seeds": [1, 2, 3],
                    "tasks": tasks}
        self.lines = {"baselines.jsonl": [], "evals.jsonl": [], "trajectories.jsonl": []}
        self.base_ms = {}

    def baseline(self, task, subject, median, imported=False, pct_sol=None, work=None):
        """work: (flops, bytes) of the task at its timed shape, as runs record
        them since 2026-12-01 (None: a line from before)."""
        level = int(task[1])
        if subject == "nvcc":
            self.base_ms[task] = median
        line = {"schema": 1, "task": task, "level": level}
        if work is not None:
            line["flops"], line["bytes"] = work
        line["eval"] = ev(subject, median=median, imported=imported, pct_sol=pct_sol)
        self.lines["baselines.jsonl"].append(line)

    def turn(self, task, turn, verdict="ok", speedup=None, pct_sol=None, code=None,
             q=(0.99, 1.01), mhz=1980.0, median=None, n=50):
        """speedup: {baseline: x}; the candidate's median is nvcc's / x["nvcc"]."""
        level = int(task[1])
        if verdict == "ok" and median is None:
            median = self.base_ms.get(task, 1.0) / speedup["nvcc"]
        timed = verdict == "ok"
        e = ev("candidate", verdict, median if timed else None,
               median * q[0] if timed else None, median * q[1] if timed else None,
               pct_sol if timed else None, mhz, n=n)
        reward = -1.0 if verdict != "ok" else (2.0 if speedup.get("nvcc", 0) > 1.05 else 1.0)
        self.lines["evals.jsonl"].append(
            {"schema": 1, "task": task, "level": level, "turn": turn,
             "code_sha256": hashlib.sha256(("%s/%d" % (task, turn)).encode()).hexdigest(), "reward": reward,
             "speedup": speedup if timed else None, "eval": e})
        if code is None:
            code = ('#include "cuarena.h"\n// %s, turn %d: a<b && c>d, "quoted"\n'
                    '__global__ void kernel_t%d(float *y) { y[0] = 0; }\n'
                    'extern "C" int cua_solve(...) { return 0; }\n' % (task, turn, turn))
        self.lines["trajectories.jsonl"].append(
            {"schema": 1, "kind": "turn", "task": task, "turn": turn, "prompt_sha256": "ef" * 32,
             "observation": "verdict: %s" % verdict, "reply": "```cuda\n%s```" % code,
             "code": code, "verdict": verdict, "reward": reward,
             "tokens": {"prompt": 1800, "completion": 950}, "latency_s": 12.4})

    def end(self, task, turns, best, final, reason="agent stopped"):
        self.lines["trajectories.jsonl"].append(
            {"schema": 1, "kind": "end", "task": task, "turns": turns, "reason": reason,
             "best_turn": best, "final_turn": final})

    def write(self, tail=None):
        with open(os.path.join(self.dir, "run.json"), "w") as f:
            json.dump(self.run, f, indent=2)
            f.write("\n")
        for name, lines in self.lines.items():
            with open(os.path.join(self.dir, name), "w") as f:
                for o in lines:
                    f.write(json.dumps(o, separators=(",", ":")) + "\n")
                if tail and name in tail:
                    f.write(tail[name])


# Flops and bytes at the timed shape, from the expressions of tasks/L1/*/task.json
# (intensity: sgemm 682.7, vector-add 0.0833, relu 0.125, softmax 0.625).
WORK = {"L1/001-sgemm": (2 * 4096 ** 3, 4 * 3 * 4096 ** 2),
        "L1/020-vector-add": (536870912, 12 * 536870912),
        "L1/021-relu": (4096 * 196608, 8 * 4096 * 196608),
        "L1/025-softmax": (5 * 16384 * 32768, 8 * 16384 * 32768)}


def basic():
    """alpha v1, five L1 tasks. Hand-computed (docs in tests/test-metrics.c):
    best-of-trajectory vs nvcc: sgemm 1.5 (turn 2), vector-add 1.02 (turn 1),
    relu 2.0, softmax fails, 999-missing never ran -> pass 3/5."""
    r = Run("basic", "alpha", "v1", "2026-11-29T18:15:00Z",
            ["L1/001-sgemm", "L1/020-vector-add", "L1/021-relu", "L1/025-softmax",
             "L1/999-missing"])
    for task, subject, ms, imported in (
            ("L1/001-sgemm", "nvcc", 3.0, False), ("L1/001-sgemm", "cublas/sgemm", 1.0, False),
            ("L1/001-sgemm", "torch-eager", 1.2, True), ("L1/020-vector-add", "nvcc", 1.0, False),
            ("L1/021-relu", "nvcc", 6.0, False), ("L1/021-relu", "cudnn/relu", 5.4, False),
            ("L1/021-relu", "torch-eager", 9.0, True), ("L1/025-softmax", "nvcc", 2.0, False)):
        r.baseline(task, subject, ms, imported=imported, work=WORK[task])
    # sgemm: compile error, then 1.5x, then 1.2x (final)
    r.turn("L1/001-sgemm", 1, "compile_error")
    r.turn("L1/001-sgemm", 2, speedup={"nvcc": 1.5, "cublas/sgemm": 0.5, "torch-eager": 0.6},
           pct_sol=40.0)
    r.turn("L1/001-sgemm", 3, speedup={"nvcc": 1.2, "cublas/sgemm": 0.4, "torch-eager": 0.48},
           pct_sol=32.0)
    r.end("L1/001-sgemm", 3, 2, 3)
    # vector-add: 1.02x (no library baseline: "library" falls back to nvcc), then wrong
    r.turn("L1/020-vector-add", 1, speedup={"nvcc": 1.02}, pct_sol=80.0)
    r.turn("L1/020-vector-add", 2, "wrong_output")
    r.end("L1/020-vector-add", 2, 1, 2, "turn limit")
    # relu: 2.0x at once
    r.turn("L1/021-relu", 1, speedup={"nvcc": 2.0, "cudnn/relu": 1.8, "torch-eager": 3.0},
           pct_sol=90.0)
    r.end("L1/021-relu", 1, 1, 1)
    # softmax: never correct
    r.turn("L1/025-softmax", 1, "wrong_output")
    r.turn("L1/025-softmax", 2, "nan_output")
    r.end("L1/025-softmax", 2, 0, 2, "agent failed: no code block in the reply")
    r.write()


def beta():
    """beta v2 on the same five tasks: better everywhere (for boards and plots)."""
    r = Run("beta", "beta", "v2", "2026-11-30T09:00:00Z",
            ["L1/001-sgemm", "L1/020-vector-add", "L1/021-relu", "L1/025-softmax",
             "L1/999-missing"])
    for task, ms in (("L1/001-sgemm", 3.0), ("L1/020-vector-add", 1.0), ("L1/021-relu", 6.0),
                     ("L1/025-softmax", 2.0)):
        r.baseline(task, "nvcc", ms, work=WORK[task])
    r.baseline("L1/001-sgemm", "cublas/sgemm", 1.0, work=WORK["L1/001-sgemm"])
    r.baseline("L1/021-relu", "cudnn/relu", 5.4, work=WORK["L1/021-relu"])
    r.turn("L1/001-sgemm", 1, speedup={"nvcc": 2.7, "cublas/sgemm": 0.9}, pct_sol=72.0)
    r.turn("L1/020-vector-add", 1, speedup={"nvcc": 1.3}, pct_sol=95.0)
    r.turn("L1/021-relu", 1, speedup={"nvcc": 2.2, "cudnn/relu": 1.98}, pct_sol=97.0)
    r.turn("L1/025-softmax", 1, speedup={"nvcc": 1.6}, pct_sol=60.0)
    for t in ("L1/001-sgemm", "L1/020-vector-add", "L1/021-relu", "L1/025-softmax"):
        r.end(t, 1, 1, 1)
    r.write()


def weighted():
    """CUDA Agent's Overall rule. Levels hold 4/4/2 tasks (100:100:50); the
    correct tasks' geomeans vs torch-compile are exactly 1.87 / 2.80 / 1.52 and
    vs torch-eager 2.48 / 3.27 / 1.80, so Overall is 2.11 and 2.60 (Table 1)."""
    tasks = ["L1/001-a", "L1/002-b", "L1/003-c", "L1/004-d",
             "L2/001-a", "L2/002-b", "L2/003-c", "L2/004-d",
             "L3/001-a", "L3/002-b"]
    r = Run("weighted", "cuda-agent", "paper", "2026-03-01T00:00:00Z", tasks)
    for t in tasks:
        r.baseline(t, "nvcc", 10.0)

    def ok(task, compile_x, eager_x):
        r.turn(task, 1, speedup={"nvcc": eager_x, "torch-eager": eager_x,
                                 "torch-compile": compile_x})
    # L1: 1.87*1.25 and 1.87/1.25 (geomean 1.87); eager 2.48*1.1, 2.48/1.1
    ok("L1/001-a", 1.87 * 1.25, 2.48 * 1.1)
    ok("L1/002-b", 1.87 / 1.25, 2.48 / 1.1)
    r.turn("L1/003-c", 1, "wrong_output")
    r.turn("L1/004-d", 1, "compile_error")
    # L2: 2.8*2, 2.8/2, 2.8, 2.8; eager 3.27 each
    ok("L2/001-a", 2.8 * 2, 3.27)
    ok("L2/002-b", 2.8 / 2, 3.27)
    ok("L2/003-c", 2.8, 3.27)
    ok("L2/004-d", 2.8, 3.27)
    # L3: 1.52 and a failure
    ok("L3/001-a", 1.52, 1.80)
    r.turn("L3/002-b", 1, "timeout")
    r.write()


def plots():
    """roofline: the figure reads a task's flops and bytes from the run alone.
    L1/990-gone has no task file today but its run recorded them (intensity 1);
    L1/001-sgemm has a task file but its run's lines do not record them (as
    before 2026-12-01): left out, with a note. none-correct: no task passed, so
    bars (and dist, roofline) have nothing to draw."""
    r = Run("roofline", "gamma", "v3", "2026-12-01T12:00:00Z",
            ["L1/001-sgemm", "L1/021-relu", "L1/025-softmax", "L1/990-gone"])
    r.baseline("L1/001-sgemm", "nvcc", 3.0)
    r.baseline("L1/021-relu", "nvcc", 6.0, work=WORK["L1/021-relu"])
    r.baseline("L1/025-softmax", "nvcc", 2.0, work=WORK["L1/025-softmax"])
    r.baseline("L1/990-gone", "nvcc", 4.0, work=(10 ** 9, 10 ** 9))
    r.turn("L1/001-sgemm", 1, speedup={"nvcc": 1.5}, pct_sol=40.0)
    r.turn("L1/021-relu", 1, speedup={"nvcc": 2.0}, pct_sol=90.0)
    r.turn("L1/025-softmax", 1, "wrong_output")
    r.turn("L1/990-gone", 1, speedup={"nvcc": 1.25}, pct_sol=55.0)
    for t, best in (("L1/001-sgemm", 1), ("L1/021-relu", 1), ("L1/025-softmax", 0),
                    ("L1/990-gone", 1)):
        r.end(t, 1, best, 1)
    r.write()
    r = Run("none-correct", "delta", "v0", "2026-12-01T12:00:00Z",
            ["L1/021-relu", "L1/025-softmax"])
    r.baseline("L1/021-relu", "nvcc", 6.0, work=WORK["L1/021-relu"])
    r.baseline("L1/025-softmax", "nvcc", 2.0, work=WORK["L1/025-softmax"])
    r.turn("L1/021-relu", 1, "compile_error")
    r.turn("L1/025-softmax", 1, "wrong_output")
    r.end("L1/021-relu", 1, 0, 1)
    r.end("L1/025-softmax", 1, 0, 1)
    r.write()


def broken():
    """Loader rejections and the torn last line."""
    def small(name, schema_line=None):
        r = Run(name, "alpha", "v1", "2026-11-29T18:15:00Z", ["L1/021-relu"])
        r.baseline("L1/021-relu", "nvcc", 6.0)
        for turn in range(1, 4):
            r.turn("L1/021-relu", turn, speedup={"nvcc": 1.0 + turn / 10})
        return r
    # line 3 of evals.jsonl is not JSON (and lines follow it)
    r = small("bad-json")
    r.write()
    p = os.path.join(r.dir, "evals.jsonl")
    lines = open(p).read().splitlines(True)
    lines.insert(2, '{"schema": 1, "task": "L1/021-relu", "turn": 9, \n')
    open(p, "w").writelines(lines)
    # line 12 of evals.jsonl has schema 99 (newer than any)
    r = small("newer-schema")
    for turn in range(4, 13):
        r.turn("L1/021-relu", turn, speedup={"nvcc": 1.1})
    r.lines["evals.jsonl"][11]["schema"] = 99
    r.write()
    # run.json has schema 99
    r = small("newer-run")
    r.run["schema"] = 99
    r.write()
    # no run.json
    r = small("no-run-json")
    r.write()
    os.remove(os.path.join(r.dir, "run.json"))
    # a torn last line in evals.jsonl and in trajectories.jsonl
    r = small("torn")
    r.write(tail={"evals.jsonl": '{"schema":1,"task":"L1/021-relu","level":1,"turn":4,"eva',
                  "trajectories.jsonl": '{"schema":1,"kind":"tu'})
    # an evaluation object with an unknown verdict on line 2
    r = small("bad-verdict")
    r.lines["evals.jsonl"][1]["eval"]["verdict"] = "exploded"
    r.write()
    # a baselines line whose flops is not a count
    r = small("bad-flops")
    r.lines["baselines.jsonl"][0]["flops"] = "lots"
    r.write()


def compare():
    """compare-old -> compare-new: one of each status (tests/test-compare-runs.c).
    compare-noise: compare-old again with measurement noise only."""
    tasks = {  # task: (old (median, q1, q3) or None if failing, new ..., old mhz, new mhz)
        "L1/001-sgemm": ((1.0, 0.99, 1.01), (1.2, 1.19, 1.215), 1980, 1980),       # SLOWER
        "L1/020-vector-add": ((2.0, 1.98, 2.02), (1.6, 1.58, 1.62), 1980, 1980),   # FASTER
        "L1/021-relu": ((1.0, 0.99, 1.01), (1.01, 0.995, 1.02), 1980, 1980),       # SAME
        "L1/025-softmax": ((1.0, 0.99, 1.01), None, 1980, 1980),                   # PASS->FAIL
        "L1/027-swish": (None, (1.0, 0.99, 1.01), 1980, 1980),                     # FAIL->PASS
        "L1/028-gelu-erf": ((1.0, 0.9, 1.1), (1.08, 0.97, 1.2), 1980, 1980),       # AMBIGUOUS
        "L1/029-gelu-tanh": ((1.0, 0.998, 1.002), (1.03, 1.028, 1.032), 1980, 1980),  # AMBIGUOUS
        "L1/030-selu": ((1.0, 0.99, 1.01), (1.2, 1.19, 1.21), 1980, 1650),         # AMBIGUOUS (clock)
        "L1/031-hard-sigmoid": (None, None, 1980, 1980),                           # FAIL
    }
    ids = sorted(tasks)
    old = Run("compare-old", "nightly", "ref", "2026-11-28T02:00:00Z", ids)
    new = Run("compare-new", "nightly", "ref", "2026-11-29T02:00:00Z",
              ids + ["L1/032-softplus"])                                           # NEW
    for run, side in ((old, 0), (new, 1)):
        for t in ids:
            run.baseline(t, "nvcc", 1.5)
            m = tasks[t][side]
            mhz = tasks[t][2 + side]
            if m is None:
                run.turn(t, 1, "wrong_output")
            else:
                run.turn(t, 1, speedup={"nvcc": 1.5 / m[0]}, median=m[0],
                         q=(m[1] / m[0], m[2] / m[0]), mhz=mhz)
    new.baseline("L1/032-softplus", "nvcc", 1.5)
    new.turn("L1/032-softplus", 1, speedup={"nvcc": 1.5})
    old.write()
    new.write()

    # Noise only: 24 tasks measured twice from one distribution (lognormal, 1 %
    # to 10 % spread, a few 2x outliers), quartiles as harness/judge/stats.c computes them.
    rng = random.Random(20261129)

    def quartiles(xs):
        xs = sorted(xs)
        def q(p):
            h = (len(xs) - 1) * p
            lo = int(h)
            return xs[lo] if lo >= len(xs) - 1 else xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])
        return q(0.5), q(0.25), q(0.75)

    # Then 12 tasks with few samples (5 to 10) and 15 % to 30 % spread: medians
    # move past the threshold by chance, the quartile ranges still overlap.
    noise_ids = ["L1/%03d-noise" % i for i in range(1, 37)]
    a = Run("noise-a", "nightly", "ref", "2026-11-28T02:00:00Z", noise_ids)
    b = Run("noise-b", "nightly", "ref", "2026-11-29T02:00:00Z", noise_ids)
    for i, t in enumerate(noise_ids):
        true_ms = 0.05 * (1.4 ** (i % 24))
        sigma = 0.01 + 0.09 * i / 23 if i < 24 else 0.15 + 0.15 * (i - 24) / 11
        for run in (a, b):
            n = rng.choice((10, 20, 50, 200)) if i < 24 else rng.choice((5, 7, 10))
            xs = [true_ms * rng.lognormvariate(0, sigma) for _ in range(n)]
            for k in range(n // 20):
                xs[k] *= 2.0
            med, q1, q3 = quartiles(xs)
            run.baseline(t, "nvcc", true_ms * 1.5)
            run.turn(t, 1, speedup={"nvcc": true_ms * 1.5 / med}, median=med,
                     q=(q1 / med, q3 / med), n=n)
    a.write()
    b.write()


def history():
    """Three nightly runs whose folder names do not sort by date; a folder
    without run.json is skipped with a warning."""
    base = os.path.join(HERE, "history")
    shutil.rmtree(base, ignore_errors=True)
    ids = ["L1/001-sgemm", "L1/020-vector-add", "L1/021-relu", "L1/025-softmax"]
    nights = [("night-a", "2026-11-27T02:00:00Z", [1.2, 1.1, None, None]),
              ("night-b", "2026-11-28T02:00:00Z", [1.5, 1.1, 2.0, None]),
              ("night-c", "2026-11-26T02:00:00Z", [1.0, None, None, None])]
    for name, created, xs in nights:
        r = Run(os.path.join("history", name), "nightly", "ref", created, ids)
        for t, x in zip(ids, xs):
            r.baseline(t, "nvcc", 2.0)
            if x is None:
                r.turn(t, 1, "wrong_output")
            else:
                r.turn(t, 1, speedup={"nvcc": x}, pct_sol=50.0)
        r.write()
    os.makedirs(os.path.join(base, "not-a-run"))
    with open(os.path.join(base, "not-a-run", "README"), "w") as f:
        f.write("not a run folder: history skips it with a warning\n")


# What a kernel or an agent may write to get script into a board page: each
# must come out as text (tests/test-board.c checks the DOM in Chromium: no <b
# id="pwned">, no data-pwned attribute, no <img>).
HOSTILE_SCRIPT = ("</script><script>document.body.appendChild(document.createElement('b'))"
                  ".id='pwned'</script>")
HOSTILE_IMG = "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">"


def transcript():
    """hostile: one episode of four turns whose every text an attacker chose
    (the board's transcript tests), and a task whose id is hostile too.
    relu: compile_error -> wrong_output (one line changed) -> ok 1.25x vs nvcc
    (quartiles 0.99/1.01 of each median: interval [5.94/4.848, 6.06/4.752] =
    [1.225, 1.275]) -> no code; best turn 3; tokens and latency differ per turn."""
    relu = "L1/021-relu"
    odd = "L1/099-<img src=x onerror=alert(1)>"
    r = Run("hostile", "mallory<script>", "v\"1\"", "2026-12-01T08:00:00Z", [relu, odd])
    r.baseline(relu, "nvcc", 6.0, work=WORK[relu])
    r.baseline(relu, "cudnn/relu", 5.28, work=WORK[relu])
    r.baseline(odd, "nvcc", 1.0)
    prompt = ("# Task L1/021-relu: ReLU\n\nThe prompt, with markup in it: </pre>%s%s\n"
              % (HOSTILE_SCRIPT, HOSTILE_IMG))
    src1 = ('#include "cuarena.h"\n'
            '/* %s */\n'
            '// %s\n'
            'const char *s = "%s";\n'
            '__global__ void relu_kernel(const float *x, float *y, int64_t n)\n'
            '{\n'
            '\tint64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;\n'
            '\tif (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f\n'
            '}\n' % (HOSTILE_SCRIPT, HOSTILE_IMG, HOSTILE_SCRIPT.replace('"', "'")))
    src2 = src1.replace(": 0.f\n", ": 0.f;\n")
    src3 = src2.replace("if (i < n)", "if (i <= n - 1)")
    feedback = ["# Turn %d of 4: %s\n\nfeedback with markup: </details></section>%s%s\n"
                % (k, v, HOSTILE_SCRIPT, HOSTILE_IMG)
                for k, v in ((1, "compile_error"), (2, "wrong_output"), (3, "ok"))]
    turns = [  # verdict, message, code, reply, tokens, latency, speedup
        ("compile_error", "nvcc failed: expected a ';' " + HOSTILE_IMG, src1,
         "Here is my kernel %s\n```cuda\n%s```\n" % (HOSTILE_SCRIPT, src1), (1200, 340), 3.5,
         None),
        ("wrong_output", "37 wrong of 37037 " + HOSTILE_IMG, src2,
         "```cuda\n%s```" % src2, (2100, 360), 4.25, None),
        ("ok", "", src3, "Fixed the bound.\n```cuda\n%s```\n" % src3, (3000, 410), 5.0,
         {"nvcc": 1.25, "cudnn/relu": 1.1}),
        ("no_code", "the reply held no code", None,
         "I am done. %s %s" % (HOSTILE_SCRIPT, HOSTILE_IMG), (3500, 20), 0.5, None),
    ]
    for k, (verdict, message, code, reply, tok, lat, speedup) in enumerate(turns, 1):
        timed = verdict == "ok"
        median = 6.0 / 1.25
        e = ev("candidate", verdict, median if timed else None, median * 0.99 if timed else None,
               median * 1.01 if timed else None, 88.0 if timed else None, message=message)
        reward = {"ok": 2.0}.get(verdict, -1.0)
        r.lines["evals.jsonl"].append(
            {"schema": 1, "task": relu, "level": 1, "turn": k, "reward": reward,
             "speedup": speedup, "eval": e})
        r.lines["trajectories.jsonl"].append(
            {"schema": 1, "kind": "turn", "task": relu, "turn": k, "prompt_sha256": "ef" * 32,
             "observation": prompt if k == 1 else feedback[k - 2], "reply": reply,
             "code": code, "verdict": verdict, "reward": reward,
             "tokens": {"prompt": tok[0], "completion": tok[1]}, "latency_s": lat})
    r.end(relu, 4, 3, 4)
    r.turn(odd, 1, speedup={"nvcc": 1.5})
    r.end(odd, 1, 1, 1)
    r.write()


if __name__ == "__main__":
    basic()
    beta()
    weighted()
    plots()
    broken()
    compare()
    history()
    transcript()
