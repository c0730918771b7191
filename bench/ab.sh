#!/usr/bin/env bash
# ab.sh — two builds of the harness time the same baselines in one session, in turn:
# a change to the judge (its generator, its jail, its clock) must leave the times of
# the same kernels where they were (issue 24's Keep: the L1 references within 2 %).
#
#   bench/ab.sh OLD_ROOT PATTERN...     e.g.  git worktree add ../old c7920e8
#                                             (cd ../old && make bundle)
#                                             bench/ab.sh ../old 'L1/0[0-4]*'
#
# OLD_ROOT is a checkout of the earlier harness with its own build/ (make bundle
# there). Both builds time the tasks of OLD_ROOT's catalogue: OLD_ROOT/build/cuarena
# and this checkout's build/cuarena --root OLD_ROOT, so each runs the same task
# files, references and library baselines at the same shapes. ROUNDS (3) rounds,
# old then new, each a fresh `cuarena baselines TASK --json` (`--max-time-s`
# MAX_TIME_S, 0.5). Per task and subject: each side's median of its rounds' medians
# (the judge's clock, judge_ms, else event_ms), and new / old; torch's imported figures
# (baselines/torch: timed by neither side) are left out. Prints one line per
# task and subject, then the median ratio over all; exits 1 when that median is
# outside 1 ± TOL (0.02), 2 on usage. JSON lines in $OUT/ab.jsonl (OUT default
# /tmp/cuarena-ab).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '2,19p' "$0"; exit 2; }
OLD=$(cd "$1" && pwd) || exit 2
shift
NEW_BIN=$ROOT/build/cuarena
OLD_BIN=$OLD/build/cuarena
for b in "$NEW_BIN" "$OLD_BIN"; do
	[ -x "$b" ] || { echo "ab: no $b (make bundle there)" >&2; exit 2; }
done
OUT=${OUT:-/tmp/cuarena-ab}
mkdir -p "$OUT"
: > "$OUT/ab.jsonl"
ROUNDS=${ROUNDS:-3}
MAX=${MAX_TIME_S:-0.5}
# the tasks: ids of OLD_ROOT's catalogue that a pattern (extended glob) names, by id
# or by folder
shopt -s extglob
TASKS=()
while read -r id; do
	for p in "$@"; do
		# shellcheck disable=SC2254
		case "$id" in $p) TASKS+=("$id"); break ;; esac
		case "${id#*/}" in $p) TASKS+=("$id"); break ;; esac
	done
done < <(CUARENA_ROOT=$OLD "$NEW_BIN" list --json |
	python3 -c 'import json, sys; print("\n".join(t["id"] for t in json.load(sys.stdin)["tasks"]))')
[ ${#TASKS[@]} -ge 1 ] || { echo "ab: no task of $OLD matches: $*" >&2; exit 2; }
echo "ab: ${#TASKS[@]} tasks, $ROUNDS rounds each side, old $OLD_BIN, new $NEW_BIN"
for id in "${TASKS[@]}"; do
	for ((r = 1; r <= ROUNDS; r++)); do
		for side in old new; do
			if [ $side = old ]; then
				(cd "$OLD" && CUARENA_ROOT=$OLD timeout 300 "$OLD_BIN" baselines "$id" --json \
					--max-time-s "$MAX") > "$OUT/one.json" 2> "$OUT/one.err"
			else
				CUARENA_ROOT=$OLD timeout 300 "$NEW_BIN" --root "$OLD" baselines "$id" --json \
					--max-time-s "$MAX" > "$OUT/one.json" 2> "$OUT/one.err"
			fi
			python3 - "$OUT/one.json" "$id" "$side" "$r" >> "$OUT/ab.jsonl" <<'PY' ||
import json, sys
path, task, side, rnd = sys.argv[1:5]
try:
    rep = json.load(open(path))
except ValueError:
    sys.exit(1)   # no report: the command said why on stderr
for b in rep.get("baselines", []):
    if b.get("imported"):
        continue   # torch's figures are read from baselines/torch, timed by neither side
    t = b.get("timing") or {}
    clock = "judge_ms" if t.get("judge_ms") else "event_ms"
    med = (t.get(clock) or {}).get("median")
    print(json.dumps({"task": task, "side": side, "round": int(rnd), "subject": b["subject"],
                      "verdict": b["verdict"], "clock": clock, "median_ms": med}))
PY
				echo "ab: $id $side round $r: no report ($(tail -c 300 "$OUT/one.err" | tr '\n' ' '))"
		done
	done
done
python3 - "$OUT/ab.jsonl" "${TOL:-0.02}" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
tol = float(sys.argv[2])
by = {}
for r in rows:
    if r["verdict"] == "ok" and r["median_ms"]:
        by.setdefault((r["task"], r["subject"]), {}).setdefault(r["side"], []).append(r["median_ms"])
ratios = []
for (task, subject), s in sorted(by.items()):
    if "old" in s and "new" in s:
        o, n = statistics.median(s["old"]), statistics.median(s["new"])
        ratios.append(n / o)
        print(f"{task:44s} {subject:22s} old {o:10.4f} ms  new {n:10.4f} ms  new/old {n / o:.4f}")
    else:
        print(f"{task:44s} {subject:22s} not timed ok on both sides: {sorted(s)}")
if not ratios:
    print("ab: nothing timed on both sides")
    sys.exit(1)
refs = [n / o for (task, subject), s in sorted(by.items()) if subject == "nvcc" and "old" in s
        and "new" in s for o, n in [(statistics.median(s["old"]), statistics.median(s["new"]))]]
if refs:
    print(f"ab: the {len(refs)} nvcc references: median new/old {statistics.median(refs):.4f} "
          f"(min {min(refs):.4f}, max {max(refs):.4f})")
m = statistics.median(ratios)
ok = abs(m - 1) <= tol
print(f"ab: {len(ratios)} baselines, median new/old {m:.4f} (min {min(ratios):.4f}, max {max(ratios):.4f}); "
      f"{'within' if ok else 'OUTSIDE'} 1 ± {tol}")
sys.exit(0 if ok else 1)
PY
