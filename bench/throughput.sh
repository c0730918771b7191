#!/usr/bin/env bash
# throughput.sh — candidates evaluated per GPU-hour by `cuarena run --agent replay`.
#
#   bench/throughput.sh [GLOB]   (on the GPU machine, after make bundle; default: all tasks
#                                of level LEVEL, default 1: the figure's definition since
#                                Level 2 exists; LEVEL=all: Levels 1-3 in one run)
#
# For every task the replay directory holds three turns: a kernel that writes
# nothing (wrong_output), one that does not compile (compile_error), and the
# task's reference (correct). The run keeps as many episodes in flight as there
# are CPU cores: builds overlap while each GPU evaluates one kernel at a time.
# Prints the run's summary line: evaluations, wall time, per GPU-hour, GPU idle.
#
# Builds are part of what it measures: every candidate source carries its task
# and the run's start time in a comment (no two share a compile-cache entry, and
# the reference candidate is not the nvcc baseline's cached object), and the run
# uses its own compile cache, empty at the start (OUT/cache; kept for a resume), and its own
# baseline store in it (OUT/cache/baselines: empty unless STORE=warm).
# The H200 run of 2026-11-29 had neither: every build was a cache hit.
#
# Environment: OUT (default /tmp/cuarena-throughput) holds replay/ and the run
# (throughput-run/); GPUS (e.g. 0,1) is passed as --gpus; MAX_TIME_S (default 1)
# caps each timing; TASKS_ROOT (default this checkout) is the catalogue the run
# takes its tasks from (`--root`): an earlier harness's catalogue there measures
# this harness on the same work as the earlier one (issue 24's Keep, whose figure
# was taken over catalogue version 1's Level 1; version 2 is KernelBench's, with
# reference calls of hundreds of ms). When OUT already holds a run that was cut short (a device
# call's time limit), it is resumed: finished episodes are not repeated.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GLOB=${1:-*}
TASKS_ROOT=$(cd "${TASKS_ROOT:-$ROOT}" && pwd)
DIR=${OUT:-/tmp/cuarena-throughput}
RUN=$DIR/throughput-run
export CUARENA_CACHE=$DIR/cache
GPU_ARGS=()
[ -n "${GPUS:-}" ] && GPU_ARGS=(--gpus "$GPUS")
if [ -f "$RUN/run.json" ]; then
	echo "throughput: resuming $RUN"
	exec "$ROOT/build/cuarena" --root "$TASKS_ROOT" run --resume "$RUN" "${GPU_ARGS[@]}" \
		--max-time-s "${MAX_TIME_S:-1}"
fi
# STORE=cold (the default): an empty compile cache and an empty baseline store, every baseline
# measured; STORE=warm: the baseline store an earlier run left in OUT/cache/baselines is kept
# (the objects are not), so the baselines it holds are reused, one re-timed as the drift check
# (issue 30's "baselines known" figure): move the earlier run (OUT/throughput-run) away first,
# or it is resumed
case "${STORE:-cold}" in
cold) rm -rf "$DIR/cache" ;;
warm) [ -d "$DIR/cache/baselines" ] || { echo "throughput: STORE=warm needs $DIR/cache/baselines" \
		"(an earlier run's store)" >&2; exit 2; }
	find "$DIR/cache" -mindepth 1 -maxdepth 1 ! -name baselines -exec rm -rf {} + ;;
*) echo "throughput: STORE must be cold or warm" >&2; exit 2 ;;
esac
rm -rf "$DIR/replay" "$RUN"
mkdir -p "$DIR/replay"
SALT="throughput bench $(date -u +%Y-%m-%dT%H:%M:%SZ)"
# LEVEL: one level (default 1), or "all": Levels 1, 2 and 3 in one run (the paper table's)
case "${LEVEL:-1}" in
all) LEVELS="L1 L2 L3"; SELECT=(--tasks "@(L1|L2|L3)/$GLOB") ;;
[1-9]) LEVELS="L${LEVEL:-1}"; SELECT=(--tasks "$GLOB" --level "${LEVEL:-1}") ;;
*) echo "throughput: LEVEL must be a level (1-9) or all" >&2; exit 2 ;;
esac
for t in "$TASKS_ROOT"/tasks/L*/*/; do
	t=${t%/}
	id=$(basename "$(dirname "$t")")/$(basename "$t")
	case " $LEVELS " in *" $(basename "$(dirname "$t")") "*) ;; *) continue ;; esac
	case "$(basename "$t")" in $GLOB) ;; *) continue ;; esac
	[ -f "$t/task.json" ] || continue
	mkdir -p "$DIR/replay/$id"
	{ echo "// $id, $SALT"; cat <<'CU'
#include "cuarena.h"
int cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)
{ return 0; }
CU
	} > "$DIR/replay/$id/turn-1.cu"
	{ echo "// $id, $SALT"; cat <<'CU'
#include "cuarena.h"
int cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)
{ return this is not C; }
CU
	} > "$DIR/replay/$id/turn-2.cu"
	{ echo "// $id, $SALT"; cat "$t/reference.cu"; } > "$DIR/replay/$id/turn-3.cu"
done
printf '{"dir": "%s/replay"}\n' "$DIR" > "$DIR/agent.json"
exec "$ROOT/build/cuarena" --root "$TASKS_ROOT" run --agent replay --agent-config "$DIR/agent.json" \
	"${SELECT[@]}" --turns 3 --out "$RUN" "${GPU_ARGS[@]}" \
	--max-time-s "${MAX_TIME_S:-1}"
