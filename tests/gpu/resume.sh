#!/usr/bin/env bash
# resume.sh — a GPU check (on the GPU machine, after make bundle; tools/dev/gpu-session.sh resume
# runs it): a replay run of four L1 tasks (default 02[0-3]-*) SIGKILLed once 5 of its 12 turns are
# judged, then resumed: every turn once, schema 2, each baselines line with its task's flops
# and bytes, all correct with a %SOL.
# Self-checking: ends "resume: N passed, N failed", exit 1 if any failed. Logs in OUT
# (default /tmp/gpu-session); the GPU is the first of CUDA_VISIBLE_DEVICES, else GPU 0.
. "$(dirname "$0")/common.sh"
# issue 19: --resume reads what a killed run left through the results reader, and
# a run records each task's flops and bytes (baselines.jsonl) for the roofline.
D=/tmp/gpu-session-resume
glob=${1:-02[0-3]-*}
rm -rf "$D"
export CUDA_VISIBLE_DEVICES=${DEVS[0]}
# killed (the whole process group, SIGKILL) once RESUME_KILL_AT (5) of its turns
# are judged, so the kill lands mid-run however fast the harness has become;
# RESUME_KILL_S (120) s at most
mkdir -p "$D"
LOG=$OUT/resume-run.log   # its own file: the phase's stdout may be sent anywhere
OUT=$D setsid bench/throughput.sh "$glob" > "$LOG" 2>&1 &
pid=$!
for ((i = 0; i < ${RESUME_KILL_S:-120} * 10; i++)); do
	n=$(cat "$D/throughput-run/evals.jsonl" 2>/dev/null | wc -l)
	[ "$n" -ge "${RESUME_KILL_AT:-5}" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -KILL -- -"$pid" 2>/dev/null && echo "killed: rc=137 after $n turns" >> "$LOG"
wait "$pid"
echo "killed: wait rc=$?" >> "$LOG"
sleep 2   # the judge and the kernel's process leave once their parent is gone
OUT=$D timeout 420 bench/throughput.sh "$glob" >> "$LOG" 2>&1
echo "resumed: rc=$?" >> "$LOG"
$BIN list --json > "$D/list.json" 2>> "$LOG"
$BIN table "$D/throughput-run" --json > "$D/table.json" 2>> "$LOG"
python3 - "$D/throughput-run" "$D/list.json" "$D/table.json" "$LOG" <<'PY'
import json, os, re, sys
run, cat, table, log = sys.argv[1:]
npass = nfail = 0
def check(ok, what):
    global npass, nfail
    npass += bool(ok); nfail += not ok
    print("%s resume: %s" % ("PASS" if ok else "FAIL", what))
text = open(log).read()
check("resumed: rc=0" in text, "the resume finished: " + text.strip().splitlines()[-1][:160])
def lines(name):
    p = os.path.join(run, name)
    return [json.loads(l) for l in open(p) if l.strip()] if os.path.exists(p) else []
meta = json.load(open(os.path.join(run, "run.json")))
tasks = meta["tasks"]
killed = re.search(r"killed: rc=137 after (\d+) turns", text)
segs = meta.get("segments", [])
first = segs[0].get("evaluations", 0) if segs else 0
check(killed and len(segs) == 2 and 0 < first < 3 * len(tasks),
      "the first invocation was killed mid-run: %s; %d segments, the first with %d evaluations"
      % (killed.group(0) if killed else "no kill", len(segs), first))
ev, tr, bl = lines("evals.jsonl"), lines("trajectories.jsonl"), lines("baselines.jsonl")
check(all(o["schema"] == 2 for o in [meta] + ev + tr + bl), "every object says schema 2")
turns = [(o["task"], o["turn"]) for o in ev]
check(len(turns) == len(set(turns)) == 3 * len(tasks),
      "every turn evaluated once: %d lines for %d tasks x 3" % (len(turns), len(tasks)))
ends = [o["task"] for o in tr if o["kind"] == "end" and o["reason"] != "interrupted"]
check(sorted(ends) == sorted(tasks), "every episode ended once")
work = {t["id"]: (t["flops"], t["bytes"]) for t in json.load(open(cat))["tasks"]}
bad = [o["task"] for o in bl if (o.get("flops"), o.get("bytes")) != work[o["task"]]]
check(bl and not bad, "%d baselines lines carry their task's flops and bytes%s"
      % (len(bl), (": not " + " ".join(sorted(set(bad)))) if bad else ""))
overall = json.load(open(table))["runs"][0]["groups"][0]
check(overall["level"] == "Overall" and overall["pass"] == 1, "table: every task correct")
sol = [o["task"] for o in ev if o["eval"]["verdict"] == "ok" and (o["eval"].get("pct_sol") or 0) > 0]
check(sorted(sol) == sorted(tasks), "every correct kernel has a %%SOL (a roofline point): %d" % len(sol))
print("resume: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
PY
rc=$?
tar czf "$OUT/resume.tgz" -C "$D" --exclude=cache --exclude=throughput-run/work throughput-run \
	list.json table.json 2>/dev/null
exit $rc
