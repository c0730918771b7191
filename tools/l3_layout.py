"""l3_layout.py — the layout of a layered input (task.json "layers"), in Python.

The same expansion as harness/catalogue/layers.c (docs/ADDING-A-TASK.md, "Layered inputs"):
generators to named segments in PyTorch state_dict() order, each at a multiple of
64 elements. Used by tools/torch_check.py (to load a module's parameters from the
flat buffer, checking every name and shape against the module's) and by
tools/l3-classic-tasks.py. A disagreement with the harness shows up as a torch
check failure, so the two expansions check each other.
"""
import math
import re

ALIGN = 64


def _eval(expr, env):
    if isinstance(expr, (int, float)):
        return int(expr)
    if not re.fullmatch(r"[A-Za-z0-9_+\-*/%() ]+", expr):
        raise ValueError("bad expression %r" % expr)
    return int(eval(expr.replace("/", "//"), {"__builtins__": {}}, dict(env)))


def _name(tmpl, env):
    return re.sub(r"\{([^}]*)\}", lambda m: str(_eval(m.group(1), env)), tmpl)


def _fan_init(fan):
    b = 1.0 / math.sqrt(fan)
    return {"dist": "uniform", "low": -b, "high": b}


def _sizes(v, d, env):
    if isinstance(v, list):
        return [_eval(e, env) for e in v]
    return [_eval(v, env)] * d


def _gen(e, env, out):
    def add(name, shape, init):
        out.append((name, list(shape), init))

    def wb(name, wshape, nbias, fan):
        u = _fan_init(fan)
        add(name + ".weight", wshape, e.get("init", u))
        if e.get("bias", True):
            add(name + ".bias", [nbias], e.get("bias_init", u))

    I = lambda k, d=None: _eval(e[k], env) if k in e else d
    if "repeat" in e:
        for i in range(_eval(e["repeat"], env)):
            sub = dict(env)
            if "var" in e:
                sub[e["var"]] = i
            for x in e["layers"]:
                _gen(x, sub, out)
        return
    for key in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                "conv_transpose2d", "conv_transpose3d", "bn", "layernorm", "lstm", "gru",
                "rnn", "tensor"):
        if key in e:
            break
    else:
        raise ValueError("no generator in %r" % e)
    name = _name(e[key], env)
    if key == "linear":
        wb(name, [I("out"), I("in")], I("out"), I("in"))
    elif key.startswith("conv"):
        d = int(key[-2])
        k = _sizes(e["k"], d, env)
        g = I("groups", 1)
        cin, cout = I("in"), I("out")
        if "transpose" in key:
            w = [cin, cout // g] + k
        else:
            w = [cout, cin // g] + k
        wb(name, w, cout, w[1] * math.prod(k))
    elif key in ("bn", "layernorm"):
        shape = [I("c")] if "c" in e else [_eval(v, env) for v in e["shape"]]
        add(name + ".weight", shape, e.get("init", {"dist": "const", "value": 1}))
        if e.get("bias", True):
            add(name + ".bias", shape, e.get("bias_init", {"dist": "const", "value": 0}))
    elif key in ("lstm", "gru", "rnn"):
        gates = {"lstm": 4, "gru": 3, "rnn": 1}[key]
        h, nl, bi = I("hidden"), I("layers", 1), e.get("bidirectional", False)
        u = _fan_init(h)
        for l in range(nl):
            inl = I("in") if l == 0 else h * (2 if bi else 1)
            for rev in (["", "_reverse"] if bi else [""]):
                add("%s.weight_ih_l%d%s" % (name, l, rev), [gates * h, inl], e.get("init", u))
                add("%s.weight_hh_l%d%s" % (name, l, rev), [gates * h, h], e.get("init", u))
                if e.get("bias", True):
                    add("%s.bias_ih_l%d%s" % (name, l, rev), [gates * h], e.get("bias_init", u))
                    add("%s.bias_hh_l%d%s" % (name, l, rev), [gates * h], e.get("bias_init", u))
    else:
        add(name, [_eval(v, env) for v in e["shape"]], e["init"])


def expand(layers, params=None):
    """[(name, shape, numel, offset, init)] and P for a layer list."""
    env = {k: int(v) for k, v in (params or {}).items() if float(v).is_integer()}
    raw = []
    for e in layers:
        _gen(e, env, raw)
    segs, end = [], 0
    for name, shape, init in raw:
        off = (end + ALIGN - 1) // ALIGN * ALIGN
        n = math.prod(shape)
        segs.append((name, shape, n, off, init))
        end = off + n
    return segs, end
