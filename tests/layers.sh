#!/usr/bin/env bash
# layers.sh — every #include of harness/ and agents/ names a room at or before its own,
# in docs/ARCHITECTURE.md's order: the ground floor (harness/*.[ch], rng.h), catalogue,
# compile, judge, eval, results, episode, agents, boards, cli. An include of a later room
# is a cycle in the making (compile/ and judge/ once included each other). Prints each
# offending line and "layers: N files, N upward includes"; exits 1 if there is one.
#   tests/layers.sh [ROOT]
set -u
ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$ROOT" || exit 2
rank() {
	case "$1" in
	ground) echo 0 ;; catalogue) echo 1 ;; compile) echo 2 ;; judge) echo 3 ;; eval) echo 4 ;;
	results) echo 5 ;; episode) echo 6 ;; agents) echo 7 ;; boards) echo 8 ;; cli) echo 9 ;;
	*) echo -1 ;;
	esac
}
files=0 bad=0
while IFS= read -r f; do
	files=$((files + 1))
	case "$f" in
	agents/*) own=agents ;;
	harness/*/*) own=${f#harness/}; own=${own%%/*} ;;
	*) own=ground ;;
	esac
	mine=$(rank "$own")
	if [ "$mine" -lt 0 ]; then
		echo "layers: $f is in no room of docs/ARCHITECTURE.md ($own)"; bad=$((bad + 1)); continue
	fi
	while IFS=: read -r line inc; do
		room=${inc%%/*}
		[ "$room" = "$inc" ] && continue            # "common.h", "sandbox.h": the ground floor
		r=$(rank "$room")
		[ "$r" -lt 0 ] && continue                  # not a room of ours ("cjson/cJSON.h")
		if [ "$r" -gt "$mine" ]; then
			echo "layers: $f:$line includes $inc: $room is above $own"; bad=$((bad + 1))
		fi
	done < <(awk 'match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/) {
		s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s); sub(/"$/, "", s)
		print FNR ":" s }' "$f")
done < <(find harness agents -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' | sort)
echo "layers: $files files, $bad upward includes"
[ "$bad" -eq 0 ]
