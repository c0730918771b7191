#!/usr/bin/env python3
"""echo_agent.py — a sanity agent for cuarena's exec protocol (docs/AGENT-PROTOCOL.md).

Turn 1: submits the task's own reference implementation, copied from the
"## Reference implementation" code block of the observation text (it compiles
and is correct, so a run with this agent checks the whole loop). Later turns:
stops. Standard library only.

    echo '{"command": ["python3", "agents/examples/echo_agent.py"]}' > echo.json
    cuarena run --agent exec --agent-config echo.json --turns 2
"""
import json
import sys


def reference_code(text):
    """The body of the first fenced block after the reference heading, or None."""
    head = text.find("## Reference implementation")
    if head < 0:
        return None
    lines = text[head:].split("\n")
    start = next((i for i, l in enumerate(lines) if l.lstrip().startswith("```")), None)
    if start is None:
        return None
    fence = lines[start].lstrip()
    fence = fence[: len(fence) - len(fence.lstrip("`"))]      # the run of backticks
    for end in range(start + 1, len(lines)):
        if lines[end].strip() == fence:
            return "\n".join(lines[start + 1 : end]) + "\n"
    return None


def answer(obs):
    if obs.get("turn", 1) > 1:
        return {"type": "stop"}
    code = reference_code(obs.get("text", ""))
    if code is None:
        log("no reference implementation in the observation; stopping")
        return {"type": "stop"}
    return {"type": "action", "code": code, "reply": "resubmitting the reference",
            "tokens": {"prompt": 0, "completion": 0}}


def log(msg):
    print("echo_agent: " + msg, file=sys.stderr, flush=True)


def main():
    sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    sys.stdout.reconfigure(encoding="utf-8")
    for line in sys.stdin:            # one observation per line; EOF ends the episode
        if not line.strip():
            continue
        obs = json.loads(line)
        if obs.get("type") != "observation":
            log("ignoring a message of type %r" % obs.get("type"))
            continue
        sys.stdout.write(json.dumps(answer(obs)) + "\n")
        sys.stdout.flush()            # the harness waits for the whole line
    return 0


if __name__ == "__main__":
    sys.exit(main())
