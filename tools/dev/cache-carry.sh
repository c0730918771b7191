#!/usr/bin/env bash
# cache-carry.sh — builds here, on the CPU, every object that the named tasks need
# on the GPU machine (their references and library baselines, as `cuarena selftest
# --compile-only` builds them) into .carry/cache, and packs it as .carry/cache.tgz
# for a device call to carry. tools/dev/gpu-session.sh unpacks it into $CUARENA_CACHE,
# so that call spends no device time in nvcc (a cache's keys do not depend on the
# checkout's path). Objects accumulate in .carry/cache: remove it to start afresh.
#   make bundle; tools/dev/cache-carry.sh 'L2/04*' 'L2/05*'   # then carry .carry/cache.tgz
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
[ $# -ge 1 ] || { sed -n '2,8p' "$0"; exit 2; }
[ -x build/cuarena ] || { echo "cache-carry: no build/cuarena: make bundle first" >&2; exit 2; }
# A jailed build and an unjailed one have different keys (their -I paths differ):
# the GPU machine jails its builds, so this machine must too.
if ! build/cuarena doctor --json 2>/dev/null |
	python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["build_jail"]["ok"] else 1)'; then
	echo "cache-carry: nvcc cannot be jailed here (cuarena doctor): its objects would not be" \
	     "found on the GPU machine" >&2
	exit 3
fi
mkdir -p .carry/cache
CUARENA_CACHE=$ROOT/.carry/cache build/cuarena selftest --compile-only --jobs "$(nproc)" "$@"
rm -f .carry/cache/*.tmp.*
tar czf .carry/cache.tgz -C .carry cache
echo "cache-carry: .carry/cache.tgz holds $(ls .carry/cache | grep -c '\.so$') objects in" \
     "$(du -m .carry/cache.tgz | cut -f1) MB (a device call carries 64 MB in all)"
