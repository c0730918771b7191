#!/bin/sh
# crash.sh — reads one observation, says so on stderr, exits with status 3.
IFS= read -r line
echo "pid=$$ crashing on purpose" >&2
exit 3
