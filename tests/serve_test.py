#!/usr/bin/env python3
"""serve_test.py — `cuarena serve` against the real server on loopback, on the CPU.

    tests/serve_test.py build/cuarena      (tests/cli.sh runs it; needs nvcc)

Protocol, errors, limits, auth, disconnects, restart and a bounded load test of 64
concurrent clients; what a cluster does to a service: a full disk (a file-size limit
stands in), a second server on one folder, a connection flood, a harness that fails
(no GPU here), and requests that are not well-formed. The verdicts reached without a GPU (no_code, compile_error,
load_error, forbidden_symbol) come from the same code as `env`, which is checked
by asking both. Waits are "until" a state the server reports (/metrics), with a
generous deadline; nothing asserts how long anything took. Prints "ok"/"FAIL"
lines and "N passed, M failed"; exits 1 on a failure.
"""
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "agents", "examples"))
from serve_client import CuarenaService, ServeError  # noqa: E402

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build",
                                                                          "cuarena"))
WORK = tempfile.mkdtemp(prefix="serve-test-")
ENV = dict(os.environ, CUARENA_CACHE=os.path.join(WORK, "cache"))
passed = failed = 0

HEADER = '#include "cuarena.h"\n'
SIG = ("extern \"C\" int cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, "
       "int b, cudaStream_t s)")
BROKEN = HEADER + SIG + " { return this is not C; }\n"
FORBIDDEN = HEADER + "#include <stdlib.h>\n" + SIG + " { return system(\"true\"); }\n"
NO_SOLVE = "int x;\n"
# nvcc takes minutes over this (2048 kernels): only a stopped build ends it soon
SLOW = (HEADER + "#define CAT2(a, b) a##b\n#define CAT(a, b) CAT2(a, b)\n"
        "#define F __global__ void CAT(k, __COUNTER__)(float *p) "
        "{ p[threadIdx.x] = sinf(p[threadIdx.x]) * 3.f + cosf(p[threadIdx.x + 1]); }\n"
        "#define F4 F F F F\n#define F16 F4 F4 F4 F4\n#define F64 F16 F16 F16 F16\n"
        "#define F256 F64 F64 F64 F64\n#define F1024 F256 F256 F256 F256\n"
        "F1024 F1024\n" + SIG + " { return 0; }\n")


def check(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("ok    " + what)
    else:
        failed += 1
        print("FAIL  " + what + (": " + str(detail)[:400] if detail != "" else ""))
    sys.stdout.flush()
    return cond


class Server:
    """One `cuarena serve` on 127.0.0.1 and a free port."""

    def __init__(self, name, *args, results=None, fsize=None):
        self.results = results or os.path.join(WORK, name)
        self.port_file = os.path.join(WORK, name + ".port")
        if os.path.exists(self.port_file):
            os.unlink(self.port_file)
        self.log = open(os.path.join(WORK, name + ".log"), "a")
        cmd = [BIN, "serve", "--listen", "127.0.0.1:0", "--port-file", self.port_file,
               "--results", self.results] + list(args)
        def limit():
            # a full disk stands in: a file-size limit on the server alone (the
            # hard limit stays, so it can be raised again: room again)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, resource.RLIM_INFINITY))

        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=self.log, env=ENV,
                                     cwd=ROOT, preexec_fn=limit if fsize else None)
        deadline = time.monotonic() + 60
        while not os.path.exists(self.port_file):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("cuarena serve did not start: see %s" % self.log.name)
            time.sleep(0.05)
        time.sleep(0.05)
        with open(self.port_file) as f:
            self.port = int(f.read())
        self.url = "http://127.0.0.1:%d" % self.port

    def client(self, **kw):
        return CuarenaService(self.url, **kw)

    def log_text(self):
        with open(self.log.name) as f:
            return f.read()

    def stop(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        rc = self.proc.wait(timeout=120)
        self.log.close()
        return rc

    def metrics(self):
        raw = raw_request(self.port, "GET", "/metrics")[2]
        m = {}
        for line in raw.decode().splitlines():
            if line and not line.startswith("#"):
                k, v = line.rsplit(" ", 1)
                m[k] = float(v)
        return m

    def wait_metric(self, key, pred, what, deadline_s=60):
        end = time.monotonic() + deadline_s
        while time.monotonic() < end:
            v = self.metrics().get(key, 0)
            if pred(v):
                return True
            time.sleep(0.05)
        return check(False, what, "%s = %s" % (key, self.metrics().get(key)))


def raw_request(port, method, path, body=None, headers=None):
    """(status, headers dict, body bytes) without the client's retries."""
    import http.client
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    c.request(method, path, body=data, headers=headers or {})
    r = c.getresponse()
    out = (r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
    c.close()
    return out


def jreq(port, method, path, body=None, headers=None):
    st, h, raw = raw_request(port, method, path, body, headers)
    try:
        return st, h, json.loads(raw)
    except ValueError:
        return st, h, {"raw": raw.decode(errors="replace")}


def open_socket_request(port, path, body):
    """Sends a POST and leaves the connection open: the caller closes it (a client
    that goes away)."""
    s = socket.create_connection(("127.0.0.1", port))
    data = json.dumps(body).encode()
    s.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n" % (path.encode(), len(data)) + data)
    return s


def eval_lines(results):
    path = os.path.join(results, "evals.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def normalize(text):
    """Compile logs name the source's temporary path: the same source, anywhere."""
    return re.sub(r"\S*/turn-(\d+)\.cu", r"turn-\1.cu", text)


def cuarena(*args):
    p = subprocess.run([BIN] + list(args), capture_output=True, text=True, env=ENV, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


# ---- starting ----------------------------------------------------------------------
def test_start():
    rc, _, err = cuarena("serve", "--listen", "0.0.0.0:0", "--results",
                         os.path.join(WORK, "never"))
    check(rc == 2 and "--token-file" in err,
          "serve refuses to listen beyond loopback without a token", (rc, err))
    tok = os.path.join(WORK, "open-token")
    with open(tok, "w") as f:
        f.write("0123456789abcdef0123\n")
    os.chmod(tok, 0o644)
    rc, _, err = cuarena("serve", "--listen", "0.0.0.0:0", "--token-file", tok)
    check(rc == 2 and "readable by others" in err,
          "serve refuses a token file others can read", (rc, err))
    os.chmod(tok, 0o600)
    with open(tok, "w") as f:
        f.write("short\n")
    rc, _, err = cuarena("serve", "--token-file", tok)
    check(rc == 2 and "16" in err, "serve refuses a token shorter than 16 characters",
          (rc, err))
    rc, _, err = cuarena("serve", "--listen", "localhost")
    check(rc == 2 and "HOST:PORT" in err, "a --listen without a port is a usage error",
          (rc, err))
    rc, _, err = cuarena("serve", "--queue", "0")
    check(rc == 2, "--queue 0 is a usage error", (rc, err))
    other = os.path.join(WORK, "not-serve")
    os.makedirs(other)
    with open(os.path.join(other, "run.json"), "w") as f:
        json.dump({"schema": 1, "agent": {"name": "replay"}, "tasks": []}, f)
    rc, _, err = cuarena("serve", "--listen", "127.0.0.1:0", "--results", other)
    check(rc == 2 and "not a folder of `cuarena serve`" in err,
          "serve will not append to another agent's run", (rc, err))


# ---- the protocol -------------------------------------------------------------------
def env_session(lines):
    p = subprocess.run([BIN, "env"], input="".join(json.dumps(l) + "\n" for l in lines),
                       capture_output=True, text=True, env=ENV, cwd=ROOT)
    return [json.loads(l) for l in p.stdout.splitlines()]


def test_protocol():
    srv = Server("proto", "--max-body", "65536")
    svc = srv.client()
    h = svc.health()
    check(h["ok"] and h["queue_capacity"] == 64 and not h["gpu_present"],
          "healthz says the queue and that there is no GPU here", h)
    tasks = svc.tasks()
    check(any(t["id"] == "L1/021-relu" for t in tasks), "GET /v1/tasks lists the catalogue")
    rc, shown, _ = cuarena("show", "relu")
    prompt = svc.prompt("relu")
    check(prompt.rstrip("\n") == shown.rstrip("\n"),
          "GET /v1/tasks/relu is exactly the prompt `cuarena show` prints")
    check(svc.prompt("L1/021-relu") == prompt, "a task is found by its full id too")
    st, _, j = jreq(srv.port, "GET", "/v1/tasks/nosuchtask")
    check(st == 404 and "nosuchtask" in j.get("error", ""), "an unknown task is a 404 naming it",
          (st, j))

    r = svc.evaluate("relu", None, note="the model gave up")
    check(r["verdict"] == "no_code" and r["reward"] == -1 and
          "the model gave up" in r["observation"], "evaluate of a reply without code: no_code, -1",
          r)
    # the same kernels through `env` and through the service: the same answer
    for name, code, verdict in [("compile error", BROKEN, "compile_error"),
                                ("forbidden symbol", FORBIDDEN, "forbidden_symbol"),
                                ("no cua_solve", NO_SOLVE, "load_error")]:
        r = svc.evaluate("relu", code, turn=2, turns=3, episode="trainer-ep-1")
        ref = env_session([{"cmd": "reset", "task": "relu", "turns": 3},
                           {"cmd": "step", "code": "int unused;"},
                           {"cmd": "step", "code": code}])[2]
        check(r["verdict"] == verdict == ref["verdict"] and r["reward"] == ref["reward"],
              "evaluate (%s): verdict %s and reward %s, as env says" % (name, verdict,
                                                                      ref["reward"]),
              (r.get("verdict"), ref.get("verdict")))
        same = normalize(r["observation"]).split("\n\nReward")[0] == \
            normalize(ref["observation"]).split("\n\nReward")[0]
        check(same and "Turn 2 of 3" in r["observation"],
              "evaluate (%s): the feedback text is env's" % name,
              (r["observation"][:300], ref["observation"][:300]))
        check(r["result"]["eval"]["message"] == ref["result"]["eval"]["message"],
              "evaluate (%s): the evaluation's message is env's" % name)
    check("Compiler output" in svc.evaluate("relu", BROKEN)["observation"],
          "a compile error's log is fed back")
    check("system" in svc.evaluate("relu", FORBIDDEN)["observation"],
          "a forbidden symbol is named in the feedback")

    # errors: each a clear 4xx, nothing queued
    before = len(eval_lines(srv.results))
    cases = [
        ("POST", "/v1/evaluate", b'{"task": x}', 400, "not JSON", "malformed JSON"),
        ("POST", "/v1/evaluate", b"[1, 2]", 400, "JSON object", "a body that is not an object"),
        ("POST", "/v1/evaluate", {"task": "relu"}, 400, "\"code\"", "evaluate without code"),
        ("POST", "/v1/evaluate", {"task": "relu", "code": 5}, 400, "\"code\"",
         "evaluate with a number for code"),
        ("POST", "/v1/evaluate", {"task": "relu", "code": None, "source": None}, 400,
         "not both", "evaluate with code and source"),
        ("POST", "/v1/evaluate", {"task": "relu", "code": None, "turn": 0}, 400, "\"turn\"",
         "evaluate with turn 0"),
        ("POST", "/v1/evaluate", {"task": "relu", "code": None, "turn": 3, "turns": 2}, 400,
         "below", "evaluate with turns below turn"),
        ("POST", "/v1/evaluate", {"task": "relu", "code": None, "reward": "best"}, 400,
         "reward", "evaluate with an unknown reward schedule"),
        ("POST", "/v1/evaluate", {"task": "nosuchtask", "code": None}, 404, "nosuchtask",
         "evaluate of an unknown task"),
        ("POST", "/v1/evaluate", {"task": "relu", "code": "x" * 70000}, 413, "--max-body",
         "a body over --max-body"),
        ("POST", "/v1/episodes", {"task": "relu", "turns": 65}, 400, "turns",
         "reset with 65 turns"),
        ("POST", "/v1/episodes/ep-nope/step", {"code": "x"}, 404, "ep-nope",
         "a step of an unknown episode"),
        ("GET", "/v1/nothing", None, 404, "no such endpoint", "an unknown endpoint"),
        ("PUT", "/v1/evaluate", b"{}", 405, "not allowed", "a wrong method"),
        ("DELETE", "/metrics", None, 405, "not allowed", "DELETE of /metrics"),
    ]
    for method, path, body, code, text, what in cases:
        st, _, j = jreq(srv.port, method, path, body,
                        {"Content-Type": "application/json"})
        check(st == code and text in j.get("error", "") and j.get("ok") is False,
              "%s is a %d naming the problem" % (what, code), (st, j))
    check(len(eval_lines(srv.results)) == before, "refused requests are not evaluated")

    # server-side episodes: the env protocol over HTTP
    ep = svc.reset("relu", turns=2)
    check(ep["turn"] == 1 and ep["observation"] == prompt and ep["baselines"] == "none" and
          ep["episode"].startswith("ep-"), "POST /v1/episodes starts an episode with the prompt",
          ep)
    s1 = svc.step(ep["episode"], BROKEN)
    check(s1["turn"] == 1 and s1["verdict"] == "compile_error" and not s1["done"],
          "step 1: compile_error, not done", s1)
    s2 = svc.step(ep["episode"], FORBIDDEN)
    check(s2["done"] and s2["rewards"] == [-1, -1] and s2["verdict"] == "forbidden_symbol",
          "the last step ends the episode with every turn's reward", s2)
    st, _, j = jreq(srv.port, "POST", "/v1/episodes/%s/step" % ep["episode"], {"code": "x"})
    check(st == 409 and "over" in j["error"], "a step after the last turn is a 409", (st, j))
    g = svc.episode(ep["episode"])
    check(g["done"] and g["rewards"] == [-1, -1], "GET /v1/episodes/ID says how it went", g)
    d = svc.close(ep["episode"])
    check(d["ok"], "DELETE /v1/episodes/ID closes it")
    st, _, j = jreq(srv.port, "GET", "/v1/episodes/%s" % ep["episode"])
    check(st == 404, "a closed episode is gone", (st, j))
    st, _, j = jreq(srv.port, "POST", "/v1/episodes/%s/step" % ep["episode"], {})
    check(st == 404, "a step of a closed episode is a 404", (st, j))
    st, _, j = jreq(srv.port, "POST", "/v1/episodes/%s/step" % svc.reset("relu")["episode"],
                    {"cod": "x"})
    check(st == 400 and "\"code\"" in j["error"], "a step without code is a 400", (st, j))

    # the client as a program: kernels scored from a process pool
    for name, code in (("a.cu", BROKEN), ("b.cu", NO_SOLVE)):
        with open(os.path.join(WORK, name), "w") as f:
            f.write(code)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "agents", "examples",
                                                     "serve_client.py"),
                        "--url", srv.url, "--processes", "2", "relu",
                        os.path.join(WORK, "a.cu"), os.path.join(WORK, "b.cu")],
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 0 and "a.cu: compile_error, reward -1" in p.stdout and
          "b.cu: load_error, reward -1" in p.stdout and "latency s: p50" in p.stdout,
          "serve_client.py scores kernels from a process pool", (p.stdout, p.stderr))

    m = srv.metrics()
    check(m.get('cuarena_verdicts_total{verdict="compile_error"}') == 4 and
          m.get('cuarena_verdicts_total{verdict="forbidden_symbol"}') == 3 and
          m.get('cuarena_verdicts_total{verdict="no_code"}') == 1 and
          m.get('cuarena_verdicts_total{verdict="load_error"}') == 2,
          "/metrics counts the verdicts", m)
    check(m.get('cuarena_requests_rejected_total{reason="too_large"}') == 1 and
          m.get("cuarena_queue_capacity") == 64, "/metrics counts refusals by reason")
    check(srv.stop() == 0, "serve exits 0 on SIGTERM")

    # the results folder is a run: every evaluation, read by table, board and compare
    lines = eval_lines(srv.results)
    check(len(lines) == 10 and all(l["task"] == "L1/021-relu" for l in lines),
          "every evaluation is a line of evals.jsonl", len(lines))
    check(sum(1 for l in lines if l.get("episode") == "trainer-ep-1" and l["turn"] == 2) == 3,
          "an evaluation's episode id and turn are recorded")
    rc, out, err = cuarena("table", srv.results, "--json")
    check(rc == 0 and json.loads(out)["runs"][0]["groups"], "cuarena table reads the folder",
          (rc, err))
    rc, out, err = cuarena("board", srv.results, "--md", os.path.join(WORK, "board.md"))
    check(rc == 0 and "serve" in open(os.path.join(WORK, "board.md")).read(),
          "cuarena board ranks the service's run", (rc, err))
    rc, out, err = cuarena("compare", srv.results, srv.results)
    check(rc == 0 and "regressions" in out, "cuarena compare reads it", (rc, out, err))
    with open(os.path.join(srv.results, "trajectories.jsonl")) as f:
        traj = [json.loads(l) for l in f]
    check(any(t.get("code") == FORBIDDEN for t in traj),
          "the kernels' code is kept in trajectories.jsonl")


def test_auth():
    tok = os.path.join(WORK, "token")
    with open(tok, "w") as f:
        f.write("s3cret-token-0123456789\n")
    os.chmod(tok, 0o600)
    srv = Server("auth", "--token-file", tok)
    st, h, j = jreq(srv.port, "GET", "/v1/tasks")
    check(st == 401 and "bearer" in h.get("www-authenticate", "").lower(),
          "without a token: 401 with WWW-Authenticate", (st, h))
    st, _, _ = jreq(srv.port, "GET", "/v1/tasks", headers={"Authorization": "Bearer wrong"})
    check(st == 401, "a wrong token: 401")
    st, _, _ = jreq(srv.port, "POST", "/v1/evaluate", {"task": "relu", "code": None},
                    {"Authorization": "Bearer s3cret-token-0123456"})
    check(st == 401, "a token's prefix: 401")
    st, _, _ = jreq(srv.port, "GET", "/healthz")
    check(st == 200, "/healthz needs no token (for load balancers)")
    r = srv.client(token_file=tok).evaluate("relu", None)
    check(r["verdict"] == "no_code", "the right token is served")
    check(len(eval_lines(srv.results)) == 1, "unauthorized requests are not evaluated")
    srv.stop()


# ---- limits and clients that leave ---------------------------------------------------
def test_limits():
    srv = Server("limits", "--jobs", "1", "--queue", "3")
    # the only builder compiles something slow; a client that leaves while it waits
    slow = open_socket_request(srv.port, "/v1/evaluate",
                               {"task": "relu", "code": SLOW, "episode": "slow"})
    srv.wait_metric("cuarena_jobs_running", lambda v: v == 1, "the slow build is running")
    gone = open_socket_request(srv.port, "/v1/evaluate",
                               {"task": "relu", "code": None, "episode": "gone"})
    srv.wait_metric("cuarena_queue_depth", lambda v: v == 1, "a request waits in the queue")
    gone.close()
    ok = srv.wait_metric('cuarena_requests_cancelled_total{when="queued"}', lambda v: v == 1,
                         "a queued request whose client left is dropped")
    check(ok and srv.metrics()["cuarena_queue_depth"] == 0,
          "a queued request whose client left leaves the queue")
    answers = {}

    def ask(label):
        st, h, j = jreq(srv.port, "POST", "/v1/evaluate",
                        {"task": "relu", "code": None, "episode": label})
        answers[label] = (st, j)

    threads = [threading.Thread(target=ask, args=("q%d" % i,)) for i in range(3)]
    for t in threads:
        t.start()
    srv.wait_metric("cuarena_queue_depth", lambda v: v == 3, "three requests fill the queue")
    st, h, j = jreq(srv.port, "POST", "/v1/evaluate", {"task": "relu", "code": None,
                                                       "episode": "q-extra"})
    check(st == 429 and int(h.get("retry-after", "0")) >= 1 and "full" in j["error"],
          "a full queue answers 429 with Retry-After", (st, h, j))
    # the client of the running build leaves: the build is stopped
    slow.close()
    srv.wait_metric('cuarena_requests_cancelled_total{when="running"}', lambda v: v == 1,
                    "a running request whose client left is cancelled")
    for t in threads:
        t.join(timeout=120)
    check(all(answers.get("q%d" % i, (0,))[0] == 200 for i in range(3)),
          "the queued requests are answered once the builder is free", answers)
    labels = sorted(l.get("episode") for l in eval_lines(srv.results))
    check(labels == ["q0", "q1", "q2"],
          "only the answered requests are evaluated (no cancelled build, no dropped request)",
          labels)
    check(srv.metrics()["cuarena_queue_depth_max"] <= 3, "the queue never held more than --queue")

    # an episode's step abandoned mid-build is not a turn taken
    ep = srv.client().reset("relu", turns=3)["episode"]
    s = open_socket_request(srv.port, "/v1/episodes/%s/step" % ep, {"code": SLOW})
    srv.wait_metric("cuarena_jobs_running", lambda v: v == 1, "a slow step is building")
    st, _, j = jreq(srv.port, "POST", "/v1/episodes/%s/step" % ep, {"code": "x"})
    check(st == 409 and "in progress" in j["error"], "a second step of a busy episode is a 409",
          (st, j))
    s.close()
    srv.wait_metric('cuarena_requests_cancelled_total{when="running"}', lambda v: v == 2,
                    "the abandoned step is cancelled")
    srv.wait_metric("cuarena_jobs_running", lambda v: v == 0, "its build is stopped")
    g = srv.client().episode(ep)
    check(g["turn"] == 1 and g["rewards"] == [], "the abandoned step did not take a turn", g)
    r = srv.client().step(ep, BROKEN)
    check(r["turn"] == 1 and r["verdict"] == "compile_error", "the episode goes on at turn 1", r)
    srv.stop()
    # an episode cap
    srv = Server("cap", "--max-episodes", "2")
    c = srv.client()
    a, b = c.reset("relu")["episode"], c.reset("relu")["episode"]
    st, _, j = jreq(srv.port, "POST", "/v1/episodes", {"task": "relu"})
    check(st == 429 and "DELETE" in j["error"], "past --max-episodes open episodes: 429", (st, j))
    c.close(a)
    check(c.reset("relu")["turn"] == 1, "a closed episode makes room")
    srv.stop()


# ---- restart -------------------------------------------------------------------------
def test_restart():
    res = os.path.join(WORK, "restart")
    srv = Server("restart", results=res)
    c = srv.client()
    ep = c.reset("relu", turns=3, reward="kevin")["episode"]
    first = c.step(ep, BROKEN)
    c.evaluate("relu", None, episode="e1")
    c.evaluate("relu", FORBIDDEN, episode="e2")
    before = eval_lines(res)
    check(srv.stop(signal.SIGKILL) == -signal.SIGKILL, "the server is killed (SIGKILL)")
    # a line torn by the kill is cut, not glued to the next one
    with open(os.path.join(res, "evals.jsonl"), "a") as f:
        f.write('{"task": "L1/021-relu", "tur')
    # as a GPU server killed between a task's baselines lines leaves them: the
    # reference's line written, cudnn/relu's not; that set is measured again
    with open(os.path.join(res, "baselines.jsonl"), "a") as f:
        f.write('{"schema": 2, "task": "L1/021-relu", "level": 1, '
                '"eval": {"subject": "nvcc", "verdict": "ok"}}\n')
    srv = Server("restart", results=res)
    with open(srv.log.name) as f:
        log = f.read()
    check("L1/021-relu: killed before its cudnn/relu baseline was written: its baselines "
          "are measured again" in log, "a restart does not go on with a cut set of baselines",
          log[-400:])
    torn = len('{"task": "L1/021-relu", "tur')
    check("continuing %s: 3 evaluation lines (2 of candidates), 1 episode open and 0 closed; "
          "cut the torn last line of evals.jsonl (%d bytes); 1 open episode restored"
          % (res, torn) in log,
          "a restart says what it found: evaluations, episodes open and closed, the tail "
          "cut (file, bytes)", log[-600:])
    c = srv.client()
    g = c.episode(ep)
    check(g["turn"] == 2 and g["rewards"] == [first["reward"]] and g["reward"] == "kevin" and
          "Turn 1 of 3: compile_error" in g["observation"],
          "after a restart the open episode is where it was", g)
    r = c.step(ep, FORBIDDEN)
    check(r["turn"] == 2 and r["verdict"] == "forbidden_symbol", "and it goes on at turn 2", r)
    c.evaluate("relu", None, episode="e3")
    m = srv.metrics()
    check(m["cuarena_evaluations_recorded"] == 5, "the restarted server counts what was recorded",
          m["cuarena_evaluations_recorded"])
    srv.stop()
    after = eval_lines(res)
    check(after[:len(before)] == before and len(after) == len(before) + 2,
          "nothing measured before the restart is lost or repeated",
          (len(before), len(after)))
    with open(os.path.join(res, "run.json")) as f:
        run = json.load(f)
    check(len(run.get("resumed", [])) == 1 and run["tasks"] == ["L1/021-relu"],
          "run.json records the restart")
    rc, out, err = cuarena("table", res, "--json")
    check(rc == 0, "table reads the folder after a restart", err)


def test_restart_torn_middle():
    """A folder written before the one writer: a failed append left torn bytes in the
    middle of evals.jsonl, the next line glued to them. A restart read it before as
    "line 2: not valid JSON" and refused to start, as table and board did."""
    res = os.path.join(WORK, "torn-middle")
    srv = Server("torn-middle", results=res)
    c = srv.client()
    for i in range(3):
        c.evaluate("relu", None, episode="m%d" % i)
    srv.stop()
    path = os.path.join(res, "evals.jsonl")
    with open(path) as f:
        lines = f.readlines()
    torn = '{"schema":2,"task":"L1/021-relu","tu'
    lines[1] = torn + lines[1]
    with open(path, "w") as f:
        f.writelines(lines)
    rc, out, err = cuarena("table", res, "--json")
    check(rc == 0 and "evals.jsonl: line 2: %d bytes torn by a failed write" % len(torn) in err,
          "table reads a folder with a torn line in the middle, naming it", (rc, err[-400:]))
    rc, out, err = cuarena("board", res, "--md", os.path.join(WORK, "torn-board.md"))
    check(rc == 0, "and so does board", (rc, err[-300:]))
    srv = Server("torn-middle", results=res)
    log = srv.log_text()
    check("skipped evals.jsonl line 2 (%d bytes torn by a failed write; the line glued after "
          "them is read)" % len(torn) in log, "a restart reads it, naming the torn line",
          log[-500:])
    check(srv.metrics()["cuarena_evaluations_recorded"] == 3,
          "the line glued to the torn bytes is one of the evaluations found")
    check(srv.client().evaluate("relu", None, episode="m3")["verdict"] == "no_code",
          "and the server goes on")
    srv.stop()


def whole_lines(path):
    """Every line of a results file parses and the last ends in a newline."""
    if not os.path.exists(path):
        return True
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        return False
    try:
        for line in data.splitlines():
            json.loads(line)
    except ValueError:
        return False
    return True


def test_disk_full():
    """The disk fills (a file-size limit on the server stands in): an evaluation is
    answered 200 only once recorded; one that cannot be is a 503 (retryable, JSON),
    its half-written line cut off; /healthz says why and /metrics counts it; with
    room again the service goes on, and no line is torn or glued."""
    srv = Server("full", fsize=24000)
    statuses, answered = [], []
    for i in range(80):
        st, h, j = jreq(srv.port, "POST", "/v1/evaluate",
                        {"task": "relu", "code": None, "episode": "full-%d" % i})
        statuses.append(st)
        if st == 200:
            answered.append("full-%d" % i)
        elif st == 503:
            break
    check(200 in statuses and statuses[-1] == 503,
          "evaluations are answered until the disk is full, then 503", statuses[-5:])
    check(j.get("ok") is False and j.get("retryable") is True and j.get("reason") ==
          "unrecorded" and "File too large" in j.get("error", "") and
          int(h.get("retry-after", "0")) >= 1,
          "the 503 is JSON: retryable, why, Retry-After", (h, j))
    st, _, hz = jreq(srv.port, "GET", "/healthz")
    check(st == 503 and hz["ok"] is False and "cannot be written" in hz.get("reason", "") and
          "File too large" in hz["reason"] and WORK not in json.dumps(hz),
          "/healthz says ok: false with the reason (a file, not the folder's path)", hz)
    m = srv.metrics()
    check(m.get("cuarena_results_write_failures_total", 0) >= 1 and
          m.get("cuarena_results_writable") == 0 and
          m.get('cuarena_requests_rejected_total{reason="unrecorded"}', 0) >= 1,
          "/metrics counts the failed writes", m.get("cuarena_results_write_failures_total"))
    st, _, j = jreq(srv.port, "POST", "/v1/evaluate", {"task": "relu", "code": None,
                                                       "episode": "held"})
    check(st == 503 and j.get("reason") == "unrecorded",
          "while the folder cannot be written, requests are not evaluated", (st, j))
    ev, tr = (os.path.join(srv.results, n) for n in ("evals.jsonl", "trajectories.jsonl"))
    check(whole_lines(ev) and whole_lines(tr), "every results file holds whole lines only")
    labels = [l.get("episode") for l in eval_lines(srv.results)]
    check(labels == answered, "each evaluation answered 200 is recorded, and none other",
          (len(labels), len(answered)))
    # room again
    resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE,
                     (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    end, st = time.monotonic() + 60, 0
    while time.monotonic() < end and st != 200:
        time.sleep(0.5)
        st, _, j = jreq(srv.port, "POST", "/v1/evaluate",
                        {"task": "relu", "code": None, "episode": "again"})
    check(st == 200, "with room again, an evaluation is answered and recorded", (st, j))
    st, _, hz = jreq(srv.port, "GET", "/healthz")
    check(st == 200 and hz["ok"] is True and hz["results_writable"], "/healthz is ok again",
          hz)
    check(whole_lines(ev) and whole_lines(tr) and
          [l.get("episode") for l in eval_lines(srv.results)] == answered + ["again"],
          "nothing torn, nothing glued, nothing lost")
    srv.stop()
    rc, out, err = cuarena("table", srv.results, "--json")
    check(rc == 0 and "torn" not in err, "table reads the folder without a warning",
          (rc, err[-300:]))


def test_one_writer():
    """Two servers on one results folder: both appended and restored the same
    episodes, and run.json lost a task. The second is refused, naming the first."""
    res = os.path.join(WORK, "one-writer")
    first = Server("one-writer", results=res)
    rc, _, err = cuarena("serve", "--listen", "127.0.0.1:0", "--results", res)
    check(rc == 2 and "is being written by another cuarena (pid %d serve on "
          % first.proc.pid in err, "a second server on the folder is refused with the "
          "first's pid", (rc, err[-300:]))
    out = os.path.join(WORK, "one-writer-merged")
    rc, _, err = cuarena("merge", res, "--out", out)
    check(rc == 2 and "still being written (pid %d serve" % first.proc.pid in err,
          "merge refuses a folder still being written", (rc, err[-300:]))
    first.stop()
    second = Server("one-writer", results=res)
    check(second.client().health()["ok"], "once the first has stopped, the folder is free")
    second.stop()


def test_flood():
    """One unauthenticated peer holding many half-sent connections locked every other
    client out. Now a peer gets --max-per-client connections, and one that sends
    nothing for --client-timeout-s is closed; others are served meanwhile."""
    srv = Server("flood", "--max-per-client", "8", "--client-timeout-s", "2")
    held = []
    for _ in range(120):
        s = socket.socket()
        s.bind(("127.0.0.2", 0))
        try:
            s.connect(("127.0.0.1", srv.port))
            s.sendall(b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Le")
        except OSError:
            s.close()
            continue
        held.append(s)
    time.sleep(0.5)

    def closed(s):
        s.settimeout(0.05)
        try:
            return s.recv(1) == b""
        except socket.timeout:
            return False
        except OSError:
            return True

    open_now = [s for s in held if not closed(s)]
    check(len(open_now) <= 8, "one peer holds at most --max-per-client connections",
          len(open_now))
    t0 = time.monotonic()
    r = srv.client().evaluate("relu", None, episode="not-locked-out")
    check(r["verdict"] == "no_code", "another client is served during the flood")
    st, _, _ = jreq(srv.port, "GET", "/healthz")
    check(st == 200, "and /healthz answers")
    end = time.monotonic() + 30
    while time.monotonic() < end and any(not closed(s) for s in open_now):
        time.sleep(0.2)
    check(all(closed(s) for s in open_now) and time.monotonic() - t0 < 30,
          "half-sent connections are closed after --client-timeout-s")
    for s in held:
        s.close()
    srv.stop()


def test_harness_failure():
    """No GPU here: a kernel that compiles reaches the judge, which cannot run it.
    That was HTTP 200, harness_error, reward -1: a trainer learned from a harness
    failure. Now it is a 503 to retry, nothing recorded, no turn taken."""
    srv = Server("harness")
    if srv.client().health()["gpu_present"]:
        check(True, "(a GPU is here: the harness-failure checks need none)")
        srv.stop()
        return
    with open(os.path.join(ROOT, "tasks", "L1", "021-relu", "reference.cu")) as f:
        good = f.read()
    st, h, j = jreq(srv.port, "POST", "/v1/evaluate", {"task": "relu", "code": good,
                                                       "episode": "h1"})
    check(st == 503 and j.get("ok") is False and j.get("retryable") is True and
          j.get("reason") == "harness_error" and "not the kernel" in j.get("error", "") and
          "no GPU" in j["error"] and "reward" not in j and int(h.get("retry-after", 0)) >= 1,
          "a harness failure is a 503 with the reason, never 200 with -1", (st, j))
    check(not eval_lines(srv.results), "and nothing is recorded")
    c = srv.client()
    ep = c.reset("relu", turns=2)["episode"]
    st, _, j = jreq(srv.port, "POST", "/v1/episodes/%s/step" % ep, {"code": good})
    check(st == 503 and j.get("reason") == "harness_error", "a step the harness fails: 503",
          (st, j))
    g = c.episode(ep)
    check(g["turn"] == 1 and g["rewards"] == [] and not g["done"],
          "and the episode's turn is not taken", g)
    r = c.step(ep, BROKEN)
    check(r["turn"] == 1 and r["verdict"] == "compile_error", "the next step is turn 1", r)
    m = srv.metrics()
    check(m.get("cuarena_harness_errors_total") == 2 and
          m.get('cuarena_verdicts_total{verdict="harness_error"}') == 0,
          "/metrics counts harness failures apart from verdicts", m.get(
              "cuarena_harness_errors_total"))
    srv.stop()


def raw(port, data, half_close=False, timeout=120):
    """Sends raw bytes; returns everything the server sent until it closed."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(data)
    if half_close:
        s.shutdown(socket.SHUT_WR)
    s.settimeout(timeout)
    out = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            out += b
            if b"\r\n\r\n" in out and not out.startswith(b"HTTP/1.1 100"):
                head, _, body = out.partition(b"\r\n\r\n")
                n = re.search(rb"(?i)content-length: *(\d+)", head)
                if n and len(body) >= int(n.group(1)):
                    break
    except OSError:
        pass
    s.close()
    return out


def test_malformed():
    """Requests that are not well-formed get a JSON reply (what libmicrohttpd answers
    itself before cuarena sees a request is listed in docs/SERVE.md)."""
    tok = os.path.join(WORK, "edge-token")
    with open(tok, "w") as f:
        f.write("edge-token-0123456789abcdef\n")
    os.chmod(tok, 0o600)
    srv = Server("edges", "--token-file", tok)
    auth = {"Authorization": "Bearer edge-token-0123456789abcdef"}
    body = b'{"task": "relu", "code": "int x; // \xff\xfe not text"}'
    st, _, raw_body = raw_request(srv.port, "POST", "/v1/evaluate", body,
                                  dict(auth, **{"Content-Type": "application/json"}))
    j = json.loads(raw_body)
    check(st == 400 and "not valid UTF-8" in j["error"] and j["ok"] is False,
          "a body that is not UTF-8 is a 400", (st, j))
    st, _, raw_body = raw_request(srv.port, "GET", "/v1/tasks/%FF%FEx", None, auth)
    check(st == 400 and json.loads(raw_body.decode("utf-8"))["error"] ==
          "the path is not valid UTF-8", "a path that is not UTF-8 is a 400, not echoed",
          (st, raw_body))
    check(not eval_lines(srv.results), "neither is evaluated")
    for method, path, allow in [("PUT", "/v1/evaluate", "POST"),
                                ("DELETE", "/metrics", "GET, HEAD"),
                                ("GET", "/v1/episodes/ep-x/step", "POST"),
                                ("POST", "/v1/episodes/ep-x", "GET, HEAD, DELETE")]:
        st, h, j = jreq(srv.port, method, path, b"{}", auth)
        check(st == 405 and h.get("allow") == allow and j.get("ok") is False,
              "%s %s: 405 with Allow: %s" % (method, path, allow), (st, h.get("allow"), j))
    out = raw(srv.port, b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
    check(out.startswith(b"HTTP/1.1 400 "), "a non-numeric Content-Length is a 400 (its body "
          "is libmicrohttpd's: docs/SERVE.md)", out[:120])
    # a client that half-closes after its request still gets the answer
    data = json.dumps({"task": "relu", "code": BROKEN, "episode": "half"}).encode()
    req = (b"POST /v1/evaluate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
           b"edge-token-0123456789abcdef\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\n\r\n" % len(data)) + data
    out = raw(srv.port, req, half_close=True)
    while out.startswith(b"HTTP/1.1 100"):
        out = out.partition(b"\r\n\r\n")[2]
    head, _, body = out.partition(b"\r\n\r\n")
    ok = head.startswith(b"HTTP/1.1 200") and json.loads(body)["verdict"] == "compile_error"
    check(ok, "a client that half-closes after its request gets its answer", out[:200])
    check([l.get("episode") for l in eval_lines(srv.results)] == ["half"],
          "and its evaluation is recorded once")
    st, _, hz = jreq(srv.port, "GET", "/healthz")
    check(st == 200 and "results" not in hz and WORK not in json.dumps(hz),
          "/healthz without the token shows no path", hz)
    st, _, hz = jreq(srv.port, "GET", "/healthz", None, auth)
    check(hz.get("results") == srv.results, "with the token it names the folder", hz)
    srv.stop()


# ---- load ---------------------------------------------------------------------------
def test_load():
    n, queue = 64, 8
    srv = Server("load", "--jobs", "2", "--queue", str(queue))
    results, errors, statuses = {}, [], []
    start = threading.Barrier(n)

    def client(i):
        svc = srv.client()
        try:
            start.wait()
            code = None if i % 2 == 0 else FORBIDDEN
            results[i] = svc.evaluate("relu", code, episode="load-%d" % i)
            statuses.append(svc.retries)
        except Exception as e:  # noqa: BLE001  (any failure is the test's finding)
            errors.append((i, repr(e)))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    check(not errors and len(results) == n, "64 concurrent clients are all answered", errors[:3])
    check(all(results[i]["verdict"] == ("no_code" if i % 2 == 0 else "forbidden_symbol")
              for i in results), "each client gets the verdict of its own kernel")
    labels = [l.get("episode") for l in eval_lines(srv.results)]
    check(sorted(labels) == sorted("load-%d" % i for i in range(n)),
          "each request is evaluated exactly once (none lost, none repeated)",
          (len(labels), len(set(labels))))
    m = srv.metrics()
    check(m["cuarena_queue_depth_max"] <= queue, "the queue stays within --queue",
          m["cuarena_queue_depth_max"])
    check(m['cuarena_requests_rejected_total{reason="queue_full"}'] == sum(statuses) and
          m['cuarena_requests_accepted_total{kind="evaluate"}'] == n,
          "every 429 a client saw is counted, and only accepted requests ran",
          (m['cuarena_requests_rejected_total{reason="queue_full"}'], sum(statuses)))
    print("      (load: %d requests, %d answered 429 and retried)" % (n, sum(statuses)))
    srv.stop()


def main():
    try:
        for t in (test_start, test_protocol, test_auth, test_limits, test_restart,
                  test_restart_torn_middle, test_disk_full, test_one_writer, test_flood,
                  test_harness_failure, test_malformed, test_load):
            try:
                t()
            except Exception as e:  # noqa: BLE001
                check(False, "%s ran to its end" % t.__name__, repr(e))
    finally:
        print("%d passed, %d failed" % (passed, failed))
        if failed == 0:
            shutil.rmtree(WORK, ignore_errors=True)
        else:
            print("(logs in %s)" % WORK)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
