#!/usr/bin/env python3
"""l3-cnn-tasks.py — writes task.json of the CNN family of Level 3 (KernelBench L3 6, 7,
13–27: Inception, DenseNet, SqueezeNet, MobileNet V1/V2, EfficientNet, ShuffleNet,
RegNet) from one walk of each network, on tools/l3-classic-tasks.py's machinery (its Net
walker, task() writer, memory_mb and description pieces). Each layer list follows the
KernelBench module's state_dict() order; long ones use repeats with expressions (DenseNet's
"in": "64+32*i"). flops counts convolutions and linears at the timed shape (scaled by H·W
at others), memory_mb the same computed upper estimate as the classic tasks.

    python3 tools/l3-cnn-tasks.py          # rewrites tasks/L3/<task>/task.json

Tolerances are provisional estimates (tasks/L3/DEPARTURES-cnn.md), to be replaced by
measurements on the H200.
"""
import importlib.util
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("l3_classic_tasks",
                                               os.path.join(HERE, "l3-classic-tasks.py"))
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)


def lecun(fan_in):
    """U(±√(3/fan_in)): variance 1/fan_in, keeps E[x²] through a conv without activation."""
    b = math.sqrt(3.0 / fan_in)
    return {"dist": "uniform", "low": -round(b, 9), "high": round(b, 9)}


class Net(C.Net):
    """The classic walker with groups, per-layer init, and live-set accounting for
    branches and concatenations (self.keep: elements kept alive beside a layer's
    input and output)."""

    def __init__(self, n, c, h, w, init=None):
        super().__init__(n, c, h, w)
        self.init = init            # init(fan_in, cin, cout, k, groups) -> dict or None

    def conv(self, name, f, k, s=1, p=0, bias=True, g=1, emit=True):
        n, c, h, w = self.shape
        oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
        if emit and self.emit:
            e = {"conv2d": name, "in": c, "out": f, "k": k}
            if g != 1:
                e["groups"] = g
            if not bias:
                e["bias"] = False
            ini = self.init(c // g * k * k, c, f, k, g) if self.init else None
            if ini:
                e.update(ini)
            self.layers.append(e)
        self.flops += 2 * n * f * oh * ow * (c // g) * k * k
        self._step([n, f, oh, ow])

    def fc(self, name, out, init=None):
        n, i = self.shape
        e = {"linear": name, "in": i, "out": out}
        if init:
            e.update(init)
        if self.emit:
            self.layers.append(e)
        self.flops += 2 * n * i * out
        self._step([n, out])

    def pool_ceil(self, k, s):
        n, c, h, w = self.shape
        o = lambda v: -(-(v - k) // s) + 1 - (((-(-(v - k) // s)) * s) >= v)
        self._step([n, c, o(h), o(w)])

    def gpool(self):
        self._step([self.shape[0], self.shape[1], 1, 1])
        self.flatten()


def stem_he(fan_in, cin, cout, k, g):
    return {"init": C.he(fan_in)}


# ---- the networks ----------------------------------------------------------------

INCEP = [(192, 64, 96, 128, 16, 32, 32), (256, 128, 128, 192, 32, 96, 64),
         (480, 192, 96, 208, 16, 48, 64), (512, 160, 112, 224, 24, 64, 64),
         (512, 128, 128, 256, 24, 64, 64), (512, 112, 144, 288, 32, 64, 64),
         (528, 256, 160, 320, 32, 128, 128), (832, 256, 160, 320, 32, 128, 128),
         (832, 384, 192, 384, 48, 128, 128)]


def inception(net, pre, m):
    _, c1, r3, c3, r5, c5, pp = m
    x = list(net.shape)
    xn = net.numel()
    outs = 0
    for branch in (((pre + "branch1x1", c1, 1, 0),),
                   ((pre + "branch3x3.0", r3, 1, 0), (pre + "branch3x3.1", c3, 3, 1)),
                   ((pre + "branch5x5.0", r5, 1, 0), (pre + "branch5x5.1", c5, 5, 2)),
                   ("pool", (pre + "branch_pool.1", pp, 1, 0))):
        net.shape = list(x)
        net.keep = xn + outs
        for step in branch:
            if step == "pool":
                net.pool(3, 1, 1)
                continue
            name, f, k, p = step
            net.conv(name, f, k, 1, p)
        outs += net.numel()
    net.shape = [x[0], c1 + c3 + c5 + pp, x[2], x[3]]
    net.peak = max(net.peak, xn + 2 * outs)
    net.keep = 0


def googlenet_init(he_stem):
    def f(fan_in, cin, cout, k, g):
        return {"init": C.he(fan_in) if he_stem[0] else lecun(fan_in)}
    return f


def googlenet(n, h, w):
    stem = [True]
    net = Net(n, 3, h, w, googlenet_init(stem))
    net.conv("conv1", 64, 7, 2, 3); net.pool(3, 2, 1)
    net.conv("conv2", 64, 1); net.conv("conv3", 192, 3, 1, 1); net.pool(3, 2, 1)
    stem[0] = False
    names = ["3a", "3b", "4a", "4b", "4c", "4d", "4e", "5a", "5b"]
    for i, m in enumerate(INCEP):
        if i in (2, 7):
            net.pool(3, 2, 1)
        inception(net, "inception%s." % names[i], m)
    net.gpool()
    net.fc("fc", 1000)
    return net


def inception_module(n, h, w):
    net = Net(n, 480, h, w)
    inception(net, "", INCEP[2])
    return net


def transition(net, pre, cout):
    net.bn(pre + "0")
    net.keep = net.numel()          # the oracle's BatchNorm copy of a borrowed input
    net.conv(pre + "2", cout, 1, bias=False)
    net.keep = 0
    net.pool(2, 2)


def dense_walk(net, layers, growth):
    """Shapes, flops and live set of a dense block (its segments are emitted apart)."""
    for _ in range(layers):
        n, c, h, w = net.shape
        xn = net.numel()
        net.keep = xn                               # x and its BatchNorm copy
        net.conv("", growth, 3, 1, 1, bias=False, emit=False)
        new = net.numel()
        net.peak = max(net.peak, 2 * xn + 2 * new)  # x, new, cat(x, new)
        net.keep = 0
        net.shape = [n, c + growth, h, w]


def dense_layers(pre, layers, cin, growth):
    return {"repeat": layers, "var": "i", "layers": [
        {"bn": pre + "layers.{i}.0", "c": "%d+%d*i" % (cin, growth)},
        {"conv2d": pre + "layers.{i}.2", "in": "%d+%d*i" % (cin, growth), "out": growth,
         "k": 3, "bias": False}]}


def dense_block(n, h, w):
    net = Net(n, 32, h, w)
    net.layers.append(dense_layers("", 6, 32, 32))
    dense_walk(net, 6, 32)
    return net


def densenet_transition(n, h, w):
    net = Net(n, 32, h, w)
    transition(net, "transition.", 64)
    return net


def densenet(n, h, w, blocks, classes=10):
    net = Net(n, 3, h, w)
    net.conv("features.0", 64, 7, 2, 3, bias=False); net.bn("features.1"); net.pool(3, 2, 1)
    c = 64
    trans = []
    for k, nl in enumerate(blocks):
        net.layers.append(dense_layers("dense_blocks.%d." % k, nl, c, 32))
        dense_walk(net, nl, 32)
        c += nl * 32
        if k < 3:
            trans.append(c)
            was = net.emit
            net.emit = False
            transition(net, "", c // 2)
            net.emit = was
            c //= 2
    for k, tc in enumerate(trans):
        pre = "transition_layers.%d.transition." % k
        net.layers.append({"bn": pre + "0", "c": tc})
        net.layers.append({"conv2d": pre + "2", "in": tc, "out": tc // 2, "k": 1,
                           "bias": False})
    net.bn("final_bn")
    net.gpool()
    net.fc("classifier", classes)
    return net


FIRE = [(96, 16, 64, 64), (128, 16, 64, 64), (128, 32, 128, 128), (256, 32, 128, 128),
        (256, 48, 192, 192), (384, 48, 192, 192), (384, 64, 256, 256), (512, 64, 256, 256)]


def fire(net, pre, sq, e1, e3):
    net.conv(pre + "squeeze", sq, 1)
    s = list(net.shape)
    sn = net.numel()
    net.keep = sn
    net.conv(pre + "expand1x1", e1, 1)
    a = net.numel()
    net.shape = list(s)
    net.keep = sn + a
    net.conv(pre + "expand3x3", e3, 3, 1, 1)
    net.peak = max(net.peak, sn + 2 * (a + net.numel()))
    net.keep = 0
    net.shape = [s[0], e1 + e3, s[2], s[3]]


def fire_module(n, h, w):
    net = Net(n, 3, h, w)
    fire(net, "", 6, 64, 64)
    return net


def squeezenet(n, h, w):
    net = Net(n, 3, h, w, stem_he)
    net.conv("features.0", 96, 7, 2); net.pool_ceil(3, 2)
    idx = 3
    for i, (_, sq, e1, e3) in enumerate(FIRE):
        if i in (3, 7):
            net.pool_ceil(3, 2)
            idx += 1
        fire(net, "features.%d." % idx, sq, e1, e3)
        idx += 1
    net.conv("classifier.1", 1000, 1)
    net.gpool()
    return net


def mobilenet_v1(n, h, w):
    net = Net(n, 3, h, w)
    net.conv("model.0.0", 32, 3, 2, 1, bias=False); net.bn("model.0.1")
    dw = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1),
          (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]
    for i, (f, s) in enumerate(dw):
        pre = "model.%d." % (i + 1)
        c = net.shape[1]
        net.conv(pre + "0", c, 3, s, 1, bias=False, g=c); net.bn(pre + "1")
        net.conv(pre + "3", f, 1, bias=False); net.bn(pre + "4")
    net.pool(7, 7)
    net.flatten()
    net.fc("fc", 1000)
    return net


def kaiming_fan_out(fan_in, cin, cout, k, g):
    return {"init": {"dist": "normal", "mean": 0,
                     "std": round(math.sqrt(2.0 / (cout * k * k)), 9)}}


def inverted(net, pre, cin, hidden, cout, k, s, expand, idx0=0):
    """[pre+0 conv, pre+1 bn] expand; dw at pre+3/4 (pre+0/1 without expand); project."""
    i = idx0
    if expand:
        net.conv(pre + str(i), hidden, 1, bias=False); net.bn(pre + str(i + 1))
        i += 3
    net.conv(pre + str(i), hidden, k, s, (k - 1) // 2, bias=False, g=hidden)
    net.bn(pre + str(i + 1))
    net.conv(pre + str(i + 3), cout, 1, bias=False); net.bn(pre + str(i + 4))


def mobilenet_v2(n, h, w):
    net = Net(n, 3, h, w, kaiming_fan_out)
    net.conv("features.0", 32, 3, 2, 1, bias=False); net.bn("features.1")
    idx = 3
    for t, c, reps, s in [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2],
                          [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]:
        for i in range(reps):
            cin = net.shape[1]
            inverted(net, "features.%d." % idx, cin, cin * t, c, 3, s if i == 0 else 1, t != 1)
            idx += 1
    net.conv("features.%d" % idx, 1280, 1, bias=False); net.bn("features.%d" % (idx + 1))
    net.gpool()
    net.fc("classifier.1", 1000, {"init": {"dist": "normal", "mean": 0, "std": 0.01},
                                  "bias_init": {"dist": "const", "value": 0}})
    return net


def mbconv(net, pre, cout, k, s, ratio):
    cin = net.shape[1]
    hidden = cin * ratio
    net.keep = net.numel() if (s == 1 and cin == cout) else 0
    if ratio != 1:
        net.conv(pre + "expand_conv.0", hidden, 1, bias=False); net.bn(pre + "expand_conv.1")
    net.conv(pre + "depthwise_conv.0", hidden, k, s, (k - 1) // 2, bias=False, g=hidden)
    net.bn(pre + "depthwise_conv.1")
    net.conv(pre + "project_conv.0", cout, 1, bias=False); net.bn(pre + "project_conv.1")
    net.keep = 0


def mbconv_block(n, h, w):
    net = Net(n, 112, h, w)
    mbconv(net, "", 192, 5, 2, 6)
    return net


B0 = [(16, 3, 1, 1), (24, 3, 2, 6), (24, 3, 1, 6), (40, 5, 2, 6), (40, 5, 1, 6), (80, 3, 2, 6),
      (80, 3, 1, 6), (112, 5, 1, 6), (112, 5, 1, 6), (192, 5, 2, 6), (192, 5, 1, 6),
      (192, 5, 1, 6), (320, 3, 1, 6)]


def effnet_b0(n, h, w):
    net = Net(n, 3, h, w)
    net.conv("conv1", 32, 3, 2, 1, bias=False); net.bn("bn1")
    for i, (c, k, s, t) in enumerate(B0):
        mbconv(net, "blocks.%d." % i, c, k, s, t)
    net.conv("conv2", 1280, 1, bias=False); net.bn("bn2")
    net.gpool()
    net.fc("fc", 1000)
    return net


def effnet_b1(n, h, w):
    net = Net(n, 3, h, w)
    net.conv("conv1", 32, 3, 2, 1, bias=False); net.bn("bn1")
    for i, (c, s, t) in enumerate([(16, 1, 1), (24, 2, 6), (40, 2, 6), (80, 2, 6),
                                   (112, 1, 6), (192, 2, 6), (320, 1, 6)]):
        cin = net.shape[1]
        inverted(net, "mbconv%d." % (i + 1), cin, cin * t, c, 3, s, True)
    net.conv("conv2", 1280, 1, bias=False); net.bn("bn2")
    net.gpool()
    net.fc("fc", 1000)
    return net


def effnet_b2(n, h, w):
    net = Net(n, 3, h, w)
    net.conv("conv1", 32, 3, 2, 1, bias=False); net.bn("bn1")
    for i, (c, s, t) in enumerate([(96, 1, 3), (144, 2, 6), (192, 2, 6), (288, 2, 6),
                                   (384, 1, 6)]):
        pre = "mbconv%d." % (i + 1)
        e = net.shape[1] * t
        net.conv(pre + "0", e, 1, bias=False); net.bn(pre + "1")
        net.conv(pre + "3", e, 3, s, 1, bias=False, g=e); net.bn(pre + "4")
        net.gpool()
        net.shape = net.shape + [1, 1]
        net.conv(pre + "7", e // 4, 1, bias=False)
        net.conv(pre + "9", e, 1, bias=False)
        net.conv(pre + "11", c, 1, bias=False); net.bn(pre + "12")
    net.conv("conv_final", 1408, 1, bias=False); net.bn("bn_final")
    net.gpool()
    net.fc("fc", 1000)
    return net


def shuffle_unit(net, pre, cout, g=3):
    cin = net.shape[1]
    mid = cout // 4
    x = list(net.shape)
    xn = net.numel()
    net.keep = xn
    net.conv(pre + "conv1", mid, 1, bias=False, g=g); net.bn(pre + "bn1")
    net.conv(pre + "conv2", mid, 3, 1, 1, bias=False, g=mid); net.bn(pre + "bn2")
    net.pool(1, 1)                                  # the shuffle: a copy of its input
    net.conv(pre + "conv3", cout, 1, bias=False, g=g); net.bn(pre + "bn3")
    if cin != cout:
        out = list(net.shape)
        net.keep = xn + net.numel(out)
        net.shape = x
        net.conv(pre + "shortcut.0", cout, 1, bias=False); net.bn(pre + "shortcut.1")
    net.keep = 0


def shufflenet_unit(n, h, w):
    net = Net(n, 240, h, w)
    shuffle_unit(net, "", 480)
    return net


def shufflenet(n, h, w):
    net = Net(n, 3, h, w)
    net.conv("conv1", 24, 3, 2, 1, bias=False); net.bn("bn1"); net.pool(3, 2, 1)
    for st, (reps, c) in enumerate([(3, 240), (7, 480), (3, 960)]):
        shuffle_unit(net, "stage%d.0." % (st + 2), c)
        net.repeat(reps - 1, "i", lambda v, st=st, c=c: shuffle_unit(
            net, "stage%d.{%s+1}." % (st + 2, v), c))
    net.conv("conv5", 1024, 1, bias=False); net.bn("bn5")
    net.gpool()
    net.fc("fc", 1000)
    return net


def regnet(n, h, w):
    net = Net(n, 3, h, w)
    for i, c in enumerate([64, 128, 256]):
        pre = "feature_extractor.%d." % i
        net.conv(pre + "0", c, 3, 1, 1); net.bn(pre + "1")
        net.conv(pre + "3", c, 3, 1, 1); net.bn(pre + "4")
        net.pool(2, 2)
    net.gpool()
    net.fc("fc", 10)
    return net


# ---- the tasks --------------------------------------------------------------------

DEFAULT = "Weights have PyTorch's default init (U(±1/√fan_in))."
DEFAULT_BN = ("Weights have PyTorch's default init (U(±1/√fan_in); BatchNorm weight 1, bias "
              "0): BatchNorm renormalises every stage, so the output keeps its information.")
IMG = "x [B, 3, H, W] ~ U[0, 1) (torch.rand, as KernelBench)"
LOGITS = "y [B, %d] (logits)"
TOL_MOD = {"atol": 1e-4, "rtol": 1e-4}
TOL_NET = {"atol": 1e-4, "rtol": 1e-3}
DW = ("Grouped convolutions (groups g) have weight [out, in/g, k, k]; a depthwise one has "
      "groups = channels. ")
INCEP_TXT = ("an Inception module: cat over channels of branch1x1 (1×1 conv), branch3x3 "
             "(1×1 conv then 3×3 conv pad 1), branch5x5 (1×1 conv then 5×5 conv pad 2) and "
             "branch_pool (max-pool 3×3 stride 1 pad 1 then 1×1 conv); every conv has a bias "
             "and, as in KernelBench's module, no activation follows any of them")
MB_TXT = ("MBConv: [expand_conv: 1×1 conv to hidden = in·ratio channels (only when ratio ≠ "
          "1), BatchNorm, ReLU6] → depthwise_conv: k×k depthwise conv (stride s, pad "
          "(k−1)/2), BatchNorm, ReLU6 → project_conv: 1×1 conv, BatchNorm; + x when stride 1 "
          "and in = out; no conv has a bias")


def x4(c):
    return ["B", c, "H", "W"]


def main():
    T = C.task
    sets = C.sets
    # -- modules
    T("006-googlenet-inception-module", "6 GoogleNetInceptionModule",
      "GoogLeNet Inception module (480 → 512)",
      "y = %s; in 480, out_1x1 192, reduce_3x3 96, out_3x3 208, reduce_5x5 16, out_5x5 48, "
      "pool_proj 64 (192 + 208 + 48 + 64 = 512 output channels)." % INCEP_TXT,
      [inception_module(10, 224, 224), inception_module(2, 37, 45)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 2, "H": 37, "W": 45}), x4(480),
      x4(512), TOL_MOD, "L3cnn.inception_module(x, params)", "cudnn/l3-006",
      DEFAULT + " At most two convolutions deep, the output keeps the input's information.",
      "x [B, 480, H, W] ~ U[0, 1) (torch.rand, as KernelBench)", "y [B, 512, H, W]")
    T("013-densenet121-transition-layer", "13 DenseNet121TransitionLayer",
      "DenseNet-121 transition layer (32 → 64)",
      "y = avg_pool2d(conv1x1(relu(bn(x))), 2, 2): transition.0 BatchNorm2d(32), ReLU, "
      "transition.2 1×1 conv 32 → 64 without bias, average pool 2×2 stride 2 (floor). "
      + C.BN, [densenet_transition(128, 256, 256), densenet_transition(3, 37, 45)],
      sets({"B": 128, "H": 256, "W": 256}, {"B": 3, "H": 37, "W": 45}), x4(32),
      ["B", 64, "H/2", "W/2"], TOL_MOD, "L3cnn.densenet_transition(x, params)",
      "cudnn/l3-013", DEFAULT_BN, "x [B, 32, H, W] ~ U[0, 1) (torch.rand, as KernelBench)",
      "y [B, 64, H/2, W/2] (floor)")
    T("014-densenet121-dense-block", "14 DenseNet121DenseBlock",
      "DenseNet-121 dense block (6 layers, growth 32)",
      "features = [x]; for layer i = 0..5: new = conv3×3(relu(bn(x))) (layers.{i}.0 "
      "BatchNorm2d(32+32i), layers.{i}.2 3×3 conv 32+32i → 32, pad 1, no bias; dropout p = "
      "0), x = cat(features + [new], channels): y has 32 + 6·32 = 224 channels, x first. "
      + C.BN, [dense_block(10, 224, 224), dense_block(3, 37, 45)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 3, "H": 37, "W": 45}), x4(32), x4(224),
      TOL_MOD, "L3cnn.dense_block(x, params)", "cudnn/l3-014", DEFAULT_BN,
      "x [B, 32, H, W] ~ U[0, 1) (torch.rand, as KernelBench)", "y [B, 224, H, W]")
    T("017-squeezenet-fire-module", "17 SqueezeNetFireModule",
      "SqueezeNet Fire module (3 → 6 → 64 + 64)",
      "s = relu(squeeze(x)) (1×1 conv 3 → 6); y = cat(relu(expand1x1(s)) (1×1, 6 → 64), "
      "relu(expand3x3(s)) (3×3 pad 1, 6 → 64)) over channels; every conv with bias.",
      [fire_module(128, 256, 256), fire_module(3, 37, 45)],
      sets({"B": 128, "H": 256, "W": 256}, {"B": 3, "H": 37, "W": 45}), x4(3), x4(128),
      TOL_MOD, "L3cnn.fire_module(x, params)", "cudnn/l3-017",
      DEFAULT + " Two layers deep, the output keeps the input's information.", IMG,
      "y [B, 128, H, W]")
    T("021-efficientnet-mbconv", "21 EfficientNetMBConv",
      "EfficientNet MBConv block (112 → 192, k5, stride 2, expand 6)",
      "y = %s; here in 112, hidden 672, out 192, k 5, stride 2 (no residual). %s%s"
      % (MB_TXT, DW, C.BN), [mbconv_block(10, 224, 224), mbconv_block(2, 37, 45)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 2, "H": 37, "W": 45}), x4(112),
      ["B", 192, "(H+1)/2", "(W+1)/2"], TOL_MOD, "L3cnn.mbconv(x, params)", "cudnn/l3-021",
      DEFAULT_BN, "x [B, 112, H, W] ~ U[0, 1) (torch.rand, as KernelBench)",
      "y [B, 192, ⌈H/2⌉, ⌈W/2⌉]")
    SHUF = ("out = relu(bn1(conv1(x))) (1×1, groups 3, → out/4); out = bn2(conv2(out)) "
            "(3×3 depthwise pad 1, no activation); channel shuffle (groups 3: view [B, 3, "
            "C/3, H, W], transpose dims 1 and 2, view back, so output channel j·3 + g is "
            "input channel g·C/3 + j); out = relu(bn3(conv3(out))) (1×1, groups 3, → out); "
            "y = out + shortcut(x), the shortcut a 1×1 conv + BatchNorm (shortcut.0, .1) "
            "when in ≠ out, else x. No conv has a bias; stride 1 throughout. ")
    T("025-shufflenet-unit", "25 ShuffleNetUnit", "ShuffleNet unit (240 → 480, groups 3)",
      "ShuffleNet unit, in 240, out 480, mid 120: " + SHUF + DW + C.BN,
      [shufflenet_unit(10, 224, 224), shufflenet_unit(2, 37, 45)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 2, "H": 37, "W": 45}), x4(240), x4(480),
      TOL_MOD, "L3cnn.shufflenet_unit(x, params)", "cudnn/l3-025", DEFAULT_BN,
      "x [B, 240, H, W] ~ U[0, 1) (torch.rand, as KernelBench)", "y [B, 480, H, W]")

    # -- whole networks
    T("007-googlenet-inception-v1", "7 GoogleNetInceptionV1", "GoogLeNet (Inception v1)",
      "conv1 7×7 (3→64, stride 2, pad 3) → ReLU → max-pool 3×3/2 pad 1 → conv2 1×1 (64→64) "
      "→ ReLU → conv3 3×3 (64→192, pad 1) → ReLU → max-pool 3×3/2 pad 1 → inception3a, 3b → "
      "max-pool 3×3/2 pad 1 → 4a..4e → max-pool 3×3/2 pad 1 → 5a, 5b → adaptive average "
      "pool 1×1 → flatten → fc (1024→1000). Each inception module is %s; their (in, 1x1, "
      "reduce3, 3x3, reduce5, 5x5, pool_proj) are %s. Every conv has a bias."
      % (INCEP_TXT, ", ".join("%s %s" % (n, m) for n, m in zip(
          ["3a", "3b", "4a", "4b", "4c", "4d", "4e", "5a", "5b"], INCEP))),
      [googlenet(10, 224, 224), googlenet(3, 97, 97)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 3, "H": 97, "W": 97}), x4(3),
      ["B", 1000], {"atol": 2e-4, "rtol": 1e-3}, "L3cnn.googlenet(x, params)",
      "cudnn/l3-007",
      "Weights are not PyTorch's default init here: without BatchNorm, and with no "
      "activation inside the inception modules, U(±1/√fan_in) shrinks the signal's "
      "second moment 3× per conv, and after the 3 stem and ~18 module convs the logits are "
      "the biases' alone (regenerating x would not change them beyond the tolerance). So "
      "conv1..conv3 (each followed by ReLU) are He-uniform U(±√(6/fan_in)) and every "
      "inception conv is U(±√(3/fan_in)) (variance 1/fan_in, which keeps the scale through "
      "a conv without activation); biases and fc keep PyTorch's default. The table gives "
      "each segment's init.", IMG, LOGITS % 1000)
    DN = ("features: conv 7×7 (3→64, stride 2, pad 3, no bias) (features.0) → BatchNorm "
          "(features.1) → ReLU → max-pool 3×3/2 pad 1; then four dense blocks of %s layers "
          "(growth 32; each layer new = conv3×3(relu(bn(x))), pad 1, no bias, x = "
          "cat(x, new)), after each of the first three a transition (BatchNorm, ReLU, 1×1 "
          "conv to half the channels, no bias, avg-pool 2×2/2); → final_bn → ReLU → adaptive "
          "average pool 1×1 → classifier (%d→10). The layout follows the module's "
          "registration order: features, every dense block (dense_blocks.{b}.layers.{i}.0 "
          "BatchNorm, .2 conv), then every transition (transition_layers.{b}.transition.0 "
          "BatchNorm, .2 conv), final_bn, classifier. ")
    T("015-densenet121", "15 DenseNet121", "DenseNet-121",
      DN % ("6, 12, 24, 16", 1024) + C.BN, [densenet(10, 224, 224, [6, 12, 24, 16]),
                                            densenet(2, 97, 97, [6, 12, 24, 16])],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 2, "H": 97, "W": 97}), x4(3), ["B", 10],
      TOL_NET, "L3cnn.densenet121(x, params)", "cudnn/l3-015", DEFAULT_BN, IMG, LOGITS % 10)
    T("016-densenet201", "16 DenseNet201", "DenseNet-201",
      DN % ("6, 12, 48, 32", 1920) + C.BN, [densenet(10, 224, 224, [6, 12, 48, 32]),
                                            densenet(2, 97, 97, [6, 12, 48, 32])],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 2, "H": 97, "W": 97}), x4(3), ["B", 10],
      {"atol": 2e-4, "rtol": 1e-3}, "L3cnn.densenet201(x, params)", "cudnn/l3-016",
      DEFAULT_BN, IMG, LOGITS % 10)
    T("018-squeezenet", "18 SqueezeNet", "SqueezeNet",
      "features.0 conv 7×7 (3→96, stride 2, no pad) → ReLU → max-pool 3×3/2 ceil_mode → fire "
      "3..5 → max-pool 3×3/2 ceil_mode → fire 7..10 → max-pool 3×3/2 ceil_mode → fire 12; "
      "classifier: dropout p = 0 → classifier.1 conv 1×1 (512→1000) → ReLU → adaptive "
      "average pool 1×1 → flatten. Fire(in, s, e1, e3): relu(squeeze 1×1 (→ s)), then "
      "cat(relu(expand1x1 (→ e1)), relu(expand3x3 pad 1 (→ e3))); fires %s. Every conv has "
      "a bias. ceil_mode pooling: ⌈(H − 3)/2⌉ + 1 outputs, the last window clipped at the "
      "edge." % ", ".join("%d%s" % (i, f) for i, f in zip([3, 4, 5, 7, 8, 9, 10, 12], FIRE)),
      [squeezenet(64, 512, 512), squeezenet(2, 131, 131)],
      sets({"B": 64, "H": 512, "W": 512}, {"B": 2, "H": 131, "W": 131}), x4(3),
      ["B", 1000], {"atol": 2e-4, "rtol": 1e-3}, "L3cnn.squeezenet(x, params)",
      "cudnn/l3-018", C.HE, IMG, "y [B, 1000]")
    T("019-mobilenet-v1", "19 MobileNetV1", "MobileNet v1",
      "model.0: conv 3×3 (3→32, stride 2, pad 1) + BatchNorm + ReLU; model.1..13: depthwise "
      "3×3 (pad 1, stride s) + BatchNorm + ReLU, then pointwise 1×1 + BatchNorm + ReLU, with "
      "(out, s) = (64,1) (128,2) (128,1) (256,2) (256,1) (512,2) 5×(512,1) (1024,2) (1024,1) "
      "(segments .0 .1 .3 .4); model.14 avg-pool 7×7 stride 7; view → fc (1024→1000). No conv "
      "has a bias. The last map must be 7..13 wide for the pool to leave 1×1 (H, W in "
      "193..416). " + DW + C.BN, [mobilenet_v1(10, 224, 224), mobilenet_v1(3, 257, 257)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 3, "H": 257, "W": 257}), x4(3),
      ["B", 1000], TOL_NET, "L3cnn.mobilenet_v1(x, params)", "cudnn/l3-019", DEFAULT_BN, IMG,
      LOGITS % 1000)
    T("020-mobilenet-v2", "20 MobileNetV2", "MobileNet v2",
      "features.0 conv 3×3 (3→32, stride 2, pad 1) + BatchNorm (features.1) + ReLU6; 17 "
      "inverted-residual blocks features.3..19 with (t, c, n, s) = (1,16,1,1) (6,24,2,2) "
      "(6,32,3,2) (6,64,4,2) (6,96,3,1) (6,160,3,2) (6,320,1,1) (first of each n at stride "
      "s): [1×1 conv to in·t + BatchNorm + ReLU6 (only when t ≠ 1)] → 3×3 depthwise (stride "
      "s, pad 1) + BatchNorm + ReLU6 → 1×1 conv to c + BatchNorm; KernelBench's module keeps "
      "only each block's Sequential, so no residual is added; features.20 conv 1×1 "
      "(320→1280) + BatchNorm + ReLU6 → adaptive average pool 1×1 → classifier.1 (1280→1000, "
      "dropout p = 0 before). No conv has a bias. " + DW + C.BN,
      [mobilenet_v2(10, 224, 224), mobilenet_v2(3, 131, 131)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 3, "H": 131, "W": 131}), x4(3),
      ["B", 1000], TOL_NET, "L3cnn.mobilenet_v2(x, params)", "cudnn/l3-020",
      "Weights have the init KernelBench's module applies itself: every conv "
      "kaiming_normal_(mode='fan_out'), N(0, 2/(out·k·k)); the linear N(0, 0.01²) with a "
      "zero bias; BatchNorm weight 1, bias 0. BatchNorm renormalises every block, so the "
      "output keeps its information.", IMG, LOGITS % 1000)
    EFF = ("conv1 3×3 (3→32, stride 2, pad 1, no bias) → bn1 → ReLU → %s → %s 1×1 (→ %d, no "
           "bias) → %s → ReLU → adaptive average pool 1×1 → flatten → fc (%d→1000). ")
    T("022-efficientnet-b0", "22 EfficientNetB0", "EfficientNet-B0",
      EFF % ("blocks.0..12, each %s, with (out, k, s, ratio) %s" % (MB_TXT, ", ".join(
          "(%d,%d,%d,%d)" % b for b in B0)), "conv2", 1280, "bn2", 1280) + DW + C.BN,
      [effnet_b0(10, 224, 224), effnet_b0(2, 131, 131)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 2, "H": 131, "W": 131}), x4(3),
      ["B", 1000], TOL_NET, "L3cnn.effnet_b0(x, params)", "cudnn/l3-022", DEFAULT_BN, IMG,
      LOGITS % 1000)
    T("023-efficientnet-b1", "23 EfficientNetB1", "EfficientNet-B1",
      EFF % ("mbconv1..7, each 1×1 conv to hidden = in·ratio (even at ratio 1) + BatchNorm + "
             "ReLU6 → 3×3 depthwise (stride s, pad 1) + BatchNorm + ReLU6 → 1×1 conv + "
             "BatchNorm, no residual, with (out, s, ratio) (16,1,1) (24,2,6) (40,2,6) "
             "(80,2,6) (112,1,6) (192,2,6) (320,1,6) (segments .0 .1 .3 .4 .6 .7)",
             "conv2", 1280, "bn2", 1280) + DW + C.BN,
      [effnet_b1(10, 240, 240), effnet_b1(2, 131, 131)],
      sets({"B": 10, "H": 240, "W": 240}, {"B": 2, "H": 131, "W": 131}), x4(3),
      ["B", 1000], TOL_NET, "L3cnn.effnet_b1(x, params)", "cudnn/l3-023", DEFAULT_BN, IMG,
      LOGITS % 1000)
    T("024-efficientnet-b2", "24 EfficientNetB2", "EfficientNet-B2",
      EFF % ("mbconv1..5, each 1×1 conv to e = in·ratio + BatchNorm + ReLU (.0 .1) → 3×3 "
             "depthwise (stride s, pad 1) + BatchNorm + ReLU (.3 .4) → adaptive average pool "
             "to 1×1 → 1×1 conv e → e/4 (.7) → ReLU → 1×1 conv e/4 → e (.9) → sigmoid → 1×1 "
             "conv e → out (.11) + BatchNorm (.12), with (out, s, ratio) (96,1,3) (144,2,6) "
             "(192,2,6) (288,2,6) (384,1,6). KernelBench's Sequential applies the "
             "squeeze-excitation convs to the pooled map itself (nothing multiplies it back), "
             "so from mbconv1's pool on every map is 1×1 and each later BatchNorm normalises "
             "B values per channel. Departure: KernelBench times batch 2, where each of those "
             "BatchNorms sees two values per channel and turns them into ±1 signs, so correct "
             "fp32 and the fp64 answer differ by more than the logits themselves (a numpy model: "
             "0.47 against an rms of 0.41) and no tolerance tells a right kernel from a wrong "
             "one; the timed batch here is 8 (the same model: 7e-3 to 9e-3)", "conv_final",
             1408, "bn_final", 1408) + DW + C.BN,
      [effnet_b2(8, 224, 224), effnet_b2(9, 131, 131)],
      sets({"B": 8, "H": 224, "W": 224}, {"B": 9, "H": 131, "W": 131}), x4(3),
      ["B", 1000], {"atol": 3e-2, "rtol": 3e-2}, "L3cnn.effnet_b2(x, params)",
      "cudnn/l3-024", DEFAULT_BN + " B ≥ 2: a BatchNorm over one value per channel is "
      "undefined (PyTorch refuses it).", IMG, LOGITS % 1000)
    T("026-shufflenet", "26 ShuffleNet", "ShuffleNet (groups 3)",
      "conv1 3×3 (3→24, stride 2, pad 1, no bias) → bn1 → ReLU → max-pool 3×3/2 pad 1 → "
      "stage2 (3 units, → 240), stage3 (7 units, → 480), stage4 (3 units, → 960) → conv5 1×1 "
      "(960→1024, no bias) → bn5 → ReLU → adaptive average pool 1×1 → fc (1024→1000). Each "
      "unit: " + SHUF + DW + C.BN, [shufflenet(10, 224, 224), shufflenet(3, 97, 97)],
      sets({"B": 10, "H": 224, "W": 224}, {"B": 3, "H": 97, "W": 97}), x4(3), ["B", 1000],
      TOL_NET, "L3cnn.shufflenet(x, params)", "cudnn/l3-026", DEFAULT_BN, IMG, LOGITS % 1000)
    T("027-regnet", "27 RegNet", "RegNet (3 stages: 64, 128, 256)",
      "feature_extractor.0..2, stage i of width w_i = 64, 128, 256: conv 3×3 pad 1 (bias) → "
      "BatchNorm → ReLU → conv 3×3 pad 1 (bias) → BatchNorm → ReLU → max-pool 2×2/2 (segments "
      ".0 .1 .3 .4); → mean over H and W → fc (256→10). " + C.BN,
      [regnet(8, 224, 224), regnet(3, 67, 69)],
      sets({"B": 8, "H": 224, "W": 224}, {"B": 3, "H": 67, "W": 69}), x4(3), ["B", 10],
      TOL_NET, "L3cnn.regnet(x, params)", "cudnn/l3-027", DEFAULT_BN, IMG, LOGITS % 10)


if __name__ == "__main__":
    sys.exit(main())
