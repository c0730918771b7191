#!/usr/bin/env bash
# serve.sh — `cuarena serve` under a sustained load of real evaluations, against
# `cuarena run` on the same work (issue 18). On the GPU machine, after make bundle:
#
#   bench/serve.sh [GLOB]     (default @(019|0[23][0-9]|04[0-7])-*: the 29 L1 tasks 019-047,
#                             KernelBench's activations, norms, poolings and reductions, whose
#                             references run in milliseconds at its shapes (its matmuls 001-018
#                             take up to hundreds); GPUS=0,1 as --gpus)
#
# The work is bench/throughput.sh's: for every task a kernel that writes nothing
# (wrong_output), one that does not compile (compile_error) and the task's
# reference (correct), three turns of one episode. `cuarena run --agent replay`
# does it first; then a fresh `cuarena serve` does it again for as many HTTP
# clients as run keeps episodes in flight (bench/serve_load.py: reset, three
# steps, close). Each side has its own empty compile cache and its own salt in
# every source, so both pay the same builds and baselines.
#
# Prints PASS/FAIL lines: the service answered everything; its verdicts are run's
# for every task and turn; its throughput is within 10 % of run's (evaluations
# per second of wall time); boards read its results. And the queue-wait and
# latency percentiles. Files in OUT (default /tmp/cuarena-serve-bench).
set -u
shopt -s extglob
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/build/cuarena
GLOB=${1:-@(019|0[23][0-9]|04[0-7])-*}
DIR=${OUT:-/tmp/cuarena-serve-bench}
GPU_ARGS=()
[ -n "${GPUS:-}" ] && GPU_ARGS=(--gpus "$GPUS")
MAX=${MAX_TIME_S:-1}
JOBS=$(nproc)
rm -rf "$DIR" && mkdir -p "$DIR"
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS serve: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL serve: $1"; }

# the bundle: build/cuarena finds libmicrohttpd in build/ (make bundle) and every library
if ldd "$BIN" | grep -q 'libmicrohttpd.so.12 => .*build/'; then ok "build/cuarena finds libmicrohttpd in build/"
else bad "build/cuarena does not find libmicrohttpd in build/ (make bundle)"; fi
missing=$(ldd "$BIN" | grep 'not found' | tr -s ' \t' ' ')
if [ -z "$missing" ]; then ok "every library of build/cuarena is found"
else bad "a library is missing here:$missing"; fi

# replay sources, salted per side
for side in run serve; do
	SALT="serve bench $side $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	for t in "$ROOT"/tasks/L1/*/; do
		t=${t%/}
		case "$(basename "$t")" in $GLOB) ;; *) continue ;; esac
		[ -f "$t/task.json" ] || continue
		id=L1/$(basename "$t")
		d=$DIR/replay-$side/$id
		mkdir -p "$d"
		{ echo "// $id, $SALT"; printf '#include "cuarena.h"\nint cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)\n{ return 0; }\n'; } > "$d/turn-1.cu"
		{ echo "// $id, $SALT"; printf '#include "cuarena.h"\nint cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)\n{ return this is not C; }\n'; } > "$d/turn-2.cu"
		{ echo "// $id, $SALT"; cat "$t/reference.cu"; } > "$d/turn-3.cu"
	done
done
n=$(ls "$DIR/replay-run/L1" | wc -l)
echo "serve bench: $n tasks, 3 turns each, ${GPUS:-the visible GPU}, $JOBS in flight, max-time $MAX s"

# 1. cuarena run
printf '{"dir": "%s/replay-run"}\n' "$DIR" > "$DIR/agent.json"
CUARENA_CACHE=$DIR/cache-run timeout -s INT -k 20 "${RUN_S:-240}" "$BIN" run --agent replay \
	--agent-config "$DIR/agent.json" --tasks "$GLOB" --level 1 --turns 3 --out "$DIR/run" \
	--jobs "$JOBS" "${GPU_ARGS[@]}" --max-time-s "$MAX" > "$DIR/run.log" 2>&1
echo "run rc=$?: $(tail -n 1 "$DIR/run.log")"

# 2. cuarena serve, the same work over HTTP
CUARENA_CACHE=$DIR/cache-serve "$BIN" serve --listen 127.0.0.1:0 --port-file "$DIR/port" \
	--results "$DIR/serve" --queue 256 "${GPU_ARGS[@]}" --max-time-s "$MAX" \
	> "$DIR/serve.log" 2>&1 &
spid=$!
for _ in $(seq 100); do [ -s "$DIR/port" ] && break; sleep 0.1; done
if [ -s "$DIR/port" ]; then
	timeout "${SERVE_S:-240}" python3 "$ROOT/bench/serve_load.py" \
		--url "http://127.0.0.1:$(cat "$DIR/port")" --replay "$DIR/replay-serve" \
		--clients "$JOBS" --out "$DIR/load.json" > "$DIR/load.log" 2>&1
	lrc=$?
	cat "$DIR/load.log"
	python3 -c "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())" \
		"http://127.0.0.1:$(cat "$DIR/port")/metrics" > "$DIR/metrics.txt" 2>/dev/null
else
	lrc=9
	bad "the service did not start: $(tail -n 3 "$DIR/serve.log")"
fi
kill -TERM "$spid" 2>/dev/null; wait "$spid"
echo "serve rc=$?: $(tail -n 1 "$DIR/serve.log")"
[ "$lrc" -eq 0 ] && ok "every request was answered (load rc 0)" || bad "the load driver exited $lrc"

# 3. the comparison
python3 - "$DIR" <<'PY' > "$DIR/compare.log" 2>&1
import json, os, sys
d = sys.argv[1]
run = json.load(open(os.path.join(d, "run", "run.json")))["summary"]
evals = [json.loads(l) for l in open(os.path.join(d, "run", "evals.jsonl"))]
run_v = {(e["task"], e["turn"]): e["eval"]["verdict"] for e in evals}
load = json.load(open(os.path.join(d, "load.json")))
srv_v = {(s["task"], s["turn"]): s["verdict"] for s in load["steps"]}
same = [k for k in run_v if srv_v.get(k) == run_v[k]]
diff = [(k, run_v[k], srv_v.get(k)) for k in run_v if srv_v.get(k) != run_v[k]]
rr = run["evaluations"] / run["wall_s"]
sr = load["per_s"]
ratio = sr / rr if rr else 0
print("verdicts %d same %d differ %s" % (len(run_v), len(same), diff[:5]))
print("throughput run %d evaluations in %.1f s = %.3f/s; serve %d in %.1f s = %.3f/s; "
      "ratio %.3f" % (run["evaluations"], run["wall_s"], rr, load["evaluations"],
                      load["wall_s"], sr, ratio))
q, l = load["queue_s"], load["latency_s"]
print("queue wait s p50 %.3f p90 %.3f p99 %.3f; step latency s p50 %.3f p90 %.3f p99 %.3f"
      % (q["50"], q["90"], q["99"], l["50"], l["90"], l["99"]))
print("RESULT %d %d %.3f" % (len(diff) == 0 and len(run_v) > 0, len(run_v), ratio))
PY
cat "$DIR/compare.log"
res=$(sed -n 's/^RESULT //p' "$DIR/compare.log")
if [ -n "$res" ]; then
	read -r same nv ratio <<< "$res"
	[ "$same" = 1 ] && ok "its verdicts are run's for all $nv task turns" ||
		bad "verdicts differ from run's (compare.log)"
	python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.90 else 1)" "$ratio" &&
		ok "throughput within 10 % of cuarena run (ratio $ratio)" ||
		bad "throughput ratio $ratio vs cuarena run (want >= 0.90)"
else
	bad "no comparison (compare.log: $(tail -n 2 "$DIR/compare.log"))"
fi
"$BIN" table "$DIR/serve" > "$DIR/table.md" 2>&1 && ok "cuarena table reads the service's results" ||
	bad "cuarena table failed on the service's results"
"$BIN" compare "$DIR/run" "$DIR/serve" > "$DIR/compare-runs.txt" 2>&1
echo "compare run serve (rc $?): $(tail -n 1 "$DIR/compare-runs.txt")"
grep -E '^cuarena_(gpu_busy_seconds_total|queue_depth_max|baselines_measured_total|harness_errors_total|results_write_failures_total)' \
	"$DIR/metrics.txt" 2>/dev/null
# a harness failure is a 503, never a reward; a write that failed is a 503 too:
# on the GPU machine with room on its disk there must be none of either
[ -s "$DIR/metrics.txt" ] && awk '/^cuarena_(harness_errors_total|results_write_failures_total) / { n += $2 } END { exit n > 0 }' \
	"$DIR/metrics.txt" 2>/dev/null && ok "no harness failure and no failed write (/metrics)" ||
	bad "harness failures or failed writes: $(grep -E '^cuarena_(harness_errors|results_write_failures)_total' "$DIR/metrics.txt" | tr '\n' ' ')"
echo "serve: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
