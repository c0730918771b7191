#!/bin/sh
# silent.sh — never answers (and never reads): sleeps as the same process.
echo "pid=$$ thinking forever" >&2
exec sleep 60
