#!/usr/bin/env bash
# gpu-session.sh — the measurements that need the GPU machine, in phases that each fit
# one device call (≤ 10 min). Uses every GPU it sees (one process per GPU through
# CUDA_VISIBLE_DEVICES); writes logs and JSON into $OUT (default /tmp/gpu-session).
#
#   make bundle                          # here; carry build/cuarena build/gpu-test
#                                        # build/bench build/libcjson.so.1
#   tools/gpu-session.sh selftest        # whole-catalogue selftest + dumps + torch check
#   tools/gpu-session.sh torch-time      # torch eager/compile timings (baselines/torch)
#   tools/gpu-session.sh runs            # GPU suite, replay run, sample reference run,
#                                        # throughput bench
# Each phase ends by printing its summary lines; its files are in $OUT (8 at most,
# so several are packed into one tarball).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
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
	$BIN selftest --compile-only --jobs "$(nproc)" > "$OUT/compile.log" 2>&1
	tail -n 2 "$OUT/compile.log"
	i=0
	while read -r pat; do
		(CUDA_VISIBLE_DEVICES=$i timeout 540 $BIN selftest --max-time-s 0.3 \
			--dump /tmp/gpu-session-dump --out "$OUT/selftest-$i.json" "$pat" \
			> "$OUT/selftest-$i.log" 2>&1; echo "rc=$?" >> "$OUT/selftest-$i.log") &
		i=$((i + 1))
	done < <(patterns)
	wait
	CUDA_VISIBLE_DEVICES=0 timeout 60 python3 tools/torch_check.py \
		--dump /tmp/gpu-session-dump --out "$OUT/torch-check.json" > "$OUT/torch-check.log" 2>&1
	tail -n 2 "$OUT"/selftest-*.log "$OUT/torch-check.log"
	;;
torch-time)
	if [ "$NGPU" -ge 2 ]; then res=('^0[0-4]' '^(0[5-9]|100)'); else res=('.'); fi
	for i in "${!res[@]}"; do
		(CUDA_VISIBLE_DEVICES=$i timeout 560 python3 tools/torch_check.py --match "${res[$i]}" \
			--time --out "$OUT/torch-time-$i.json" > "$OUT/torch-time-$i.log" 2>&1) &
	done
	wait
	tail -n 1 "$OUT"/torch-time-*.log
	;;
runs)
	(CUDA_VISIBLE_DEVICES=0 timeout 500 build/gpu-test > "$OUT/gpu-test.log" 2>&1;
	 echo "rc=$?" >> "$OUT/gpu-test.log") &
	g=$([ "$NGPU" -ge 2 ] && echo 1 || echo 0)
	(export CUDA_VISIBLE_DEVICES=$g
	 timeout 200 $BIN run --agent reference --tasks '@(001-sgemm|021-relu|025-softmax|045-maxpool-2d|056-conv2d-3x3)' \
		--turns 2 --out /tmp/gpu-session-sample > "$OUT/sample-run.log" 2>&1
	 OUT=/tmp/gpu-session-tp timeout 280 bench/throughput.sh '0[2-3][0-9]-*' \
		> "$OUT/throughput.log" 2>&1) &
	wait
	tar czf "$OUT/runs.tgz" -C /tmp gpu-session-sample gpu-session-tp 2>/dev/null
	tail -n 2 "$OUT/gpu-test.log" "$OUT/sample-run.log" "$OUT/throughput.log"
	;;
*)
	sed -n '2,14p' "$0"
	exit 2
	;;
esac
