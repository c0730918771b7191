# make-fixtures.py — regenerates the task.json fixtures used by tests/test-task.c:
#   python3 tests/data/tasks/make-fixtures.py
# bad/: one folder per malformed case, each the control task with one mutation;
# good/: a valid tree (names collide across levels on purpose, for find; X/ is
#        the extra set, level 0);
# cat/: a catalogue root with 2 good and 2 bad tasks.
import json, os, copy, shutil
B = os.path.dirname(os.path.abspath(__file__))
for sub in ('bad', 'good', 'cat'):
    shutil.rmtree(os.path.join(B, sub), ignore_errors=True)

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)

def dump(obj):
    return json.dumps(obj, indent=2) + '\n'

control = {
  "title": "ReLU",
  "level": 1,
  "description": "y = max(x, 0) elementwise.",
  "params": {"slope": 0.01, "pad": 2},
  "inputs": [{"name": "x", "dtype": "f32", "shape": ["B", "D"],
              "init": {"dist": "normal", "mean": 0, "std": 1}}],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["B", "D"]}],
  "shapes": [
    {"name": "timed", "timed": True, "dims": {"B": 4096, "D": 196608}},
    {"name": "odd", "dims": {"B": 37, "D": 1001}}
  ],
  "precision": "fp32-strict",
  "tolerance": {"atol": 1e-5, "rtol": 1e-5},
  "flops": "B*D",
  "bytes": "8*B*D + pad",
  "baselines": ["cublas/present"],
  "libraries": []
}

# ---- bad root: one mutation of the control task per folder ----------------
bad = B + '/bad'
write(bad + '/baselines/cublas/present.cu', '/* present.cu — fixture: a baseline file that exists. */\n')
write(bad + '/tasks/L1/control/task.json', dump(control))

def case(name, fn):
    t = copy.deepcopy(control)
    fn(t)
    write(bad + '/tasks/L1/' + name + '/task.json', dump(t))

def setk(path, value):
    def f(t):
        o = t
        for k in path[:-1]:
            o = o[k]
        o[path[-1]] = value
    return f

def delk(path):
    def f(t):
        o = t
        for k in path[:-1]:
            o = o[k]
        del o[path[-1]]
    return f

def seq(*fs):
    def f(t):
        for g in fs:
            g(t)
    return f

case('missing-field', delk(['flops']))
case('wrong-type', setk(['level'], "1"))
case('wrong-type-shape', setk(['inputs', 0, 'shape'], "B"))
case('unknown-dim', setk(['outputs', 0, 'shape'], ["B", "Q"]))
case('bad-dtype', setk(['inputs', 0, 'dtype'], "f33"))
case('two-timed', setk(['shapes', 1, 'timed'], True))
case('no-timed', delk(['shapes', 0, 'timed']))
case('no-check-shape', lambda t: t['shapes'].pop())
case('negative-dim', setk(['shapes', 1, 'dims', 'D'], -1001))
case('fractional-dim', setk(['shapes', 1, 'dims', 'D'], 10.5))
case('zero-size-dim', setk(['outputs', 0, 'shape'], ["B", "D - 1001"]))
case('init-normal-std', setk(['inputs', 0, 'init', 'std'], 0))
case('init-uniform-high', setk(['inputs', 0, 'init'], {"dist": "uniform", "low": 1, "high": 1}))
case('init-int-high', setk(['inputs', 0, 'init'], {"dist": "int", "low": 5, "high": 4}))
case('init-bernoulli-p', setk(['inputs', 0, 'init'], {"dist": "bernoulli", "p": 1}))
case('init-unknown-dist', setk(['inputs', 0, 'init'], {"dist": "poisson", "lambda": 3}))
case('init-extra-key', setk(['inputs', 0, 'init', 'low'], 0))
case('init-missing', delk(['inputs', 0, 'init']))
case('unknown-field', setk(['flop'], "B*D"))
case('nested-unknown-field', setk(['inputs', 0, 'dtyp'], "f32"))
case('output-with-init', setk(['outputs', 0, 'init'], {"dist": "normal", "mean": 0, "std": 1}))
case('level-mismatch', setk(['level'], 2))
case('level-out-of-range', setk(['level'], 10))
case('level-zero-outside-x', setk(['level'], 0))
case('non-int-param', setk(['flops'], "slope*B*D"))
case('division-by-zero', setk(['bytes'], "8*B*D/(D-1001)"))
case('overflow', setk(['flops'], "B*D*B*D*B*D"))
case('expr-syntax', setk(['inputs', 0, 'shape'], ["B", "(D"]))
case('empty-expr', setk(['inputs', 0, 'shape'], ["B", ""]))
case('duplicate-names', setk(['outputs', 0, 'name'], "x"))
case('bad-name', setk(['inputs', 0, 'name'], "1x"))
case('too-many-dims', setk(['inputs', 0, 'shape'], ["B"] * 9))
case('too-many-inputs', lambda t: t['inputs'].extend(
    [dict(t['inputs'][0], name="x%d" % i) for i in range(1, 9)]))
case('no-outputs', setk(['outputs'], []))
case('missing-baseline', setk(['baselines'], ["cublas/absent"]))
case('bad-baseline-format', setk(['baselines'], ["cublas"]))
case('bad-library', setk(['libraries'], ["mkl"]))
case('negative-atol', setk(['tolerance', 'atol'], -1e-5))
case('missing-rtol', delk(['tolerance', 'rtol']))
case('bad-precision', setk(['precision'], "fp16"))
case('dim-param-clash', setk(['shapes', 0, 'dims', 'pad'], 3))
case('duplicate-shape-name', setk(['shapes', 1, 'name'], "timed"))
case('empty-title', setk(['title'], ""))
KB = {"kernelbench": "v0.1", "file": "level1/19_ReLU.py"}
case('source-not-object', setk(['source'], "level1/19_ReLU.py"))
case('source-missing-file', setk(['source'], {"kernelbench": "v0.1"}))
case('source-unknown-key', setk(['source'], dict(KB, url="https://x")))
case('source-bad-version', setk(['source'], dict(KB, kernelbench="v0.1 beta")))
case('source-bad-file', setk(['source'], dict(KB, file="level1/ReLU.py")))
case('source-wrong-level', setk(['source'], dict(KB, file="level2/19_ReLU.py")))
case('source-wrong-number', setk(['source'], KB))

# hand-written texts
text = dump(control)
lines = text.split('\n')
assert lines[2] == '  "level": 1,'
lines[2] = '  "level": 1'          # missing comma: the error is on line 4
write(bad + '/tasks/L1/invalid-json/task.json', '\n'.join(lines))
lines = text.split('\n')
lines.insert(2, '  "title": "ReLU again",')
write(bad + '/tasks/L1/duplicate-key/task.json', '\n'.join(lines))
write(bad + '/tasks/L1/not-object/task.json', '[1, 2, 3]\n')
write(bad + '/tasks/L1/infinite-atol/task.json',
      text.replace('"atol": 1e-05', '"atol": 1e999'))
assert '1e999' in open(bad + '/tasks/L1/infinite-atol/task.json').read()

# ---- good root: every field used, and names that collide on purpose -------
good = B + '/good'
thing = {
  "title": "Thing",
  "level": 1,
  "description": "y = alpha * (A @ B) + x: a made-up op that uses every field.",
  "params": {"alpha": 0.5, "K_pad": 4},
  "inputs": [
    {"name": "A", "dtype": "f32", "shape": ["M", "K + K_pad"],
     "init": {"dist": "uniform", "low": -1, "high": 1}},
    {"name": "B", "dtype": "bf16", "shape": ["K + K_pad", "N"],
     "init": {"dist": "normal", "mean": 0.25, "std": 0.5}},
    {"name": "idx", "dtype": "i32", "shape": ["M"],
     "init": {"dist": "int", "low": 0, "high": 9}},
    {"name": "mask", "dtype": "u8", "shape": ["M", 3],
     "init": {"dist": "bernoulli", "p": 0.25}}
  ],
  "outputs": [{"name": "y", "dtype": "f32", "shape": ["M", "N"]}],
  "shapes": [
    {"name": "odd", "dims": {"M": 37, "K": 13, "N": 101}},
    {"name": "timed", "timed": True, "dims": {"M": 4096, "K": 4092, "N": 4096}},
    {"name": "tiny", "timed": False, "dims": {"M": 1, "K": 1, "N": 1}}
  ],
  "precision": "tf32-allowed",
  "tolerance": {"atol": 1e-4, "rtol": 2e-3},
  "flops": "2*M*N*(K+K_pad)",
  "bytes": "4*M*(K+K_pad) + 2*(K+K_pad)*N + 4*M + 3*M + 4*M*N",
  "baselines": ["cublas/thing"],
  "libraries": ["cublas"],
  "torch": "alpha * (A @ B.float())",
  "source": {"kernelbench": "v0.1", "file": "level1/1_Thing_.py"}
}
write(good + '/tasks/L1/001-thing/task.json', dump(thing))
write(good + '/baselines/cublas/thing.cu', '/* thing.cu — fixture: the baseline named by L1/001-thing. */\n')
relu = copy.deepcopy(control)
del relu['baselines']
write(good + '/tasks/L1/020-relu/task.json', dump(relu))
thing2 = copy.deepcopy(relu); thing2['level'] = 2; thing2['title'] = 'Thing, level 2'
write(good + '/tasks/L2/001-thing/task.json', dump(thing2))
relu2 = copy.deepcopy(relu); relu2['level'] = 2; relu2['title'] = 'ReLU, level 2'
write(good + '/tasks/L2/007-relu/task.json', dump(relu2))
add = copy.deepcopy(relu); add['level'] = 0; add['title'] = 'Add, extra set'
write(good + '/tasks/X/007-add/task.json', dump(add))
write(good + '/tasks/common/naive.cuh', '/* naive.cuh — fixture: shared code is hashed, not loaded. */\n')
write(good + '/tasks/L1/099-draft/notes.txt', 'A folder without task.json is not a task.\n')

# ---- catalogue root: 2 good, 2 bad -----------------------------------------
cat = B + '/cat'
write(cat + '/tasks/L1/001-relu/task.json', dump(relu))
write(cat + '/tasks/L1/002-broken/task.json', dump(relu)[:-3])   # truncated
soft = copy.deepcopy(relu2); soft['title'] = 'Softmax'
write(cat + '/tasks/L2/001-softmax/task.json', dump(soft))
miss = copy.deepcopy(relu2); del miss['flops']
write(cat + '/tasks/L2/003-missing/task.json', dump(miss))
write(cat + '/tasks/common/naive.cuh', '/* naive.cuh — fixture: shared code is hashed, not loaded. */\n')
