#!/usr/bin/env bash
# net-dry-seq.sh — every shape set of every recurrent and attention Level 3 task through
# build/net-dry-seq (tests/net-dry-seq.cu): the reference's network walked on a dry backend
# must take exactly the task's P weights and give every output's element count. Tasks the
# binary does not know are skipped; a params one segment too long must fail.
#     tests/net-dry-seq.sh build/net-dry-seq
set -u
BIN=${1:-build/net-dry-seq}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
. "$ROOT/tests/net-dry-lib.sh"
net_dry_walk "$BIN" "$(net_dry_cases "$ROOT")"
# the check can fail: a params 64 elements longer than the network takes is an error
read -r folder args <<< "$first"
long=$(sed -E 's/(^| )([0-9]+)( |$)/\1X\3/' <<< "$args")
p=$(grep -oE '(^| )[0-9]+( |$)' <<< "$args" | head -1 | tr -d ' ')
if [ -n "$p" ] && "$BIN" "$folder" ${long/X/$((p + 64))} > /dev/null 2>&1; then
	fail=$((fail + 1)); echo "FAIL  a params longer than the network takes passed ($folder)"
else
	pass=$((pass + 1)); echo "ok    a params longer than the network takes is an error ($folder)"
fi
echo "net-dry-seq: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 1 ]
