#!/usr/bin/env bash
# cache-carry.sh — builds here, on the CPU, every object that the named tasks need
# on the GPU machine (their references and library baselines, as `cuarena selftest
# --compile-only` builds them) and, with --gpu-suite, every kernel the GPU suite and
# the README evaluate (tests/gpu/candidates, tests/cheats, examples: `eval
# --compile-only` against the task each names in its `// task:` line), into
# CARRY_CACHE (default build/carry-cache: outside .carry/, so a call carries only the
# archive), and packs it as .carry/cache.tgz for a device call to carry.
# tools/dev/gpu-session.sh unpacks it into $CUARENA_CACHE, so that call spends no device
# time in nvcc (a cache's keys do not depend on the checkout's path). Objects
# accumulate in CARRY_CACHE: remove it to start afresh.
#   make bundle; tools/dev/cache-carry.sh --gpu-suite 'L1/*' 'X/*'   # then carry .carry/cache.tgz
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SUITE=0
[ "${1:-}" = --gpu-suite ] && { SUITE=1; shift; }
[ $# -ge 1 ] || { sed -n '2,12p' "$0"; exit 2; }
[ -x build/cuarena ] || { echo "cache-carry: no build/cuarena: make bundle first" >&2; exit 2; }
# A jailed build and an unjailed one have different keys (their -I paths differ):
# the GPU machine jails its builds, so this machine must too.
if ! build/cuarena doctor --json 2>/dev/null |
	python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["build_jail"]["ok"] else 1)'; then
	echo "cache-carry: nvcc cannot be jailed here (cuarena doctor): its objects would not be" \
	     "found on the GPU machine" >&2
	exit 3
fi
CACHE=$(mkdir -p "${CARRY_CACHE:-build/carry-cache}" && cd "${CARRY_CACHE:-build/carry-cache}" && pwd)
CUARENA_CACHE=$CACHE build/cuarena selftest --compile-only --jobs "$(nproc)" "$@"
if [ "$SUITE" = 1 ]; then
	bad=0
	for f in tests/gpu/candidates/*.cu tests/cheats/*.cu examples/*.cu; do
		task=$(sed -n 's,^// task: \([^ ]*\).*,\1,p' "$f" | head -n 1)
		[ -n "$task" ] || continue
		# exit 1 is a verdict (a cheat rejected before it runs): its object is cached
		# all the same; 2 and above is a usage or harness failure
		CUARENA_CACHE=$CACHE timeout 300 build/cuarena eval --compile-only "$task" "$f" \
			> /dev/null 2>&1 || [ $? -eq 1 ] || { echo "cache-carry: $f: not built" >&2; bad=$((bad + 1)); }
	done
	echo "cache-carry: the GPU suite's kernels built ($bad not)"
fi
rm -f "$CACHE"/*.tmp.*
mkdir -p .carry
tar czf .carry/cache.tgz -C "$(dirname "$CACHE")" "$(basename "$CACHE")"
echo "cache-carry: .carry/cache.tgz holds $(ls "$CACHE" | grep -c '\.so$') objects in" \
     "$(du -m .carry/cache.tgz | cut -f1) MB (a device call carries 64 MB in all)"
