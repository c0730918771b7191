#!/bin/sh
# say.sh — answers observation N with the environment variable SAY_N verbatim
# (nothing when it is unset); SAY_EXIT_AFTER=N exits with status 0 after N answers.
# Reports its pid on stderr. Exits at EOF.
echo "pid=$$" >&2
n=1
while IFS= read -r line; do
	eval "reply=\${SAY_$n-}"
	[ -n "$reply" ] && printf '%s\n' "$reply"
	[ "${SAY_EXIT_AFTER:-0}" = "$n" ] && exit 0
	n=$((n + 1))
done
