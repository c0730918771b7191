#!/usr/bin/env bash
# slurm.sh — runs split into shards and merged (`run --shard`, `merge`), then the
# same on a real Slurm started here (tools/slurm-local.sh: slurmctld + slurmd in a
# network namespace of their own, loopback only, a GPU GRES backed by /dev/null),
# all on the CPU: turns that need no GPU (a reply without code, a kernel that does
# not compile) and baselines that fail at the GPU stage (CUARENA_ALLOW_NO_GPU).
# Run as `tests/slurm.sh build/cuarena` (make test does). The Slurm part says
# SKIPPED, loudly, where it cannot run (not root, no unshare, no slurm-wlm).
# Prints "N passed, N failed" last and exits non-zero if anything failed.
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: tests/slurm.sh PATH/TO/cuarena" >&2
	exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${CUARENA_ROOT:-$(dirname "$HERE")}
export CUARENA_ROOT=$ROOT
WORK=$(mktemp -d /tmp/cuarena-slurm-test-XXXXXX)
[ -n "${CUARENA_TEST_KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
export CUARENA_CACHE=$WORK/cache
export CUARENA_ALLOW_NO_GPU=1
OUT=$WORK/out
ERR=$WORK/err
RC=0
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok    $1"; }
fail() {
	failed=$((failed + 1))
	echo "FAIL  $1"
	echo "      command: cuarena $LAST (exit $RC)"
	sed -n '1,5s/^/      stdout: /p' "$OUT"
	sed -n '1,8s/^/      stderr: /p' "$ERR"
}
check() { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi; }
cua() {
	LAST="$*"
	"$BIN" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}
expect_rc() { if [ "$RC" -eq "$1" ]; then pass "$2"; else fail "$2: exit $RC, want $1"; fi; }
expect_in() { if grep -qF -- "$2" "$1"; then pass "$3"; else fail "$3: no '$2'"; fi; }
# json_check PYTHON-EXPR WHAT: the expression is true of the JSON on stdout (as j)
json_check() {
	if python3 -c "import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" \
		"$OUT" 2>/dev/null; then pass "$2"; else fail "$2"; fi
}
# py EXPR WHAT: a Python expression over the run folders named by the rest
py() {
	local expr=$1 what=$2
	shift 2
	LAST="(python) $expr"
	python3 - "$@" >"$OUT" 2>"$ERR" <<EOF
import json, os, sys
def lines(d, f):
    p = os.path.join(d, f)
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []
def meta(d):
    return json.load(open(os.path.join(d, "run.json")))
def verdicts(d):
    return sorted((l["task"], l["turn"], l["eval"]["verdict"]) for l in lines(d, "evals.jsonl"))
def ends(d):
    return sorted((l["task"], l["reason"], l["best_turn"]) for l in lines(d, "trajectories.jsonl")
                  if l["kind"] == "end" and l["reason"] != "interrupted")
a = sys.argv[1:]
sys.exit(0 if ($expr) else 1)
EOF
	RC=$?
	check $RC "$what"
}

# Six Level 1 tasks: 020-022 and 050-052. The replay agent's turn 1 does not
# compile; it has no turn 2, so the agent then stops.
TASKS='L1/0[25][0-2]-*'
mkdir -p "$WORK/replay"
for d in "$ROOT"/tasks/L1/02[0-2]-* "$ROOT"/tasks/L1/05[0-2]-*; do
	mkdir -p "$WORK/replay/L1/$(basename "$d")"
	echo 'this is not C' > "$WORK/replay/L1/$(basename "$d")/turn-1.cu"
done
echo "{\"dir\": \"$WORK/replay\"}" > "$WORK/replay.json"
RUN=(run --agent replay --agent-config "$WORK/replay.json" --tasks "$TASKS" --turns 2 --jobs 2)

# ---- run --shard: usage -----------------------------------------------------------
for bad in 3/3 -1/3 1/0 x/2 1/ /2 1/2/3; do
	cua "${RUN[@]}" --shard "$bad" --out "$WORK/bad"
	expect_rc 2 "run --shard $bad is a usage error"
done
cua "${RUN[@]}" --shard 0/7 --out "$WORK/bad"
expect_rc 2 "run --shard 0/7 of 6 tasks is a usage error"
expect_in "$ERR" "6 tasks selected, fewer than the shards" "it says how many tasks there are"
cua "${RUN[@]}" --costs "$WORK" --out "$WORK/bad"
expect_rc 2 "run --costs without --shard is a usage error"
cua "${RUN[@]}" --shard 0/2 --costs "$WORK/no-such-run" --out "$WORK/bad"
expect_rc 2 "run --costs naming no run is a usage error"
expect_in "$ERR" "no-such-run/baselines.jsonl" "it names the file it could not read"

# ---- the same run, whole and in three shards ------------------------------------
cua "${RUN[@]}" --out "$WORK/whole"
expect_rc 0 "the unsharded run succeeds"
for i in 0 1 2; do
	cua "${RUN[@]}" --shard "$i/3" --out "$WORK/s$i"
	expect_rc 0 "shard $i/3 runs"
done
py "sorted(sum((meta(d)['tasks'] for d in a), [])) == sorted(meta(a[0])['shard']['selected']) \
    and len(sum((meta(d)['tasks'] for d in a), [])) == 6" \
	"the three shards hold the six tasks, each once" "$WORK/s0" "$WORK/s1" "$WORK/s2"
py "all(len(meta(d)['tasks']) == 2 for d in a)" \
	"the six tasks (of costs close together) are dealt two to a shard" "$WORK/s0" "$WORK/s1" "$WORK/s2"
cua "${RUN[@]}" --shard 1/3 --out "$WORK/s1-again"
py "meta(a[0])['tasks'] == meta(a[1])['tasks'] and meta(a[0])['shard'] == meta(a[1])['shard']" \
	"the split is deterministic: shard 1/3 again has the same tasks" "$WORK/s1" "$WORK/s1-again"

# ---- merge ----------------------------------------------------------------------------
cua merge "$WORK/s2" "$WORK/s0" "$WORK/s1" --out "$WORK/merged"
expect_rc 0 "merge of the three shards succeeds"
expect_in "$OUT" "6/6 tasks finished" "merge counts the finished tasks"
py "verdicts(a[0]) == verdicts(a[1]) and ends(a[0]) == ends(a[1])" \
	"the merged run has the unsharded run's verdicts and episode ends" "$WORK/whole" "$WORK/merged"
py "meta(a[0])['tasks'] == meta(a[1])['tasks']" "the merged run lists the tasks in catalogue order" \
	"$WORK/whole" "$WORK/merged"
py "len(lines(a[0], 'baselines.jsonl')) == len(lines(a[1], 'baselines.jsonl'))" \
	"every baseline once" "$WORK/whole" "$WORK/merged"
py "[g['shard'] for g in meta(a[0])['segments']] == [0, 1, 2] and len(meta(a[0])['devices']) == 3 \
    and meta(a[0])['summary']['tasks_done'] == 6 and meta(a[0])['summary']['segments'] == 3 \
    and 'shard' not in meta(a[0]) and meta(a[0])['merged']['shards'] == 3" \
	"run.json has every shard's segments and devices, and the summary over them" "$WORK/merged"
py "meta(a[0])['summary']['evaluations'] == meta(a[1])['summary']['evaluations']" \
	"the merged run counts the evaluations the unsharded one did" "$WORK/whole" "$WORK/merged"
py "all(os.path.isdir(os.path.join(a[0], 'work', t.split('/')[1])) for t in meta(a[0])['tasks'])" \
	"every task's work folder comes along" "$WORK/merged"
cp -r "$WORK/merged" "$WORK/merged-before"
cua merge "$WORK/s0" "$WORK/s1" "$WORK/s2" --out "$WORK/merged"
expect_rc 0 "merging again into the same folder succeeds"
diff -r "$WORK/merged-before" "$WORK/merged" >/dev/null
check $? "merging again, in another order, gives the same folder, byte for byte"

# the readers take the merged run as they take any run
cua table "$WORK/merged" --json
expect_rc 0 "table reads the merged run"
json_check "j['runs'][0]['groups'][0]['level'] == 'Overall' and j['runs'][0]['groups'][0]['tasks'] == 6" \
	"table scores the merged run's six tasks"
cua table "$WORK/whole" --format csv
sed 's/,whole,/,RUN,/' "$OUT" > "$WORK/whole.csv"
cua table "$WORK/merged" --format csv
sed 's/,merged,/,RUN,/' "$OUT" | diff "$WORK/whole.csv" - >/dev/null
check $? "table prints the same for the merged run as for the unsharded one (but its name)"
cua board "$WORK/merged" --md "$WORK/board.md" --html "$WORK/board"
expect_rc 0 "board reads the merged run"
expect_in "$WORK/board.md" "| 1 | replay |" "the board ranks the merged run"
if command -v gnuplot >/dev/null; then
	# (plot fails alike on both: bars.gp has no point to draw when no task is correct)
	cua plot "$WORK/whole" --out "$WORK/plots-whole"
	rc_whole=$RC
	sed "s|$WORK/plots-whole|PLOTS|g" "$OUT" > "$WORK/plot-whole.txt"
	cua plot "$WORK/merged" --out "$WORK/plots-merged"
	[ "$RC" -eq "$rc_whole" ] && sed "s|$WORK/plots-merged|PLOTS|g" "$OUT" | diff "$WORK/plot-whole.txt" - >/dev/null
	check $? "plot does with the merged run what it does with the unsharded one"
fi
cua compare "$WORK/whole" "$WORK/whole"
tail -n 1 "$OUT" > "$WORK/compare-self.txt"
cua compare "$WORK/whole" "$WORK/merged"
expect_rc 0 "compare of the unsharded and the merged run finds no regression"
tail -n 1 "$OUT" | diff "$WORK/compare-self.txt" - >/dev/null
check $? "compare of the unsharded run with the merged one counts as with itself ($(cat "$WORK/compare-self.txt"))"
grep -q "| L1/052-max-dim |" "$OUT"
check $? "compare pairs every task of the merged run"
mkdir -p "$WORK/nightly" && cp -r "$WORK/merged" "$WORK/nightly/2026-12-01"
cp -r "$WORK/s0" "$WORK/nightly/.shard-0"
cua history "$WORK/nightly" --json
expect_rc 0 "history reads the merged run"
json_check "len(j) == 1 and j[0]['run_id'] == 'merged'" "history sees one run, not its shards in a dot folder"

# ---- merge refuses what is not one run ----------------------------------------------
# mutate COPY FIELD-PATH VALUE: a copy of shard 2 with one run.json field changed
mutate() {
	rm -rf "$WORK/$1" && cp -r "$WORK/s2" "$WORK/$1"
	python3 - "$WORK/$1/run.json" "$2" "$3" <<'EOF'
import json, sys
p, path, value = sys.argv[1], sys.argv[2].split("."), json.loads(sys.argv[3])
j = json.load(open(p))
o = j
for k in path[:-1]:
    o = o[k]
o[path[-1]] = value
json.dump(j, open(p, "w"))
EOF
}
for m in "agent.name:\"reference\":agent" "agent.version:\"v9\":agent version" \
         "turns:5:turn limit" "reward:\"kevin\":reward" "harness.git:\"0000000\":harness commit" \
         "catalogue_hash:\"00ff\":catalogue digest" "max_time_s:9:timing cap"; do
	field=${m%%:*}; rest=${m#*:}; value=${rest%:*}; what=${rest##*:}
	mutate odd "$field" "$value"
	cua merge "$WORK/s0" "$WORK/s1" "$WORK/odd" --out "$WORK/m-odd"
	expect_rc 2 "merge refuses a shard of another $what"
	expect_in "$ERR" "odd/run.json: $field" "it names the shard and the field ($field)"
	expect_in "$ERR" "$what" "it says what differs ($what)"
done
[ ! -e "$WORK/m-odd" ]
check $? "a refused merge writes nothing"
mutate odd device '{"name": "NVIDIA A100"}'
rm -rf "$WORK/s0-dev" && cp -r "$WORK/s0" "$WORK/s0-dev"
python3 -c "import json,sys; p=sys.argv[1]; j=json.load(open(p)); j['device']={'name':'NVIDIA H200'}; json.dump(j,open(p,'w'))" "$WORK/s0-dev/run.json"
cua merge "$WORK/s0-dev" "$WORK/s1" "$WORK/odd" --out "$WORK/m-odd"
expect_rc 2 "merge refuses shards measured on different GPU models"
expect_in "$ERR" "NVIDIA A100" "it names both GPUs"
cua merge "$WORK/s0" "$WORK/s1" "$WORK/s1-again" --out "$WORK/m-odd"
expect_rc 2 "merge refuses the same shard twice"
expect_in "$ERR" "are both shard 1/3" "it names the two folders of shard 1/3"
cua merge "$WORK/s0" "$WORK/s1" "$WORK/whole" --out "$WORK/m-odd"
expect_rc 2 "merge refuses a shard beside a run that is not one"
cua merge "$WORK/s0" "$WORK/s1" "$WORK/s2" --out "$WORK/s1"
expect_rc 2 "merge refuses --out naming one of the shards"
cua merge "$WORK/s0" "$WORK/s1" "$WORK/s2" --out "$WORK/whole"
expect_rc 2 "merge refuses to overwrite a run that is not a merge"
expect_in "$ERR" "not a merge" "it says why"

# ---- missing and unfinished shards are named, never dropped ---------------------------
cua merge "$WORK/s0" "$WORK/s2" --out "$WORK/m-part"
expect_rc 1 "merge of two of three shards fails"
expect_in "$ERR" "shard 1/3 is missing" "it names the missing shard"
expect_in "$ERR" "$(python3 -c "import json; print(json.load(open('$WORK/s1/run.json'))['tasks'][0])")" \
	"it names a task of the missing shard"
[ ! -e "$WORK/m-part" ]
check $? "and writes nothing"
cua merge "$WORK/s0" "$WORK/no-such-shard" "$WORK/s2" --print-missing
expect_rc 0 "merge --print-missing succeeds"
[ "$(cat "$OUT")" = 1 ]
check $? "merge --print-missing prints the missing shard's index"
cua merge "$WORK/nothing-0" "$WORK/nothing-1" --expect 2 --print-missing
[ "$RC" -eq 0 ] && [ "$(cat "$OUT")" = "0,1" ]
check $? "with --expect N and no shard at all, every index is missing"
# a shard killed mid-episode: its last task has no end line
rm -rf "$WORK/s1-killed" && cp -r "$WORK/s1" "$WORK/s1-killed"
last=$(python3 -c "import json; print(json.load(open('$WORK/s1/run.json'))['tasks'][-1])")
grep -v "\"kind\":\"end\",\"task\":\"$last\"" "$WORK/s1/trajectories.jsonl" > "$WORK/s1-killed/trajectories.jsonl"
printf '{"schema":1,"kind":"turn","task":"%s","tu' "$last" >> "$WORK/s1-killed/trajectories.jsonl"
cua merge "$WORK/s0" "$WORK/s1-killed" "$WORK/s2" --out "$WORK/m-part"
expect_rc 1 "merge of an unfinished shard fails"
expect_in "$ERR" "s1-killed (shard 1/3): 1 of 2 tasks unfinished: $last" "it names the shard and its unfinished task"
expect_in "$ERR" "cuarena run --resume" "it says how to finish it"
cua merge "$WORK/s0" "$WORK/s1-killed" "$WORK/s2" --print-missing
[ "$(cat "$OUT")" = 1 ]
check $? "merge --print-missing names the unfinished shard"
cua merge "$WORK/s0" "$WORK/s1-killed" "$WORK/s2" --out "$WORK/m-part" --allow-incomplete
expect_rc 0 "merge --allow-incomplete merges what there is"
expect_in "$ERR" "torn last line skipped" "it warns of the torn last line it left out"
py "meta(a[0])['summary']['tasks_done'] == 5 and meta(a[0])['summary']['interrupted'] \
    and len(meta(a[0])['tasks']) == 6" \
	"the merged run lists all six tasks and counts five finished" "$WORK/m-part"
# --resume finishes the shard without repeating what it finished
cua run --resume "$WORK/s1-killed"
expect_rc 0 "run --resume finishes the killed shard"
py "verdicts(a[0]) == verdicts(a[1]) and len(lines(a[0], 'baselines.jsonl')) == len(lines(a[1], 'baselines.jsonl'))" \
	"it repeated no evaluation and no baseline of the shard" "$WORK/s1-killed" "$WORK/s1"
cua merge "$WORK/s0" "$WORK/s1-killed" "$WORK/s2" --out "$WORK/m-resumed"
expect_rc 0 "the resumed shard merges"
py "verdicts(a[0]) == verdicts(a[1]) and ends(a[0]) == ends(a[1])" \
	"and the merge has the unsharded run's verdicts" "$WORK/whole" "$WORK/m-resumed"
# a turn written twice (as a resume may) is one evaluation of the merged run
rm -rf "$WORK/s2-dup" && cp -r "$WORK/s2" "$WORK/s2-dup"
head -n 1 "$WORK/s2/evals.jsonl" >> "$WORK/s2-dup/evals.jsonl"
cua merge "$WORK/s0" "$WORK/s1" "$WORK/s2-dup" --out "$WORK/m-dup"
py "meta(a[0])['summary']['evaluations'] == meta(a[1])['summary']['evaluations']" \
	"a turn evaluated twice counts once in the merged summary" "$WORK/whole" "$WORK/m-dup"
cua run --resume "$WORK/s1" --shard 0/2
expect_rc 2 "run --resume with --shard is a usage error"

# ---- a stop signal to every process (what Slurm sends) is an interruption ----------
# The agent, on its first turn, sends SIGTERM to the run and to itself: the
# episode must end "interrupted" (so --resume redoes it), not "agent failed".
cat > "$WORK/killer.json" <<'EOF'
{"command": ["sh", "-c", "read -r l; kill -TERM $PPID; kill -TERM $$; sleep 5"]}
EOF
cua run --agent exec --agent-config "$WORK/killer.json" --tasks 'L1/021-relu' --turns 2 \
	--out "$WORK/killed"
expect_rc 1 "a run sent SIGTERM exits 1 (interrupted)"
py "[(l['reason']) for l in lines(a[0], 'trajectories.jsonl') if l['kind'] == 'end'] == ['interrupted']" \
	"an agent killed by the same signal ends its episode interrupted, not failed" "$WORK/killed"
py "meta(a[0])['segments'][0]['interrupted']" "the segment says it was interrupted" "$WORK/killed"

# ---- cuarena slurm writes the job -----------------------------------------------------
cua slurm --shards 9 --out "$WORK/jobs/night" --agent replay --tasks "$TASKS"
expect_rc 2 "slurm --shards 9 of 6 tasks is a usage error"
cua slurm --shards 3 --out "$WORK/jobs/night" --agent no-such
expect_rc 2 "slurm with an unknown agent is a usage error"
cua slurm --shards 3 --throttle 2 --out "$WORK/jobs/night" --agent replay \
	--agent-config "$WORK/replay.json" --tasks "$TASKS" --turns 2 --sbatch "--constraint=h200"
expect_rc 0 "slurm writes the job"
J=$WORK/jobs/.night.slurm
expect_in "$J/array.sbatch" "#SBATCH --array=0-2%2" "one array task per shard, two at a time"
expect_in "$J/array.sbatch" "#SBATCH --gres=gpu:1" "each array task holds one GPU"
expect_in "$J/array.sbatch" "#SBATCH --requeue" "a preempted array task is requeued"
expect_in "$J/array.sbatch" "#SBATCH --constraint=h200" "--sbatch lines are passed on"
expect_in "$J/array.sbatch" "run --resume \"\$dir\"" "an array task resumes its shard when it has begun"
expect_in "$J/array.sbatch" "--shard \"\$i/3\"" "and starts shard i/3 otherwise"
expect_in "$J/merge.sbatch" "merge --expect 3 --print-missing" "the merge job looks for missing shards"
expect_in "$J/submit.sh" "--dependency=afterany:" "the merge job runs after the array, however it ended"
bash -n "$J/array.sbatch" && bash -n "$J/merge.sbatch" && bash -n "$J/submit.sh"
check $? "the three scripts are valid bash"
cua slurm --shards 3 --throttle 2 --out "$WORK/jobs/night" --agent replay \
	--agent-config "$WORK/replay.json" --tasks "$TASKS" --turns 2 --sbatch "--constraint=h200"
expect_rc 0 "slurm again with the same settings succeeds (a nightly resubmitted)"
cua slurm --shards 2 --out "$WORK/jobs/night" --agent replay --tasks "$TASKS"
expect_rc 2 "slurm refuses a job folder of other settings"
expect_in "$ERR" "other settings" "it says why"

# ---- a real Slurm -----------------------------------------------------------------------
SLURM_OK=1
if [ "$(id -u)" != 0 ]; then SLURM_OK="not root"
elif ! command -v unshare >/dev/null || ! unshare -n true 2>/dev/null; then SLURM_OK="no network namespace (unshare -n)"
elif [ -z "${CUARENA_SLURM_PREFIX:-}" ] && ! [ -x /usr/sbin/slurmctld-wlm ] && ! [ -x /usr/sbin/slurmctld ]; then
	SLURM_OK="no slurmctld (apt-get install slurmctld slurmd slurm-client; make deps does)"
fi
if [ "$SLURM_OK" != 1 ]; then
	echo "SKIPPED  *** the Slurm cluster test: $SLURM_OK ***"
	echo "$passed passed, $failed failed (Slurm part SKIPPED)"
	[ "$failed" -eq 0 ]
	exit
fi
# An exec agent that thinks for a second and replies without code: a shard
# lasts long enough to be cancelled in the middle (one episode at a time: after
# the first task ends, the second has two seconds to go).
cat > "$WORK/slow.json" <<'EOF'
{"command": ["sh", "-c", "while read -r l; do sleep 1; echo '{\"type\": \"action\", \"reply\": \"no code yet\"}'; done"]}
EOF
cua slurm --shards 3 --throttle 2 --out "$WORK/cluster/night" --agent exec \
	--agent-config "$WORK/slow.json" --tasks "$TASKS" --turns 2 --jobs 1
expect_rc 0 "slurm writes the cluster job"
CJ=$WORK/cluster/.night.slurm
cat > "$WORK/on-cluster.sh" <<EOF
set -u
out=\$(bash "$CJ/submit.sh") || exit 1
echo "\$out"
jid=\$(echo "\$out" | sed -n 's/.*array job \([0-9]*\).*/\1/p')
# cancel shard 1 in the middle of its second task: the merge job must re-run it
for _ in \$(seq 1 600); do
	[ -f "$CJ/shard-1-of-3/trajectories.jsonl" ] &&
		grep -q '"kind":"end"' "$CJ/shard-1-of-3/trajectories.jsonl" && break
	sleep 0.2
done
scancel "\${jid}_1" && echo "cancelled \${jid}_1"
for _ in \$(seq 1 900); do
	[ -f "$WORK/cluster/night/run.json" ] && [ -z "\$(squeue -h)" ] && break
	sleep 0.2
done
squeue
EOF
LAST="(slurm) tools/slurm-local.sh"
t0=$SECONDS
CUARENA_SLURM_GPUS=/dev/null timeout 300 "$ROOT/tools/slurm-local.sh" "$WORK/slurm" \
	bash "$WORK/on-cluster.sh" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "the cluster came up, ran the job array and went down ($((SECONDS - t0)) s)"
expect_in "$OUT" "array job" "the job was submitted with sbatch"
expect_in "$OUT" "cancelled" "shard 1 was cancelled in the middle"
[ -f "$WORK/cluster/night/run.json" ]
check $? "the merge job wrote the merged run"
expect_in "$CJ/logs/merge.log" "shards 1 missing or unfinished: re-running them with --resume" \
	"the merge job found shard 1 unfinished and re-ran it"
py "meta(a[0])['summary']['tasks_done'] == 6 and len(meta(a[0])['tasks']) == 6 \
    and not meta(a[0])['summary']['interrupted']" \
	"the merged run has all six tasks finished" "$WORK/cluster/night"
py "len(meta(a[0])['segments']) == 2 and meta(a[0])['segments'][0]['interrupted'] \
    and meta(a[0])['segments'][1]['slurm']['array_task'] == '1'" \
	"shard 1 ran twice under Slurm: an interrupted segment, then its resume" "$CJ/shard-1-of-3"
py "all(g.get('slurm', {}).get('array_job') for g in meta(a[0])['segments'])" \
	"every segment of the merged run names its Slurm array job" "$WORK/cluster/night"
py "sorted(set(l['task'] for l in lines(a[0], 'trajectories.jsonl') if l['kind'] == 'end' \
    and l['reason'] != 'interrupted')) == sorted(meta(a[0])['tasks'])" \
	"every task ended once in the merged run" "$WORK/cluster/night"
expect_in "$CJ/logs/shard-0.log" "ended with exit 0" "the array task logs how its shard ended"
expect_in "$CJ/logs/shard-0.log" "CUDA_VISIBLE_DEVICES=0" "Slurm gave the array task its GPU (--gres=gpu:1)"
cua table "$WORK/cluster/night"
expect_rc 0 "table reads the run merged on the cluster"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
