#!/bin/sh
# segv.sh — reads one observation and dies of SIGSEGV.
IFS= read -r line
echo "pid=$$ about to segfault" >&2
kill -SEGV $$
