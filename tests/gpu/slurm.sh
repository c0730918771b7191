#!/usr/bin/env bash
# slurm.sh — a GPU check (on the GPU machine, after make bundle; tools/dev/gpu-session.sh slurm
# runs it): a real single-node Slurm with a GPU GRES (from .carry/slurm: tools/dev/slurm-carry.sh):
# ten L1 tasks, replay agent, two shards of a job array merged vs the same run unsharded.
# Self-checking: ends "slurm: N passed, N failed", exit 1 if any failed. Logs in OUT
# (default /tmp/gpu-session); the GPU is the first of CUDA_VISIBLE_DEVICES, else GPU 0.
. "$(dirname "$0")/common.sh"
# issue 17: a real single-node Slurm with a GPU GRES (gres.conf File=/dev/nvidiaN,
# no NVML), started by tools/slurm-local.sh from the Slurm carried in .carry/slurm
# (tools/dev/slurm-carry.sh). Ten cheap Level 1 tasks with the replay agent (a kernel
# that writes nothing, then the task's reference), run once unsharded and once as
# two shards of a `cuarena slurm` job array, merged by its merge job: the same
# verdicts, speedups within noise. Self-checking; ends "slurm: N passed, N failed".
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS slurm: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL slurm: $1"; }
P=${CUARENA_SLURM_PREFIX:-$ROOT/.carry/slurm}
L=$P/usr/lib/x86_64-linux-gnu
D=${SLURM_DIR:-/tmp/gpu-session-slurm}
rm -rf "$D" && mkdir -p "$D/replay"
if [ -x "$P/usr/sbin/slurmctld-wlm" ]; then
	nf=$(LD_LIBRARY_PATH=$L/slurm-wlm:$L ldd "$P"/usr/sbin/* "$P"/usr/bin/sbatch "$L"/slurm-wlm/gres_gpu.so 2>&1 | grep -c 'not found')
	[ "$nf" = 0 ] && ok "the carried Slurm finds all its libraries" || ko "$nf libraries not found (ldd)"
else
	ko "no Slurm in $P (run tools/dev/slurm-carry.sh here and carry .carry/slurm)"
	echo "slurm: $pass passed, $fail failed"; exit 1
fi
dev=${SLURM_GPU_DEV:-$(ls /dev/nvidia[0-9]* 2>/dev/null | head -n 1)}
[ -n "$dev" ] && ok "the GRES is $dev" || ko "no /dev/nvidia[0-9]*"
sel='@(004|021|035|047|051|052|094|095|096|099)-*'
n=0
for num in 004 021 035 047 051 052 094 095 096 099; do
	# a task is a folder with a task.json (a copied tree may keep old folders empty)
	t=$(ls -d tasks/L1/$num-*/task.json 2>/dev/null | head -n 1)
	[ -n "$t" ] || continue
	t=${t%task.json}
	id=L1/$(basename "$t"); n=$((n + 1))
	mkdir -p "$D/replay/$id"
	printf '#include "cuarena.h"\nint cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s)\n{ return 0; }\n' \
		> "$D/replay/$id/turn-1.cu"
	cp "$t/reference.cu" "$D/replay/$id/turn-2.cu"
done
[ "$n" = 10 ] && ok "ten tasks" || ko "$n tasks, not ten"
echo "{\"dir\": \"$D/replay\"}" > "$D/replay.json"
args=(--agent replay --agent-config "$D/replay.json" --level 1 --tasks "$sel" --turns 2
      --max-time-s "${SLURM_MAX_TIME_S:-1}")
t0=$SECONDS
CUDA_VISIBLE_DEVICES=${DEVS[0]} timeout 200 $BIN run "${args[@]}" --out "$D/whole" \
	> "$OUT/slurm-whole.log" 2>&1
rc=$?
[ "$rc" = 0 ] && ok "the unsharded run: $(tail -n 1 "$OUT/slurm-whole.log" | cut -c1-160) ($((SECONDS - t0)) s)" ||
	ko "the unsharded run exited $rc: $(tail -n 2 "$OUT/slurm-whole.log" | tr '\n' ' ')"
$BIN slurm --shards 2 --out "$D/night" "${args[@]}" \
	--costs "${SLURM_COSTS:-$D/whole}" > "$OUT/slurm-job.log" 2>&1 &&
	ok "cuarena slurm wrote the job array" || ko "cuarena slurm: $(cat "$OUT/slurm-job.log")"
J=$D/.night.slurm
cat > "$D/on-cluster.sh" <<EOF
set -u
shopt -s extglob
sinfo -o '%N %G %T'
bash "$J/submit.sh" || exit 1
for _ in \$(seq 1 1200); do
[ -f "$D/night/run.json" ] && [ -z "\$(squeue -h)" ] && break
sleep 0.25
done
squeue
EOF
t0=$SECONDS
# the cluster's environment is the job's: no CUDA_VISIBLE_DEVICES of ours in it
env -u CUDA_VISIBLE_DEVICES CUARENA_SLURM_PREFIX="$P" CUARENA_SLURM_GPUS="$dev" \
	CUARENA_SLURM_CPUS="$(nproc)" timeout 330 tools/slurm-local.sh "$D/cluster" \
	bash "$D/on-cluster.sh" > "$OUT/slurm-cluster.log" 2>&1
rc=$?
[ "$rc" = 0 ] && ok "the cluster came up, ran the array and its merge job ($((SECONDS - t0)) s)" ||
	ko "the cluster exited $rc: $(tail -n 5 "$OUT/slurm-cluster.log" | tr '\n' ' ')"
grep -q "gpu:1" "$OUT/slurm-cluster.log" && ok "the node has Gres=gpu:1" ||
	ko "the node has no GPU GRES: $(head -n 2 "$OUT/slurm-cluster.log" | tr '\n' ' ')"
grep -h "CUDA_VISIBLE_DEVICES=" "$J"/logs/shard-*.log 2>/dev/null | grep -q "CUDA_VISIBLE_DEVICES=0" &&
	ok "Slurm gave each shard the GPU: $(grep -h -o 'CUDA_VISIBLE_DEVICES=[0-9,]*' "$J"/logs/shard-*.log | sort | uniq -c | tr '\n' ' ')" ||
	ko "the shards' CUDA_VISIBLE_DEVICES: $(grep -h -o 'CUDA_VISIBLE_DEVICES=.*' "$J"/logs/shard-*.log | tr '\n' ' ')"
python3 - "$D/whole" "$D/night" "$J" > "$OUT/slurm-check.log" 2>&1 <<'PY'
import json, math, os, sys
whole, merged, jobdir = sys.argv[1:4]
def lines(d, f):
    p = os.path.join(d, f)
    return [json.loads(l) for l in open(p)] if os.path.exists(p) else []
def meta(d):
    return json.load(open(os.path.join(d, "run.json")))
def evals(d):
    return {(l["task"], l["turn"]): l for l in lines(d, "evals.jsonl")}
def say(ok, what):
    print(("PASS" if ok else "FAIL") + " slurm: " + what)
w, m = evals(whole), evals(merged)
say(sorted(w) == sorted(m) and len(w) == 20, f"the merged run has the unsharded run's {len(w)} evaluations (task, turn)")
same = [k for k in w if k in m and w[k]["eval"]["verdict"] == m[k]["eval"]["verdict"]]
say(len(same) == len(w), f"the same verdict for {len(same)} of {len(w)}: " +
    ", ".join(sorted({w[k]['eval']['verdict'] for k in w})))
ratios = []
for k in w:
    a, b = (w[k].get("speedup") or {}).get("nvcc"), (m.get(k, {}).get("speedup") or {}).get("nvcc")
    if a and b:
        ratios.append((abs(math.log(b / a)), k[0], a, b))
ratios.sort(reverse=True)
worst = ratios[0] if ratios else (0, "-", 0, 0)
say(len(ratios) == 10 and worst[0] < math.log(1.10),
    f"{len(ratios)} speedups vs nvcc, merged / unsharded within {100 * (math.exp(worst[0]) - 1):.1f}% "
    f"(worst {worst[1]}: {worst[2]:.3f}x vs {worst[3]:.3f}x)")
mm = meta(merged)
say(mm["summary"]["tasks_done"] == 10 and mm["summary"]["tasks_correct"] == 10 and not mm["summary"]["interrupted"],
    f"merged summary: {mm['summary']['tasks_correct']}/{mm['summary']['tasks_done']} correct, "
    f"{mm['summary']['segments']} segments, GPU busy {mm['summary']['gpu_busy_s']:.1f} of {mm['summary']['gpu_s']:.1f} GPU-s, "
    f"elapsed {mm['summary'].get('elapsed_s')} s")
segs = sorted(mm["segments"], key=lambda g: g["started"])
say(all(g.get("slurm", {}).get("array_job") for g in segs) and len({g["shard"] for g in segs}) == 2,
    "both shards ran as array tasks: " + "; ".join(f"shard {g['shard']} job {g['slurm'].get('job')} {g['wall_s']:.0f} s" for g in segs))
import datetime
def t(g):
    return datetime.datetime.strptime(g["started"], "%Y-%m-%dT%H:%M:%SZ").timestamp()
gap = t(segs[1]) - (t(segs[0]) + segs[0]["wall_s"]) if len(segs) == 2 else -99
say(gap > -1.5, f"one GPU, one shard at a time: the second began {gap:+.1f} s after the first ended (GRES gpu:1)")
dev = {json.dumps(d["device"], sort_keys=True) for d in mm["devices"]}
say(len(dev) == 1 and mm["device"].get("name"), f"one device for both shards: {mm['device'].get('name')}")
sh = [meta(os.path.join(jobdir, f"shard-{i}-of-2")) for i in range(2)]
exp = sh[0]["shard"]["expected_s"]
say(sh[0]["shard"]["costs"]["measured"] == 10, f"the split was weighed by measured costs: expected {exp} s, "
    f"tasks {len(sh[0]['tasks'])} + {len(sh[1]['tasks'])}")
PY
cat "$OUT/slurm-check.log"
pass=$((pass + $(grep -c '^PASS' "$OUT/slurm-check.log"))); fail=$((fail + $(grep -c '^FAIL' "$OUT/slurm-check.log")))
CUDA_VISIBLE_DEVICES=${DEVS[0]} $BIN compare "$D/whole" "$D/night" > "$OUT/slurm-compare.txt" 2>&1
rc=$?
[ "$rc" = 0 ] && ok "compare unsharded merged: $(tail -n 1 "$OUT/slurm-compare.txt")" ||
	ko "compare exited $rc: $(tail -n 1 "$OUT/slurm-compare.txt")"
tar czf "$OUT/slurm.tgz" -C "$D" --exclude=cluster/state --exclude=cluster/spool whole night .night.slurm cluster \
	2>/dev/null
echo "slurm: $pass passed, $fail failed"
[ "$fail" = 0 ]
