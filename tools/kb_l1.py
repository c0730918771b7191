"""kb_l1.py — runs a Level 1 task's inputs through KernelBench's own model code.

tools/torch_check.py --kernelbench DIR imports this: for a task whose task.json names its
KernelBench problem ("source": {"kernelbench": "v0.1", "file": "level1/19_ReLU.py"}), the
problem's file is read from a KernelBench checkout (DIR/KernelBench/level1/19_ReLU.py, or
DIR/level1/19_ReLU.py), its Model is built with the file's own get_init_inputs(), and the
harness's dumped inputs of a check shape go through Model.forward in float64:

- the first inputs are forward's arguments, in order, unless ARGS below builds them (a
  constant KernelBench passes, a matrix KernelBench makes triangular or symmetric, ±1
  targets stored as 0/1);
- the remaining inputs replace the module's parameters in named_parameters() order (a
  convolution's weight, then its bias); parameters left over keep PyTorch's initialisation
  (norms' weight 1 and bias 0, which the tasks take as given);
- where a module's size is tied to a dimension of the input (a norm's num_features, a
  depthwise convolution's groups), DIMS sets the file's module-level names from the shape
  set's dims before get_init_inputs() reads them, so the model matches each check shape.

Nothing here is KernelBench's code: it reads the file at run time from the checkout given.
"""
import inspect
import os
import re

import torch

# module-level names of the KernelBench file -> a dim of the task's shape set
DIMS = {
    33: {"features": "C"},
    34: {"features": "C"},
    35: {"features": "C"},
    36: {"features": "F"},
    40: {"features": "C", "dim1": "H", "dim2": "W"},
    82: {"in_channels": "C"},
    83: {"in_channels": "C"},
    84: {"in_channels": "C", "out_channels": "C"},
    85: {"in_channels": "C", "out_channels": "C"},
    86: {"in_channels": "C", "out_channels": "F"},
}


def _sym(a):
    return torch.tril(a) + torch.tril(a, -1).T


# forward's arguments built from the task's inputs (a dict by name)
ARGS = {
    5: lambda t: [t["A"], 3.14],
    13: lambda t: [_sym(t["A"]), _sym(t["B"])],
    14: lambda t: [torch.triu(t["A"]), torch.triu(t["B"])],
    15: lambda t: [torch.tril(t["A"]), torch.tril(t["B"])],
    93: lambda t: [t["x"], t["mask"].to(torch.bool)],
    100: lambda t: [t["predictions"], 2 * t["targets"].to(torch.float64) - 1],
}


def problem(task):
    """KernelBench's problem number of a task, or None."""
    src = task.get("source") or {}
    m = re.match(r"level(\d+)/(\d+)_", src.get("file", ""))
    return int(m.group(2)) if m and m.group(1) == "1" else None


def _file(task, root):
    rel = task["source"]["file"]
    for path in (os.path.join(root, "KernelBench", rel), os.path.join(root, rel)):
        if os.path.exists(path):
            return path
    raise FileNotFoundError("%s: not under %s/KernelBench or %s" % (rel, root, root))


def build(task, root, inputs, dims, dtype=torch.float64, device="cuda"):
    """KernelBench's Model of the task with its parameters taken from inputs (name ->
    tensor), and forward's arguments: (model, args)."""
    num = problem(task)
    path = _file(task, root)
    ns = {"__name__": "kernelbench_level1_%d" % num, "__file__": path}
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, ns)
    for name, dim in DIMS.get(num, {}).items():
        ns[name] = dims[dim]
    model = ns["Model"](*ns["get_init_inputs"]()).to(device=device, dtype=dtype)
    names = [i["name"] for i in task["inputs"]]
    n_args = len(inspect.signature(model.forward).parameters)
    if num in ARGS:
        args = ARGS[num](inputs)
        rest = []
    else:
        args = [inputs[n] for n in names[:n_args]]
        rest = [inputs[n] for n in names[n_args:]]
    params = list(model.named_parameters())
    if len(rest) > len(params):
        raise ValueError("problem %d: %d inputs left for %d module parameters"
                         % (num, len(rest), len(params)))
    for (pname, _), value in zip(params, rest):
        owner = model
        *path_, leaf = pname.split(".")
        for p in path_:
            owner = getattr(owner, p)
        setattr(owner, leaf, torch.nn.Parameter(value.to(device=device, dtype=dtype),
                                                requires_grad=False))
    args = [a.to(dtype) if torch.is_tensor(a) and a.is_floating_point() else a for a in args]
    return model, args


def run(task, root, inputs, dims, device="cuda"):
    """KernelBench's Model of the task on inputs (name -> tensor, floating ones float64):
    the list of its outputs."""
    model, args = build(task, root, inputs, dims, torch.float64, device)
    with torch.no_grad():
        out = model(*args)
    return list(out) if isinstance(out, (tuple, list)) else [out]
