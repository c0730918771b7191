#!/usr/bin/env python3
# noisy.py — writes 1 MiB to stderr before each answer (the harness must drain it
# or both sides block), then answers with the length of the observation text.
import json, sys

for line in sys.stdin:
    obs = json.loads(line)
    for i in range(1024):
        sys.stderr.write("noise %04d " % i + "." * 1012 + "\n")
    sys.stderr.write("last words\n")
    sys.stderr.flush()
    print(json.dumps({"type": "action", "code": "// %d\n" % len(obs["text"])}), flush=True)
