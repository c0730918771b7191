#!/usr/bin/env bash
# net-dry-vit.sh — every shape set of the net-vit.cuh Level 3 tasks that tests/net-dry.cu
# cannot run (inputs other than {x, params}: Mamba2) through build/net-dry-vit
# (tests/net-dry-vit.cu): the reference's network walked on a dry backend must accept the
# inputs and give every output's element count. Tasks the binary does not know are
# skipped; an input whose sequence length disagrees with the others must fail.
#     tests/net-dry-vit.sh build/net-dry-vit
set -u
BIN=${1:-build/net-dry-vit}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0
cases=$(python3 - "$ROOT" <<'PY'
import glob, json, os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tools"))
import l3_layout
for path in sorted(glob.glob(os.path.join(sys.argv[1], "tasks", "L3", "*", "task.json"))):
    t = json.load(open(path))
    folder = os.path.basename(os.path.dirname(path))
    for s in t["shapes"]:
        env = dict(s["dims"])
        env.update({k: int(v) for k, v in t.get("params", {}).items() if float(v).is_integer()})
        ev = lambda e: str(eval(str(e).replace("/", "//"), {"__builtins__": {}}, env))
        ins = [str(l3_layout.expand(i["layers"], t.get("params"))[1]) if "layers" in i
               else "x".join(ev(e) for e in i["shape"]) for i in t["inputs"]]
        outs = ["x".join(ev(e) for e in o["shape"]) for o in t["outputs"]]
        print(folder, " ".join(ins), "--", " ".join(outs))
PY
)
first=""
while read -r folder args; do
	got=$("$BIN" "$folder" $args 2>&1)
	case $? in
	0) pass=$((pass + 1)); echo "ok    $folder $args"; [ -n "$first" ] || first="$folder $args" ;;
	3) ;;                                   # not a task of this binary
	*) fail=$((fail + 1)); echo "FAIL  $folder $args: $got" ;;
	esac
done <<< "$cases"
# the check can fail: the first input's dim 1 one longer (a sequence the others lack)
read -r folder in0 rest <<< "$first"
IFS=x read -r -a d <<< "$in0"
d[1]=$((d[1] + 64))
bad=$(IFS=x; echo "${d[*]}")
if "$BIN" "$folder" "$bad" $rest > /dev/null 2>&1; then
	fail=$((fail + 1)); echo "FAIL  inputs of disagreeing lengths passed ($folder $bad)"
else
	pass=$((pass + 1)); echo "ok    inputs of disagreeing lengths are an error ($folder $bad)"
fi
echo "net-dry-vit: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 1 ]
