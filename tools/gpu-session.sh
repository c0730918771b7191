#!/usr/bin/env bash
# gpu-session.sh — the measurements that need the GPU machine, in phases that each fit
# one device call (≤ 10 min). A phase uses the GPUs it may see: those named in
# CUDA_VISIBLE_DEVICES, else all of them, one process per GPU; so two phases can
# share a two-GPU machine:
#     CUDA_VISIBLE_DEVICES=0 tools/gpu-session.sh runs &
#     CUDA_VISIBLE_DEVICES=1 tools/gpu-session.sh selftest '05[6-9]-*' ...; wait
# Logs and JSON go to $OUT (default /tmp/gpu-session; the device tool brings back
# at most 8 files, so phases pack the rest into tarballs).
#
#   make bundle                          # here; carry build/ (and .carry/ for replay)
#   tools/gpu-session.sh selftest [P...] # selftest (+ dumps, torch fp64 check) of the
#                                        # patterns (default: the catalogue in one part
#                                        # per GPU), dealt to the GPUs, until SELFTEST_S
#                                        # (430) s after COMPILE_S (120) s of builds;
#                                        # DIAG=1 first runs build/cudnn-find; the torch
#                                        # check stops at TORCH_S (50) s
#   tools/gpu-session.sh torch-time      # torch eager/compile timings (baselines/torch)
#   tools/gpu-session.sh runs            # the GPU suite (build/gpu-test), first GPU
#   tools/gpu-session.sh guard [GLOB]    # every task's reference as a candidate (under
#                                        # the kernel process's filter), checked, not timed,
#                                        # on the first GPU, until GUARD_S (480) s
#   tools/gpu-session.sh replay [GLOB]   # replay run over the catalogue on every GPU,
#                                        # resumed from .carry/replay.tgz (throughput
#                                        # bench; its run is the sample for results/)
#   tools/gpu-session.sh llm             # the llm backend against `transformers serve`
#                                        # (a tiny random model built there, offline):
#                                        # replies recorded, no_code turns, exit 0; a
#                                        # model the server cannot load: exit 4. Missing
#                                        # serving packages come from .carry/wheels
#                                        # (tools/serve-wheels.sh fills it); self-checking,
#                                        # ends with "llm: N passed, N failed"
set -u
shopt -s extglob
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export CUARENA_CACHE=${CUARENA_CACHE:-/tmp/cuarena-cache}
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
	IFS=, read -r -a DEVS <<< "$CUDA_VISIBLE_DEVICES"
else
	mapfile -t DEVS < <(nvidia-smi -L 2>/dev/null | sed -n 's/^GPU \([0-9]*\):.*/\1/p')
fi
NGPU=${#DEVS[@]}
[ "$NGPU" -ge 1 ] || { echo "gpu-session: no GPU"; exit 3; }
BIN=build/cuarena

case "${1:-}" in
selftest)
	shift
	if [ $# -ge 1 ]; then pats=("$@")
	elif [ "$NGPU" -ge 2 ]; then pats=('0[0-4][0-9]-*' '@(0[5-9][0-9]|100)-*')
	else pats=('*'); fi
	end=$((SECONDS + ${SELFTEST_S:-430}))
	[ "${DIAG:-0}" = 1 ] &&
		CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 60 build/cudnn-find > "$OUT/cudnn-find.log" 2>&1
	# every build first, in parallel on all cores (selftest then finds them cached)
	timeout "${COMPILE_S:-120}" $BIN selftest --compile-only --jobs "$(nproc)" "${pats[@]}" \
		> "$OUT/compile.log" 2>&1
	tail -n 2 "$OUT/compile.log"
	for ((g = 0; g < NGPU && g < ${#pats[@]}; g++)); do
		(export CUDA_VISIBLE_DEVICES=${DEVS[$g]}
		 for ((i = g; i < ${#pats[@]}; i += NGPU)); do
			left=$((end - SECONDS)); [ "$left" -gt 5 ] || break
			timeout "$left" $BIN selftest --max-time-s 0.3 --dump /tmp/gpu-session-dump \
				--out "$OUT/selftest-$i.json" "${pats[$i]}" > "$OUT/selftest-$i.log" 2>&1
			echo "rc=$?" >> "$OUT/selftest-$i.log"
		 done) &
	done
	wait
	CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout "${TORCH_S:-50}" python3 tools/torch_check.py \
		--dump /tmp/gpu-session-dump --out "$OUT/torch-check.json" > "$OUT/torch-check.log" 2>&1
	tail -n 2 "$OUT"/selftest-*.log "$OUT/torch-check.log"
	[ -f "$OUT/cudnn-find.log" ] && cat "$OUT/cudnn-find.log"
	;;
torch-time)
	# torch.compile's builds are CPU work: pay them in 16 processes first (they fill
	# the on-disk inductor and Triton caches), then time one process per GPU.
	n=16
	mkdir -p "$OUT/warm"
	for ((k = 0; k < n; k++)); do
		(CUDA_VISIBLE_DEVICES=${DEVS[$((k % NGPU))]} timeout "${WARM_S:-200}" \
			python3 tools/torch_check.py --warm --shard "$k/$n" --out "$OUT/warm/$k.json" \
			> "$OUT/warm/$k.log" 2>&1) &
	done
	wait
	for ((g = 0; g < NGPU; g++)); do
		(CUDA_VISIBLE_DEVICES=${DEVS[$g]} timeout "${TIME_S:-320}" python3 tools/torch_check.py \
			--time --shard "$g/$NGPU" --out "$OUT/torch-time-$g.json" \
			> "$OUT/torch-time-$g.log" 2>&1) &
	done
	wait
	(cd "$OUT" && tar czf warm.tgz warm && rm -rf warm)
	tail -n 1 "$OUT"/torch-time-*.log
	;;
runs)
	CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout "${SUITE_S:-540}" build/gpu-test \
		> "$OUT/gpu-test.log" 2>&1
	echo "rc=$?" >> "$OUT/gpu-test.log"
	tail -n 3 "$OUT/gpu-test.log"
	;;
guard)
	# A candidate's process runs under the system-call filter (harness/jail.c),
	# references' and baselines' do not: submitting each reference as a candidate
	# shows that no task's honest kernel makes a system call the filter refuses.
	end=$((SECONDS + ${GUARD_S:-480}))
	timeout 120 $BIN selftest --compile-only --jobs "$(nproc)" "${2:-*}" \
		> "$OUT/guard-compile.log" 2>&1
	: > "$OUT/guard.log"
	for t in tasks/L1/${2:-*}/; do
		left=$((end - SECONDS)); [ "$left" -gt 5 ] || break
		id=$(basename "$t")
		CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout "$left" $BIN eval "$id" "$t/reference.cu" \
			--no-time --json > "$OUT/guard-one.json" 2>> "$OUT/guard.err"
		python3 - "$id" "$OUT/guard-one.json" >> "$OUT/guard.log" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[2]))
    c = j["candidate"]
    print(sys.argv[1], c["verdict"], c.get("message", "")[:200])
except Exception as e:
    print(sys.argv[1], "no-report", repr(e)[:200])
PY
	done
	rm -f "$OUT/guard-one.json"
	awk '{n++; v[$2]++} END {printf "guard: %d tasks:", n; for (k in v) printf " %s %d", k, v[k]; print ""}' \
		"$OUT/guard.log" | tee -a "$OUT/guard.log"
	;;
replay)
	# bench/throughput.sh: wrong output -> compile error -> reference, for every
	# task. Stopped cleanly (SIGINT) before the call's limit, returned as
	# replay.tgz; the next call carries it in as .carry/replay.tgz and resumes.
	[ -f .carry/replay.tgz ] && tar xzf .carry/replay.tgz -C /tmp
	gpus=$(IFS=,; echo "${DEVS[*]}")
	GPUS=$gpus OUT=/tmp/gpu-session-replay timeout -s INT -k 30 "${REPLAY_S:-520}" \
		bench/throughput.sh "${2:-*}" > "$OUT/throughput.log" 2>&1
	echo "rc=$?" >> "$OUT/throughput.log"
	# not the compile cache (bench/throughput.sh's own, hundreds of MB of objects)
	tar czf "$OUT/replay.tgz" -C /tmp --exclude=gpu-session-replay/cache gpu-session-replay
	tail -n 3 "$OUT/throughput.log"
	;;
llm)
	# issue 14: the llm backend against somebody else's server, not only our fake.
	port=${LLM_PORT:-8765}
	pass=0; fail=0
	ok() { pass=$((pass + 1)); echo "PASS llm: $1"; }
	ko() { fail=$((fail + 1)); echo "FAIL llm: $1"; }
	missing=$(python3 -c 'import importlib.util as u; print(" ".join(m for m in ("fastapi", "uvicorn", "openai", "pydantic") if not u.find_spec(m)))')
	if [ -n "$missing" ] && [ -d .carry/wheels ]; then
		python3 -m pip install --quiet --no-index --find-links .carry/wheels $missing \
			> "$OUT/llm-pip.log" 2>&1
		missing=$(python3 -c 'import importlib.util as u; print(" ".join(m for m in ("fastapi", "uvicorn", "openai", "pydantic") if not u.find_spec(m)))')
	fi
	[ -z "$missing" ] && ok "serving packages present" || ko "serving packages missing: $missing (carry .carry/wheels)"
	# /v1/models lists the hub cache, which must exist (the machine has none)
	export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HOME=/tmp/cuarena-hf
	mkdir -p "$HF_HOME/hub"
	MODEL=/tmp/cuarena-tiny-chat
	timeout 120 python3 tools/tiny_chat_model.py "$MODEL" > "$OUT/llm-model.log" 2>&1 &&
		ok "tiny model built offline: $(tail -n 1 "$OUT/llm-model.log")" ||
		ko "tiny model: $(tail -n 3 "$OUT/llm-model.log" | tr '\n' ' ')"
	CUDA_VISIBLE_DEVICES=${DEVS[0]} setsid transformers serve --port "$port" \
		> "$OUT/llm-serve.log" 2>&1 &
	spid=$!
	up=0
	for _ in $(seq 1 90); do
		# up once it answers at all (the listing itself is not what is tested)
		code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/v1/models" 2>/dev/null)
		[ "${code:-000}" != 000 ] && { up=1; break; }
		kill -0 "$spid" 2>/dev/null || break
		sleep 1
	done
	[ "$up" = 1 ] && ok "transformers serve answers (/v1/models: HTTP $code)" ||
		ko "transformers serve did not come up: $(tail -n 5 "$OUT/llm-serve.log" | tr '\n' ' ')"
	# the server's own answer, without cuarena in between
	curl -s -m 120 "http://127.0.0.1:$port/v1/chat/completions" -H 'Content-Type: application/json' \
		-d "{\"model\": \"$MODEL\", \"messages\": [{\"role\": \"user\", \"content\": \"write a kernel\"}], \"max_tokens\": 16}" \
		> "$OUT/llm-direct.json" 2>&1
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert isinstance(j["choices"][0]["message"]["content"], str)' \
		"$OUT/llm-direct.json" 2>/dev/null && ok "a direct chat completion has choices[0].message.content" ||
		ko "direct chat completion: $(head -c 300 "$OUT/llm-direct.json")"
	printf '{"base_url": "http://127.0.0.1:%s/v1", "model": "%s", "max_tokens": 64, "timeout_s": 180, "max_retries": 1}\n' \
		"$port" "$MODEL" > "$OUT/llm-config.json"
	rm -rf "$OUT/llm-run"
	CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 300 $BIN run --agent llm --agent-config "$OUT/llm-config.json" \
		--tasks 'L1/021-relu' --turns 2 --max-time-s 0.3 --out "$OUT/llm-run" > "$OUT/llm-run.log" 2>&1
	rc=$?
	[ "$rc" = 0 ] && ok "cuarena run --agent llm exits 0 against the real server" ||
		ko "cuarena run --agent llm exit $rc: $(tail -n 3 "$OUT/llm-run.log" | tr '\n' ' ')"
	python3 - "$OUT/llm-run" <<'PY' && ok "every turn holds the server's reply and a verdict; no_code turns are not candidates" || ko "the run's files (see above)"
import json, sys
d = sys.argv[1]
turns = [json.loads(l) for l in open(d + "/trajectories.jsonl") if '"turn"' in l]
turns = [t for t in turns if t.get("kind") == "turn"]
evals = [json.loads(l) for l in open(d + "/evals.jsonl")]
run = json.load(open(d + "/run.json"))
assert len(turns) == 2, f"{len(turns)} turns"
assert all(t.get("reply") for t in turns), "a turn without the server's reply"
verdicts = [e["eval"]["verdict"] for e in evals]
candidates = sum(v != "no_code" for v in verdicts)
assert run["summary"]["evaluations"] == candidates, (run["summary"], verdicts)
print("llm run verdicts:", verdicts)
PY
	printf '{"base_url": "http://127.0.0.1:%s/v1", "model": "/nonexistent-model", "max_tokens": 8, "timeout_s": 60, "max_retries": 1, "backoff_base_s": 0.1}\n' \
		"$port" > "$OUT/llm-config-bad.json"
	rm -rf "$OUT/llm-run-bad"
	CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 240 $BIN run --agent llm --agent-config "$OUT/llm-config-bad.json" \
		--tasks 'L1/021-relu' --turns 1 --max-time-s 0.3 --out "$OUT/llm-run-bad" > "$OUT/llm-run-bad.log" 2>&1
	rc=$?
	[ "$rc" = 4 ] && grep -q "ended because the agent failed" "$OUT/llm-run-bad.log" &&
		ok "a model the server cannot load: the agent fails, run exits 4 and says so" ||
		ko "bad model: exit $rc: $(tail -n 3 "$OUT/llm-run-bad.log" | tr '\n' ' ')"
	kill -- -"$spid" 2>/dev/null
	(cd "$OUT" && tar czf llm-run.tgz llm-run llm-run-bad llm-serve.log 2>/dev/null && rm -rf llm-run llm-run-bad)
	echo "llm: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	;;
*)
	sed -n '2,28p' "$0"
	exit 2
	;;
esac
