#!/usr/bin/env bash
# net-dry-seq.sh — every shape set of every recurrent and attention Level 3 task through
# build/net-dry-seq (tests/net-dry-seq.cu): the reference's network walked on a dry backend
# must take exactly the task's P weights and give every output's element count. Tasks the
# binary does not know are skipped; a params one segment too long must fail.
#     tests/net-dry-seq.sh build/net-dry-seq
set -u
BIN=${1:-build/net-dry-seq}
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
	3) ;;                                   # not a task of this family
	*) fail=$((fail + 1)); echo "FAIL  $folder $args: $got" ;;
	esac
done <<< "$cases"
# the check can fail: a params 64 elements longer than the network takes is an error
read -r folder args <<< "$first"
long=$(sed -E 's/(^| )([0-9]+)( |$)/\1X\3/' <<< "$args")
p=$(grep -oE '(^| )[0-9]+( |$)' <<< "$args" | head -1 | tr -d ' ')
if [ -n "$p" ] && "$BIN" "$folder" ${long/X/$((p + 64))} > /dev/null 2>&1; then
	fail=$((fail + 1)); echo "FAIL  a params longer than the network takes passed ($folder)"
else
	pass=$((pass + 1)); echo "ok    a params longer than the network takes is an error ($folder)"
fi
echo "net-dry-seq: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 1 ]
