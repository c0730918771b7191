#!/usr/bin/env bash
# net-dry-vit.sh — every shape set of the net-vit.cuh Level 3 tasks that tests/net-dry.cu
# cannot run (inputs other than {x, params}: Mamba2) through build/net-dry-vit
# (tests/net-dry-vit.cu): the reference's network walked on a dry backend must accept the
# inputs and give every output's element count. Tasks the binary does not know are
# skipped; an input whose sequence length disagrees with the others must fail.
#     tests/net-dry-vit.sh build/net-dry-vit
set -u
BIN=${1:-build/net-dry-vit}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
. "$ROOT/tests/net-dry-lib.sh"
net_dry_walk "$BIN" "$(net_dry_cases "$ROOT")"
# the check can fail: the first input's dim 1 one longer (a sequence the others lack)
read -r folder in0 rest <<< "$first"
IFS=x read -r -a d <<< "$in0"
d[1]=$((d[1] + 64))
bad=$(IFS=x; echo "${d[*]}")
if "$BIN" "$folder" "$bad" $rest > /dev/null 2>&1; then
	fail=$((fail + 1)); echo "FAIL  inputs of disagreeing lengths passed ($folder $bad)"
else
	pass=$((pass + 1)); echo "ok    inputs of disagreeing lengths are an error ($folder $bad)"
fi
echo "net-dry-vit: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 1 ]
