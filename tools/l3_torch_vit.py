"""l3_torch_vit.py — the vision-transformer, NetVLAD and Mamba2 Level 3 networks (L3/028–030,
032, 045–049) as torch code for tools/torch_check.py.

A task's `torch` field is an expression such as `L3vit.netvlad(x, params, 16)`: `L3vit` is a
Binder for the task whose methods build the network as an nn.Module (written from KernelBench
v0.1's definitions: the same layers, registered in the same order, so the same state_dict()
names), load its parameters from the flat `params` tensor through the task's layer list
(tools/l3_torch_seq.py's load_params: every segment must be a parameter of the module with its
shape, every parameter must be covered), and run it in training mode (batch-statistics
BatchNorm, as KernelBench never calls .eval()). Mamba2 (048, 049) has no weights: A, B and C
are inputs (tasks/L3/DEPARTURES-vit.md), so it is a plain function. dtype follows the inputs
(float64 for the oracle check, float32 when timed).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from l3_torch_seq import load_params


class NetVLAD(nn.Module):
    """L3/046, 047: KernelBench's NetVLAD (ghost clusters G ≥ 0)."""

    def __init__(self, K, D, G):
        super().__init__()
        self.K, self.D = K, D
        sc = 1 / math.sqrt(D)
        self.clusters = nn.Parameter(sc * torch.randn(D, K + G))
        self.batch_norm = nn.BatchNorm1d(K + G)
        self.clusters2 = nn.Parameter(sc * torch.randn(1, D, K))

    def forward(self, x):
        n = x.size(1)
        x = x.view(-1, self.D)
        a = F.softmax(self.batch_norm(torch.matmul(x, self.clusters)), dim=1)
        a = a[:, :self.K].view(-1, n, self.K)
        a_sum = torch.sum(a, dim=1, keepdim=True) * self.clusters2
        vlad = torch.matmul(a.transpose(1, 2), x.view(-1, n, self.D)).transpose(1, 2) - a_sum
        vlad = F.normalize(vlad)
        return F.normalize(vlad.reshape(-1, self.K * self.D))


def _segsum(x):
    T = x.size(-1)
    c = torch.cumsum(x, dim=-1)
    s = c[..., :, None] - c[..., None, :]
    mask = torch.tril(torch.ones(T, T, device=x.device, dtype=torch.bool), diagonal=0)
    return s.masked_fill(~mask, -torch.inf)


def mamba2(X, A, B, C, final, l=64):
    """L3/048, 049: KernelBench's chunked SSD forward (einops' rearranges as reshapes)."""
    b, S = X.shape[:2]
    c = S // l
    Xb = X.reshape(b, c, l, *X.shape[2:])
    Bb = B.reshape(b, c, l, *B.shape[2:])
    Cb = C.reshape(b, c, l, *C.shape[2:])
    Ab = A.reshape(b, c, l, A.shape[2]).permute(0, 3, 1, 2)      # b h c l
    Acum = torch.cumsum(Ab, dim=-1)
    L = torch.exp(_segsum(Ab))
    Y_diag = torch.einsum("bclhn,bcshn,bhcls,bcshp->bclhp", Cb, Bb, L, Xb)
    decay_states = torch.exp(Acum[:, :, :, -1:] - Acum)
    states = torch.einsum("bclhn,bhcl,bclhp->bchpn", Bb, decay_states, Xb)
    states = torch.cat([torch.zeros_like(states[:, :1]), states], dim=1)
    decay_chunk = torch.exp(_segsum(F.pad(Acum[:, :, :, -1], (1, 0))))
    new_states = torch.einsum("bhzc,bchpn->bzhpn", decay_chunk, states)
    if final:
        return new_states[:, -1]
    Y_off = torch.einsum("bclhn,bchpn,bhcl->bclhp", Cb, new_states[:, :-1], torch.exp(Acum))
    return (Y_diag + Y_off).reshape(b, S, *X.shape[2:])


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

    def netvlad(self, x, params, ghost):
        return self.run(("netvlad", ghost), lambda: NetVLAD(32, 512, ghost), params, x)

    def mamba2(self, X, A, B, C, final):
        return mamba2(X, A, B, C, final)
