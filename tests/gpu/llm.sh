#!/usr/bin/env bash
# llm.sh — a GPU check (on the GPU machine, after make bundle; tools/dev/gpu-session.sh llm
# runs it): the llm backend against `transformers serve` (a tiny random model built there,
# offline): replies recorded, no_code turns, exit 0; a model the server cannot load: exit 4.
# Missing serving packages come from .carry/wheels (tools/dev/serve-wheels.sh fills it).
# Self-checking: ends "llm: N passed, N failed", exit 1 if any failed. Logs in OUT
# (default /tmp/gpu-session); the GPU is the first of CUDA_VISIBLE_DEVICES, else GPU 0.
. "$(dirname "$0")/common.sh"
# issue 14: the llm backend against somebody else's server, not only our fake.
port=${LLM_PORT:-8765}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS llm: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL llm: $1"; }
missing=$(python3 -c 'import importlib.util as u; print(" ".join(m for m in ("fastapi", "uvicorn", "openai", "pydantic") if not u.find_spec(m)))')
if [ -n "$missing" ] && [ -d .carry/wheels ]; then
	python3 -m pip install --quiet --no-index --find-links .carry/wheels $missing \
		> "$OUT/llm-pip.log" 2>&1
	missing=$(python3 -c 'import importlib.util as u; print(" ".join(m for m in ("fastapi", "uvicorn", "openai", "pydantic") if not u.find_spec(m)))')
fi
[ -z "$missing" ] && ok "serving packages present" || ko "serving packages missing: $missing (carry .carry/wheels)"
# /v1/models lists the hub cache, which must exist (the machine has none)
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HOME=/tmp/cuarena-hf
mkdir -p "$HF_HOME/hub"
MODEL=/tmp/cuarena-tiny-chat
timeout 120 python3 tools/tiny_chat_model.py "$MODEL" > "$OUT/llm-model.log" 2>&1 &&
	ok "tiny model built offline: $(tail -n 1 "$OUT/llm-model.log")" ||
	ko "tiny model: $(tail -n 3 "$OUT/llm-model.log" | tr '\n' ' ')"
CUDA_VISIBLE_DEVICES=${DEVS[0]} setsid transformers serve --port "$port" \
	> "$OUT/llm-serve.log" 2>&1 &
spid=$!
up=0
for _ in $(seq 1 90); do
	# up once it answers at all (the listing itself is not what is tested)
	code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/v1/models" 2>/dev/null)
	[ "${code:-000}" != 000 ] && { up=1; break; }
	kill -0 "$spid" 2>/dev/null || break
	sleep 1
done
[ "$up" = 1 ] && ok "transformers serve answers (/v1/models: HTTP $code)" ||
	ko "transformers serve did not come up: $(tail -n 5 "$OUT/llm-serve.log" | tr '\n' ' ')"
# the server's own answer, without cuarena in between
curl -s -m 120 "http://127.0.0.1:$port/v1/chat/completions" -H 'Content-Type: application/json' \
	-d "{\"model\": \"$MODEL\", \"messages\": [{\"role\": \"user\", \"content\": \"write a kernel\"}], \"max_tokens\": 16}" \
	> "$OUT/llm-direct.json" 2>&1
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert isinstance(j["choices"][0]["message"]["content"], str)' \
	"$OUT/llm-direct.json" 2>/dev/null && ok "a direct chat completion has choices[0].message.content" ||
	ko "direct chat completion: $(head -c 300 "$OUT/llm-direct.json")"
printf '{"base_url": "http://127.0.0.1:%s/v1", "model": "%s", "max_tokens": 64, "timeout_s": 180, "max_retries": 1}\n' \
	"$port" "$MODEL" > "$OUT/llm-config.json"
rm -rf "$OUT/llm-run"
CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 300 $BIN run --agent llm --agent-config "$OUT/llm-config.json" \
	--tasks 'L1/019-relu' --turns 2 --max-time-s 0.3 --out "$OUT/llm-run" > "$OUT/llm-run.log" 2>&1
rc=$?
[ "$rc" = 0 ] && ok "cuarena run --agent llm exits 0 against the real server" ||
	ko "cuarena run --agent llm exit $rc: $(tail -n 3 "$OUT/llm-run.log" | tr '\n' ' ')"
python3 - "$OUT/llm-run" <<'PY' && ok "every turn holds the server's reply and a verdict; no_code turns are not candidates" || ko "the run's files (see above)"
import json, sys
d = sys.argv[1]
turns = [json.loads(l) for l in open(d + "/trajectories.jsonl") if '"turn"' in l]
turns = [t for t in turns if t.get("kind") == "turn"]
evals = [json.loads(l) for l in open(d + "/evals.jsonl")]
run = json.load(open(d + "/run.json"))
assert len(turns) == 2, f"{len(turns)} turns"
assert all(t.get("reply") for t in turns), "a turn without the server's reply"
verdicts = [e["eval"]["verdict"] for e in evals]
candidates = sum(v != "no_code" for v in verdicts)
assert run["summary"]["evaluations"] == candidates, (run["summary"], verdicts)
print("llm run verdicts:", verdicts)
PY
printf '{"base_url": "http://127.0.0.1:%s/v1", "model": "/nonexistent-model", "max_tokens": 8, "timeout_s": 60, "max_retries": 1, "backoff_base_s": 0.1}\n' \
	"$port" > "$OUT/llm-config-bad.json"
rm -rf "$OUT/llm-run-bad"
CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 240 $BIN run --agent llm --agent-config "$OUT/llm-config-bad.json" \
	--tasks 'L1/019-relu' --turns 1 --max-time-s 0.3 --out "$OUT/llm-run-bad" > "$OUT/llm-run-bad.log" 2>&1
rc=$?
[ "$rc" = 4 ] && grep -q "ended because the agent failed" "$OUT/llm-run-bad.log" &&
	ok "a model the server cannot load: the agent fails, run exits 4 and says so" ||
	ko "bad model: exit $rc: $(tail -n 3 "$OUT/llm-run-bad.log" | tr '\n' ' ')"
kill -- -"$spid" 2>/dev/null
(cd "$OUT" && tar czf llm-run.tgz llm-run llm-run-bad llm-serve.log 2>/dev/null && rm -rf llm-run llm-run-bad)
echo "llm: $pass passed, $fail failed"
[ "$fail" = 0 ]
