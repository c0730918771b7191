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


# ---- transformer encoder layers (028, 032) ------------------------------------------------

def encoder_layers(prefix, depth, d, ff):
    """nn.TransformerEncoderLayer(d, nhead, ff)'s parameters, `depth` times: PyTorch's init
    (in_proj xavier_uniform, its bias and out_proj.bias 0, linears the default, LayerNorm 1/0)."""
    xb = round(math.sqrt(6.0 / (4 * d)), 9)
    zero = {"dist": "const", "value": 0}
    return [{"repeat": depth, "var": "i", "layers": [
        {"tensor": prefix + ".{i}.self_attn.in_proj_weight", "shape": [3 * d, d],
         "init": {"dist": "uniform", "low": -xb, "high": xb}},
        {"tensor": prefix + ".{i}.self_attn.in_proj_bias", "shape": [3 * d], "init": zero},
        {"linear": prefix + ".{i}.self_attn.out_proj", "in": d, "out": d, "bias_init": zero},
        {"linear": prefix + ".{i}.linear1", "in": d, "out": ff},
        {"linear": prefix + ".{i}.linear2", "in": ff, "out": d},
        {"layernorm": prefix + ".{i}.norm1", "c": d},
        {"layernorm": prefix + ".{i}.norm2", "c": d},
    ]}]


def encoder_flops(S, d, ff):
    """One encoder layer on one sequence of S tokens: projections, attention, the MLP."""
    return S * (2 * d * 3 * d + 2 * d * d + 4 * d * ff) + 4 * S * S * d


ENC_DESC = (
    "Each encoder layer is nn.TransformerEncoderLayer(d, nhead, dim_feedforward, dropout 0) "
    "with PyTorch's defaults: post-norm (norm_first False), ReLU, LayerNorm eps 1e-5: "
    "x = norm1(x + out_proj(MHA(x))); x = norm2(x + linear2(relu(linear1(x)))), where MHA "
    "is [q|k|v] = x·in_proj_weightᵀ + in_proj_bias (q rows 0…d−1, k d…2d−1, v 2d…3d−1), "
    "per head h of d/nhead channels softmax(q·kᵀ/√(d/nhead))·v over the tokens of one "
    "sequence, heads side by side. Weights: in_proj_weight xavier-uniform U(±√(6/(4d))), "
    "in_proj_bias and out_proj.bias 0, out_proj.weight, linear1, linear2 the nn.Linear "
    "default U(±1/√in), LayerNorm weight 1, bias 0; every layer drawn independently "
    "(nn.TransformerEncoder deep-copies one layer, so in PyTorch its layers start equal).")


def vit28():
    n, folder = 28, "028-vision-transformer"
    img, p, dim, depth, nh, mlp, cls = 224, 16, 512, 6, 8, 2048, 10
    np_ = (img // p) ** 2
    pd = 3 * p * p
    layers = ([
        {"tensor": "pos_embedding", "shape": [1, np_ + 1, dim], "init": {"dist": "normal", "mean": 0, "std": 1}},
        {"tensor": "cls_token", "shape": [1, 1, dim], "init": {"dist": "normal", "mean": 0, "std": 1}},
        {"linear": "patch_to_embedding", "in": pd, "out": dim},
    ] + encoder_layers("transformer.layers", depth, dim, mlp) + [
        {"linear": "mlp_head.0", "in": dim, "out": mlp},
        {"linear": "mlp_head.3", "in": mlp, "out": cls},
    ])
    P = l3_layout.expand(layers, {})[1]
    S = np_ + 1
    per = 2 * np_ * pd * dim + depth * encoder_flops(S, dim, mlp) + 2 * dim * mlp + 2 * mlp * cls
    desc = (
        "KernelBench's VisionTransformer (image 224, patch 16, dim 512, depth 6, 8 heads, "
        "mlp_dim 2048, 10 classes, dropout and emb_dropout 0). Patches exactly as KernelBench "
        "forms them: img.unfold(2,16,16).unfold(3,16,16) is [B,3,14,14,16,16] (c, hp, wp, ph, "
        "pw) and .reshape(B, 196, 768) flattens it in that order without a permute, so patch "
        "row r of image b holds elements r·768 … r·768+767 of the (c, hp, wp, ph, pw) order "
        "(element f ↦ img[b, c, hp·16+ph, wp·16+pw] with f = (((c·14 + hp)·14 + wp)·16 + ph)·16 "
        "+ pw): a row mixes patches and channels, unlike a textbook ViT. Then "
        "x = patch_to_embedding(rows) (nn.Linear(768,512)), x = cat(cls_token, x) along the "
        "tokens ([B,197,512]), x += pos_embedding [1,197,512]; six encoder layers over the 197 "
        "tokens of each image (batch-first: see below); the output is mlp_head(x[:,0]) = "
        "Linear(2048,10)(GELU(Linear(512,2048)(x[:,0]))), GELU the exact erf one, [B,10]. %s "
        "Departure: KernelBench builds the encoder with batch_first False, so on its [B,197,512] "
        "input attention runs across the B images for each token position, and x[:,0] (token 0 "
        "of every image, cls_token + pos_embedding[0], the same vector for all images) never "
        "meets the image: KernelBench's output does not depend on img at all. Here attention "
        "runs over each image's 197 tokens (batch_first True, ViT's intent). Input img "
        "[B,3,224,224]; %s Distributions: img ~ U[0,1) (torch.rand, as KernelBench); "
        "pos_embedding and cls_token N(0,1) (torch.randn, as KernelBench). Source: KernelBench "
        "level 3, task %d. Precision %s Tolerance: |y − exact| ≤ 1e-5 + 1e-4·|exact| "
        "(provisional: logits ~0.3; 12 LayerNorms keep activations O(1); sums of ≤ 2048 "
        "products). B comes from the tensor shape; the image size is fixed by pos_embedding. %s"
        % (ENC_DESC, LAYOUT, n, STRICT, RO))
    x = 3 * img * img
    act = S * (3 * dim + dim + mlp + 2 * dim)
    doc = {
        "title": "Vision Transformer (ViT-style: patch rows, cls token, 6 encoder layers, MLP head)",
        "level": 3,
        "description": desc,
        "params": {"image_size": img, "patch_size": p, "dim": dim, "depth": depth,
                   "heads": nh, "mlp_dim": mlp, "num_classes": cls},
        "inputs": [
            {"name": "img", "dtype": "f32", "shape": ["B", 3, img, img],
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "params", "dtype": "f32", "layers": layers},
        ],
        "outputs": [{"name": "y", "dtype": "f32", "shape": ["B", cls]}],
        "shapes": [
            {"name": "timed", "timed": True, "dims": {"B": 2}},
            {"name": "odd", "dims": {"B": 3}},
            {"name": "one", "dims": {"B": 1}},
        ],
        "precision": "fp32-strict",
        "tolerance": {"atol": 1e-5, "rtol": 1e-4},
        "flops": "B*%d" % per,
        "bytes": "4*(B*%d + %d + B*%d)" % (x, P, cls),
        "memory_mb": memory_mb(3 * x + P + 3 * cls, 3 * (x + act + S * S * nh)),
        "baselines": ["cudnn/l3-%03d" % n],
        "torch": "L3vit.vit(img, params)",
    }
    write(folder, doc)


def cvit32():
    n, folder = 32, "032-convolutional-vision-transformer"
    img, p, dim, layers_n, nh, ff, cls = 32, 4, 128, 6, 4, 512, 1000
    np_ = (img // p) ** 2
    layers = ([
        {"tensor": "cls_token", "shape": [1, 1, dim], "init": {"dist": "const", "value": 0}},
        {"conv2d": "conv1", "in": 3, "out": dim, "k": p},
        {"linear": "linear_proj", "in": dim * np_, "out": dim},
    ] + encoder_layers("transformer_layers", layers_n, dim, ff) + [
        {"linear": "fc_out", "in": dim, "out": cls},
    ])
    P = l3_layout.expand(layers, {})[1]
    per = 2 * dim * np_ * 3 * p * p + 2 * dim * np_ * dim + layers_n * encoder_flops(2, dim, ff) + 2 * dim * cls
    desc = (
        "KernelBench's ConvolutionalVisionTransformer (embed_dim 128, 4 heads, 6 layers, "
        "mlp_ratio 4, patch 4, image 32, 1000 classes): x = conv1(img) (nn.Conv2d(3,128, k 4, "
        "stride 4): [B,128,8,8]), flattened to [B,8192] (channel-major, torch.flatten), "
        "x = linear_proj(x) (nn.Linear(8192,128)); the sequence is [cls_token, x] ([B,2,128]; "
        "cls_token is zeros, as KernelBench initialises it); six encoder layers (batch_first "
        "True, as KernelBench: attention over each image's 2 tokens); output fc_out(x[:,0]) "
        "(nn.Linear(128,1000)), [B,1000]. %s Input img [B,3,32,32]; %s Distributions: img ~ "
        "U[0,1) (torch.rand, as KernelBench); conv1 and the linears nn's default U(±1/√fan_in). "
        "The layer list puts cls_token first, as PyTorch's state_dict() does (a module's own "
        "parameters before its submodules'). Source: KernelBench level 3, task %d. Precision "
        "%s Tolerance: |y − exact| ≤ 1e-5 + 1e-4·|exact| (provisional: logits ~0.5; 12 "
        "LayerNorms keep activations O(1); the longest sum is linear_proj's 8192 products). "
        "B comes from the tensor shape; the image size is fixed by linear_proj. %s"
        % (ENC_DESC, LAYOUT, n, STRICT, RO))
    x = 3 * img * img
    act = dim * np_ + 2 * (3 * dim + dim + ff + 2 * dim)
    Bt = 10
    doc = {
        "title": "Convolutional Vision Transformer (conv patches, linear projection, 6 encoder layers)",
        "level": 3,
        "description": desc,
        "params": {"image_size": img, "patch_size": p, "embed_dim": dim, "num_layers": layers_n,
                   "num_heads": nh, "num_classes": cls},
        "inputs": [
            {"name": "img", "dtype": "f32", "shape": ["B", 3, img, img],
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "params", "dtype": "f32", "layers": layers},
        ],
        "outputs": [{"name": "y", "dtype": "f32", "shape": ["B", cls]}],
        "shapes": [
            {"name": "timed", "timed": True, "dims": {"B": Bt}},
            {"name": "odd", "dims": {"B": 3}},
            {"name": "one", "dims": {"B": 1}},
        ],
        "precision": "fp32-strict",
        "tolerance": {"atol": 1e-5, "rtol": 1e-4},
        "flops": "B*%d" % per,
        "bytes": "4*(B*%d + %d + B*%d)" % (x, P, cls),
        "memory_mb": memory_mb(Bt * x + P + Bt * cls, Bt * (x + act + cls)),
        "baselines": ["cudnn/l3-%03d" % n],
        "torch": "L3vit.cvit(img, params)",
    }
    write(folder, doc)


# ---- 045 U-Net with softmax ---------------------------------------------------------------

def unet45():
    n, folder = 45, "045-unet-softmax"
    cin, cout, f = 8, 4, 64
    layers = []
    flops = []            # (per-pixel-of-the-input flops) at level l: pixels H·W / 4^l

    def dc(name, i, o, lvl):
        layers.extend([
            {"conv2d": name + ".double_conv.0", "in": i, "out": o, "k": 3},
            {"bn": name + ".double_conv.1", "c": o},
            {"conv2d": name + ".double_conv.3", "in": o, "out": o, "k": 3},
            {"bn": name + ".double_conv.4", "c": o},
        ])
        flops.append((2 * 9 * (i * o + o * o), lvl))

    dc("encoder1", cin, f, 0)
    for l in range(1, 4):
        dc("encoder%d" % (l + 1), f << (l - 1), f << l, l)
    dc("bottleneck", f << 3, f << 4, 4)
    for l in range(3, -1, -1):
        layers.append({"conv_transpose2d": "upconv%d" % (l + 1), "in": f << (l + 1), "out": f << l, "k": 2})
        flops.append((2 * (f << (l + 1)) * (f << l), l))   # per output pixel: C·F (k = stride)
        dc("decoder%d" % (l + 1), f << (l + 1), f << l, l)
    layers.append({"conv2d": "final_conv", "in": f, "out": cout, "k": 1})
    flops.append((2 * f * cout, 0))
    P = l3_layout.expand(layers, {})[1]
    Bt, Ht, Wt = 8, 64, 512
    per_px = sum(fl / 4 ** l for fl, l in flops)     # flops per batch·H·W
    desc = (
        "KernelBench's U-Net with softmax (in 8, out 4, features 64). DoubleConv(i, o) = "
        "conv3×3(i→o, padding 1, bias) → BatchNorm2d(o) → softmax over the last dimension → "
        "conv3×3(o→o) → BatchNorm2d(o) → softmax over the last dimension; the softmax runs over "
        "the width (dim −1 of NCHW, each row of W values), as KernelBench writes "
        "nn.Softmax(dim=-1). BatchNorm uses batch statistics (training mode: biased variance "
        "over N·H·W, eps 1e-5). enc1 = DoubleConv(8,64)(x); enc2…enc4 = DoubleConv(64·2^(l−2) → "
        "64·2^(l−1)) of max_pool2d(2, 2) of the previous; bottleneck = DoubleConv(512,1024) of "
        "the pooled enc4; for l = 4…1: d = ConvTranspose2d(2·c, c, k 2, stride 2)(previous) "
        "(c = 64·2^(l−1); weight [2c, c, 2, 2], y[n,f,2i+a,2j+b] = bias[f] + Σ_ch x[n,ch,i,j]·"
        "w[ch,f,a,b]), concatenated with enc_l along the channels ((d, enc_l), d first), then "
        "DoubleConv(2c, c); output final_conv (1×1, 64→4) of the last, [B,4,H,W]. Input x "
        "[B,8,H,W]; %s Distributions: x ~ U[0,1) (torch.rand, as KernelBench); convolutions "
        "nn's default U(±1/√fan_in) (ConvTranspose2d's fan_in = c·4), BatchNorm weight 1, bias 0. "
        "Source: KernelBench level 3, task %d. Precision %s Tolerance: |y − exact| ≤ 2e-4 + "
        "2e-3·|exact| (provisional, loose on purpose: outputs ≤ ~0.7, their x-dependent part "
        "~0.03 rms; in the decoder BatchNorm divides by the small batch deviation of "
        "convolutions of peaky softmax outputs (logits up to ±28), which amplifies rounding "
        "about twofold per layer, so a correct fp32 evaluation already differs from the exact "
        "one by ~1e-4: DEPARTURES-vit.md). H and "
        "W must be multiples of 16 (four poolings, then four ×2 upsamplings that must meet the "
        "encoder's extents) and B·H·W/256 ≥ 2 (the bottleneck's batch statistics); B, H and W "
        "come from the tensor shapes, the channels are fixed. %s"
        % (LAYOUT, n, STRICT, RO))
    x = Bt * cin * Ht * Wt
    y = Bt * cout * Ht * Wt
    px = Bt * Ht * Wt
    # the oracle's live fp64 activations at their peak (decoder1: enc1, the upsampled, the
    # concatenation, a conv output) and the fp64 input copy
    live = x + px * (f + f + 2 * f + f)
    doc = {
        "title": "U-Net with softmax after every BatchNorm (KernelBench's UNetSoftmax)",
        "level": 3,
        "description": desc,
        "params": {"in_channels": cin, "out_channels": cout, "features": f},
        "inputs": [
            {"name": "x", "dtype": "f32", "shape": ["B", cin, "H", "W"],
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "params", "dtype": "f32", "layers": layers},
        ],
        "outputs": [{"name": "y", "dtype": "f32", "shape": ["B", cout, "H", "W"]}],
        "shapes": [
            {"name": "timed", "timed": True, "dims": {"B": Bt, "H": Ht, "W": Wt}},
            {"name": "odd", "dims": {"B": 2, "H": 48, "W": 80}},
            {"name": "small", "dims": {"B": 1, "H": 16, "W": 32}},
        ],
        "precision": "fp32-strict",
        "tolerance": {"atol": 2e-4, "rtol": 2e-3},
        "flops": "B*H*W*%d" % int(round(per_px)),
        "bytes": "4*(B*H*W*%d + %d)" % (cin + cout, P),
        "memory_mb": memory_mb(x + P + y, y + live),
        "baselines": ["cudnn/l3-%03d" % n],
        "torch": "L3vit.unet(x, params)",
    }
    write(folder, doc)


# ---- 029 SwinMLP -----------------------------------------------------------------------------

def swin_mlp29():
    n, folder = 29, "029-swin-mlp"
    img, p, E, ws0, cls = 224, 4, 96, 7, 1000
    depths, heads = [2, 2, 6, 2], [3, 6, 12, 24]
    layers = [
        {"conv2d": "patch_embed.proj", "in": 3, "out": E, "k": p},
        {"layernorm": "patch_embed.norm", "c": E},
    ]
    R, C, per, live = img // p, E, 2 * (img // p) ** 2 * E * 3 * p * p, 0
    for st in range(4):
        ws = min(R, ws0)
        w2 = heads[st] * ws * ws
        layers.append({"repeat": depths[st], "var": "j", "layers": [
            {"layernorm": "layers.%d.blocks.{j}.norm1" % st, "c": C},
            {"conv1d": "layers.%d.blocks.{j}.spatial_mlp" % st, "in": w2, "out": w2, "k": 1,
             "groups": heads[st]},
            {"layernorm": "layers.%d.blocks.{j}.norm2" % st, "c": C},
            {"linear": "layers.%d.blocks.{j}.mlp.fc1" % st, "in": C, "out": 4 * C},
            {"linear": "layers.%d.blocks.{j}.mlp.fc2" % st, "in": 4 * C, "out": C},
        ]})
        per += depths[st] * R * R * (2 * C * ws * ws + 16 * C * C)
        live = max(live, R * R * (C + C + 4 * C + C))
        if st < 3:
            layers += [
                {"linear": "layers.%d.downsample.reduction" % st, "in": 4 * C, "out": 2 * C,
                 "bias": False},
                {"layernorm": "layers.%d.downsample.norm" % st, "c": 4 * C},
            ]
            per += (R // 2) ** 2 * 2 * 4 * C * 2 * C
            R, C = R // 2, C * 2
    layers += [{"layernorm": "norm", "c": C}, {"linear": "head", "in": C, "out": cls}]
    per += 2 * C * cls
    P = l3_layout.expand(layers, {})[1]
    desc = (
        "KernelBench's SwinMLP (Swin Transformer with the attention replaced by a spatial MLP; "
        "image 224, patch 4, embed 96, depths 2·2·6·2, heads 3·6·12·24, window 7, mlp_ratio 4, "
        "patch norm on, 1000 classes, every dropout and drop-path the identity). Tokens: "
        "patch_embed.proj (Conv2d(3,96, k 4, stride 4)) flattened to [B, 56·56, 96] rows (token "
        "y·56 + x), then patch_embed.norm (LayerNorm). Stage s (resolution R = 56/2^s, C = "
        "96·2^s, nh heads, window ws = min(7, R)) runs its blocks: u = norm1(x) viewed [B,R,R,C]; "
        "odd blocks (j = 1, 3, …) of stages whose R > 7 are shifted with shift ss = 3: u is "
        "padded with zeros by ws − ss = 4 rows/columns before and ss = 3 after (F.pad, not a "
        "roll: no masks), even blocks and the last stage (R = 7 = ws) are not; the (padded) "
        "image is cut into ws×ws windows, and in each window the C/nh channels of head h are "
        "mixed across the ws² positions by spatial_mlp = Conv1d(nh·ws², nh·ws², k 1, groups "
        "nh): out[pos i, ch] = bias[h·ws²+i] + Σ_j weight[h·ws²+i, j, 0]·u[pos j, ch] "
        "(window positions row-major, i = r·ws + c; padded positions are zeros and the outputs "
        "there are cropped away); x = x + that; then x = x + fc2(GELU(fc1(norm2(x)))) "
        "(C → 4C → C, GELU the exact erf one). Between stages PatchMerging: [x(2i,2j), "
        "x(2i+1,2j), x(2i,2j+1), x(2i+1,2j+1)] concatenated along the channels (4C), "
        "LayerNorm(4C), reduction Linear(4C → 2C, no bias). Finally LayerNorm(768), the mean "
        "over the 49 tokens, head Linear(768, 1000): y [B,1000]. LayerNorms: eps 1e-5, "
        "weight 1, bias 0. Input img [B,3,224,224]; %s Distributions: img ~ U[0,1) "
        "(torch.rand, as KernelBench); convolutions and linears nn's default U(±1/√fan_in) "
        "(spatial_mlp's fan_in = ws² = 49). Source: KernelBench level 3, task %d. Precision %s "
        "Tolerance: |y − exact| ≤ 1e-5 + 1e-4·|exact| (provisional: logits ~0.5; 28 pre-norm "
        "residual steps; sums ≤ 3072 products). B comes from the tensor shape; the image size "
        "is fixed (PatchEmbed asserts 224). %s" % (LAYOUT, n, STRICT, RO))
    Bt = 10
    x = 3 * img * img
    doc = {
        "title": "Swin MLP (Swin Transformer with windowed spatial MLPs, 4 stages)",
        "level": 3,
        "description": desc,
        "params": {"image_size": img, "patch_size": p, "embed_dim": E, "window_size": ws0,
                   "num_classes": cls},
        "inputs": [
            {"name": "img", "dtype": "f32", "shape": ["B", 3, img, img],
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "params", "dtype": "f32", "layers": layers},
        ],
        "outputs": [{"name": "y", "dtype": "f32", "shape": ["B", cls]}],
        "shapes": [
            {"name": "timed", "timed": True, "dims": {"B": Bt}},
            {"name": "odd", "dims": {"B": 3}},
            {"name": "one", "dims": {"B": 1}},
        ],
        "precision": "fp32-strict",
        "tolerance": {"atol": 1e-5, "rtol": 1e-4},
        "flops": "B*%d" % per,
        "bytes": "4*(B*%d + %d + B*%d)" % (x, P, cls),
        "memory_mb": memory_mb(Bt * x + P + Bt * cls, Bt * (x + live + cls)),
        "baselines": ["cudnn/l3-%03d" % n],
        "torch": "L3vit.swin_mlp(img, params)",
    }
    write(folder, doc)


# ---- 030 SwinTransformerV2 -------------------------------------------------------------------

def swin_v2_30():
    n, folder = 30, "030-swin-transformer-v2"
    img, p, E, ws0, cls = 224, 4, 96, 7, 1000
    depths, heads = [2, 2, 6, 2], [3, 6, 12, 24]
    zero = {"dist": "const", "value": 0}
    layers = [
        {"conv2d": "patch_embed.proj", "in": 3, "out": E, "k": p},
        {"layernorm": "patch_embed.norm", "c": E},
    ]
    R, C, per, live = img // p, E, 2 * (img // p) ** 2 * E * 3 * p * p, 0
    for st in range(4):
        nh = heads[st]
        ws = min(R, ws0)
        b = "layers.%d.blocks.{j}." % st
        layers.append({"repeat": depths[st], "var": "j", "layers": [
            {"layernorm": b + "norm1", "c": C},
            {"tensor": b + "attn.logit_scale", "shape": [nh, 1, 1],
             "init": {"dist": "const", "value": round(math.log(10.0), 15)}},
            {"tensor": b + "attn.q_bias", "shape": [C], "init": zero},
            {"tensor": b + "attn.v_bias", "shape": [C], "init": zero},
            {"linear": b + "attn.cpb_mlp.0", "in": 2, "out": 512},
            {"linear": b + "attn.cpb_mlp.2", "in": 512, "out": nh, "bias": False},
            {"linear": b + "attn.qkv", "in": C, "out": 3 * C, "bias": False},
            {"linear": b + "attn.proj", "in": C, "out": C},
            {"layernorm": b + "norm2", "c": C},
            {"linear": b + "mlp.fc1", "in": C, "out": 4 * C},
            {"linear": b + "mlp.fc2", "in": 4 * C, "out": C},
        ]})
        per += depths[st] * R * R * (2 * C * 4 * C + 16 * C * C + 4 * ws * ws * C)
        live = max(live, R * R * (C + 3 * C + C + 4 * C + C))
        if st < 3:
            layers += [
                {"linear": "layers.%d.downsample.reduction" % st, "in": 4 * C, "out": 2 * C,
                 "bias": False},
                {"layernorm": "layers.%d.downsample.norm" % st, "c": 2 * C},
            ]
            per += (R // 2) ** 2 * 2 * 4 * C * 2 * C
            R, C = R // 2, C * 2
    layers += [{"layernorm": "norm", "c": C}, {"linear": "head", "in": C, "out": cls}]
    per += 2 * C * cls
    P = l3_layout.expand(layers, {})[1]
    desc = (
        "KernelBench's SwinTransformerV2 (image 224, patch 4, embed 96, depths 2·2·6·2, heads "
        "3·6·12·24, window 7, mlp_ratio 4, qkv_bias, patch norm on, 1000 classes, every dropout "
        "and drop-path the identity, pretrained window 0). Tokens: patch_embed.proj "
        "(Conv2d(3,96, k 4, stride 4)) as [B, 56·56, 96] rows (token y·56 + x), then "
        "patch_embed.norm. Stage s (R = 56/2^s, C = 96·2^s, nh heads, ws = min(7, R)); block j "
        "(res-post-norm): x = x + norm1(proj(A(x))); x = x + norm2(fc2(GELU(fc1(x)))) (C → 4C → "
        "C, exact GELU). A = shifted-window cosine attention: odd blocks of stages with R > 7 "
        "roll the [R,R] token grid by −3 in both axes (torch.roll; the output is rolled back), "
        "others do not; the grid is cut into ws×ws windows (positions row-major); per window "
        "and head h (C/nh channels): [q|k|v] = x·qkv.weightᵀ + cat(q_bias, 0, v_bias); "
        "score[i,j] = (q_i/‖q_i‖)·(k_j/‖k_j‖) (F.normalize, eps 1e-12) · exp(min(logit_scale[h], "
        "ln 100)) + 16·sigmoid(cpb[h, i, j]) + mask[i,j]; softmax over j; Σ_j P·v_j; heads side "
        "by side, then proj (Linear(C,C)). The continuous position bias cpb = cpb_mlp(table) "
        "(Linear(2,512) → ReLU → Linear(512,nh, no bias)) at the window offset (dy, dx) = "
        "position i − position j (rows, columns), table = (t(dy), t(dx)) with t(d) = "
        "sign(u)·log2(|u|+1)/3, u = 8·d/(ws−1), computed in fp32 as PyTorch's buffer is. "
        "mask (shifted blocks only): −100 where positions i and j of the rolled image lie in "
        "different regions, regions being the 3×3 products of the row/column ranges "
        "[0, R−7), [R−7, R−3), [R−3, R) of the rolled coordinates, else 0. PatchMerging (v2): "
        "[x(2i,2j), x(2i+1,2j), x(2i,2j+1), x(2i+1,2j+1)] along the channels, reduction "
        "Linear(4C → 2C, no bias), then LayerNorm(2C). Finally LayerNorm(768), the mean over "
        "the 49 tokens, head Linear(768,1000): y [B,1000]. LayerNorms eps 1e-5. Input img "
        "[B,3,224,224]; %s Distributions: img ~ U[0,1) (torch.rand, as KernelBench); "
        "logit_scale ln 10, q_bias and v_bias 0 (KernelBench's init); convolutions and linears "
        "nn's default U(±1/√fan_in). Source: KernelBench level 3, task %d. Precision %s "
        "Tolerance: |y − exact| ≤ 1e-5 + 1e-4·|exact| (provisional: logits ~0.5; cosine scores "
        "·10 and a bias ≤ 16 keep the softmax logits within ±26, unsaturated over 49 keys; "
        "LayerNorm'd residual branches). B comes from the tensor shape; the image size is "
        "fixed (PatchEmbed asserts 224). %s" % (LAYOUT, n, STRICT, RO))
    Bt = 10
    x = 3 * img * img
    doc = {
        "title": "Swin Transformer V2 (shifted-window cosine attention, log-spaced position bias MLP)",
        "level": 3,
        "description": desc,
        "params": {"image_size": img, "patch_size": p, "embed_dim": E, "window_size": ws0,
                   "num_classes": cls},
        "inputs": [
            {"name": "img", "dtype": "f32", "shape": ["B", 3, img, img],
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "params", "dtype": "f32", "layers": layers},
        ],
        "outputs": [{"name": "y", "dtype": "f32", "shape": ["B", cls]}],
        "shapes": [
            {"name": "timed", "timed": True, "dims": {"B": Bt}},
            {"name": "odd", "dims": {"B": 3}},
            {"name": "one", "dims": {"B": 1}},
        ],
        "precision": "fp32-strict",
        "tolerance": {"atol": 1e-5, "rtol": 1e-4},
        "flops": "B*%d" % per,
        "bytes": "4*(B*%d + %d + B*%d)" % (x, P, cls),
        "memory_mb": memory_mb(Bt * x + P + Bt * cls, Bt * (x + live + cls)),
        "baselines": ["cudnn/l3-%03d" % n],
        "torch": "L3vit.swin_v2(img, params)",
    }
    write(folder, doc)


def main():
    swin_v2_30()
    swin_mlp29()
    unet45()
    vit28()
    cvit32()
    netvlad(46, "046-netvlad-ghost-clusters", 16)
    netvlad(47, "047-netvlad-no-ghost-clusters", 0)
    mamba2(48, "048-mamba2-return-y", False)
    mamba2(49, "049-mamba2-return-final-state", True)


if __name__ == "__main__":
    main()
