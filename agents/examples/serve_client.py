#!/usr/bin/env python3
"""serve_client.py — call `cuarena serve` from an RL trainer (docs/SERVE.md).

Standard library only (http.client). A client holds no connection between calls,
so it can be made in every worker process of a trainer (multiprocessing, Ray,
torchrun ranks) and shared by threads: each call opens its own connection. A full
queue (429) and a refusal the server marks retryable (503 with "retryable": true:
a harness failure, an unrecorded evaluation, a server stopping — docs/SERVE.md)
are retried after the server's Retry-After; every other refusal raises
ServeError with the server's message and HTTP status.

    from serve_client import CuarenaService
    svc = CuarenaService("http://gpu-node-3:8177", token_file="~/.cuarena-token")
    r = svc.evaluate("relu", code)          # {"verdict", "reward", "observation", ...}
    ep = svc.reset("relu", turns=4)         # server-side episode (the env protocol)
    s = svc.step(ep["episode"], code)       # {"turn", "verdict", "reward", "done", ...}

As a program it scores kernels from many processes at once:

    python3 agents/examples/serve_client.py --url http://127.0.0.1:8177 \\
        --processes 8 relu kernel1.cu kernel2.cu ...

and prints one line per kernel (verdict, reward, speedup vs nvcc) and the queue
latency percentiles it saw.
"""
import argparse
import http.client
import json
import multiprocessing
import os
import sys
import time
import urllib.parse


class ServeError(Exception):
    """A request the server refused or could not work; .status is the HTTP code."""

    def __init__(self, status, message):
        super().__init__("HTTP %d: %s" % (status, message))
        self.status = status
        self.message = message


class CuarenaService:
    """A client of one `cuarena serve`. Safe to copy into processes and threads."""

    def __init__(self, url="http://127.0.0.1:8177", token=None, token_file=None,
                 timeout=900, max_wait=3600):
        u = urllib.parse.urlsplit(url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError("url: expected http://HOST:PORT, not %r" % url)
        self.scheme, self.host = u.scheme, u.hostname
        self.port = u.port or (443 if u.scheme == "https" else 80)
        if token_file and not token:
            with open(os.path.expanduser(token_file)) as f:
                token = f.read().strip()
        self.token = token
        self.timeout = timeout      # one evaluation can take minutes (compile, timing)
        self.max_wait = max_wait    # how long 429s are retried in all
        self.retries = 0            # 429s this client has seen (per process)

    def _once(self, method, path, body):
        cls = (http.client.HTTPSConnection if self.scheme == "https"
               else http.client.HTTPConnection)
        conn = cls(self.host, self.port, timeout=self.timeout)
        try:
            headers = {"Accept": "application/json"}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            if self.token:
                headers["Authorization"] = "Bearer " + self.token
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            retry = resp.getheader("Retry-After")
            return resp.status, raw, retry
        finally:
            conn.close()

    def request(self, method, path, body=None):
        """One call; a 429, or a 503 the server marks retryable, is retried after
        Retry-After until max_wait (a harness failure is never a reward: the
        evaluation was not made). Returns the decoded JSON reply of a 2xx,
        raises ServeError otherwise."""
        deadline = time.monotonic() + self.max_wait
        while True:
            status, raw, retry = self._once(method, path, body)
            try:
                reply = json.loads(raw.decode() or "{}") if raw else {}
            except ValueError:
                reply = {"error": raw.decode(errors="replace")}
            retryable = status == 429 or (status == 503 and isinstance(reply, dict)
                                          and reply.get("retryable") is True)
            if retryable and time.monotonic() < deadline:
                self.retries += 1
                time.sleep(max(1.0, float(retry or 1)))
                continue
            if 200 <= status < 300:
                return reply
            raise ServeError(status, reply.get("error", "") if isinstance(reply, dict)
                             else str(reply))

    # ---- the endpoints ----------------------------------------------------------
    def evaluate(self, task, code, reward="cuda-agent", turn=1, turns=None, episode=None,
                 note=None):
        """Scores one kernel (code None: a reply that had none) as turn `turn` of an
        episode the trainer keeps. Returns {"verdict", "reward", "observation",
        "result": {"speedup", "eval", ...}, ...}, the same as a step of `env`."""
        body = {"task": task, "code": code, "reward": reward, "turn": turn}
        if turns is not None:
            body["turns"] = turns
        if episode is not None:
            body["episode"] = episode
        if note is not None:
            body["note"] = note
        return self.request("POST", "/v1/evaluate", body)

    def reset(self, task, turns=8, reward="cuda-agent", remeasure=False):
        """Starts an episode kept by the server; the reply's "episode" names it and
        its "observation" is the task prompt."""
        return self.request("POST", "/v1/episodes", {"task": task, "turns": turns,
                                                     "reward": reward,
                                                     "remeasure": remeasure})

    def step(self, episode, code):
        return self.request("POST", "/v1/episodes/%s/step" % episode, {"code": code})

    def episode(self, episode):
        return self.request("GET", "/v1/episodes/%s" % episode)

    def close(self, episode):
        return self.request("DELETE", "/v1/episodes/%s" % episode)

    def tasks(self):
        return self.request("GET", "/v1/tasks")["tasks"]

    def prompt(self, task):
        return self.request("GET", "/v1/tasks/%s" % urllib.parse.quote(task))["prompt"]

    def health(self):
        return self.request("GET", "/healthz")


def percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def _score(args):
    svc, task, path = args
    with open(path) as f:
        code = f.read()
    t0 = time.monotonic()
    r = svc.evaluate(task, code, episode=os.path.basename(path))
    return path, r, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("task")
    ap.add_argument("kernels", nargs="+", help="CUDA sources to score")
    ap.add_argument("--url", default="http://127.0.0.1:8177")
    ap.add_argument("--token-file")
    ap.add_argument("--processes", type=int, default=4)
    a = ap.parse_args()
    svc = CuarenaService(a.url, token_file=a.token_file)
    with multiprocessing.Pool(a.processes) as pool:
        done = pool.map(_score, [(svc, a.task, k) for k in a.kernels])
    lat = []
    for path, r, s in done:
        sp = r.get("result", {}).get("speedup", {}).get("nvcc")
        print("%s: %s, reward %g, vs nvcc %s" % (path, r["verdict"], r["reward"],
                                                "%.3fx" % sp if sp else "-"))
        lat.append(s)
    print("latency s: p50 %.3f p90 %.3f p99 %.3f" % (percentile(lat, 50),
                                                     percentile(lat, 90),
                                                     percentile(lat, 99)))


if __name__ == "__main__":
    sys.exit(main())
