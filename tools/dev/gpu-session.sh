#!/usr/bin/env bash
# gpu-session.sh — the measurements that need the GPU machine, in phases that each fit
# one device call (≤ 10 min). A phase uses the GPUs it may see: those named in
# CUDA_VISIBLE_DEVICES, else all of them, one process per GPU; so two phases can
# share a two-GPU machine:
#     CUDA_VISIBLE_DEVICES=0 tools/dev/gpu-session.sh runs &
#     CUDA_VISIBLE_DEVICES=1 tools/dev/gpu-session.sh selftest '05[6-9]-*' ...; wait
# Logs and JSON go to $OUT (default /tmp/gpu-session; the device tool brings back
# at most 8 files, so phases pack the rest into tarballs).
#
#   make bundle                          # here; carry build/ (and .carry/ for replay)
#   tools/dev/cache-carry.sh PATTERN...      # here: the patterns' objects built on the CPU,
#                                        # carried as .carry/cache.tgz (unpacked into
#                                        # $CUARENA_CACHE below: no nvcc on the GPU's time)
#   tools/dev/gpu-session.sh selftest [P...] # selftest (+ dumps, torch fp64 check) of the
#                                        # patterns (default: the catalogue in one part
#                                        # per GPU), dealt to the GPUs, until SELFTEST_S
#                                        # (430) s after COMPILE_S (120) s of builds;
#                                        # DIAG=1 first runs build/cudnn-find; the torch
#                                        # check stops at TORCH_S (50) s
#   tools/dev/gpu-session.sh torch-time      # torch eager/compile timings (baselines/torch; of
#                                        # KernelBench's own models with .carry/kernelbench)
#   tools/dev/gpu-session.sh runs            # the GPU suite (build/gpu-test), first GPU
#   tools/dev/gpu-session.sh guard [GLOB]    # every task's reference as a candidate (under
#                                        # the kernel process's filter and view, and the
#                                        # precision rule, whose figures it prints), checked,
#                                        # not timed, on the first GPU, until GUARD_S (480) s;
#                                        # GUARD_LEVEL (L1) names the level's folder
#   tools/dev/gpu-session.sh replay [GLOB]   # replay run over the catalogue on every GPU,
#                                        # resumed from .carry/replay.tgz (throughput
#                                        # bench; its run is the sample for results/)
#   tools/dev/gpu-session.sh serve [GLOB]    # `cuarena serve` under a sustained load of real
#                                        # evaluations (bench/serve.sh: L1 tasks 019-047,
#                                        # 3 turns each) vs `cuarena run` on the same work,
#                                        # on every GPU; self-checking, ends with
#                                        # "serve: N passed, N failed"
#   tools/dev/gpu-session.sh llm             # the llm backend against `transformers serve`
#                                        # (a tiny random model built there, offline):
#                                        # replies recorded, no_code turns, exit 0; a
#                                        # model the server cannot load: exit 4. Missing
#                                        # serving packages come from .carry/wheels
#                                        # (tools/dev/serve-wheels.sh fills it); self-checking,
#                                        # ends with "llm: N passed, N failed"
#   tools/dev/gpu-session.sh resume [GLOB]   # a replay run of four L1 tasks (default
#                                        # 02[0-3]-*: L1/020-023) on the first GPU, SIGKILLed once
#                                        # 5 of its 12 turns are judged, resumed: every turn
#                                        # once, schema 2, each baselines line with its
#                                        # task's flops and bytes (= list --json), all
#                                        # correct with a %SOL; self-checking, ends with
#                                        # "resume: N passed, N failed"
#   tools/dev/gpu-session.sh ab [P...]       # bench/ab.sh: the earlier harness carried as
#                                        # .carry/old (its tasks, include/, baselines/,
#                                        # data/devices, data/prompts and build/) against
#                                        # this one on its tasks, in turn (default: twelve L1
#                                        # tasks of catalogue version 1); ends "ab: ... within"
#   tools/dev/gpu-session.sh slurm           # a real Slurm with GRES gpu (from .carry/slurm:
#                                        # tools/dev/slurm-carry.sh): ten L1 tasks, replay
#                                        # agent, two shards of a job array merged vs the
#                                        # same run unsharded; self-checking, ends with
#                                        # "slurm: N passed, N failed"
set -u
shopt -s extglob
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export CUARENA_CACHE=${CUARENA_CACHE:-/tmp/cuarena-cache}
# a compile cache built here (tools/dev/cache-carry.sh) and carried as .carry/cache.tgz
if [ -f .carry/cache.tgz ] && [ .carry/cache.tgz -nt "$CUARENA_CACHE/.carried" ]; then
	mkdir -p "$CUARENA_CACHE" &&
		tar xzf .carry/cache.tgz -C "$CUARENA_CACHE" --strip-components=1 &&
		touch "$CUARENA_CACHE/.carried" &&
		echo "gpu-session: $(ls "$CUARENA_CACHE" | grep -c '\.so$') objects in $CUARENA_CACHE" \
		     "(.carry/cache.tgz)"
fi
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
	IFS=, read -r -a DEVS <<< "$CUDA_VISIBLE_DEVICES"
else
	mapfile -t DEVS < <(nvidia-smi -L 2>/dev/null | sed -n 's/^GPU \([0-9]*\):.*/\1/p')
fi
NGPU=${#DEVS[@]}
[ "$NGPU" -ge 1 ] || { echo "gpu-session: no GPU"; exit 3; }
BIN=build/cuarena
# KernelBench's own problem files (not committed: carried as .carry/kernelbench, e.g.
# `git archive v0.1 KernelBench/level1 | tar x -C .carry/kernelbench` of its repository):
# the torch check then runs each Level 1 task through its problem's Model too, and the
# torch timings are of that Model (tools/kb_l1.py)
KB_ARGS=()
[ -d .carry/kernelbench ] && KB_ARGS=(--kernelbench .carry/kernelbench)

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
		--dump /tmp/gpu-session-dump "${KB_ARGS[@]}" --out "$OUT/torch-check.json" \
		> "$OUT/torch-check.log" 2>&1
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
			python3 tools/torch_check.py --warm "${KB_ARGS[@]}" --shard "$k/$n" --out "$OUT/warm/$k.json" \
			> "$OUT/warm/$k.log" 2>&1) &
	done
	wait
	for ((g = 0; g < NGPU; g++)); do
		(CUDA_VISIBLE_DEVICES=${DEVS[$g]} timeout "${TIME_S:-320}" python3 tools/torch_check.py \
			--time "${KB_ARGS[@]}" --shard "$g/$NGPU" --out "$OUT/torch-time-$g.json" \
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
	# A candidate's process runs under the system-call filter (harness/judge/jail.c),
	# references' and baselines' do not: submitting each reference as a candidate
	# shows that no task's honest kernel makes a system call the filter refuses.
	end=$((SECONDS + ${GUARD_S:-480}))
	timeout 120 $BIN selftest --compile-only --jobs "$(nproc)" "${2:-*}" \
		> "$OUT/guard-compile.log" 2>&1
	: > "$OUT/guard.log"
	for t in tasks/${GUARD_LEVEL:-L1}/${2:-*}/; do
		left=$((end - SECONDS)); [ "$left" -gt 5 ] || break
		id=$(basename "$t")
		CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout "$left" $BIN eval "$id" "$t/reference.cu" \
			--no-time --json > "$OUT/guard-one.json" 2>> "$OUT/guard.err"
		python3 - "$id" "$OUT/guard-one.json" >> "$OUT/guard.log" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[2]))
    c = j["candidate"]
    acc = [k["accuracy"] for k in c.get("cases", []) if k.get("accuracy")]
    fig = ""
    if acc:   # the reference is correct fp32 code: how far from failing the precision rule
        fig = " accuracy vs=%s judged=%d exposed=%d max_rho=%.4f max_err=%.4g" % (
            acc[0]["vs"], len(acc), sum(1 for a in acc if a["exposed"]),
            max(abs(a["rho"] or 0) for a in acc), max(a["err_ratio"] or 0 for a in acc))
    print(sys.argv[1], c["verdict"], c.get("message", "")[:200] + fig)
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
serve)
	# issue 18: throughput within 10 % of run, verdicts equal, queue-wait percentiles
	ldd $BIN | grep -q 'libmicrohttpd.so.12 => .*build/' ||
		echo "FAIL serve: build/cuarena does not find libmicrohttpd in build/ (make bundle)"
	ldd $BIN | grep 'not found' | sed 's/^/FAIL serve: a library is missing here: /'
	gpus=$(IFS=,; echo "${DEVS[*]}")
	GPUS=$gpus OUT=/tmp/gpu-session-serve timeout -k 20 "${SERVE_PHASE_S:-520}" \
		bench/serve.sh "${2:-@(019|0[23][0-9]|04[0-7])-*}" > "$OUT/serve.log" 2>&1
	echo "rc=$?" >> "$OUT/serve.log"
	tar czf "$OUT/serve.tgz" -C /tmp --exclude='gpu-session-serve/cache-*' \
		--exclude='gpu-session-serve/*/work' gpu-session-serve
	grep -E '^(PASS|FAIL|serve|run rc|throughput|queue wait|verdicts|rc=)' "$OUT/serve.log"
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
		--tasks 'L1/019-relu' --turns 2 --max-time-s 0.3 --out "$OUT/llm-run" > "$OUT/llm-run.log" 2>&1
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
		--tasks 'L1/019-relu' --turns 1 --max-time-s 0.3 --out "$OUT/llm-run-bad" > "$OUT/llm-run-bad.log" 2>&1
	rc=$?
	[ "$rc" = 4 ] && grep -q "ended because the agent failed" "$OUT/llm-run-bad.log" &&
		ok "a model the server cannot load: the agent fails, run exits 4 and says so" ||
		ko "bad model: exit $rc: $(tail -n 3 "$OUT/llm-run-bad.log" | tr '\n' ' ')"
	kill -- -"$spid" 2>/dev/null
	(cd "$OUT" && tar czf llm-run.tgz llm-run llm-run-bad llm-serve.log 2>/dev/null && rm -rf llm-run llm-run-bad)
	echo "llm: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	;;
ab)
	shift
	[ $# -ge 1 ] || set -- 'L1/@(001-sgemm|004-matvec|021-relu|025-softmax|036-batchnorm|043-layernorm|045-maxpool-2d|050-sum-dim|056-conv2d-3x3|089-cumsum|094-mse-loss|100-sdpa)'
	CUDA_VISIBLE_DEVICES=${DEVS[0]} OUT=$OUT/ab timeout "${AB_S:-540}" bench/ab.sh .carry/old "$@" \
		> "$OUT/ab.log" 2>&1
	echo "rc=$?" >> "$OUT/ab.log"
	tail -n 16 "$OUT/ab.log"
	;;
slurm)
	# issue 17: a real single-node Slurm with a GPU GRES (gres.conf File=/dev/nvidiaN,
	# no NVML), started by tools/slurm-local.sh from the Slurm carried in .carry/slurm
	# (tools/dev/slurm-carry.sh). Ten cheap Level 1 tasks with the replay agent (a kernel
	# that writes nothing, then the task's reference), run once unsharded and once as
	# two shards of a `cuarena slurm` job array, merged by its merge job: the same
	# verdicts, speedups within noise. Self-checking; ends "slurm: N passed, N failed".
	pass=0; fail=0
	ok() { pass=$((pass + 1)); echo "PASS slurm: $1"; }
	ko() { fail=$((fail + 1)); echo "FAIL slurm: $1"; }
	P=${CUARENA_SLURM_PREFIX:-$ROOT/.carry/slurm}
	L=$P/usr/lib/x86_64-linux-gnu
	D=${SLURM_DIR:-/tmp/gpu-session-slurm}
	rm -rf "$D" && mkdir -p "$D/replay"
	if [ -x "$P/usr/sbin/slurmctld-wlm" ]; then
		nf=$(LD_LIBRARY_PATH=$L/slurm-wlm:$L ldd "$P"/usr/sbin/* "$P"/usr/bin/sbatch "$L"/slurm-wlm/gres_gpu.so 2>&1 | grep -c 'not found')
		[ "$nf" = 0 ] && ok "the carried Slurm finds all its libraries" || ko "$nf libraries not found (ldd)"
	else
		ko "no Slurm in $P (run tools/dev/slurm-carry.sh here and carry .carry/slurm)"
		echo "slurm: $pass passed, $fail failed"; exit 1
	fi
	dev=${SLURM_GPU_DEV:-$(ls /dev/nvidia[0-9]* 2>/dev/null | head -n 1)}
	[ -n "$dev" ] && ok "the GRES is $dev" || ko "no /dev/nvidia[0-9]*"
	sel='@(004|021|035|047|051|052|094|095|096|099)-*'
	n=0
	for num in 004 021 035 047 051 052 094 095 096 099; do
		# a task is a folder with a task.json (a copied tree may keep old folders empty)
		t=$(ls -d tasks/L1/$num-*/task.json 2>/dev/null | head -n 1)
		[ -n "$t" ] || continue
		t=${t%task.json}
		id=L1/$(basename "$t"); n=$((n + 1))
		mkdir -p "$D/replay/$id"
		printf '#include "cuarena.h"\nint cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)\n{ return 0; }\n' \
			> "$D/replay/$id/turn-1.cu"
		cp "$t/reference.cu" "$D/replay/$id/turn-2.cu"
	done
	[ "$n" = 10 ] && ok "ten tasks" || ko "$n tasks, not ten"
	echo "{\"dir\": \"$D/replay\"}" > "$D/replay.json"
	args=(--agent replay --agent-config "$D/replay.json" --level 1 --tasks "$sel" --turns 2
	      --max-time-s "${SLURM_MAX_TIME_S:-1}")
	t0=$SECONDS
	CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 200 $BIN run "${args[@]}" --out "$D/whole" \
		> "$OUT/slurm-whole.log" 2>&1
	rc=$?
	[ "$rc" = 0 ] && ok "the unsharded run: $(tail -n 1 "$OUT/slurm-whole.log" | cut -c1-160) ($((SECONDS - t0)) s)" ||
		ko "the unsharded run exited $rc: $(tail -n 2 "$OUT/slurm-whole.log" | tr '\n' ' ')"
	$BIN slurm --shards 2 --out "$D/night" "${args[@]}" \
		--costs "${SLURM_COSTS:-$D/whole}" > "$OUT/slurm-job.log" 2>&1 &&
		ok "cuarena slurm wrote the job array" || ko "cuarena slurm: $(cat "$OUT/slurm-job.log")"
	J=$D/.night.slurm
	cat > "$D/on-cluster.sh" <<EOF
set -u
sinfo -o '%N %G %T'
bash "$J/submit.sh" || exit 1
for _ in \$(seq 1 1200); do
	[ -f "$D/night/run.json" ] && [ -z "\$(squeue -h)" ] && break
	sleep 0.25
done
squeue
EOF
	t0=$SECONDS
	# the cluster's environment is the job's: no CUDA_VISIBLE_DEVICES of ours in it
	env -u CUDA_VISIBLE_DEVICES CUARENA_SLURM_PREFIX="$P" CUARENA_SLURM_GPUS="$dev" \
		CUARENA_SLURM_CPUS="$(nproc)" timeout 330 tools/slurm-local.sh "$D/cluster" \
		bash "$D/on-cluster.sh" > "$OUT/slurm-cluster.log" 2>&1
	rc=$?
	[ "$rc" = 0 ] && ok "the cluster came up, ran the array and its merge job ($((SECONDS - t0)) s)" ||
		ko "the cluster exited $rc: $(tail -n 5 "$OUT/slurm-cluster.log" | tr '\n' ' ')"
	grep -q "gpu:1" "$OUT/slurm-cluster.log" && ok "the node has Gres=gpu:1" ||
		ko "the node has no GPU GRES: $(head -n 2 "$OUT/slurm-cluster.log" | tr '\n' ' ')"
	grep -h "CUDA_VISIBLE_DEVICES=" "$J"/logs/shard-*.log 2>/dev/null | grep -q "CUDA_VISIBLE_DEVICES=0" &&
		ok "Slurm gave each shard the GPU: $(grep -h -o 'CUDA_VISIBLE_DEVICES=[0-9,]*' "$J"/logs/shard-*.log | sort | uniq -c | tr '\n' ' ')" ||
		ko "the shards' CUDA_VISIBLE_DEVICES: $(grep -h -o 'CUDA_VISIBLE_DEVICES=.*' "$J"/logs/shard-*.log | tr '\n' ' ')"
	python3 - "$D/whole" "$D/night" "$J" > "$OUT/slurm-check.log" 2>&1 <<'PY'
import json, math, os, sys
whole, merged, jobdir = sys.argv[1:4]
def lines(d, f):
    p = os.path.join(d, f)
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []
def meta(d):
    return json.load(open(os.path.join(d, "run.json")))
def evals(d):
    return {(l["task"], l["turn"]): l for l in lines(d, "evals.jsonl")}
def say(ok, what):
    print(("PASS" if ok else "FAIL") + " slurm: " + what)
w, m = evals(whole), evals(merged)
say(sorted(w) == sorted(m) and len(w) == 20, f"the merged run has the unsharded run's {len(w)} evaluations (task, turn)")
same = [k for k in w if k in m and w[k]["eval"]["verdict"] == m[k]["eval"]["verdict"]]
say(len(same) == len(w), f"the same verdict for {len(same)} of {len(w)}: " +
    ", ".join(sorted({w[k]['eval']['verdict'] for k in w})))
ratios = []
for k in w:
    a, b = (w[k].get("speedup") or {}).get("nvcc"), (m.get(k, {}).get("speedup") or {}).get("nvcc")
    if a and b:
        ratios.append((abs(math.log(b / a)), k[0], a, b))
ratios.sort(reverse=True)
worst = ratios[0] if ratios else (0, "-", 0, 0)
say(len(ratios) == 10 and worst[0] < math.log(1.10),
    f"{len(ratios)} speedups vs nvcc, merged / unsharded within {100 * (math.exp(worst[0]) - 1):.1f}% "
    f"(worst {worst[1]}: {worst[2]:.3f}x vs {worst[3]:.3f}x)")
mm = meta(merged)
say(mm["summary"]["tasks_done"] == 10 and mm["summary"]["tasks_correct"] == 10 and not mm["summary"]["interrupted"],
    f"merged summary: {mm['summary']['tasks_correct']}/{mm['summary']['tasks_done']} correct, "
    f"{mm['summary']['segments']} segments, GPU busy {mm['summary']['gpu_busy_s']:.1f} of {mm['summary']['gpu_s']:.1f} GPU-s, "
    f"elapsed {mm['summary'].get('elapsed_s')} s")
segs = sorted(mm["segments"], key=lambda g: g["started"])
say(all(g.get("slurm", {}).get("array_job") for g in segs) and len({g["shard"] for g in segs}) == 2,
    "both shards ran as array tasks: " + "; ".join(f"shard {g['shard']} job {g['slurm'].get('job')} {g['wall_s']:.0f} s" for g in segs))
import datetime
def t(g):
    return datetime.datetime.strptime(g["started"], "%Y-%m-%dT%H:%M:%SZ").timestamp()
gap = t(segs[1]) - (t(segs[0]) + segs[0]["wall_s"]) if len(segs) == 2 else -99
say(gap > -1.5, f"one GPU, one shard at a time: the second began {gap:+.1f} s after the first ended (GRES gpu:1)")
dev = {json.dumps(d["device"], sort_keys=True) for d in mm["devices"]}
say(len(dev) == 1 and mm["device"].get("name"), f"one device for both shards: {mm['device'].get('name')}")
sh = [meta(os.path.join(jobdir, f"shard-{i}-of-2")) for i in range(2)]
exp = sh[0]["shard"]["expected_s"]
say(sh[0]["shard"]["costs"]["measured"] == 10, f"the split was weighed by measured costs: expected {exp} s, "
    f"tasks {len(sh[0]['tasks'])} + {len(sh[1]['tasks'])}")
PY
	cat "$OUT/slurm-check.log"
	pass=$((pass + $(grep -c '^PASS' "$OUT/slurm-check.log"))); fail=$((fail + $(grep -c '^FAIL' "$OUT/slurm-check.log")))
	CUDA_VISIBLE_DEVICES=${DEVS[0]} $BIN compare "$D/whole" "$D/night" > "$OUT/slurm-compare.txt" 2>&1
	rc=$?
	[ "$rc" = 0 ] && ok "compare unsharded merged: $(tail -n 1 "$OUT/slurm-compare.txt")" ||
		ko "compare exited $rc: $(tail -n 1 "$OUT/slurm-compare.txt")"
	tar czf "$OUT/slurm.tgz" -C "$D" --exclude=cluster/state --exclude=cluster/spool whole night .night.slurm cluster \
		2>/dev/null
	echo "slurm: $pass passed, $fail failed"
	[ "$fail" = 0 ]
	;;
resume)
	# issue 19: --resume reads what a killed run left through the results reader, and
	# a run records each task's flops and bytes (baselines.jsonl) for the roofline.
	D=/tmp/gpu-session-resume
	glob=${2:-02[0-3]-*}
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
	;;
*)
	sed -n '2,52p' "$0"
	exit 2
	;;
esac
