"""l3_torch_seq.py — the recurrent and attention Level 3 networks (L3/031, 033–044, 050) as
torch modules for tools/torch_check.py.

A task's `torch` field is an expression such as `L3seq.lstm_fc(x, h0, c0, params)`: `L3seq`
is a Binder for the task whose methods build the network as an nn.Module (written from
KernelBench v0.1's definitions: the same layers, registered in the same order, so the same
state_dict() names), load its parameters from the flat `params` tensor through the task's
layer list (tools/l3_layout.py), and run it. Every segment must be a parameter of the module
with its shape, and every parameter must be covered, so the harness's layout and PyTorch's
state_dict() check each other. One exception, for the tasks whose gate bias is shifted
(tasks/L3/DEPARTURES-seq.md): segments `NAME.g` for the gate blocks g of a parameter NAME
lie end to end and are concatenated into NAME. dtype follows the inputs (float64 for the
oracle check, float32 when timed).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

import l3_layout


def load_params(model, flat, task):
    layers = [i["layers"] for i in task["inputs"] if "layers" in i][0]
    segs, total = l3_layout.expand(layers, task.get("params"))
    if flat.numel() != total:
        raise ValueError("params has %d elements, the layout %d" % (flat.numel(), total))
    named = dict(model.named_parameters())
    seen, pieces = set(), {}
    for name, shape, n, off, _ in segs:
        if name in named:
            p = named[name]
            if list(p.shape) != list(shape):
                raise ValueError("segment %s: shape %s, the module's %s" % (
                    name, shape, list(p.shape)))
            with torch.no_grad():
                p.copy_(flat[off:off + n].view(p.shape))
            seen.add(name)
            continue
        base = name.rsplit(".", 1)[0]
        if base not in named:
            raise ValueError("segment %s is not a parameter of the module" % name)
        pieces.setdefault(base, []).append((off, n))
    for base, ps in pieces.items():
        p = named[base]
        for (o0, n0), (o1, _) in zip(ps, ps[1:]):
            if o0 + n0 != o1:
                raise ValueError("the gate segments of %s are not contiguous" % base)
        n = sum(n for _, n in ps)
        if n != p.numel():
            raise ValueError("gate segments of %s: %d elements, the module's %d" % (
                base, n, p.numel()))
        with torch.no_grad():
            p.copy_(flat[ps[0][0]:ps[0][0] + n].view(p.shape))
        seen.add(base)
    missing = sorted(set(named) - seen)
    if missing:
        raise ValueError("module parameters not in the layout: %s" % ", ".join(missing[:5]))


# ---- modules (KernelBench v0.1's, dropout 0) ---------------------------------------------

class RNNCell(nn.Module):
    """L3/033 and 034: Linear on cat(x, h), tanh, Linear."""

    def __init__(self, i, h, o):
        super().__init__()
        self.i2h = nn.Linear(i + h, h)
        self.h2o = nn.Linear(h, o)

    def step(self, x, h):
        h = torch.tanh(self.i2h(torch.cat((x, h), dim=1)))
        return self.h2o(h), h

    def forward(self, x, h0):
        return self.step(x, h0)


class RNNCellSeq(RNNCell):
    def forward(self, x, h0):
        h, ys = h0, []
        for t in range(x.shape[0]):
            y, h = self.step(x[t], h)
            ys.append(y)
        return torch.stack(ys, dim=0)


class LSTMNet(nn.Module):
    """L3/035–038: nn.LSTM(batch_first), then what the task returns."""

    def __init__(self, bidir, out, fc):
        super().__init__()
        self.lstm = nn.LSTM(128, 256, 6, batch_first=True, bidirectional=bidir)
        self.out = out
        if fc:
            self.fc = nn.Linear(256 * (2 if bidir else 1), 10)

    def forward(self, x, h0, c0):
        y, (hn, cn) = self.lstm(x, (h0, c0))
        if self.out == "fc":
            return self.fc(y[:, -1, :])
        return hn if self.out == "hn" else cn


class GRUNet(nn.Module):
    """L3/039–042: nn.GRU (seq-first), its output sequence or h_n."""

    def __init__(self, bidir, out):
        super().__init__()
        self.gru = nn.GRU(128, 256, 6, bidirectional=bidir)
        self.out = out

    def forward(self, x, h0):
        y, hn = self.gru(x, h0)
        return y if self.out == "seq" else hn


class VisionAttention(nn.Module):
    """L3/031."""

    def __init__(self, e, nh):
        super().__init__()
        self.attn = nn.MultiheadAttention(e, nh)
        self.norm = nn.LayerNorm(e)

    def forward(self, x):
        n, c, h, w = x.shape
        t = x.view(n, c, h * w).permute(2, 0, 1)
        a, _ = self.attn(t, t, t, need_weights=False)
        return self.norm(a + t).permute(1, 2, 0).reshape(n, c, h, w)


def new_gelu(v):
    return 0.5 * v * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v.pow(3.0))))


class CausalAttention(nn.Module):
    """minGPT's CausalSelfAttention (L3/043, inside 044); relu=True is L3/050 (no c_proj)."""

    def __init__(self, c, nh, relu=False):
        super().__init__()
        self.c_attn = nn.Linear(c, 3 * c)
        if not relu:
            self.c_proj = nn.Linear(c, c)
        self.nh, self.relu = nh, relu

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.c_attn(x).split(c, dim=2)
        hs = c // self.nh
        q, k, v = (z.view(b, t, self.nh, hs).transpose(1, 2) for z in (q, k, v))
        s = (q @ k.transpose(-2, -1)) / math.sqrt(hs)
        mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        s = s.masked_fill(~mask, float("-inf"))
        p = F.relu(s) if self.relu else F.softmax(s, dim=-1)
        y = (p @ v).transpose(1, 2).contiguous().view(b, t, c)
        return y if self.relu else self.c_proj(y)


class GPTBlock(nn.Module):
    """L3/044."""

    def __init__(self, c, nh):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c)
        self.attn = CausalAttention(c, nh)
        self.ln_2 = nn.LayerNorm(c)
        self.mlp = nn.ModuleDict(dict(c_fc=nn.Linear(c, 4 * c), c_proj=nn.Linear(4 * c, c)))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp.c_proj(new_gelu(self.mlp.c_fc(self.ln_2(x))))


class Binder:
    def __init__(self, task):
        self.task = task
        self.cache = {}

    def run(self, key, build, params, *xs):
        key = (key, xs[0].dtype, xs[0].device)
        model = self.cache.get(key)
        if model is None:
            model = build().to(device=xs[0].device, dtype=xs[0].dtype)
            self.cache[key] = model
        load_params(model, params.to(xs[0].dtype), self.task)
        return model(*xs)

    def rnn_cell(self, x, h0, params):
        return self.run("cell", lambda: RNNCell(16384, 16384, 8192), params, x, h0)

    def rnn_cell_seq(self, x, h0, params):
        return self.run("cellseq", lambda: RNNCellSeq(1024, 256, 128), params, x, h0)

    def lstm(self, x, h0, c0, params, bidirectional=False, out="fc"):
        return self.run(("lstm", bidirectional, out),
                        lambda: LSTMNet(bidirectional, out, out == "fc"), params, x, h0, c0)

    def gru(self, x, h0, params, bidirectional=False, out="seq"):
        return self.run(("gru", bidirectional, out), lambda: GRUNet(bidirectional, out),
                        params, x, h0)

    def vision_attention(self, x, params):
        return self.run("va", lambda: VisionAttention(128, 4), params, x)

    def causal_attention(self, x, params, n_head=8, relu=False):
        return self.run(("ca", n_head, relu), lambda: CausalAttention(768, n_head, relu),
                        params, x)

    def gpt_block(self, x, params):
        return self.run("block", lambda: GPTBlock(768, 8), params, x)
