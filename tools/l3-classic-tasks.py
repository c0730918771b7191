#!/usr/bin/env python3
"""l3-classic-tasks.py — writes task.json of the classic Level 3 tasks (MLPs, LeNet-5,
AlexNet, VGG, ResNet) from one table, computing what is arithmetic: each layer list,
flops (convolutions and linears at the timed shape), bytes (x + params + y read or
written once) and memory_mb (a computed upper estimate of one evaluation's peak
device memory: the judge's copies of inputs and outputs for a shape set and for
timing, the fp64 oracle's live activations, cuDNN workspace and the contexts).

    python3 tools/l3-classic-tasks.py          # rewrites tasks/L3/<task>/task.json

The architectures are KernelBench v0.1's (KernelBench/level3/<N>_<Name>.py), sizes
included; tolerances are provisional estimates (docs/CATALOGUE.md says how they were
derived), to be replaced by measurements on the H200.
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1 << 20


def he(fan_in):
    b = math.sqrt(6.0 / fan_in)
    return {"dist": "uniform", "low": -round(b, 9), "high": round(b, 9)}


class Net:
    """Walks a network once at a given input shape: the layer list, flops, and
    the live activation elements (peak of input + output + a kept identity)."""

    def __init__(self, n, c, h=None, w=None, he_init=False):
        self.layers, self.flops, self.peak = [], 0, 0
        self.shape = [n, c] + ([h, w] if h else [])
        self.he = he_init
        self.keep = 0             # elements of an identity kept alive
        self.emit = True          # False: walk shapes and flops only (a repeat's copies)

    def numel(self, s=None):
        return math.prod(s or self.shape)

    def _step(self, new):
        self.peak = max(self.peak, self.numel() + self.numel(new) + self.keep)
        self.shape = new

    def conv(self, name, f, k, s=1, p=0, bias=True, emit=True):
        n, c, h, w = self.shape
        oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
        if emit and self.emit:
            e = {"conv2d": name, "in": c, "out": f, "k": k}
            if not bias:
                e["bias"] = False
            if self.he:
                e["init"] = he(c * k * k)
            self.layers.append(e)
        self.flops += 2 * n * f * oh * ow * c * k * k
        self._step([n, f, oh, ow])

    def bn(self, name, emit=True):
        if emit and self.emit:
            self.layers.append({"bn": name, "c": self.shape[1]})

    def pool(self, k, s, p=0):
        n, c, h, w = self.shape
        self._step([n, c, (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1])

    def flatten(self):
        self.shape = [self.shape[0], self.numel() // self.shape[0]]

    def fc(self, name, out, he_init=None):
        n, i = self.shape
        e = {"linear": name, "in": i, "out": out}
        if self.he if he_init is None else he_init:
            e["init"] = he(i)
        if self.emit:
            self.layers.append(e)
        self.flops += 2 * n * i * out
        self._step([n, out])

    def repeat(self, n, var, body):
        """body(name_of) for n identical copies: the first walked with names
        templated on var and emitted as one {"repeat": n, "var": var} entry, the
        others walked for shapes and flops only."""
        if n == 0:
            return
        outer, self.layers = self.layers, []
        body(var)
        inner, self.layers = self.layers, outer
        self.layers.append({"repeat": n, "var": var, "layers": inner})
        was, self.emit = self.emit, False
        for _ in range(n - 1):
            body(var)
        self.emit = was


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import l3_layout  # noqa: E402


def params_numel(layers):
    """P as the harness computes it (segments at multiples of 64)."""
    return l3_layout.expand(layers)[1]



# ---- the networks ----------------------------------------------------------------

def mlp(n, widths, in_f, he_init=False):
    net = Net(n, in_f)
    i = 0
    while i < len(widths):
        run = 1
        while i + run < len(widths) - 1 and widths[i + run] == widths[i] and i > 0:
            run += 1
        if run > 1:   # hidden layers of one width: one repeat
            net.repeat(run, "i", lambda v, i=i, w=widths[i]: net.fc(
                "network.{2*%s+%d}" % (v, 2 * i), w, he_init))
        else:
            net.fc("network.%d" % (2 * i), widths[i], he_init)
        i += run
    return net


def lenet(n, h=32, w=32):
    net = Net(n, 1, h, w)
    net.conv("conv1", 6, 5); net.pool(2, 2)
    net.conv("conv2", 16, 5); net.pool(2, 2)
    net.flatten()
    net.fc("fc1", 120); net.fc("fc2", 84); net.fc("fc3", 20)
    return net


def alexnet(n, h, w):
    net = Net(n, 3, h, w, he_init=True)
    net.conv("conv1", 96, 11, 4, 2); net.pool(3, 2)
    net.conv("conv2", 256, 5, 1, 2); net.pool(3, 2)
    net.conv("conv3", 384, 3, 1, 1); net.conv("conv4", 384, 3, 1, 1)
    net.conv("conv5", 256, 3, 1, 1); net.pool(3, 2)
    net.flatten()
    net.fc("fc1", 4096); net.fc("fc2", 4096); net.fc("fc3", 1000)
    return net


VGG = {16: [64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0],
       19: [64, 64, 0, 128, 128, 0, 256, 256, 256, 256, 0, 512, 512, 512, 512, 0,
            512, 512, 512, 512, 0]}


def vgg(depth, n, h, w):
    net = Net(n, 3, h, w, he_init=True)
    idx = 0
    for f in VGG[depth]:
        if f == 0:
            net.pool(2, 2)
            idx += 1
        else:
            net.conv("features.%d" % idx, f, 3, 1, 1)
            idx += 2                      # conv, relu
    net.flatten()
    net.fc("classifier.0", 4096); net.fc("classifier.3", 4096); net.fc("classifier.6", 1000)
    return net


def basic_block(net, pre, planes, stride, down):
    x_shape = list(net.shape)
    net.keep = net.numel()
    net.conv(pre + "conv1", planes, 3, stride, 1, bias=False); net.bn(pre + "bn1")
    net.conv(pre + "conv2", planes, 3, 1, 1, bias=False); net.bn(pre + "bn2")
    if down:
        out = list(net.shape)
        net.shape = x_shape
        net.keep += net.numel(out)
        net.conv(pre + "downsample.0", planes, 1, stride, 0, bias=False)
        net.bn(pre + "downsample.1")
    net.keep = 0


def bottleneck(net, pre, planes, stride, down):
    x_shape = list(net.shape)
    net.keep = net.numel()
    net.conv(pre + "conv1", planes, 1, bias=False); net.bn(pre + "bn1")
    net.conv(pre + "conv2", planes, 3, stride, 1, bias=False); net.bn(pre + "bn2")
    net.conv(pre + "conv3", 4 * planes, 1, bias=False); net.bn(pre + "bn3")
    if down:
        out = list(net.shape)
        net.shape = x_shape
        net.keep += net.numel(out)
        net.conv(pre + "downsample.0", 4 * planes, 1, stride, 0, bias=False)
        net.bn(pre + "downsample.1")
    net.keep = 0


def resnet_block(n, h, w):
    net = Net(n, 3, h, w)
    basic_block(net, "", 64, 1, True)
    return net


def resnet(n, h, w, blocks, bottle):
    net = Net(n, 3, h, w)
    net.conv("conv1", 64, 7, 2, 3, bias=False); net.bn("bn1"); net.pool(3, 2, 1)
    exp = 4 if bottle else 1
    ch = 64
    block = bottleneck if bottle else basic_block
    for l, nb in enumerate(blocks):
        planes = 64 << l
        stride = 2 if l > 0 else 1
        block(net, "layer%d.0." % (l + 1), planes, stride, stride != 1 or ch != planes * exp)
        ch = planes * exp
        net.repeat(nb - 1, "i", lambda v, l=l, planes=planes: block(
            net, "layer%d.{%s+1}." % (l + 1, v), planes, 1, False))
    net.shape = [n, ch, 1, 1]
    net.flatten()
    net.fc("fc", 1000)
    return net


# ---- the tasks --------------------------------------------------------------------

LAYOUT = ("`params` is one flat f32 tensor holding every weight of the network: the "
          "segments of the layout table below, in PyTorch state_dict() order and with "
          "PyTorch's shapes (nn.Linear weight [out, in]; nn.Conv2d weight "
          "[out, in, kH, kW]; BatchNorm weight then bias [C]), laid end to end, each "
          "starting at an offset that is a multiple of 64 floats (256 bytes), the padding "
          "between segments zero.")
STRICT = ("fp32-strict: products and sums in fp32 or wider, any summation order or "
          "algorithm (implicit GEMM, FFT, Winograd) that meets the tolerance; TF32, fp16 "
          "and bf16 tensor-core math are not allowed.")
BN = ("BatchNorm2d uses batch statistics, as KernelBench runs the module (it never calls "
      ".eval()): per channel the mean and biased variance over (N, H, W) of this call, "
      "y = (x − mean)/√(var + 1e-5)·weight + bias; no running statistics.")
HE = ("Weights are not PyTorch's default init here: with U(±1/√fan_in) each conv/linear "
      "+ ReLU layer shrinks the signal by ~0.41 and after a dozen layers the output is "
      "the biases' alone (regenerating x would not change it beyond the tolerance), so "
      "every weight is He-uniform, U(±√(6/fan_in)), which keeps the signal's scale; "
      "biases keep PyTorch's default U(±1/√fan_in). The table gives each segment's init.")


def describe(kb, arch, ins, outs, notes):
    return ("KernelBench L3/%s, fp32. %s Inputs: %s. Output: %s. %s %s Dropout layers "
            "have p = 0.0 (the identity). Precision %s Sizes of x and y come from the "
            "tensor shapes (the shape sets below); the weights' layout is fixed. Inputs "
            "are read-only; every element of the output must be written."
            % (kb, arch, ins, outs, LAYOUT, notes, STRICT))


def memory_mb(shapes, P, ref_out_elems):
    """Peak MiB: for the largest shape set, x, params and y staged for a check and for
    timing (2x), the fp64 oracle output (8 B) and the oracle's live activations
    (8 B each), cuDNN's workspace (≤ 1 GiB) and ~1.5 GiB of contexts."""
    worst = 0
    for x_el, y_el, peak in shapes:
        b = 2 * 4 * (x_el + P + y_el) + 8 * y_el + 8 * peak
        worst = max(worst, b)
    return int(math.ceil((worst + (1 << 30) + (1536 << 20)) / MIB / 256.0) * 256)


def task(folder, kb, title, arch, nets, shapes, x_shape, y_shape, tol, torch_expr,
         baseline, notes, ins_desc, out_desc):
    timed = nets[0]
    layers = timed.layers
    for other in nets[1:]:
        assert other.layers == layers, folder
    P = params_numel(layers)
    mem = []
    for net, sh in zip(nets, shapes):
        x_el = math.prod([sh["dims"][d] if isinstance(d, str) else d for d in x_shape])
        mem.append((x_el, net.numel(), net.peak))
    dims = shapes[0]["dims"]
    hw = " * H * W / %d" % (dims["H"] * dims["W"]) if "H" in dims else ""
    flops = "B * %d%s" % (timed.flops // dims["B"], hw)
    y_per = "*".join(str(d) for d in y_shape)
    x_per = "*".join(str(d) for d in x_shape)
    doc = {
        "title": title,
        "level": 3,
        "description": describe(kb, arch, ins_desc, out_desc, notes),
        "inputs": [
            {"name": "x", "dtype": "f32", "shape": x_shape,
             "init": {"dist": "uniform", "low": 0, "high": 1}},
            {"name": "params", "dtype": "f32", "layers": layers},
        ],
        "outputs": [{"name": "y", "dtype": "f32", "shape": y_shape}],
        "shapes": shapes,
        "precision": "fp32-strict",
        "tolerance": tol,
        "flops": flops,
        "bytes": "4 * (%s + %d + %s)" % (x_per, P, y_per),
        "memory_mb": memory_mb(mem, P, 0),
        "baselines": [baseline],
        "libraries": [],
        "torch": torch_expr,
    }
    path = os.path.join(ROOT, "tasks", "L3", folder, "task.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(dump(doc))
    assert json.load(open(path)) == doc
    print("%-28s P = %11d  segments %4d  flops %.3g  memory_mb %d" % (
        folder, P, len(l3_layout.expand(layers)[0]), timed.flops, doc["memory_mb"]))


def compact(v):
    return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))


def dump_layers(layers, ind):
    """One layer per line; a repeat's body indented under it."""
    out = []
    for i, e in enumerate(layers):
        sep = "," if i + 1 < len(layers) else ""
        if "repeat" in e:
            head = compact({k: v for k, v in e.items() if k != "layers"})[:-1]
            out.append("%s%s, \"layers\": [" % (ind, head))
            out += dump_layers(e["layers"], ind + "  ")
            out.append("%s]}%s" % (ind, sep))
        else:
            out.append("%s%s%s" % (ind, compact(e), sep))
    return out


def dump(doc):
    """task.json with one line per field, tensor, layer and shape set."""
    lines = ["{"]
    keys = list(doc)
    for n, k in enumerate(keys):
        sep = "," if n + 1 < len(keys) else ""
        v = doc[k]
        if k in ("inputs", "outputs", "shapes"):
            lines.append(' "%s": [' % k)
            for i, t in enumerate(v):
                tsep = "," if i + 1 < len(v) else ""
                if "layers" in t:
                    head = compact({a: b for a, b in t.items() if a != "layers"})[:-1]
                    lines.append('  %s, "layers": [' % head)
                    lines += dump_layers(t["layers"], "   ")
                    lines.append("  ]}%s" % tsep)
                else:
                    lines.append("  %s%s" % (compact(t), tsep))
            lines.append(" ]%s" % sep)
        else:
            lines.append(' "%s": %s%s' % (k, compact(v), sep))
    lines.append("}")
    return "\n".join(lines) + "\n"


def sets(timed, odd):
    return [{"name": "timed", "timed": True, "dims": timed}, {"name": "odd", "dims": odd}]


def main():
    X4 = ["B", 3, "H", "W"]
    IMG = "x [B, 3, H, W] ~ U[0, 1) (torch.rand, as KernelBench)"
    for folder, kb, title, widths, in_f, B, odd, he_init, tol in [
        ("001-mlp", "1 MLP", "MLP: 16384 → 16384 → 16384 → 8192",
         [16384, 16384, 8192], 16384, 128, 7, False, {"atol": 1e-5, "rtol": 1e-4}),
        ("002-shallow-wide-mlp", "2 ShallowWideMLP", "Shallow wide MLP: 16384 → 32768 → 32768 → 16384",
         [32768, 32768, 16384], 16384, 128, 5, False, {"atol": 1e-5, "rtol": 1e-4}),
        ("003-deep-narrow-mlp", "3 DeepNarrowMLP", "Deep narrow MLP: 8192 → 16 × 1024 → 8192",
         [1024] * 16 + [8192], 8192, 1024, 37, True, {"atol": 5e-5, "rtol": 1e-4}),
    ]:
        nets = [mlp(B, widths, in_f, he_init), mlp(odd, widths, in_f, he_init)]
        sizes = " → ".join(str(w) for w in [in_f] + widths)
        arch = ("A multilayer perceptron %s: y = L%d(relu(…relu(L1(x)))), each Li(v) = "
                "v·Wiᵀ + bi (nn.Linear), ReLU after every layer but the last."
                % (sizes, len(widths)))
        task(folder, kb, title, arch, nets, sets({"B": B}, {"B": odd}), ["B", in_f],
             ["B", widths[-1]], tol, "L3.mlp(x, params)",
             "cublas/l3-%s" % folder[:3], HE if he_init else
             "Weights have PyTorch's default init (U(±1/√in) for weight and bias).",
             "x [B, %d] ~ U[0, 1) (torch.rand, as KernelBench)" % in_f,
             "y [B, %d]" % widths[-1])

    task("004-lenet5", "4 LeNet5", "LeNet-5 on 32×32 images",
         "x → conv1 (1→6, 5×5) → ReLU → max-pool 2×2/2 → conv2 (6→16, 5×5) → ReLU → "
         "max-pool 2×2/2 → flatten (16·5·5 = 400) → fc1 (400→120) → ReLU → fc2 (120→84) "
         "→ ReLU → fc3 (84→20). Convolutions: stride 1, no padding, with bias.",
         [lenet(4096), lenet(37)], sets({"B": 4096}, {"B": 37}), ["B", 1, 32, 32],
         ["B", 20], {"atol": 1e-5, "rtol": 1e-4}, "L3.lenet5(x, params)", "cudnn/l3-004",
         "Weights have PyTorch's default init (U(±1/√fan_in)).",
         "x [B, 1, 32, 32] ~ U[0, 1) (torch.rand, as KernelBench)", "y [B, 20] (logits)")

    task("005-alexnet", "5 AlexNet", "AlexNet",
         "x → conv1 (3→96, 11×11, stride 4, pad 2) → ReLU → max-pool 3×3/2 → conv2 "
         "(96→256, 5×5, pad 2) → ReLU → max-pool 3×3/2 → conv3 (256→384, 3×3, pad 1) → "
         "ReLU → conv4 (384→384, 3×3, pad 1) → ReLU → conv5 (384→256, 3×3, pad 1) → ReLU → "
         "max-pool 3×3/2 → flatten (256·6·6 = 9216) → fc1 (9216→4096) → ReLU → fc2 "
         "(4096→4096) → ReLU → fc3 (4096→1000). All with bias; pooling without padding, "
         "floor mode. H and W must give a 6×6 map before fc1 (223 ≤ H, W ≤ 254).",
         [alexnet(1024, 224, 224), alexnet(3, 227, 227)],
         sets({"B": 1024, "H": 224, "W": 224}, {"B": 3, "H": 227, "W": 227}), X4,
         ["B", 1000], {"atol": 2e-4, "rtol": 1e-3}, "L3.alexnet(x, params)", "cudnn/l3-005",
         HE, IMG, "y [B, 1000] (logits)")

    task("008-resnet-basic-block", "8 ResNetBasicBlock", "ResNet basic block with a downsample branch",
         "out = relu(bn2(conv2(relu(bn1(conv1(x))))) + bn_d(conv_d(x))): conv1 3×3 "
         "(3→64, stride 1, pad 1), conv2 3×3 (64→64, pad 1), the downsample conv_d 1×1 "
         "(3→64, stride 1) and its BatchNorm bn_d (downsample.0 and downsample.1); no conv "
         "has a bias. " + BN,
         [resnet_block(10, 224, 224), resnet_block(3, 37, 45)],
         sets({"B": 10, "H": 224, "W": 224}, {"B": 3, "H": 37, "W": 45}), X4,
         ["B", 64, "H", "W"], {"atol": 1e-4, "rtol": 1e-4}, "L3.resnet_block(x, params)",
         "cudnn/l3-008", "Weights have PyTorch's default init (convolutions U(±1/√fan_in); "
         "BatchNorm weight 1, bias 0).", IMG, "y [B, 64, H, W]")

    RES = ("conv1 7×7 (3→64, stride 2, pad 3, no bias) → bn1 → ReLU → max-pool 3×3/2 pad 1 → "
           "layer1..layer4 at 64, 128, 256, 512 planes with %s blocks (%s); the first block "
           "of layer2..4 has stride 2 (in its 3×3 conv and its downsample) and a downsample "
           "branch (1×1 conv, no bias, stride s, then BatchNorm) wherever the shape changes; "
           "→ adaptive average pool to 1×1 → flatten → fc (%d→1000). " + BN)
    task("009-resnet18", "9 ResNet18", "ResNet-18",
         RES % ("2, 2, 2, 2", "BasicBlock: relu(bn2(conv2 3×3(relu(bn1(conv1 3×3(x))))) "
                "+ identity)", 512),
         [resnet(2, 224, 224, [2, 2, 2, 2], False), resnet(3, 67, 67, [2, 2, 2, 2], False)],
         sets({"B": 2, "H": 224, "W": 224}, {"B": 3, "H": 67, "W": 67}), X4, ["B", 1000],
         {"atol": 1e-4, "rtol": 1e-3}, "L3.resnet18(x, params)", "cudnn/l3-009",
         "Weights have PyTorch's default init (U(±1/√fan_in); BatchNorm weight 1, bias 0): "
         "BatchNorm renormalises every stage, so the output keeps its information.",
         IMG, "y [B, 1000] (logits)")
    task("010-resnet101", "10 ResNet101", "ResNet-101",
         RES % ("3, 4, 23, 3", "Bottleneck, expansion 4: relu(bn3(conv3 1×1(relu(bn2("
                "conv2 3×3(relu(bn1(conv1 1×1(x)))))))) + identity), the 3×3 conv carrying "
                "the stride", 2048),
         [resnet(10, 224, 224, [3, 4, 23, 3], True), resnet(2, 97, 97, [3, 4, 23, 3], True)],
         sets({"B": 10, "H": 224, "W": 224}, {"B": 2, "H": 97, "W": 97}), X4, ["B", 1000],
         {"atol": 2e-4, "rtol": 1e-3}, "L3.resnet101(x, params)", "cudnn/l3-010",
         "Weights have PyTorch's default init (U(±1/√fan_in); BatchNorm weight 1, bias 0): "
         "BatchNorm renormalises every stage, so the output keeps its information.",
         IMG, "y [B, 1000] (logits)")
    for depth, folder, kb in [(16, "011-vgg16", "11 VGG16"), (19, "012-vgg19", "12 VGG19")]:
        cfg = " ".join("M" if f == 0 else str(f) for f in VGG[depth])
        task(folder, kb, "VGG-%d" % depth,
             "features: 3×3 convolutions (pad 1, bias) each followed by ReLU, with 2×2/2 "
             "max-pools (M), channels %s; → flatten (512·7·7 = 25088) → classifier.0 "
             "(25088→4096) → ReLU → classifier.3 (4096→4096) → ReLU → classifier.6 "
             "(4096→1000). Segment names follow the nn.Sequential indices. H and W must "
             "reach 7 after five halvings (224 ≤ H, W ≤ 255)." % cfg,
             [vgg(depth, 10, 224, 224), vgg(depth, 3, 225, 225)],
             sets({"B": 10, "H": 224, "W": 224}, {"B": 3, "H": 225, "W": 225}), X4,
             ["B", 1000], {"atol": 5e-4, "rtol": 1e-3}, "L3.vgg%d(x, params)" % depth,
             "cudnn/l3-%s" % folder[:3], HE, IMG, "y [B, 1000] (logits)")


if __name__ == "__main__":
    sys.exit(main())
