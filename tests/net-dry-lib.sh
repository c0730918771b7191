# net-dry-lib.sh — sourced by tests/net-dry-seq.sh and tests/net-dry-vit.sh: the case
# lines of every Level 3 task's shape sets ("FOLDER IN... -- OUT..." with each input as
# AxBx... or, for a layered input, its P) and the walk of them through one dry binary.

# net_dry_cases ROOT: one line per shape set of every task of ROOT/tasks/L3.
net_dry_cases() {
	python3 - "$1" <<'PY'
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
}

# net_dry_walk BIN CASES: runs every case through BIN (exit 3: not a task of this
# binary, skipped); counts into pass and fail, and keeps the first passing case in first.
net_dry_walk() {
	local bin=$1 folder args got
	first=""
	while read -r folder args; do
		got=$("$bin" "$folder" $args 2>&1)
		case $? in
		0) pass=$((pass + 1)); echo "ok    $folder $args"; [ -n "$first" ] || first="$folder $args" ;;
		3) ;;
		*) fail=$((fail + 1)); echo "FAIL  $folder $args: $got" ;;
		esac
	done <<< "$2"
}
