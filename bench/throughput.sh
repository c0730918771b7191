#!/usr/bin/env bash
# throughput.sh — candidates evaluated per GPU-hour by `cuarena run --agent replay`.
#
#   bench/throughput.sh [GLOB]     (on the GPU machine, after make bundle; default: all tasks)
#
# For every task the replay directory holds three turns: a kernel that writes
# nothing (wrong_output), one that does not compile (compile_error), and the
# task's reference (correct). The run keeps as many episodes in flight as there
# are CPU cores: builds overlap while the GPU evaluates one kernel at a time.
# Prints the run's summary line: evaluations, wall time, per GPU-hour, GPU idle.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GLOB=${1:-*}
DIR=$(mktemp -d /tmp/cuarena-throughput-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
for t in "$ROOT"/tasks/L*/*/; do
	t=${t%/}
	id=$(basename "$(dirname "$t")")/$(basename "$t")
	case "$(basename "$t")" in $GLOB) ;; *) continue ;; esac
	[ -f "$t/task.json" ] || continue
	mkdir -p "$DIR/replay/$id"
	cat > "$DIR/replay/$id/turn-1.cu" <<'CU'
#include "cuarena.h"
int cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)
{ return 0; }
CU
	cat > "$DIR/replay/$id/turn-2.cu" <<'CU'
#include "cuarena.h"
int cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)
{ return this is not C; }
CU
	cp "$t/reference.cu" "$DIR/replay/$id/turn-3.cu"
done
printf '{"dir": "%s/replay"}\n' "$DIR" > "$DIR/agent.json"
"$ROOT/build/cuarena" run --agent replay --agent-config "$DIR/agent.json" \
	--tasks "$GLOB" --turns 3 --out "${OUT:-$DIR}/throughput-run" --max-time-s 1
