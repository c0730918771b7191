#!/usr/bin/env bash
# net-dry.sh — every shape set of every Level 3 task through build/net-dry (tests/net-dry.cu):
# the reference's network walked on a dry backend must take exactly the task's P weights
# and give the output's element count. A task net-dry does not know is listed as skipped.
#     tests/net-dry.sh build/net-dry
set -u
BIN=${1:-build/net-dry}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
cases=$(python3 - "$ROOT" <<'PY'
import glob, json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tools"))
import l3_layout
for path in sorted(glob.glob(os.path.join(sys.argv[1], "tasks", "L3", "*", "task.json"))):
    t = json.load(open(path))
    folder = os.path.basename(os.path.dirname(path))
    lay = [i for i in t["inputs"] if "layers" in i]
    if len(t["inputs"]) != 2 or len(lay) != 1 or len(t["outputs"]) != 1:
        continue        # not the {x, params} -> y form net-dry runs
    P = l3_layout.expand(lay[0]["layers"], t.get("params"))[1]
    x = [i for i in t["inputs"] if "layers" not in i][0]
    for s in t["shapes"]:
        env = dict(s["dims"])
        env.update({k: int(v) for k, v in t.get("params", {}).items() if float(v).is_integer()})
        ev = lambda e: str(eval(str(e).replace("/", "//"), {"__builtins__": {}}, env))
        print(folder, P, " ".join(ev(e) for e in x["shape"]), "--",
              " ".join(ev(e) for e in t["outputs"][0]["shape"]))
PY
)
while read -r folder args; do
	got=$("$BIN" "$folder" $args 2>&1)
	case $? in
	0) pass=$((pass + 1)); echo "ok    $folder $args" ;;
	3) skip=$((skip + 1)); echo "skip  $folder (not in tests/net-dry.cu)" ;;
	*) fail=$((fail + 1)); echo "FAIL  $folder $args: $got" ;;
	esac
done <<< "$cases"
# the check can fail: one weight too many in params is an error
read -r folder p rest <<< "$cases"
if "$BIN" "$folder" $((p + 64)) $rest > /dev/null 2>&1; then
	fail=$((fail + 1)); echo "FAIL  a params longer than the network takes passed"
else
	pass=$((pass + 1)); echo "ok    a params longer than the network takes is an error"
fi
echo "net-dry: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
