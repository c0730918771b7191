#!/bin/sh
# grandchild.sh — starts a background sleeper in its process group, reports both
# pids in its reply, answers every turn, and ignores EOF (keeps sleeping).
sleep 60 &
kid=$!
while IFS= read -r line; do
	printf '{"type":"action","code":"// x\\n","reply":"%s %s"}\n' "$$" "$kid"
done
exec sleep 60
