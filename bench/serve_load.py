#!/usr/bin/env python3
"""serve_load.py — a sustained load of real evaluations on `cuarena serve`, as
bench/serve.sh drives it on the GPU machine (the same work `cuarena run --agent
replay` did there).

    bench/serve_load.py --url URL --replay DIR --clients N --out FILE.json

For every task folder DIR/L1/<task>/ (turn-1.cu, turn-2.cu, ...), one episode kept
by the server: reset, then a step per turn in order. N clients work through the
tasks at once (a trainer's workers). Writes, per step, the task, turn, verdict,
reward, speedup vs nvcc, the server's queue wait and the client's latency; prints
evaluations, wall time, throughput and the percentiles of both waits.
"""
import argparse
import json
import os
import queue
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "agents", "examples"))
from serve_client import CuarenaService, percentile  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--replay", required=True)
    ap.add_argument("--clients", type=int, default=os.cpu_count())
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    work = queue.Queue()
    for level in sorted(os.listdir(a.replay)):
        for task in sorted(os.listdir(os.path.join(a.replay, level))):
            d = os.path.join(a.replay, level, task)
            turns = sorted((f for f in os.listdir(d) if f.startswith("turn-")),
                           key=lambda f: int(f[5:-3]))
            work.put(("%s/%s" % (level, task), [os.path.join(d, f) for f in turns]))
    steps, errors, lock = [], [], threading.Lock()

    def client():
        svc = CuarenaService(a.url)
        while True:
            try:
                task, files = work.get_nowait()
            except queue.Empty:
                return
            try:
                ep = svc.reset(task, turns=len(files))
                for f in files:
                    with open(f) as fh:
                        code = fh.read()
                    t0 = time.monotonic()
                    r = svc.step(ep["episode"], code)
                    lat = time.monotonic() - t0
                    sp = r["result"].get("speedup", {}).get("nvcc")
                    with lock:
                        steps.append({"task": task, "turn": r["turn"], "verdict": r["verdict"],
                                      "reward": r["reward"], "speedup_nvcc": sp,
                                      "queue_s": r.get("queue_s"), "latency_s": lat})
                svc.close(ep["episode"])
            except Exception as e:  # noqa: BLE001  (reported, counted as a failure)
                with lock:
                    errors.append("%s: %r" % (task, e))

    t0 = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(max(1, a.clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    qs = [s["queue_s"] for s in steps if s["queue_s"] is not None]
    ls = [s["latency_s"] for s in steps]
    summary = {"evaluations": len(steps), "wall_s": wall, "errors": errors,
               "per_s": len(steps) / wall if wall > 0 else 0,
               "queue_s": {p: percentile(qs, p) for p in (50, 90, 99)},
               "latency_s": {p: percentile(ls, p) for p in (50, 90, 99)},
               "steps": steps}
    with open(a.out, "w") as f:
        json.dump(summary, f, indent=1)
    print("serve load: %d evaluations in %.1f s (%.3f/s), %d errors; queue wait p50 %.2f "
          "p90 %.2f p99 %.2f s; latency p50 %.2f p90 %.2f p99 %.2f s" % (
              len(steps), wall, summary["per_s"], len(errors), *summary["queue_s"].values(),
              *summary["latency_s"].values()))
    for e in errors[:5]:
        print("  error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
