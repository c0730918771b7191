#!/usr/bin/env python3
"""l3-vit-tasks.py — writes task.json of the vision-transformer, NetVLAD and Mamba2 Level 3
tasks (KernelBench v0.1 L3/28–30, 32, 45–49) from the table below, computing what is
arithmetic: layer lists, flops and bytes expressions, memory_mb (as tools/l3-classic-tasks.py
estimates it: every input and output staged twice in fp32, the fp64 oracle output, the
oracle's live fp64 intermediates, 1 GiB of library workspace and 1.5 GiB of contexts, rounded
up to 256 MiB).

    python3 tools/l3-vit-tasks.py          # rewrites tasks/L3/<task>/task.json

Departures from KernelBench, tolerances and the non-degeneracy arguments:
tasks/L3/DEPARTURES-vit.md. Tolerances are provisional, to be measured on the H200.
"""
import importlib.util
import json
import math
import os

import l3_layout

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20

_spec = importlib.util.spec_from_file_location(
    "l3_classic", os.path.join(ROOT, "tools", "l3-classic-tasks.py"))
classic = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classic)

STRICT = ("fp32-strict: products and sums in fp32 or wider (FMA and any summation order "
          "are fine); TF32, fp16 and bf16 tensor-core math are not allowed.")
LAYOUT = ("params is one flat f32 buffer holding every weight: the segments of the layout "
          "table below, PyTorch state_dict() names, shapes and order, each starting at a "
          "multiple of 64 elements (zero padding between).")
RO = "Inputs are read-only (mutating one is a failure); every element of the output must be written."


def memory_mb(io_f32, oracle_f64):
    """io_f32: elements of every input and output (staged twice in fp32); oracle_f64:
    elements of the fp64 oracle output and its live intermediates at their peak."""
    b = 2 * 4 * io_f32 + 8 * oracle_f64 + (1 << 30) + (1536 << 20)
    return int(math.ceil(b / MIB / 256.0) * 256)


def write(folder, doc):
    path = os.path.join(ROOT, "tasks", "L3", folder, "task.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(classic.dump(doc))
    assert json.load(open(path)) == doc
    lay = [i["layers"] for i in doc["inputs"] if "layers" in i]
    P = l3_layout.expand(lay[0], doc.get("params"))[1] if lay else 0
    print("%-32s P = %10d  memory_mb %d" % (folder, P, doc["memory_mb"]))


# ---- 046, 047 NetVLAD ------------------------------------------------------------------

def netvlad(n, folder, G):
    K, D, Bt, Nt = 32, 512, 2048, 100
    KG = K + G
    sc = round(1 / math.sqrt(D), 9)
    layers = [
        {"tensor": "clusters", "shape": [D, KG], "init": {"dist": "normal", "mean": 0, "std": sc}},
        {"tensor": "clusters2", "shape": [1, D, K], "init": {"dist": "normal", "mean": 0, "std": sc}},
        {"bn": "batch_norm", "c": KG},
    ]
    P = l3_layout.expand(layers, {})[1]
    x, y = Bt * Nt * D, Bt * D * K
    ghost = ("%d ghost clusters: the softmax runs over K+G = %d columns and only the first "
             "K = 32 are kept" % (G, KG)) if G else "no ghost clusters (G = 0: K+G = K = 32)"
    desc = (
        "NetVLAD aggregation (KernelBench's, %s). With x [B,N,512] viewed as rows [B·N,512]: "
        "a = x·clusters ([B·N,K+G], clusters [512,K+G], a plain matmul, no transpose); "
        "BatchNorm1d(K+G) over the B·N rows with batch statistics (training mode: biased "
        "variance, eps 1e-5, weight, bias); softmax over the K+G columns of each row; keep "
        "columns 0…K−1 (a [B,N,K]); a_sum[b,k] = Σ_n a[b,n,k]; vlad[b,d,k] = Σ_n a[b,n,k]·"
        "x[b,n,d] − a_sum[b,k]·clusters2[0,d,k] ([B,512,K], d-major as after KernelBench's "
        "transpose(1,2)); F.normalize over d (each (b,k) column divided by max(‖·‖₂, 1e-12)); "
        "flatten to [B, 512·K] (element d·K + k) and F.normalize each row the same way. "
        "Input x [B,N,512]; %s Distributions: x ~ U[0,1) (torch.rand, as KernelBench); "
        "clusters and clusters2 N(0, 1/512) (KernelBench's (1/√512)·randn); BatchNorm weight "
        "1, bias 0. Source: KernelBench level 3, task %d. Precision %s Tolerance: |y − exact| ≤ "
        "1e-7 + 2e-5·|exact| (provisional: outputs are unit-norm rows of 16384, ~0.008 each; "
        "BatchNorm keeps the logits O(1), within ±5, so the softmax is not saturated; TF32 "
        "rounding of the matmuls' inputs moves them by ~1e-6). B and N come from "
        "the tensor shapes (B·N ≥ 2: batch statistics of one row are undefined, PyTorch "
        "refuses them); the weights' layout is fixed. %s"
        % (ghost, LAYOUT, n, STRICT, RO))
    doc = {
        "title": "NetVLAD with %s" % ("ghost clusters" if G else "no ghost clusters"),
        "level": 3,
        "description": desc,
        "params": {"cluster_size": K, "feature_size": D, "ghost_clusters": G},
        "inputs": [
            {"name": "x", "dtype": "f32", "shape": ["B", "N", D],
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "params", "dtype": "f32", "layers": layers},
        ],
        "outputs": [{"name": "y", "dtype": "f32", "shape": ["B", D * K]}],
        "shapes": [
            {"name": "timed", "timed": True, "dims": {"B": Bt, "N": Nt}},
            {"name": "odd", "dims": {"B": 3, "N": 37}},
            {"name": "small", "dims": {"B": 1, "N": 2}},
        ],
        "precision": "fp32-strict",
        "tolerance": {"atol": 1e-7, "rtol": 2e-5},
        "flops": "2*B*N*%d*%d + 2*B*N*%d*%d" % (D, KG, D, K),
        "bytes": "4*(B*N*%d + %d + B*%d)" % (D, P, D * K),
        # x as fp64, a [B·N, K+G], vlad and the output in fp64
        "memory_mb": memory_mb(x + P + y, x + Bt * Nt * KG + 2 * y),
        "baselines": ["cudnn/l3-%03d" % n],
        "torch": "L3vit.netvlad(x, params, %d)" % G,
    }
    write(folder, doc)


# ---- 048, 049 Mamba2 ---------------------------------------------------------------------

def mamba2(n, folder, final):
    H, P, N, Bt, St = 8, 64, 16, 2048, 128
    what = ("the final state new_states[:, −1] [B,8,64,16] (z = S/64)" if final else
            "Y [B,S,8,64] = Y_diag + Y_off, the chunks laid back end to end")
    desc = (
        "Mamba2's SSD (structured state-space duality) forward as KernelBench writes it, "
        "chunked in blocks of 64 (S a multiple of 64; chunk c holds positions c·64…c·64+63, "
        "l and s index positions within a chunk, n the 16 state channels, p the 64 head "
        "channels, h the 8 heads). Per (b, h, c): Acum[l] = Σ_{l'≤l} A[b,c·64+l',h] "
        "(torch.cumsum); Y_diag[l,p] = Σ_{s≤l} (Σ_n C[l,n]·B[s,n])·exp(Acum[l]−Acum[s])·X[s,p] "
        "(segsum's −inf above the diagonal is exp's 0); states[c][p,n] = Σ_l B[l,n]·"
        "exp(Acum[63]−Acum[l])·X[l,p]. Across chunks: t_c = Σ_{c'<c} Acum_c'[63] for c = 0…S/64 "
        "(the cumsum of the chunk totals padded with a leading 0); new_states[z] = "
        "Σ_{1≤c≤z} exp(t_z − t_c)·states[c−1] for z = 0…S/64 (the zero initial state is the "
        "c = 0 term); Y_off[c][l,p] = Σ_n C[l,n]·new_states[c][p,n]·exp(Acum[l]). Output: %s. "
        "Inputs X [B,S,8,64], A [B,S,8], Bm and Cm [B,S,8,16] (the B and C above: KernelBench's "
        "nn.Parameters A, B, C, whose shapes are the batch's and sequence's: here they are inputs, so the shape "
        "sets can vary B and S). Distributions: X ~ U[0,1) (torch.rand), B, C ~ N(0,1) "
        "(torch.randn, as KernelBench); A ~ U(−0.1, 0), not KernelBench's randn: with "
        "A ~ N(0,1) the cumulative sums are random walks and exp of them spans e^±30, outputs "
        "spread over 16 orders of magnitude and no per-element tolerance holds (a decay, "
        "A < 0, is what Mamba2's dt·A always is). No params buffer: the task has no weights. "
        "Source: KernelBench level 3, task %d. Precision %s Tolerance: |y − exact| ≤ 1e-4 + "
        "1e-3·|exact| (provisional: outputs ~1–50; sums of ≤ 64 terms with exp of cumulative "
        "sums). B comes from the tensor shapes, S too (a multiple of 64); H, P and the state "
        "size are fixed. %s" % (what, n, STRICT, RO))
    x = Bt * St * H * P
    a = Bt * St * H
    bc = Bt * St * H * N
    hpn = H * P * N
    C = St // 64
    y = Bt * H * P * N if final else x
    st = Bt * C * hpn + Bt * (C + 1) * hpn
    g = 0 if final else Bt * C * H * 64 * 64
    doc = {
        "title": "Mamba2 SSD, chunked (returns %s)" % ("the final state" if final else "Y"),
        "level": 3,
        "description": desc,
        "params": {"n_heads": H, "d_head": P, "d_state": N, "block_len": 64},
        "inputs": [
            {"name": "X", "dtype": "f32", "shape": ["B", "S", H, P],
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "A", "dtype": "f32", "shape": ["B", "S", H],
             "init": {"dist": "uniform", "low": -0.1, "high": 0}},
            {"name": "Bm", "dtype": "f32", "shape": ["B", "S", H, N],
             "init": {"dist": "normal", "mean": 0, "std": 1}},
            {"name": "Cm", "dtype": "f32", "shape": ["B", "S", H, N],
             "init": {"dist": "normal", "mean": 0, "std": 1}},
        ],
        "outputs": [{"name": "y", "dtype": "f32",
                     "shape": ["B", H, P, N] if final else ["B", "S", H, P]}],
        "shapes": [
            {"name": "timed", "timed": True, "dims": {"B": Bt, "S": St}},
            {"name": "odd", "dims": {"B": 3, "S": 192}},
            {"name": "one", "dims": {"B": 1, "S": 64}},
        ],
        "precision": "fp32-strict",
        "tolerance": {"atol": 1e-4, "rtol": 1e-3},
        # G (C·B per pair, 64·64·16·2), states (64·p·n·3), chunks, Y_off (n·2 per output),
        # Y_diag (64·2 per output, half of the pairs on the diagonal block's lower triangle)
        "flops": ("B*S*%d*(64*16*2 + %d*3) + B*S*%d*%d*(64 + 16*2)" % (H, P * N, H, P)
                  if not final else "B*S*%d*(%d*3)" % (H, P * N)),
        "bytes": "4*(B*S*%d + B*S*%d + 2*B*S*%d + %s)" % (
            H * P, H, H * N, "B*%d" % hpn if final else "B*S*%d" % (H * P)),
        "memory_mb": memory_mb(x + a + 2 * bc + y, y + a + st + g + (0 if final else x)),
        "baselines": ["cudnn/l3-%03d" % n],
        "torch": "L3vit.mamba2(X, A, Bm, Cm, %s)" % ("True" if final else "False"),
    }
    write(folder, doc)


def main():
    netvlad(46, "046-netvlad-ghost-clusters", 16)
    netvlad(47, "047-netvlad-no-ghost-clusters", 0)
    mamba2(48, "048-mamba2-return-y", False)
    mamba2(49, "049-mamba2-return-final-state", True)


if __name__ == "__main__":
    main()
