#!/bin/sh
# huge.sh — answers with one line of 5 MB (over the 4 MiB default cap).
IFS= read -r line
echo "pid=$$" >&2
head -c 5000000 /dev/zero | tr '\0' x
echo
exec sleep 60
