#!/usr/bin/env bash
# fidelity.sh — the judge's clock against the kernel process's own CUDA events, per
# baseline (issue 28). On the GPU machine, after make bundle:
#
#   bench/fidelity.sh [options] PATTERN...      e.g. 'L1/*' 'L2/*', or L2/001 L2/006 L2/092
#
# PATTERN is a glob over task ids, matched as a prefix ('L2/001' is L2/001-conv2d-...).
# For each task, `build/cuarena baselines TASK --json` (the nvcc reference and every
# library baseline, judged and timed in one invocation); for each of them that passed, a
# row: its judge_ms median (the judge's time: one call from an idle GPU, host work
# included; what speedups use), event_ms median (the kernel process's CUDA events around
# the call: the GPU's time), host_ms median (that process's host clock), judge/event and
# `!` where the ratio is off by more than the tolerance. Rows are printed as tasks finish,
# then sorted with a summary.
#
#   --max-time-s S   each evaluation's timing cap (default 1)
#   --budget-s S     start no task S seconds after the builds (default: none); tasks
#                    not reached are counted in the summary
#   --gpus N         N shards at once, shard k on GPU k (CUDA_VISIBLE_DEVICES); default 1
#   --tol F          the tolerance on judge/event − 1 (default 0.02)
#   --old DIR        also time DIR as baselines/ (an older copy: before/after in one run):
#                    a root of its own with this one's tasks/ and include/, rows marked old
#   --out DIR        where the per-task JSON goes (default /tmp/cuarena-fidelity)
#   --no-prebuild    skip building every object first (`cuarena selftest --compile-only
#                    --jobs NPROC`, per root): a cold cache then builds one object at a time
#
# Exit: 0 every new row within the tolerance, 1 a row outside it or a baseline that did
# not pass, 2 usage, 3 nothing measured.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${CUARENA:-$ROOT/build/cuarena}
MAX=1 BUDGET=0 GPUS=1 TOL=0.02 OLD= OUT=/tmp/cuarena-fidelity PREBUILD=1
usage() { sed -n '2,29p' "$0" >&2; exit 2; }
pats=()
while [ $# -gt 0 ]; do
	case $1 in
	--max-time-s) MAX=${2:?}; shift 2 ;;
	--budget-s) BUDGET=${2:?}; shift 2 ;;
	--gpus) GPUS=${2:?}; shift 2 ;;
	--tol) TOL=${2:?}; shift 2 ;;
	--old) OLD=${2:?}; shift 2 ;;
	--out) OUT=${2:?}; shift 2 ;;
	--no-prebuild) PREBUILD=0; shift ;;
	-h|--help) usage ;;
	-*) echo "fidelity: unknown option $1" >&2; usage ;;
	*) pats+=("$1"); shift ;;
	esac
done
[ ${#pats[@]} -ge 1 ] || usage
[ -x "$BIN" ] || { echo "fidelity: no $BIN: make bundle first" >&2; exit 2; }
# OUT is ours to clear only if a run of this script made it (or it is empty).
if [ -d "$OUT" ] && [ -n "$(ls -A "$OUT")" ] && [ ! -e "$OUT/.fidelity" ]; then
	echo "fidelity: $OUT holds files of something else; give another --out" >&2
	exit 2
fi
rm -rf "$OUT" && mkdir -p "$OUT" && touch "$OUT/.fidelity"

roots=("new:$ROOT")
if [ -n "$OLD" ]; then
	[ -d "$OLD/cudnn" ] || [ -d "$OLD/cublas" ] || {
		echo "fidelity: $OLD is not a baselines/ folder" >&2; exit 2; }
	mkdir -p "$OUT/old-root"
	cp -r "$ROOT/tasks" "$ROOT/include" "$OUT/old-root/"
	[ -d "$ROOT/data/devices" ] && mkdir -p "$OUT/old-root/results" &&
		cp -r "$ROOT/data/devices" "$OUT/old-root/results/"
	cp -r "$OLD" "$OUT/old-root/baselines"
	roots+=("old:$OUT/old-root")
fi

"$BIN" list --json > "$OUT/list.json" || { echo "fidelity: cuarena list failed" >&2; exit 3; }
python3 - "$OUT/list.json" "${pats[@]}" > "$OUT/tasks.txt" <<'PY'
import fnmatch, json, sys
tasks = [t["id"] for t in json.load(open(sys.argv[1]))["tasks"]]
for t in tasks:
    if any(fnmatch.fnmatchcase(t, p + "*") for p in sys.argv[2:]):
        print(t)
PY
n_tasks=$(wc -l < "$OUT/tasks.txt")
[ "$n_tasks" -ge 1 ] || { echo "fidelity: no task matches ${pats[*]}" >&2; exit 2; }
echo "fidelity: $n_tasks tasks, --max-time-s $MAX, $GPUS GPU(s), tolerance ±$TOL" >&2
if [ "$PREBUILD" = 1 ]; then
	for r in "${roots[@]}"; do
		mapfile -t ids < "$OUT/tasks.txt"
		"$BIN" --root "${r#*:}" selftest --compile-only --jobs "$(nproc)" "${ids[@]}" \
			> "$OUT/prebuild.${r%%:*}.log" 2>&1 ||
			echo "fidelity: some ${r%%:*} builds failed ($OUT/prebuild.${r%%:*}.log)" >&2
	done
fi

# The rows of one task's report (JSON) as tab-separated lines:
# task, which, subject, verdict, judge_ms, event_ms, host_ms, judge/event.
rows() {
	python3 - "$1" "$2" <<'PY'
import json, sys
path, which = sys.argv[1], sys.argv[2]
try:
    r = json.load(open(path))
except Exception as e:
    print("\t".join(["?", which, "?", "no report (%s)" % e.__class__.__name__] + ["-"] * 4))
    sys.exit()
for b in r.get("baselines", []):
    if b.get("imported"):
        continue
    t = b.get("timing") or {}
    med = lambda k: (t.get(k) or {}).get("median")
    j, e, h = med("judge_ms"), med("event_ms"), med("host_ms")
    ratio = j / e if j and e else None
    f = lambda v, p: "-" if v is None else "%.*f" % (p, v)
    print("\t".join([r.get("task", "?"), which, b["subject"], b["verdict"], f(j, 4), f(e, 4),
                     f(h, 4), f(ratio, 4)]))
PY
}

# Shard k of GPUS: every GPUS-th task from the k-th, each under every root.
shard() {
	local k=$1 t0 i=0 line safe
	t0=$(date +%s)
	while read -r task; do
		i=$((i + 1))
		[ $(((i - 1) % GPUS)) -eq "$k" ] || continue
		if [ "$BUDGET" != 0 ] && [ $(($(date +%s) - t0)) -ge "${BUDGET%.*}" ]; then
			echo "$task" >> "$OUT/skipped.$k"
			continue
		fi
		safe=${task//\//_}
		for r in "${roots[@]}"; do
			which=${r%%:*}
			CUDA_VISIBLE_DEVICES=$k "$BIN" --root "${r#*:}" baselines "$task" --json \
				--max-time-s "$MAX" > "$OUT/$safe.$which.json" 2> "$OUT/$safe.$which.err"
			rows "$OUT/$safe.$which.json" "$which" | tee -a "$OUT/rows.$k"
		done
	done < "$OUT/tasks.txt"
}

printf 'task\twhich\tsubject\tverdict\tjudge_ms\tevent_ms\thost_ms\tjudge/event\n'
pids=()
for ((k = 0; k < GPUS; k++)); do
	shard "$k" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done

echo "---- sorted" >&2
cat "$OUT"/rows.* 2> /dev/null | sort -t $'\t' -k1,1 -k3,3 -k2,2 > "$OUT/rows.tsv"
python3 - "$OUT/rows.tsv" "$TOL" "$(cat "$OUT"/skipped.* 2> /dev/null | wc -l)" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
tol, skipped = float(sys.argv[2]), int(sys.argv[3])
bad = failed = measured = 0
worst = None
print("%-44s %-4s %-26s %10s %10s %10s %8s" % ("task", "", "baseline", "judge_ms", "event_ms",
                                                 "host_ms", "ratio"))
for task, which, subj, verdict, j, e, h, ratio in rows:
    flag = ""
    if verdict != "ok" or ratio == "-":
        flag = "  (%s)" % verdict
        if which == "new":
            failed += 1
    else:
        off = abs(float(ratio) - 1)
        if off > tol:
            flag = "  !"
        if which == "new":
            measured += 1
            bad += off > tol
            if worst is None or off > worst[0]:
                worst = (off, task, subj, ratio)
    print("%-44s %-4s %-26s %10s %10s %10s %8s%s" % (task, which, subj, j, e, h, ratio, flag))
print("fidelity: %d new baselines measured, %d outside ±%g, %d did not pass, %d tasks not "
      "reached%s" % (measured, bad, tol, failed, skipped,
                     "; worst %s %s at %s" % (worst[1], worst[2], worst[3]) if worst else ""))
sys.exit(3 if measured == 0 else 1 if bad or failed else 0)
PY
