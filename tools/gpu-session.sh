#!/usr/bin/env bash
# gpu-session.sh — the measurements that need the GPU machine, in phases that each fit
# one device call (≤ 10 min). Uses every GPU it sees (one process per GPU through
# CUDA_VISIBLE_DEVICES); writes logs and JSON into $OUT (default /tmp/gpu-session).
#
#   make bundle                          # here; carry build/cuarena build/gpu-test
#                                        # build/bench build/libcjson.so.1
#   tools/gpu-session.sh selftest        # whole-catalogue selftest + dumps + torch check
#   tools/gpu-session.sh torch-time [P]  # torch eager/compile timings (baselines/torch);
#                                        # P: selftest leftover pattern for GPU 0
#   tools/gpu-session.sh recheck P...    # selftest again where baselines or shapes changed
#   tools/gpu-session.sh runs            # the GPU suite (build/gpu-test) on GPU 0
#   tools/gpu-session.sh replay [GLOB]   # replay run over the catalogue on every GPU,
#                                        # resumed from .carry/replay.tgz (throughput
#                                        # bench; its run is the sample for results/)
# Each phase ends by printing its summary lines; its files are in $OUT (8 at most,
# so several are packed into one tarball).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export CUARENA_CACHE=${CUARENA_CACHE:-/tmp/cuarena-cache}
NGPU=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
[ "$NGPU" -ge 1 ] || { echo "gpu-session: no GPU"; exit 3; }
BIN=build/cuarena

# tasks split into one shell pattern per GPU (by number ranges)
patterns() {
	if [ "$NGPU" -ge 2 ]; then echo '0[0-4][0-9]-*'; echo '@(0[5-9][0-9]|100)-*'
	else echo '*'; fi
}

case "${1:-}" in
selftest)
	timeout 100 $BIN selftest --compile-only --jobs "$(nproc)" > "$OUT/compile.log" 2>&1
	tail -n 2 "$OUT/compile.log"
	i=0
	while read -r pat; do
		(CUDA_VISIBLE_DEVICES=$i timeout 430 $BIN selftest --max-time-s 0.3 \
			--dump /tmp/gpu-session-dump --out "$OUT/selftest-$i.json" "$pat" \
			> "$OUT/selftest-$i.log" 2>&1; echo "rc=$?" >> "$OUT/selftest-$i.log") &
		i=$((i + 1))
	done < <(patterns)
	wait
	CUDA_VISIBLE_DEVICES=0 timeout 50 python3 tools/torch_check.py \
		--dump /tmp/gpu-session-dump --out "$OUT/torch-check.json" > "$OUT/torch-check.log" 2>&1
	tail -n 2 "$OUT"/selftest-*.log "$OUT/torch-check.log"
	;;
torch-time)
	# [PATTERN]: a selftest leftover for GPU 0; torch then has GPU 1 to itself.
	left=${2:-}
	if [ -n "$left" ] && [ "$NGPU" -ge 2 ]; then
		(CUDA_VISIBLE_DEVICES=0 timeout 540 $BIN selftest --max-time-s 0.3 \
			--dump /tmp/gpu-session-dump --out "$OUT/selftest-left.json" "$left" \
			> "$OUT/selftest-left.log" 2>&1; echo "rc=$?" >> "$OUT/selftest-left.log"
		 timeout 30 python3 tools/torch_check.py --dump /tmp/gpu-session-dump \
			--out "$OUT/torch-check-left.json" > "$OUT/torch-check-left.log" 2>&1) &
		gpus=(1)
	elif [ "$NGPU" -ge 2 ]; then gpus=(0 1); else gpus=(0); fi
	# torch.compile's builds are CPU work: pay them in parallel, then time one
	# process per GPU on warm caches.
	n=16
	for ((k = 0; k < n; k++)); do
		g=${gpus[$((k % ${#gpus[@]}))]}
		(CUDA_VISIBLE_DEVICES=$g timeout 200 python3 tools/torch_check.py --warm \
			--shard "$k/$n" --out "$OUT/warm/$k.json" > "$OUT/warm-$k.log" 2>&1) &
	done
	wait $(jobs -p | tail -n "$n")
	for i in "${!gpus[@]}"; do
		(CUDA_VISIBLE_DEVICES=${gpus[$i]} timeout 320 python3 tools/torch_check.py --time \
			--shard "$i/${#gpus[@]}" --out "$OUT/torch-time-$i.json" \
			> "$OUT/torch-time-$i.log" 2>&1) &
	done
	wait
	tar czf "$OUT/warm.tgz" -C "$OUT" warm warm-*.log 2>/dev/null && rm -rf "$OUT"/warm "$OUT"/warm-*.log
	tail -n 1 "$OUT"/torch-time-*.log "$OUT"/selftest-left.log 2>/dev/null
	;;
runs)
	# The GPU suite on GPU 0, alone (its timings are checked against each other).
	CUDA_VISIBLE_DEVICES=0 timeout 540 build/gpu-test > "$OUT/gpu-test.log" 2>&1
	echo "rc=$?" >> "$OUT/gpu-test.log"
	tail -n 3 "$OUT/gpu-test.log"
	;;
replay)
	# `cuarena run --agent replay` over the catalogue on every GPU (bench/throughput.sh:
	# wrong output -> compile error -> reference), stopped cleanly (SIGINT) before the
	# call's limit and resumed by the next call: carry .carry/ (ignored by git) with
	# the replay.tgz the last call returned.
	[ -f .carry/replay.tgz ] && tar xzf .carry/replay.tgz -C /tmp
	gpus=$(seq -s, 0 $((NGPU - 1)))
	GPUS=$gpus OUT=/tmp/gpu-session-replay timeout -s INT -k 30 "${REPLAY_S:-520}" \
		bench/throughput.sh "${2:-*}" > "$OUT/throughput.log" 2>&1
	echo "rc=$?" >> "$OUT/throughput.log"
	tar czf "$OUT/replay.tgz" -C /tmp gpu-session-replay
	tail -n 3 "$OUT/throughput.log"
	;;
recheck)
	# Tasks whose baseline or shapes changed after a selftest: the given patterns,
	# dealt round-robin to the GPUs, each GPU taking its patterns in order until
	# RECHECK_S seconds (default 300) have passed; cudnn-find's diagnosis first.
	shift
	[ $# -ge 1 ] || { echo "recheck: give task patterns"; exit 2; }
	end=$((SECONDS + ${RECHECK_S:-300}))
	CUDA_VISIBLE_DEVICES=0 timeout 60 build/cudnn-find > "$OUT/cudnn-find.log" 2>&1
	pats=("$@")
	for ((g = 0; g < NGPU && g < ${#pats[@]}; g++)); do
		(export CUDA_VISIBLE_DEVICES=$g
		 for ((i = g; i < ${#pats[@]}; i += NGPU)); do
			left=$((end - SECONDS)); [ "$left" -gt 5 ] || break
			timeout "$left" $BIN selftest --max-time-s 0.3 --dump /tmp/gpu-session-dump \
				--out "$OUT/selftest-r$i.json" "${pats[$i]}" > "$OUT/selftest-r$i.log" 2>&1
			echo "rc=$?" >> "$OUT/selftest-r$i.log"
		 done) &
	done
	wait
	CUDA_VISIBLE_DEVICES=0 timeout 40 python3 tools/torch_check.py \
		--dump /tmp/gpu-session-dump --out "$OUT/torch-check-r.json" > "$OUT/torch-check-r.log" 2>&1
	tail -n 2 "$OUT"/selftest-r*.log "$OUT/torch-check-r.log"; cat "$OUT/cudnn-find.log"
	;;
*)
	sed -n '2,18p' "$0"
	exit 2
	;;
esac
