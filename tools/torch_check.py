#!/usr/bin/env python3
"""torch_check.py — cross-validate the catalogue against PyTorch on the GPU machine.

    build/cuarena selftest --dump /tmp/dump          # inputs + fp64 oracle outputs
    python3 tools/torch_check.py --dump /tmp/dump [--kernelbench DIR] [--fp32] [--time]
                                 [--out FILE] [--only SUBSTR]

Check: for every task with a dump, each check shape's inputs (exactly the harness's,
read from the dump) are fed to the task's `torch` expression in float64, and our
fp64 oracle must agree with PyTorch within the task's tolerance. With --kernelbench DIR
(a KernelBench checkout: DIR/KernelBench/level1/*.py, e.g. `git archive v0.1
KernelBench/level1` of its repository), a task whose task.json names its KernelBench
problem ("source") is also run through that problem's own Model (tools/kb_l1.py), which
must agree with the oracle too. With --fp32, the expression also runs in fp32 (TF32
off) on the same inputs, and its error against the oracle is recorded as a fraction of
the tolerance: the measured error of correct fp32 code that a tolerance must exceed.

Time (--time): at the timed shape, on random inputs drawn from the task's
distributions (never zeros), torch eager and torch.compile (default mode) are timed — of
KernelBench's own Model where --kernelbench gives it one (the baseline KernelBench's
papers divide by), else of the task's torch expression —
in strict fp32 (TF32 off for matmul and cuDNN) with CUDA events, an L2 flush
(256 MiB written) before every sample, warm-up first, median of the samples. The
result (torch version, GPU, driver) is what the harness imports as the
`torch-eager` and `torch-compile` baselines (baselines/torch/<GPU>.json).

Warm (--warm, with --shard I/N to split the catalogue between processes): build each
task's torch.compile graph once, filling the on-disk inductor and Triton caches, so
that several processes can pay torch.compile's build time in parallel before one
process per GPU times (its recorded compile_build_s is then a warm-cache build).

Prints one line per task and a final "N passed, N failed, N skipped" (a task with
nothing to check, e.g. no dump, is skipped and never counted as passed).
"""
import argparse
import datetime
import glob
import json
import math
import os
import re
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import task_hash  # noqa: E402

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64,
          "u8": np.uint8}


def load_tasks(root):
    tasks = []
    paths = glob.glob(os.path.join(root, "tasks", "L*", "*", "task.json")) + \
        glob.glob(os.path.join(root, "tasks", "X", "*", "task.json"))   # the extra set
    for path in sorted(paths):
        folder = os.path.dirname(path)
        with open(path) as f:
            t = json.load(f)
        t["_folder"] = os.path.basename(folder)
        t["_id"] = "%s/%s" % (os.path.basename(os.path.dirname(folder)), t["_folder"])
        t["_dir"] = folder
        tasks.append(t)
    return tasks


def make_fn(task):
    names = [i["name"] for i in task["inputs"]]
    src = "def _f(%s):\n    return %s\n" % (", ".join(names), task["torch"])
    env = {"torch": torch, "F": F, "math": math}
    if any("layers" in i for i in task["inputs"]):
        # A Level 3 network: `L3.<net>(x, params)` builds the module, loads its
        # parameters from the flat buffer by the layer list (tools/l3_torch.py);
        # the recurrent and attention networks are `L3seq.<net>(x, ..., params)`
        # (tools/l3_torch_seq.py), the CNN family `L3cnn.<net>(x, params)`
        # (tools/l3_torch_cnn.py).
        import l3_torch
        import l3_torch_cnn
        import l3_torch_seq
        env["L3"] = l3_torch.Binder(task)
        env["L3seq"] = l3_torch_seq.Binder(task)
        env["L3cnn"] = l3_torch_cnn.Binder(task)
    if task.get("level") == 3:
        # the vision-transformer, NetVLAD and Mamba2 networks: `L3vit.<net>(...)`
        # (tools/l3_torch_vit.py); Mamba2 has no layered input (its A, B, C are inputs)
        import l3_torch_vit
        env["L3vit"] = l3_torch_vit.Binder(task)
    exec(compile(src, "<torch expression of %s>" % task["_id"], "exec"), env)
    return env["_f"], names


def compiled(fn, args):
    """torch.compile(fn), built and run once on args; returns (cfn, seconds).

    Dynamo is reset first: it counts every task's `_f` as a recompilation of one
    frame, and past its recompile limit (8) it silently runs the function eagerly,
    which once turned 92 tasks' "torch.compile" timings into eager ones. A build
    that compiled no graph is an error, never a timing."""
    from torch._dynamo.utils import counters
    torch._dynamo.reset()
    before = counters["stats"]["unique_graphs"]
    cfn = torch.compile(fn)
    t0 = time.time()
    cfn(*args)
    torch.cuda.synchronize()
    took = time.time() - t0
    if counters["stats"]["unique_graphs"] <= before:
        raise RuntimeError("torch.compile compiled no graph (fell back to eager)")
    return cfn, took


def compare(shape_name, got, oracle, atol, rtol, what):
    """(None, worst |diff|) when every output of got is within tolerance of the oracle's,
    else (message, 0)."""
    worst = 0.0
    if len(got) != len(oracle):
        return "shape %s: %s gives %d outputs, the task %d" % (
            shape_name, what, len(got), len(oracle)), 0
    for g, o in zip(got, oracle):
        g = g.reshape(o.shape) if g.numel() == o.numel() else g
        if g.shape != o.shape:
            return "shape %s: %s output %s vs oracle %s" % (
                shape_name, what, tuple(g.shape), tuple(o.shape)), 0
        if not o.is_floating_point():
            bad = (g.to(o.dtype) != o).sum().item()
            if bad:
                return "shape %s: %d integer elements differ from %s" % (
                    shape_name, bad, what), 0
            continue
        g = g.double()
        diff = (o - g).abs()
        tol = atol + rtol * g.abs()
        nan_ok = torch.isnan(o) == torch.isnan(g)
        bad = (~((diff <= tol) | (torch.isnan(o) & torch.isnan(g)))).sum().item()
        if bad or not bool(nan_ok.all()):
            i = int(torch.argmax((diff - tol).nan_to_num(1e300)).item())
            return "shape %s: %d elements out of tolerance of %s; first worst: oracle %r, %r" % (
                shape_name, bad, what, o.flatten()[i].item(), g.flatten()[i].item()), 0
        worst = max(worst, float(diff.max().item()) if diff.numel() else 0.0)
    return None, worst


def fp32_error(shape_name, got, oracle, atol, rtol):
    """How far correct fp32 code (torch in fp32, TF32 off) lands from the fp64 oracle,
    as a fraction of the task's tolerance: {shape, max_abs, max_ratio, out} where
    max_ratio is the largest |oracle - got| / (atol + rtol |oracle|) and out the
    number of elements beyond the tolerance (ratio > 1)."""
    r = {"shape": shape_name, "max_abs": 0.0, "max_ratio": 0.0, "out": 0}
    for g, o in zip(got, oracle):
        if not o.is_floating_point() or g.numel() != o.numel():
            continue
        o = o.double()
        diff = (o - g.reshape(o.shape).double()).abs().nan_to_num(1e300)
        ratio = diff / (atol + rtol * o.abs())
        if diff.numel():
            r["max_abs"] = max(r["max_abs"], float(diff.max().item()))
            r["max_ratio"] = max(r["max_ratio"], float(ratio.max().item()))
            r["out"] += int((ratio > 1).sum().item())
    return r


def check_task(task, dump_dir, kernelbench=None, fp32=None):
    """Our fp64 oracle against the task's torch expression at every dumped check shape,
    and, with kernelbench (a KernelBench checkout) for a task that names its problem,
    against KernelBench's own Model (tools/kb_l1.py) too. With fp32 (a list), the
    same expression is also run in fp32 on the same inputs and each shape's
    fp32_error() is appended: the measured error of correct fp32 code, which a
    tolerance must exceed with a margin (docs/METHOD.md)."""
    man_path = os.path.join(dump_dir, task["_folder"], "manifest.json")
    if not os.path.exists(man_path):
        return None, "no dump"
    with open(man_path) as f:
        man = json.load(f)
    fn, names = make_fn(task)
    atol, rtol = task["tolerance"]["atol"], task["tolerance"]["rtol"]
    worst = worst_kb = 0.0
    kb = None
    if kernelbench:
        import kb_l1
        kb = kb_l1 if kb_l1.problem(task) is not None else None
    dims_of = {s["name"]: s["dims"] for s in task["shapes"]}
    for shape in man["shapes"]:
        ins, ins32, oracle = {}, {}, []
        for t in shape["tensors"]:
            arr = np.fromfile(os.path.join(dump_dir, task["_folder"], t["file"]),
                              dtype=DTYPES[t["dtype"]]).reshape(t["shape"])
            x = torch.from_numpy(arr.copy()).cuda()
            if t["role"] == "input":
                ins[t["name"]] = x.double() if x.is_floating_point() else x
                ins32[t["name"]] = x.float() if x.is_floating_point() else x
            else:
                oracle.append(x)
        with torch.no_grad():
            got = fn(*[ins[n] for n in names])
        if not isinstance(got, (tuple, list)):
            got = [got]
        bad, w = compare(shape["name"], got, oracle, atol, rtol, "torch")
        if bad:
            return False, bad
        worst = max(worst, w)
        if fp32 is not None:
            with torch.no_grad():
                got32 = fn(*[ins32[n] for n in names])
            if not isinstance(got32, (tuple, list)):
                got32 = [got32]
            fp32.append(fp32_error(shape["name"], got32, oracle, atol, rtol))
        if kb is not None:
            got = kb.run(task, kernelbench, ins, dims_of[shape["name"]])
            bad, w = compare(shape["name"], got, oracle, atol, rtol, "KernelBench's model")
            if bad:
                return False, bad
            worst_kb = max(worst_kb, w)
    msg = "max |oracle - torch| = %.3g" % worst
    if kb is not None:
        msg += "; max |oracle - KernelBench %s's model| = %.3g" % (
            task["source"]["kernelbench"], worst_kb)
    return True, msg


def eval_dims(task, shape):
    env = dict(shape["dims"])
    for k, v in task.get("params", {}).items():
        if float(v).is_integer():
            env[k] = int(v)
    def ev(expr):
        expr = str(expr)
        if not re.fullmatch(r"[A-Za-z0-9_+\-*/%() ]+", expr):
            raise ValueError("bad expression %r" % expr)
        # integer semantics of the harness: / truncates
        return int(eval(expr.replace("/", "//"), {"__builtins__": {}}, env))
    return ev


def random_layered(spec, task):
    """A layered input (Level 3 weights): each segment drawn from its own init,
    zero between segments, as the harness lays it out (tools/l3_layout.py)."""
    import l3_layout
    segs, total = l3_layout.expand(spec["layers"], task.get("params"))
    flat = torch.zeros(total, device="cuda", dtype=torch.float32)
    for _, shape, n, off, init in segs:
        seg = {"dtype": "f32", "init": init}
        if init["dist"] == "const":
            flat[off:off + n] = init["value"]
        else:
            flat[off:off + n] = random_input(seg, [n])
    return flat


def random_input(spec, shape):
    init = spec["init"]
    dt = {"f32": torch.float32, "f64": torch.float64, "i32": torch.int32,
          "i64": torch.int64, "u8": torch.uint8}[spec["dtype"]]
    d = init["dist"]
    if d == "uniform":
        return torch.rand(shape, device="cuda", dtype=torch.float32).mul_(
            init["high"] - init["low"]).add_(init["low"]).to(dt)
    if d == "normal":
        return torch.randn(shape, device="cuda", dtype=torch.float32).mul_(
            init["std"]).add_(init["mean"]).to(dt)
    if d == "int":
        return torch.randint(int(init["low"]), int(init["high"]) + 1, shape,
                             device="cuda", dtype=dt)
    return (torch.rand(shape, device="cuda") < init["p"]).to(dt)


def time_fn(fn, args, samples=20):
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    for _ in range(3):
        fn(*args)
    torch.cuda.synchronize()
    times = []
    for i in range(samples):
        flush.fill_(i & 0xff)
        torch.cuda.synchronize()
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn(*args)
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return float(np.median(times)), len(times)


def timed_inputs(task):
    """Random inputs at the task's timed shape, drawn from its distributions."""
    timed = [s for s in task["shapes"] if s.get("timed")][0]
    ev = eval_dims(task, timed)
    return [random_layered(i, task) if "layers" in i else
            random_input(i, [ev(e) for e in i["shape"]]) for i in task["inputs"]]


def timed_fn(task, kernelbench=None):
    """What --time and --warm run at the timed shape, and its inputs: KernelBench's own
    Model when kernelbench is given and the task names its problem (the time KernelBench's
    papers divide by), else the task's torch expression."""
    fn, _ = make_fn(task)
    args = timed_inputs(task)
    if kernelbench:
        import kb_l1
        if kb_l1.problem(task) is not None:
            timed = [s for s in task["shapes"] if s.get("timed")][0]
            named = {i["name"]: a for i, a in zip(task["inputs"], args)}
            fn, args = kb_l1.build(task, kernelbench, named, timed["dims"], torch.float32)
    return fn, args


def time_task(task, kernelbench=None):
    """torch eager and torch.compile of timed_fn."""
    fn, args = timed_fn(task, kernelbench)
    with torch.no_grad():
        eager, n = time_fn(fn, args)
        cfn, compile_s = compiled(fn, args)
        compile_ms, _ = time_fn(cfn, args)
    del args
    torch.cuda.empty_cache()
    return {"eager_ms": eager, "compile_ms": compile_ms, "samples": n,
            "compile_build_s": compile_s}


def warm_task(task, kernelbench=None):
    """Build timed_fn's torch.compile graph once; returns seconds."""
    fn, args = timed_fn(task, kernelbench)
    with torch.no_grad():
        _, took = compiled(fn, args)
    del args
    torch.cuda.empty_cache()
    return took


def write_json(path, doc):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


def driver_version():
    try:
        with open("/sys/module/nvidia/version") as f:
            return f.read().strip()
    except OSError:
        return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--dump", help="directory written by cuarena selftest --dump")
    ap.add_argument("--time", action="store_true", help="time torch eager and compile")
    ap.add_argument("--only", help="only tasks whose id contains this")
    ap.add_argument("--match", help="only tasks whose folder matches this regular expression")
    ap.add_argument("--time-only", help="with --time: time only tasks whose folder matches "
                    "this regular expression (torch.compile takes seconds a task)")
    ap.add_argument("--out", help="write the JSON here (baselines/torch/<GPU>.json); "
                    "rewritten after every task, so a run cut short keeps what it measured")
    ap.add_argument("--warm", action="store_true",
                    help="only build each task's torch.compile graph once (fills the on-disk "
                    "inductor/Triton caches; run several in parallel before --time)")
    ap.add_argument("--fp32", action="store_true",
                    help="with --dump: also run each task's torch expression in fp32 (TF32 "
                    "off) on the dumped inputs and record its error against the oracle as a "
                    "fraction of the tolerance (entry \"fp32\", one per shape)")
    ap.add_argument("--shard", default="0/1", help="I/N: take every N-th task from the I-th")
    ap.add_argument("--kernelbench", help="a KernelBench checkout (its KernelBench/level1/*.py): "
                    "with --dump, a task that names its KernelBench problem is also checked "
                    "against the problem's own Model (tools/kb_l1.py)")
    a = ap.parse_args()
    shard_i, shard_n = (int(x) for x in a.shard.split("/"))

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    gpu = torch.cuda.get_device_name(0)
    doc = {"schema": 1, "gpu": gpu, "driver": driver_version(),
           "torch": torch.__version__, "cuda": torch.version.cuda,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "method": "strict fp32 (TF32 off); CUDA events; 256 MiB L2 flush before each of "
                     "20 samples after 3 warm-ups; median; torch.compile default mode",
           "tasks": {}}
    passed = failed = skipped = 0
    for k, task in enumerate(load_tasks(a.root)):
        if k % shard_n != shard_i:
            continue
        if a.only and a.only not in task["_id"]:
            continue
        if a.match and not re.search(a.match, task["_folder"]):
            continue
        if "torch" not in task:
            print("SKIP %s: no torch expression" % task["_id"])
            continue
        # the task's folder hash: `cuarena catalogue` shows a figure only for the task
        # as it was measured (tools/task_hash.py)
        entry = {"task_hash": task_hash.folder_hash(task["_dir"])}
        ok = True
        did = False   # a task with nothing checked or timed is skipped, not passed
        try:
            if a.dump:
                f32 = [] if a.fp32 else None
                good, msg = check_task(task, a.dump, a.kernelbench, f32)
                if good is None:
                    print("SKIP %s check: %s" % (task["_id"], msg))
                else:
                    did = True
                    entry["check"] = {"ok": good, "message": msg}
                    ok &= good
                    print("%s %s oracle vs torch fp64: %s" % ("PASS" if good else "FAIL",
                                                               task["_id"], msg))
                if f32:
                    # a measurement, not a verdict: a tolerance that correct fp32 code
                    # misses is named, and the task's own selftest fails on it
                    entry["fp32"] = f32
                    w = max(f32, key=lambda r: r["max_ratio"])
                    print("     %s torch fp32 vs oracle: worst %.3g of the tolerance "
                          "(|diff| %.3g, shape %s)%s" % (
                              task["_id"], w["max_ratio"], w["max_abs"], w["shape"],
                              "; %d elements beyond it" % sum(r["out"] for r in f32)
                              if w["max_ratio"] > 1 else ""))
            if a.warm:
                did = True
                entry["compile_build_cold_s"] = warm_task(task, a.kernelbench)
                print("     %s torch.compile built in %.1f s" % (
                    task["_id"], entry["compile_build_cold_s"]))
            if a.time and (not a.time_only or re.search(a.time_only, task["_folder"])):
                did = True
                entry.update(time_task(task, a.kernelbench))
                print("     %s eager %.4f ms, compile %.4f ms (built in %.1f s)" % (
                    task["_id"], entry["eager_ms"], entry["compile_ms"],
                    entry["compile_build_s"]))
        except Exception as e:  # a broken expression is a failure of that task
            ok = False
            did = True
            entry["error"] = "%s: %s" % (type(e).__name__, e)
            print("FAIL %s: %s" % (task["_id"], entry["error"]))
        sys.stdout.flush()
        if not did:
            skipped += 1
            continue
        doc["tasks"][task["_id"]] = entry
        passed += ok
        failed += not ok
        if a.out:
            write_json(a.out, doc)
    if a.out:
        write_json(a.out, doc)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
