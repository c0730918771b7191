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
#   tools/dev/cache-carry.sh [--gpu-suite] PATTERN...  # here: the patterns' objects (and the
#                                        # GPU suite's kernels) built on the CPU,
#                                        # carried as .carry/cache.tgz (unpacked into
#                                        # $CUARENA_CACHE below: no nvcc on the GPU's time)
#   tools/dev/gpu-session.sh selftest [P...] # selftest (+ dumps, torch fp64 check, torch fp32 error) of the
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
#                                        # bench; its run is the sample for results/);
#                                        # STORE=warm: a new run over the carried run's
#                                        # baseline store; LEVEL=all: Levels 1-3 in one
#                                        # run (bench/throughput.sh)
#   tools/dev/gpu-session.sh serve [GLOB]    # `cuarena serve` under a sustained load of real
#                                        # evaluations (bench/serve.sh: L1 tasks 019-047,
#                                        # 3 turns each) vs `cuarena run` on the same work,
#                                        # on every GPU; self-checking, ends with
#                                        # "serve: N passed, N failed"
#   tools/dev/gpu-session.sh llm             # tests/gpu/llm.sh: the llm backend against `transformers serve`
#                                        # (a tiny random model built there, offline):
#                                        # replies recorded, no_code turns, exit 0; a
#                                        # model the server cannot load: exit 4. Missing
#                                        # serving packages come from .carry/wheels
#                                        # (tools/dev/serve-wheels.sh fills it); self-checking,
#                                        # ends with "llm: N passed, N failed"
#   tools/dev/gpu-session.sh resume [GLOB]   # tests/gpu/resume.sh: a replay run of four L1 tasks (default
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
#   tools/dev/gpu-session.sh slurm           # tests/gpu/slurm.sh: a real Slurm with GRES gpu (from .carry/slurm:
#                                        # tools/dev/slurm-carry.sh): ten L1 tasks, replay
#                                        # agent, two shards of a job array merged vs the
#                                        # same run unsharded; self-checking, ends with
#                                        # "slurm: N passed, N failed"
set -u
shopt -s extglob
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export OUT=${OUT:-/tmp/gpu-session}
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
		--dump /tmp/gpu-session-dump --fp32 "${KB_ARGS[@]}" --out "$OUT/torch-check.json" \
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
	# STORE=warm: a new run over the carried run's baseline store (the carried run moved aside)
	if [ "${STORE:-cold}" = warm ] && [ -d /tmp/gpu-session-replay/throughput-run ]; then
		rm -rf /tmp/gpu-session-replay/earlier-run
		mv /tmp/gpu-session-replay/throughput-run /tmp/gpu-session-replay/earlier-run
	fi
	gpus=$(IFS=,; echo "${DEVS[*]}")
	GPUS=$gpus OUT=/tmp/gpu-session-replay timeout -s INT -k 30 "${REPLAY_S:-520}" \
		bench/throughput.sh "${2:-*}" > "$OUT/throughput.log" 2>&1
	echo "rc=$?" >> "$OUT/throughput.log"
	# not the compile cache (bench/throughput.sh's own, hundreds of MB of objects), but its
	# baseline store (cache/baselines: small), so that a later call can run STORE=warm
	(cd /tmp && { find gpu-session-replay -path gpu-session-replay/cache -prune -o -print
	              find gpu-session-replay/cache/baselines 2>/dev/null; } |
		tar czf "$OUT/replay.tgz" --no-recursion -T -)
	tail -n 3 "$OUT/throughput.log"
	;;
serve)
	# issue 18: throughput within 10 % of run, verdicts equal, queue-wait percentiles
	gpus=$(IFS=,; echo "${DEVS[*]}")
	GPUS=$gpus OUT=/tmp/gpu-session-serve timeout -k 20 "${SERVE_PHASE_S:-520}" \
		bench/serve.sh "${2:-@(019|0[23][0-9]|04[0-7])-*}" > "$OUT/serve.log" 2>&1
	echo "rc=$?" >> "$OUT/serve.log"
	tar czf "$OUT/serve.tgz" -C /tmp --exclude='gpu-session-serve/cache-*' \
		--exclude='gpu-session-serve/*/work' gpu-session-serve
	grep -E '^(PASS|FAIL|serve|run rc|throughput|queue wait|verdicts|rc=)' "$OUT/serve.log"
	;;
llm)
	CUDA_VISIBLE_DEVICES=${DEVS[0]} tests/gpu/llm.sh
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
	tests/gpu/slurm.sh
	;;
resume)
	shift
	CUDA_VISIBLE_DEVICES=${DEVS[0]} tests/gpu/resume.sh "$@"
	;;
*)
	sed -n '2,52p' "$0"
	exit 2
	;;
esac
