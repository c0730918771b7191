#!/usr/bin/env python3
# good.py — a well-behaved exec agent: answers turns 1 and 2 with a kernel and a
# reply that echoes what it saw (pid, the observation, env, cwd), then stops.
import json, os, sys

sys.stdin.reconfigure(encoding="utf-8")
for line in sys.stdin:
    obs = json.loads(line)
    turn = obs["turn"]
    if turn > 2:
        print(json.dumps({"type": "stop"}), flush=True)
        continue
    seen = {"pid": os.getpid(), "task": obs["task"], "turn": turn,
            "max_turns": obs["max_turns"], "text": obs["text"], "data": obs["data"],
            "foo": os.environ.get("FOO"), "secret": os.environ.get("CUA_TEST_SECRET"),
            "cwd": os.getcwd()}
    print(json.dumps({"type": "action", "code": "// turn %d of %s\n" % (turn, obs["task"]),
                      "reply": json.dumps(seen),
                      "tokens": {"prompt": 10 * turn, "completion": turn}}), flush=True)
