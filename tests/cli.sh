#!/usr/bin/env bash
# cli.sh — the `cuarena` command line without a GPU: exit codes, usage, list/show
# output and JSON. Run as `tests/cli.sh build/cuarena` (make test does).
# Prints "N passed, N failed" last and exits non-zero if anything failed.
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: tests/cli.sh PATH/TO/cuarena" >&2
	exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${CUARENA_ROOT:-$(dirname "$HERE")}
export CUARENA_ROOT=$ROOT

WORK=$(mktemp -d /tmp/cuarena-cli-test-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export CUARENA_CACHE=$WORK/cache       # nothing of ours lands in ~/.cache
OUT=$WORK/out
ERR=$WORK/err
RC=0
passed=0
failed=0

if [ -e /dev/nvidiactl ] || [ -e /dev/nvidia0 ]; then HAVE_GPU=1; else HAVE_GPU=0; fi

pass() { passed=$((passed + 1)); echo "ok    $1"; }
fail() {
	failed=$((failed + 1))
	echo "FAIL  $1"
	echo "      command: cuarena $LAST (exit $RC)"
	sed -n '1,5s/^/      stdout: /p' "$OUT"
	sed -n '1,5s/^/      stderr: /p' "$ERR"
}
skip() { echo "SKIP  $1"; }
# check STATUS WHAT: a shell test's exit status (0 = pass)
check() { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi; }

# Runs cuarena with the arguments; stdout, stderr and exit status land in
# $OUT, $ERR and $RC.
cua() {
	LAST="$*"
	"$BIN" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}

# expect_rc WANT WHAT
expect_rc() { if [ "$RC" -eq "$1" ]; then pass "$2"; else fail "$2: exit $RC, want $1"; fi; }
# expect_in FILE TEXT WHAT: FILE contains TEXT (fixed string)
expect_in() { if grep -qF -- "$2" "$1"; then pass "$3"; else fail "$3: no '$2'"; fi; }
expect_not_in() { if grep -qF -- "$2" "$1"; then fail "$3: has '$2'"; else pass "$3"; fi; }
# expect_json WHAT: stdout is one valid JSON document
expect_json() {
	if python3 -m json.tool "$OUT" >/dev/null 2>"$WORK/json-err"; then pass "$1"
	else fail "$1: $(head -1 "$WORK/json-err")"; fi
}
# json_check PYTHON-EXPR WHAT: the expression is true of the JSON on stdout (as j)
json_check() {
	if python3 -c "import json, re, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" \
		"$OUT" 2>/dev/null; then pass "$2"; else fail "$2"; fi
}

# Task ids move when the catalogue is renumbered: find relu's folder.
RELU_DIR=$(ls -d "$ROOT"/tasks/L1/*-relu 2>/dev/null | head -1)
if [ -z "$RELU_DIR" ]; then
	echo "no tasks/L1/*-relu under $ROOT" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
RELU_ID=L1/$(basename "$RELU_DIR")                      # L1/019-relu
RELU_NUM=$(basename "$RELU_DIR" | sed 's/-.*//; s/^0*//') # 19

KERNEL=$WORK/kernel.cu
cat >"$KERNEL" <<'EOF'
#include "cuarena.h"
extern "C" int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out,
                         int n_out, cudaStream_t stream) { return 0; }
EOF

# ---- top level ---------------------------------------------------------------
cua
expect_rc 2 "no arguments is a usage error"
expect_in "$ERR" "usage: cuarena" "no arguments prints the usage on stderr"
[ -s "$OUT" ] && fail "no arguments prints nothing on stdout" || pass "no arguments prints nothing on stdout"

cua frobnicate
expect_rc 2 "an unknown command is a usage error"
expect_in "$ERR" "unknown command 'frobnicate'" "an unknown command is named"

cua --frobnicate list
expect_rc 2 "an unknown global option is a usage error"

# One path rule (harness/common.h): a path from outside of PATH_MAX or more is
# refused by name, never cut to a shorter one that might exist.
LONG=/tmp/$(printf 'a%.0s' $(seq 1 4200))
cua --root "$LONG" list
expect_rc 3 "a --root longer than PATH_MAX is refused"
expect_in "$ERR" "--root: /tmp/aaa" "the refusal names --root"
expect_in "$ERR" "a path longer than 4095 bytes" "the refusal says why"
LAST="CUARENA_CACHE=<4200 bytes> list"
CUARENA_CACHE=$LONG "$BIN" list >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc 3 "a compile cache longer than PATH_MAX is refused"
expect_in "$ERR" "the compile cache: " "the refusal names the compile cache"

cua help
expect_rc 0 "help succeeds"
for c in list show eval baselines doctor; do
	expect_in "$OUT" "cuarena $c" "help lists '$c'"
done
expect_in "$OUT" "exit codes" "help explains the exit codes"

cua --help
expect_rc 0 "--help succeeds"

# run.json's harness.git is the commit of the code that runs, not of the last full
# build (a bundle once recorded a commit two changes older than its run engine)
cua --version
expect_rc 0 "--version succeeds"
# (the commit only: whether the tree is -dirty may change while the tests run)
if HEAD=$(git -C "$ROOT" rev-parse --short=7 HEAD 2>/dev/null); then
	expect_in "$OUT" "(git $HEAD" "--version names the commit of the tree it was built from"
fi

cua --root /nonexistent list
expect_rc 3 "--root without a catalogue is an environment error"
expect_in "$ERR" "/nonexistent" "--root without a catalogue names the folder"

# ---- list --------------------------------------------------------------------
cua list
expect_rc 0 "list succeeds"
expect_in "$OUT" "$RELU_ID" "list shows $RELU_ID"
expect_in "$OUT" "L1/001-square-matrix-multiplication" "list shows L1/001-square-matrix-multiplication"
expect_in "$OUT" "fp32-strict" "list shows the precision policy"
expect_in "$OUT" "X/002-vector-add" "list shows the extra set's tasks"

cua list --level 1 --json
expect_rc 0 "list --level 1 --json succeeds"
expect_json "list --json prints valid JSON"
json_check "re.fullmatch('[0-9a-f]{64}', j['catalogue_hash'])" "list --json has a 64-hex catalogue_hash"
json_check "any(t['id'] == '$RELU_ID' for t in j['tasks'])" "list --json has $RELU_ID"
json_check "all(t['level'] == 1 for t in j['tasks']) and len(j['tasks']) >= 2" \
	"list --level 1 keeps level-1 tasks"
json_check "all(t['baselines'][0] == 'nvcc' for t in j['tasks'])" "every task has the nvcc baseline first"
json_check "j['errors'] == []" "the catalogue has no broken tasks"
# relu: B*D flops and 8*B*D bytes at KernelBench's B = 4096, D = 393216 (what a run records)
json_check "[(t['flops'], t['bytes']) for t in j['tasks'] if t['id'] == 'L1/019-relu'] == [(1610612736, 12884901888)]" \
	"list --json gives a task's flops and bytes at its timed shape"
json_check "j['catalogue_version'] == 2 and len(j['tasks']) == 100" \
	"list --json gives the catalogue version; Level 1 is KernelBench's 100 problems"
# a catalogue's version is its own (tasks/VERSION), not this harness's: an earlier
# catalogue (no file) is version 1 in list, run.json and selftest; a bad file is named
mkdir -p "$WORK/v1root/tasks/L1" "$WORK/v1root/include"
cp -r "$ROOT/tasks/L1/019-relu" "$ROOT/tasks/L1/020-leakyrelu" "$WORK/v1root/tasks/L1/" &&
	cp -r "$ROOT/tasks/common" "$WORK/v1root/tasks/" && cp "$ROOT/include/"* "$WORK/v1root/include/"
cua --root "$WORK/v1root" list --json
json_check "j['catalogue_version'] == 1 and len(j['tasks']) == 2" \
	"a catalogue without tasks/VERSION is version 1 (the one made before the file)"
printf 'two\n' > "$WORK/v1root/tasks/VERSION"
cua --root "$WORK/v1root" list
expect_rc 3 "a tasks/VERSION that is not a number is refused"
expect_in "$ERR" "v1root/tasks/VERSION: want the catalogue's version" "the refusal names tasks/VERSION"
cua list --level 1 --json
json_check "all(t['source']['kernelbench'] == 'v0.1' and t['source']['file'].startswith('level1/%d_' % int(t['id'][3:6])) for t in j['tasks'])" \
	"every Level 1 task names its KernelBench problem, of its own number"
json_check "all(re.fullmatch('[0-9a-f]{64}', t['task_hash']) for t in j['tasks'])" \
	"list --json gives each task's folder hash"
HASH1=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['catalogue_hash'])" "$OUT" 2>/dev/null)

cua list --json
json_check "j['catalogue_hash'] == '$HASH1'" "the catalogue hash is stable across runs"

cua list --level 9 --json
expect_rc 0 "list --level 9 succeeds"
json_check "j['tasks'] == []" "list --level 9 is empty"

for bad in x 0 10 1x; do
	cua list --level "$bad"
	expect_rc 2 "list --level $bad is a usage error"
done
cua list --level
expect_rc 2 "list --level without a value is a usage error"
cua list extra
expect_rc 2 "list with an extra argument is a usage error"

# ---- show --------------------------------------------------------------------
cua show relu
expect_rc 0 "show relu succeeds"
expect_in "$OUT" "cua_solve" "show includes the ABI (cua_solve)"
expect_in "$OUT" "atol" "show states the tolerance"
expect_in "$OUT" "(timed)" "show marks the timed shape"
expect_in "$OUT" "$RELU_ID" "show names the task"
REF_LINE=$(head -1 "$RELU_DIR/reference.cu")
expect_in "$OUT" "$REF_LINE" "show includes the reference source"
expect_in "$OUT" "cua_oracle" "show includes the whole reference (cua_oracle)"

cua show --json relu
expect_rc 0 "show --json relu succeeds"
expect_json "show --json prints valid JSON"
json_check "j['id'] == '$RELU_ID' and 'cua_solve' in j['prompt']" "show --json carries id and prompt"

cua show --json "$RELU_ID"
json_check "j['id'] == '$RELU_ID'" "show accepts the full id"
cua show --json "$RELU_NUM"
json_check "j['id'] == '$RELU_ID'" "show accepts the task number ($RELU_NUM)"
cua show relu
expect_in "$OUT" "Source: KernelBench v0.1, KernelBench/level1/19_ReLU.py." \
	"show names the KernelBench problem a task is"
cua show --json X/2
json_check "j['id'] == 'X/002-vector-add'" "show finds an extra-set task by X/<number>"
cua show --json 2
json_check "j['id'] == 'L1/002-standard-matrix-multiplication'" \
	"a bare number names the Level 1 task, never the extra set's"

# a Level 3 task: its layered input as a layout table, P and memory
cua show L3/009-resnet18
expect_rc 0 "show L3/009-resnet18 succeeds"
expect_in "$OUT" "input  \`params\`: f32 [11689512]" "show gives a layered input's shape [P]"
expect_in "$OUT" "### Layout of \`params\`: 62 segments, P = 11689512 floats (46758048 bytes)" \
	"show heads the layout table with the segment count, P and bytes"
expect_in "$OUT" "| 0 | conv1.weight | [64, 3, 7, 7] | 0 | U(-0.0824786, 0.0824786) |" \
	"the layout table gives name, shape, offset and init"
expect_in "$OUT" "| 61 | fc.bias | [1000] | 11688512 | U(-0.0441942, 0.0441942) |" \
	"the layout table ends at P with the last segment"
expect_in "$OUT" "| 9 | layer1.1.conv1.weight | [64, 64, 3, 3] | 83520 |" "repeats expand with their variable"
expect_in "$OUT" "Peak device memory of one evaluation" "show states memory_mb"
cua list --level 3 --json
expect_rc 0 "list --level 3 succeeds"
json_check "len(j['tasks']) >= 10 and all(t['level'] == 3 for t in j['tasks'])" \
	"list --level 3 lists the Level 3 tasks"

cua show nosuchtask
expect_rc 2 "show of an unknown task is a usage error"
expect_in "$ERR" "nosuchtask" "show of an unknown task names it"

cua show
expect_rc 2 "show without a task is a usage error"
expect_in "$ERR" "usage: cuarena show" "show without a task prints its usage"
cua show relu sgemm
expect_rc 2 "show with two tasks is a usage error"

# ---- eval and baselines --------------------------------------------------------
if [ "$HAVE_GPU" -eq 0 ]; then
	cua eval relu "$KERNEL"
	expect_rc 3 "eval without a GPU is an environment error"
	expect_in "$ERR" "GPU" "eval without a GPU says so"
	lines=$(wc -l <"$ERR")
	[ "$lines" -eq 1 ] && pass "eval without a GPU says it in one line" \
		|| fail "eval without a GPU says it in one line ($lines lines)"
	[ -s "$OUT" ] && fail "eval without a GPU prints nothing on stdout" \
		|| pass "eval without a GPU prints nothing on stdout"

	cua baselines relu
	expect_rc 3 "baselines without a GPU is an environment error"
	expect_in "$ERR" "GPU" "baselines without a GPU says so"
else
	skip "eval without a GPU (this machine has /dev/nvidia*)"
	skip "baselines without a GPU (this machine has /dev/nvidia*)"
fi

cua eval relu /nonexistent.cu
expect_rc 2 "eval of a missing file is a usage error"
expect_in "$ERR" "/nonexistent.cu" "eval of a missing file names it"
cua eval nosuchtask "$KERNEL"
expect_rc 2 "eval of an unknown task is a usage error"
expect_in "$ERR" "nosuchtask" "eval of an unknown task names it"
cua eval relu "$KERNEL" --bogus
expect_rc 2 "eval with an unknown option is a usage error"
expect_in "$ERR" "usage: cuarena eval" "eval misuse prints its usage"
cua eval relu
expect_rc 2 "eval without a file is a usage error"
cua eval relu "$KERNEL" extra
expect_rc 2 "eval with an extra argument is a usage error"
for v in 0 -1 abc 601; do
	cua eval relu "$KERNEL" --max-time-s "$v"
	expect_rc 2 "eval --max-time-s $v is a usage error"
done
cua eval relu "$KERNEL" --timeout-s 0
expect_rc 2 "eval --timeout-s 0 is a usage error"
cua baselines
expect_rc 2 "baselines without a task is a usage error"
cua baselines relu --bogus
expect_rc 2 "baselines with an unknown option is a usage error"

# ---- doctor ------------------------------------------------------------------
NVCC_RELEASE=""
for n in "${CUARENA_NVCC:-}" "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" /usr/local/cuda/bin/nvcc; do
	if [ -n "$n" ] && [ -x "$n" ]; then
		NVCC_RELEASE=$("$n" --version | grep -o 'release [0-9.]*' | head -1)
		break
	fi
done

cua doctor
if [ "$HAVE_GPU" -eq 0 ]; then
	expect_rc 3 "doctor without a GPU is an environment error"
	expect_in "$OUT" "no NVIDIA GPU" "doctor names the problem"
else
	skip "doctor's exit status without a GPU (this machine has /dev/nvidia*)"
fi
if [ -n "$NVCC_RELEASE" ]; then
	expect_in "$OUT" "$NVCC_RELEASE" "doctor prints the nvcc version ($NVCC_RELEASE)"
else
	skip "doctor prints the nvcc version (no nvcc here)"
fi
expect_in "$OUT" "$ROOT" "doctor prints the root"
if [ "$(id -u)" = 0 ]; then
	expect_in "$OUT" "jail      uid 65534, pid namespace, net namespace" \
		"doctor says the kernel's process runs as nobody in its own namespaces"
else
	skip "doctor's jail line as root (not root here)"
fi

if [ -x /opt/cuarena/cuda-tools/bin/cuobjdump ] || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" ]; then
	expect_in "$OUT" "cuobjdump /" "doctor names the cuobjdump the SASS check uses"
fi

cua doctor --json
expect_json "doctor --json prints valid JSON"
json_check "j['root'] == '$ROOT' and 'libraries' in j" "doctor --json has root and libraries"
if [ -n "$NVCC_RELEASE" ]; then
	json_check "'$NVCC_RELEASE' in j['nvcc_version']" "doctor --json has the nvcc version"
fi
if [ "$HAVE_GPU" -eq 0 ]; then
	expect_rc 3 "doctor --json without a GPU is an environment error"
	json_check "'GPU' in j['problem'] and 'device' not in j" "doctor --json reports the missing GPU"
fi

cua doctor --bogus
expect_rc 2 "doctor with an unknown option is a usage error"

# ---- selftest and catalogue --------------------------------------------------
cua selftest relu
if [ "$HAVE_GPU" -eq 0 ]; then
	expect_rc 3 "selftest without a GPU is an environment error"
	expect_in "$ERR" "--compile-only" "selftest without a GPU points at --compile-only"
else
	skip "selftest's exit status without a GPU (this machine has /dev/nvidia*)"
fi
cua selftest nosuchtask
expect_rc 2 "selftest of an unknown task is a usage error"
cua selftest --jobs 0 relu
expect_rc 2 "selftest --jobs 0 is a usage error"
if [ -n "$NVCC_RELEASE" ]; then
	cua selftest --compile-only relu
	expect_rc 0 "selftest --compile-only builds a task's reference and baselines"
	expect_in "$OUT" "PASS L1/019-relu reference" "selftest --compile-only names the reference"
	expect_in "$OUT" "2 passed, 0 failed" "selftest --compile-only counts reference and baseline"
else
	skip "selftest --compile-only (no nvcc here)"
fi

# ---- eval --compile-only: the checks made before a kernel runs, with no GPU --------
if [ -n "$NVCC_RELEASE" ]; then
	cua eval relu "$RELU_DIR/reference.cu" --compile-only
	expect_rc 0 "eval --compile-only of a correct kernel exits 0"
	expect_in "$OUT" "not run (--compile-only)" "eval --compile-only says the kernel was not run"
	# a strict task judges precision by value, on the GPU: the scan names what it saw
	cua eval square-matrix-multiplication "$ROOT/tests/cheats/tf32-wmma-in-strict.cu" --compile-only --json
	expect_rc 0 "eval --compile-only does not refuse a tensor-core kernel in a strict task"
	json_check "j['verdict'] == 'ok' and 'HMMA.1684.F32.TF32' in j['sass'] and j['compile_only']" \
		"eval --compile-only --json names the tensor-core instruction that will explain a failure"
	# below a tf32-allowed task's policy the machine code is still refused before it runs
	cua eval sgemm-tf32 "$ROOT/tests/cheats/split-bf16-sgemm-in-strict.cu" --compile-only --json
	expect_rc 1 "eval --compile-only of a rejected kernel exits 1"
	json_check "j['verdict'] == 'forbidden_instruction' and 'HMMA.16816.F32.BF16' in j['message']" \
		"eval --compile-only --json names the forbidden instruction"
	cua eval sgemm-tf32 "$ROOT/tests/cheats/tf32-wmma-in-strict.cu" --compile-only
	expect_rc 0 "the same TF32 kernel passes where the task allows TF32"

	# ---- the build's jail and a kernel's text on a terminal (issue 25) ----
	# The attack: a kernel's text (here the compiler quoting its #error) cleared the
	# screen of `cuarena eval` and drew a fake table. Escapes are shown, not obeyed.
	printf '#error "\033[2J\033[H candidate ok 41.7x \007"\n' >"$WORK/escapes.cu"
	cua eval relu "$WORK/escapes.cu" --compile-only
	expect_rc 1 "a kernel that does not compile exits 1"
	expect_in "$OUT" '\x1b[2J\x1b[H candidate ok 41.7x \x07' "eval shows a kernel's terminal escapes as text"
	if grep -q "$(printf '\033')" "$OUT" "$ERR"; then fail "eval printed a raw ESC byte"; else pass "eval printed no raw ESC byte"; fi
	cua eval relu "$WORK/escapes.cu" --compile-only --json
	json_check "'\x1b[2J' in j['compile']['log']" "--json keeps the escape as data (a JSON string escape)"
	cua doctor --json
	BUILD_JAIL=$(python3 -c 'import json, sys; b = json.load(open(sys.argv[1]))["build_jail"]; print("ok" if b["ok"] else b["problem"])' "$OUT" 2>/dev/null)
	if [ "$BUILD_JAIL" = ok ]; then
		printf '#include "/etc/passwd"\n' >"$WORK/passwd.cu"
		cua eval relu "$WORK/passwd.cu" --compile-only --json
		json_check "j['verdict'] == 'compile_error' and 'No such file' in j['compile']['log'] and 'root:' not in j['compile']['log']" \
			"#include \"/etc/passwd\" is the compiler's own 'no such file'"
		cua doctor
		if [ "$(id -u)" = 0 ]; then
			expect_in "$OUT" "build     uid 65534, own mount/net/IPC/UTS namespaces" "doctor says nvcc runs as nobody in its own namespaces"
		else
			expect_in "$OUT" "build     a user namespace" "doctor says nvcc runs in a user namespace"
		fi
	else
		skip "the build's jail (the kernel refuses it here: $BUILD_JAIL)"
	fi
	# CUARENA_BUILD_JAIL=off stands for a kernel that refuses the namespaces
	export CUARENA_BUILD_JAIL=off
	cua doctor
	expect_rc 3 "doctor without the build's jail is an environment error"
	expect_in "$OUT" "build     NOT JAILED: CUARENA_BUILD_JAIL=off" "doctor says nvcc would run unjailed"
	cua serve --listen 127.0.0.1 --port-file "$WORK/port"
	expect_rc 3 "serve without the build's jail refuses to start"
	expect_in "$ERR" "nvcc cannot be jailed here" "serve says why it refuses"
	[ ! -e "$WORK/port" ]
	check $? "serve without the build's jail never listened"
	cua eval relu "$RELU_DIR/reference.cu" --compile-only
	expect_rc 0 "eval without the build's jail goes on"
	expect_in "$ERR" "warning: nvcc runs unjailed" "eval without the build's jail warns"
	unset CUARENA_BUILD_JAIL

	# Every kernel of the GPU suite and the exploit suite, built and checked here:
	# those the suites expect to be rejected before they run get that verdict, every
	# other one (ok, or failing only when run) passes. Two at a time, with a cache
	# kept in the build folder; the CUB and Thrust builds take 10-30 s each on a
	# busy 2-core machine, so the compile limit is raised from its 60 s.
	CORPUS=$WORK/corpus
	mkdir -p "$CORPUS"
	: >"$CORPUS/jobs"
	for f in "$ROOT"/tests/gpu/candidates/*.cu "$ROOT"/tests/cheats/*.cu; do
		name=$(basename "$f" .cu)
		[ "$name" = compile-bomb ] && continue      # takes the 60 s compile limit
		task=$(sed -n 's|^// task: *\([^ ]*\).*|\1|p' "$f" | head -1)
		echo "$task $f $CORPUS/$name" >>"$CORPUS/jobs"
	done
	CUARENA_CACHE=$(dirname "$BIN")/cache-corpus xargs -P 2 -L 1 sh -c \
		'"$0" eval "$1" "$2" --compile-only --compile-timeout-s 600 --json >"$3.json" 2>"$3.err"; echo $? >"$3.rc"' \
		"$BIN" <"$CORPUS/jobs"
	corpus_bad=0
	corpus_n=0
	while read -r task f base; do
		corpus_n=$((corpus_n + 1))
		want=$(sed -n 's|^// expect: *\([^ ]*\).*|\1|p' "$f" | head -1)
		if ! python3 - "$base.json" "$want" <<'PY' 2>/dev/null; then
import json, sys
static = {"compile_error", "compile_timeout", "forbidden_symbol", "forbidden_instruction", "load_error"}
j = json.load(open(sys.argv[1]))
got = j["verdict"]
wants = sys.argv[2].split("|")
ok = got in wants if any(w in static for w in wants) else got == "ok"
# a strict task's forbidden_instruction is decided by value on the GPU: here the
# kernel passes, with the instruction named for that verdict
if not ok and "forbidden_instruction" in wants and got == "ok" and j.get("sass"):
    ok = True
sys.exit(0 if ok else 1)
PY
			corpus_bad=$((corpus_bad + 1))
			echo "      $(basename "$f"): want $want, got: $(head -c 300 "$base.json" "$base.err" | tr '\n' ' ')"
		fi
	done <"$CORPUS/jobs"
	[ "$corpus_bad" -eq 0 ] && [ "$corpus_n" -gt 40 ]
	check $? "all $corpus_n kernels of tests/gpu/candidates and tests/cheats get their pre-run verdicts with --compile-only"
else
	skip "eval --compile-only (no nvcc here)"
fi

# ---- the ABI's promises reach the agent ------------------------------------------
cua show relu
expect_in "$OUT" "aligned to 256 bytes" "the prompt promises 256-byte aligned tensors"
expect_in "$OUT" "NaN poison pattern" "the prompt says outputs arrive poisoned"
expect_in "$OUT" "cudaMallocAsync/cudaFreeAsync on \`stream\`" "the prompt says what may be allocated"
expect_in "$OUT" "#define CUA_TENSOR_ALIGN 256" "the header shown in the prompt defines the alignment"
expect_in "$OUT" "forbidden_instruction" "a strict task's prompt says the machine code is checked"

# ---- every command answers --help ---------------------------------------------------
for c in baselines board catalogue compare doctor env eval history list merge plot run selftest serve show slurm table; do
	cua "$c" --help
	[ "$RC" -eq 0 ] && grep -q "^usage: cuarena $c" "$OUT" && [ ! -s "$ERR" ]
	check $? "$c --help prints its usage on stdout and exits 0"
	cua "$c" -h
	[ "$RC" -eq 0 ] && grep -q "^usage: cuarena $c" "$OUT"
	check $? "$c -h does the same"
	cua help "$c"
	[ "$RC" -eq 0 ] && grep -q "^usage: cuarena $c" "$OUT"
	check $? "help $c does the same"
done
cua run --help
expect_in "$OUT" "Exit 4 when any episode ended because its agent failed" "run --help documents exit 4"
cua help nosuchcommand
expect_rc 2 "help of an unknown command is a usage error"

cua catalogue
expect_in "$OUT" "| L1/019-relu | ReLU" "catalogue prints a markdown row per task"
expect_in "$OUT" "12.9 GB" "catalogue evaluates bytes at the timed shape"
cua catalogue --selftest /nonexistent.json
expect_rc 2 "catalogue with a missing selftest file is a usage error"
expect_in "$ERR" "/nonexistent.json" "catalogue names the missing file"
# the measured files committed from the H200, and docs/CATALOGUE.md made from them
cua catalogue --selftest "$ROOT/data/selftest/NVIDIA-H200.json" --torch "$ROOT/baselines/torch/NVIDIA-H200.json"
expect_rc 0 "catalogue reads the committed H200 selftest and torch files"
VADD_ROW=$(grep '^| X/002-vector-add ' "$OUT")
[ "$(grep -o 'torch-eager' <<< "$VADD_ROW" | wc -l)" -eq 1 ]
check $? "catalogue lists an imported torch figure once (not again from the selftest file)"
cmp -s "$OUT" "$ROOT/docs/CATALOGUE.md"
check $? "docs/CATALOGUE.md is the catalogue generated from the committed files"
# a baseline that failed (088's cuDNN baseline did, on the H200, before its fix)
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
t = next(t for t in d['tasks'] if t['id'] == 'X/008-conv-transpose2d-large-kernel')
b = next(b for b in t['baselines'] if b['subject'].startswith('cudnn/'))
b['verdict'] = 'wrong_output'; t['ok'] = False
json.dump(d, open(sys.argv[2], 'w'))" "$ROOT/data/selftest/NVIDIA-H200.json" "$WORK/selftest-failed.json"
cua catalogue --selftest "$WORK/selftest-failed.json"
expect_rc 0 "catalogue reads a selftest file with a failed baseline"
expect_in "$OUT" "cudnn/conv-transpose2d-large-kernel **wrong_output**" \
	"catalogue shows a baseline that failed the selftest with its verdict"

# ---- env (reset/step over JSON lines) -----------------------------------------
env_session() {
	LAST="env <<< $*"
	printf '%s\n' "$@" | "$BIN" env >"$OUT" 2>"$ERR"
	RC=$?
}
# jline N EXPR WHAT: EXPR is true of the JSON on stdout line N (as j)
jline() {
	if python3 -c "import json, sys; j = json.loads(open(sys.argv[1]).read().splitlines()[$1 - 1]); sys.exit(0 if ($2) else 1)" \
		"$OUT" 2>/dev/null; then pass "$3"; else fail "$3"; fi
}
env_session '{"cmd":"step","code":"x"}' 'not json' '{"cmd":"reset","task":"nosuchtask"}' \
	'{"cmd":"reset","task":"relu","turns":2}' '{"cmd":"frob"}' '{"cmd":"close"}'
expect_rc 0 "env ends cleanly on close"
jline 1 "j['ok'] is False and 'reset first' in j['error']" "env: step before reset is an error, not a crash"
jline 2 "j['ok'] is False and j['error'].startswith('line 2:')" "env: a line that is not JSON is named by number"
jline 3 "j['ok'] is False and 'nosuchtask' in j['error']" "env: reset of an unknown task names it"
jline 4 "j['ok'] and j['task'] == 'L1/019-relu' and j['turn'] == 1 and 'cua_solve' in j['observation']" \
	"env: reset returns the task prompt as the first observation"
jline 5 "j['ok'] is False and 'unknown cmd' in j['error']" "env: an unknown cmd is an error"
jline 6 "j['ok'] is True" "env: close answers ok"
if [ "$HAVE_GPU" -eq 0 ]; then
	jline 4 "j['baselines'] == 'none' and 'no NVIDIA GPU' in j['warning']" \
		"env: reset without a GPU says that no baseline is timed"
fi
env_session '{"cmd":"reset","task":"relu","remeasure":"yes"}' '{"cmd":"reset","task":"relu","remeasure":true}'
jline 1 "j['ok'] is False and 'remeasure' in j['error']" "env: remeasure must be a boolean"
jline 2 "j['ok'] and j['turn'] == 1" "env: reset with remeasure starts an episode"
if [ -n "$NVCC_RELEASE" ]; then
	env_session '{"cmd":"reset","task":"relu","turns":2}' \
		'{"cmd":"step","code":"#include \"cuarena.h\"\nint cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s) { return this is not C; }\n"}' \
		'{"cmd":"step","code":"#include \"cuarena.h\"\n#include <stdlib.h>\nint cua_solve(const struct cua_tensor *i, int a, struct cua_tensor *o, int b, cudaStream_t s) { return system(\"true\"); }\n"}' \
		'{"cmd":"step","code":"int x;"}'
	jline 2 "j['ok'] and j['turn'] == 1 and j['verdict'] == 'compile_error' and j['reward'] == -1 and 'Compiler output' in j['observation'] and not j['done']" \
		"env: a step that does not compile is a compile_error with the log fed back"
	jline 3 "j['ok'] and j['verdict'] == 'forbidden_symbol' and 'system' in j['observation'] and j['done'] and j['rewards'] == [-1, -1]" \
		"env: the last turn reports the forbidden symbol and ends the episode"
	jline 4 "j['ok'] is False and 'over' in j['error']" "env: a step after the last turn is refused"
	python3 "$ROOT/agents/examples/env_client.py" relu --cuarena "$BIN" >"$OUT" 2>"$ERR"
	RC=$?; LAST="(agents/examples/env_client.py relu)"
	expect_rc 0 "the Python env client runs an episode"
	expect_in "$OUT" "step 1 (broken kernel): compile_error, reward -1, done False" \
		"the Python env client reads a step's verdict and reward"
	expect_in "$OUT" "rewards of the episode: [-1," "the Python env client gets the episode's rewards"
else
	skip "env steps (no nvcc here)"
fi

# ---- serve (HTTP on loopback): its own driver, counted here ------------------------
if [ -n "$NVCC_RELEASE" ] && [ "$HAVE_GPU" -eq 0 ]; then
	python3 "$ROOT/tests/serve_test.py" "$BIN" >"$WORK/serve.log" 2>&1
	RC=$?; LAST="(tests/serve_test.py)"
	grep -E '^(FAIL|      )' "$WORK/serve.log"
	sp=$(tail -n 20 "$WORK/serve.log" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' | tail -1)
	if [ -n "$sp" ]; then
		passed=$((passed + ${sp% *})); failed=$((failed + ${sp#* }))
		echo "ok    serve: ${sp% *} checks of tests/serve_test.py passed, ${sp#* } failed"
	fi
	expect_rc 0 "serve: the HTTP tests (protocol, errors, limits, auth, disconnects, restart, load) pass"
else
	skip "serve HTTP tests (they need nvcc and no GPU: the GPU phase is tools/dev/gpu-session.sh serve)"
fi

# ---- run ------------------------------------------------------------------------
cua run
expect_rc 2 "run without --agent is a usage error"
cua run --agent no-such-agent
expect_rc 2 "run with an unknown agent is a usage error"
expect_in "$ERR" "replay" "run lists the known agents"
cua run --agent reference --turns 0
expect_rc 2 "run --turns 0 is a usage error"
cua run --agent reference --reward speed
expect_rc 2 "run with an unknown reward is a usage error"
printf '[1, 2]\n' > "$WORK/cfg.json"
cua run --agent reference --agent-config "$WORK/cfg.json"
expect_rc 2 "run with a config that is not an object is a usage error"
expect_in "$ERR" "cfg.json" "run names the bad config file"
cua run --agent reference --gpus 0,0
expect_rc 2 "run --gpus with a device twice is a usage error"
expect_in "$ERR" "device 0 is listed twice" "run --gpus names the repeated device"
cua run --agent reference --gpus '0;1'
expect_rc 2 "run --gpus with a bad character is a usage error"
if [ "$HAVE_GPU" -eq 0 ]; then
	cua run --agent reference --tasks relu
	expect_rc 3 "run without a GPU is an environment error"
	expect_in "$ERR" "GPU" "run without a GPU says so"
fi

# ---- table, board, plot, compare, history (read result folders only) ---------
RES=$ROOT/tests/data/results
cua help
for c in table board plot compare history; do
	expect_in "$OUT" "cuarena $c" "help lists '$c'"
done
cua table
expect_rc 2 "table without a run is a usage error"
expect_in "$ERR" "usage: cuarena table" "table misuse prints its usage"
cua table "$RES/basic" --layout paper
expect_rc 2 "table --layout paper is a usage error"
cua table "$RES/basic" --format html
expect_rc 2 "table --format html is a usage error"
cua table "$RES/basic" --margin 120
expect_rc 2 "table --margin 120 is a usage error"
cua table "$RES/basic" --baselines ""
expect_rc 2 "table --baselines with an empty list is a usage error"
cua table "$RES/no-run-json"
expect_rc 2 "table of a folder without run.json is a usage error"
expect_in "$ERR" "no-run-json/run.json" "table names the missing run.json"
cua table "$RES/newer-schema"
expect_rc 2 "table of a newer schema is refused"
expect_in "$ERR" "evals.jsonl: line 12: schema 99 is newer than this cuarena (2)" \
	"table names the file and line of the newer schema"
cua table "$RES/torn"
expect_rc 0 "table of a run with a torn last line succeeds"
expect_in "$ERR" "torn last line skipped" "table reports the torn last line"
cua table "$RES/basic" --json
expect_rc 0 "table --json succeeds"
expect_json "table --json prints valid JSON"
json_check "j['runs'][0]['groups'][0]['level'] == 'Overall' and abs(j['runs'][0]['groups'][0]['pass'] - 0.6) < 1e-12" \
	"table --json has the Overall pass rate"
cua board
expect_rc 2 "board without a run is a usage error"
cua board "$RES/basic" --bogus
expect_rc 2 "board with an unknown option is a usage error"
cua board "$RES/basic" "$RES/beta"
expect_rc 0 "board to stdout succeeds"
expect_in "$OUT" "| 1 | beta | v2 |" "board ranks the better run first"
cua plot "$RES/basic"
expect_rc 2 "plot without --out is a usage error"
cua plot "$RES/basic" --out "$WORK/plots" --format jpg
expect_rc 2 "plot --format jpg is a usage error"
CUARENA_GNUPLOT=/nonexistent cua plot "$RES/basic" --out "$WORK/plots"
expect_rc 3 "plot without gnuplot is an environment error"
cua compare "$RES/basic"
expect_rc 2 "compare with one run is a usage error"
cua compare "$RES/basic" "$RES/basic" --threshold 0
expect_rc 2 "compare --threshold 0 is a usage error"
cua compare "$RES/basic" "$RES/basic"
expect_rc 0 "compare of a run with itself finds no regression"
cua compare "$RES/compare-old" "$RES/compare-new"
expect_rc 1 "compare exits 1 on a regression"
expect_in "$OUT" "2 regressions" "compare counts the regressions"
cua compare "$RES/compare-old" "$RES/compare-new" --json
expect_json "compare --json prints valid JSON"
json_check "j['regressions'] == 2 and j['summary']['SLOWER'] == 1" "compare --json counts SLOWER"
cua history
expect_rc 2 "history without a folder is a usage error"
cua history /nonexistent
expect_rc 2 "history of a missing folder is a usage error"
cua history "$RES/history"
expect_rc 0 "history succeeds"
expect_in "$ERR" "not-a-run" "history names the folder it skipped"

# The replay run measured on the H200 (results/: every task, over two invocations)
H200=$ROOT/examples/runs/2026-11-29-h200-replay
cua table "$H200" --json
expect_rc 0 "table reads the H200 replay run"
json_check "j['runs'][0]['groups'][0]['level'] == 'Overall' and j['runs'][0]['groups'][0]['pass'] == 1" \
	"the H200 replay run: all 100 tasks correct (their reference was the third turn)"
cua board "$H200" --md "$WORK/h200.md" --html "$WORK/h200-html"
expect_rc 0 "board of the H200 replay run succeeds"
expect_in "$WORK/h200.md" "| 1 | replay | 1 | NVIDIA H200 |" "the board ranks the H200 replay run, naming its GPU"
[ -s "$WORK/h200-html/index.html" ]
check $? "the board's HTML page of the H200 run is written"
cua compare "$H200" "$H200"
expect_rc 0 "compare of the H200 run with itself finds no regression"
expect_in "$OUT" "100 tasks: 100 same; 0 regressions" "compare counts the H200 run's tasks"
# plot reads the run alone: its baselines.jsonl records each task's flops and bytes
# (added by tools/backfill-flops-bytes.py from tasks/ at the run's catalogue hash)
if command -v gnuplot > /dev/null || [ -n "${CUARENA_GNUPLOT:-}" ]; then
	cua plot "$H200" --out "$WORK/h200-plots"
	expect_rc 0 "plot of the H200 replay run succeeds"
	expect_not_in "$ERR" "left out" "the H200 run records every task's flops and bytes"
	[ "$(grep -c '^[0-9]' "$WORK/h200-plots/roofline.dat")" -eq 78 ]
	check $? "the H200 run's roofline has its 78 correct tasks with a %SOL"
else
	echo "SKIP  plot of the H200 replay run: no gnuplot (tools/deps.sh)"
fi

# The Level 1 replay run measured on the H200 (KernelBench's Level 1, three invocations)
L1RUN=$ROOT/examples/runs/2026-12-02-h200-replay-l1
cua table "$L1RUN" --layout cuda-agent --json
expect_rc 0 "table --layout cuda-agent reads the Level 1 replay run"
json_check "[(g['level'], g['tasks'], g['correct']) for g in j['runs'][0]['groups']] == [('Overall', 100, 100), ('L1', 100, 100)]" \
	"the Level 1 replay run: 100 of KernelBench's 100 Level 1 tasks correct, in Level 1 and Overall"
cua table "$L1RUN" --layout cuda-agent
expect_in "$OUT" "| replay | 1 | 100.0 / 51.0 / 30.0 / 1.00 / 0.32 | 100.0 / 51.0 / 30.0 / 1.00 / 0.32 |" \
	"the README's table is this run's"
cua compare "$L1RUN" "$L1RUN"
expect_rc 0 "compare of the Level 1 run with itself finds no regression"
expect_in "$OUT" "100 tasks: 100 same; 0 regressions" "compare counts the Level 1 run's tasks, resumed twice"

# the floor plan: no room of harness/ includes a room above it (docs/ARCHITECTURE.md)
"$HERE/layers.sh" "$ROOT" > "$WORK/layers.log" 2>&1
check $? "every #include of harness/ and agents/ names a room at or below its own ($(tail -n 1 "$WORK/layers.log"))"
grep '^layers: .*:[0-9]* includes ' "$WORK/layers.log" | head -n 5 | sed 's/^/      /'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
