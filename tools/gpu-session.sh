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
#                                        # (430) s; DIAG=1 first runs build/cudnn-find
#   tools/gpu-session.sh torch-time      # torch eager/compile timings (baselines/torch)
#   tools/gpu-session.sh runs            # the GPU suite (build/gpu-test), first GPU
#   tools/gpu-session.sh guard [GLOB]    # every task's reference as a candidate (under
#                                        # the kernel process's filter), checked, not timed,
#                                        # on the first GPU, until GUARD_S (480) s
#   tools/gpu-session.sh replay [GLOB]   # replay run over the catalogue on every GPU,
#                                        # resumed from .carry/replay.tgz (throughput
#                                        # bench; its run is the sample for results/)
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
	timeout 120 $BIN selftest --compile-only --jobs "$(nproc)" "${pats[@]}" \
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
	CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 50 python3 tools/torch_check.py \
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
*)
	sed -n '2,20p' "$0"
	exit 2
	;;
esac
