"""l3_torch_cnn.py — the CNN family of Level 3 (L3/006, 007, 013–027: Inception, DenseNet,
SqueezeNet, MobileNet V1/V2, EfficientNet, ShuffleNet, RegNet) as torch modules for
tools/torch_check.py.

A task's `torch` field is an expression such as `L3cnn.densenet121(x, params)`: `L3cnn` is
a Binder for the task (l3_torch.Binder: the module is built once, its parameters loaded
from the flat `params` through the task's layer list, every segment a parameter of the
module with its shape and every parameter covered, then run in training mode, BatchNorm
with batch statistics). The modules are written from KernelBench v0.1's definitions
(KernelBench/level3/<N>_<Name>.py): the same layers registered in the same order, hence
the same state_dict() names, and the same quirks (no activation inside GoogLeNet's
inception modules, no residual in MobileNetV2, EfficientNet-B2's squeeze-excitation convs
applied to the pooled map). dtype follows the inputs (float64 for the oracle check,
float32 when timed).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

import l3_torch


class Binder(l3_torch.Binder):
    def inception_module(self, x, params):
        return self.run(lambda: Inception(480, 192, 96, 208, 16, 48, 64), x, params)

    def googlenet(self, x, params):
        return self.run(GoogLeNet, x, params)

    def densenet_transition(self, x, params):
        return self.run(lambda: Transition(32, 64), x, params)

    def dense_block(self, x, params):
        return self.run(lambda: DenseBlock(6, 32, 32), x, params)

    def densenet121(self, x, params):
        return self.run(lambda: DenseNet([6, 12, 24, 16]), x, params)

    def densenet201(self, x, params):
        return self.run(lambda: DenseNet([6, 12, 48, 32]), x, params)

    def fire_module(self, x, params):
        return self.run(lambda: Fire(3, 6, 64, 64), x, params)

    def squeezenet(self, x, params):
        return self.run(SqueezeNet, x, params)

    def mobilenet_v1(self, x, params):
        return self.run(MobileNetV1, x, params)

    def mobilenet_v2(self, x, params):
        return self.run(MobileNetV2, x, params)

    def mbconv(self, x, params):
        return self.run(lambda: MBConv(112, 192, 5, 2, 6), x, params)

    def effnet_b0(self, x, params):
        return self.run(EfficientNetB0, x, params)

    def effnet_b1(self, x, params):
        return self.run(EfficientNetB1, x, params)

    def effnet_b2(self, x, params):
        return self.run(EfficientNetB2, x, params)

    def shufflenet_unit(self, x, params):
        return self.run(lambda: ShuffleUnit(240, 480, 3), x, params)

    def shufflenet(self, x, params):
        return self.run(ShuffleNet, x, params)

    def regnet(self, x, params):
        return self.run(lambda: RegNet(3, [64, 128, 256], 10), x, params)


# ---- GoogLeNet (L3/6, 7) ------------------------------------------------------------

class Inception(nn.Module):
    def __init__(self, cin, c1, r3, c3, r5, c5, pp):
        super().__init__()
        self.branch1x1 = nn.Conv2d(cin, c1, 1)
        self.branch3x3 = nn.Sequential(nn.Conv2d(cin, r3, 1), nn.Conv2d(r3, c3, 3, padding=1))
        self.branch5x5 = nn.Sequential(nn.Conv2d(cin, r5, 1), nn.Conv2d(r5, c5, 5, padding=2))
        self.branch_pool = nn.Sequential(nn.MaxPool2d(3, 1, 1), nn.Conv2d(cin, pp, 1))

    def forward(self, x):
        return torch.cat([self.branch1x1(x), self.branch3x3(x), self.branch5x5(x),
                          self.branch_pool(x)], 1)


class GoogLeNet(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3)
        self.maxpool1 = nn.MaxPool2d(3, 2, 1)
        self.conv2 = nn.Conv2d(64, 64, 1)
        self.conv3 = nn.Conv2d(64, 192, 3, padding=1)
        self.maxpool2 = nn.MaxPool2d(3, 2, 1)
        self.inception3a = Inception(192, 64, 96, 128, 16, 32, 32)
        self.inception3b = Inception(256, 128, 128, 192, 32, 96, 64)
        self.maxpool3 = nn.MaxPool2d(3, 2, 1)
        self.inception4a = Inception(480, 192, 96, 208, 16, 48, 64)
        self.inception4b = Inception(512, 160, 112, 224, 24, 64, 64)
        self.inception4c = Inception(512, 128, 128, 256, 24, 64, 64)
        self.inception4d = Inception(512, 112, 144, 288, 32, 64, 64)
        self.inception4e = Inception(528, 256, 160, 320, 32, 128, 128)
        self.maxpool4 = nn.MaxPool2d(3, 2, 1)
        self.inception5a = Inception(832, 256, 160, 320, 32, 128, 128)
        self.inception5b = Inception(832, 384, 192, 384, 48, 128, 128)
        self.fc = nn.Linear(1024, classes)

    def forward(self, x):
        x = self.maxpool1(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        x = self.maxpool2(F.relu(self.conv3(x)))
        x = self.maxpool3(self.inception3b(self.inception3a(x)))
        for m in (self.inception4a, self.inception4b, self.inception4c, self.inception4d,
                  self.inception4e):
            x = m(x)
        x = self.inception5b(self.inception5a(self.maxpool4(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


# ---- DenseNet (L3/13-16) ------------------------------------------------------------

class DenseBlock(nn.Module):
    def __init__(self, n, cin, growth):
        super().__init__()
        self.layers = nn.ModuleList([nn.Sequential(
            nn.BatchNorm2d(cin + i * growth), nn.ReLU(),
            nn.Conv2d(cin + i * growth, growth, 3, padding=1, bias=False), nn.Dropout(0.0))
            for i in range(n)])

    def forward(self, x):
        feats = [x]
        for layer in self.layers:
            feats.append(layer(x))
            x = torch.cat(feats, 1)
        return x


class Transition(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.transition = nn.Sequential(nn.BatchNorm2d(cin), nn.ReLU(),
                                        nn.Conv2d(cin, cout, 1, bias=False), nn.AvgPool2d(2, 2))

    def forward(self, x):
        return self.transition(x)


class DenseNet(nn.Module):
    def __init__(self, blocks, growth=32, classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False),
                                      nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1))
        c = 64
        self.dense_blocks = nn.ModuleList()
        self.transition_layers = nn.ModuleList()
        for i, n in enumerate(blocks):
            self.dense_blocks.append(DenseBlock(n, c, growth))
            c += n * growth
            if i != len(blocks) - 1:
                self.transition_layers.append(Transition(c, c // 2))
                c //= 2
        self.final_bn = nn.BatchNorm2d(c)
        self.classifier = nn.Linear(c, classes)

    def forward(self, x):
        x = self.features(x)
        for i, block in enumerate(self.dense_blocks):
            x = block(x)
            if i != len(self.dense_blocks) - 1:
                x = self.transition_layers[i](x)
        x = F.relu(self.final_bn(x))
        return self.classifier(F.adaptive_avg_pool2d(x, 1).flatten(1))


# ---- SqueezeNet (L3/17, 18) ---------------------------------------------------------

class Fire(nn.Module):
    def __init__(self, cin, sq, e1, e3):
        super().__init__()
        self.squeeze = nn.Conv2d(cin, sq, 1)
        self.expand1x1 = nn.Conv2d(sq, e1, 1)
        self.expand3x3 = nn.Conv2d(sq, e3, 3, padding=1)

    def forward(self, x):
        x = F.relu(self.squeeze(x))
        return torch.cat([F.relu(self.expand1x1(x)), F.relu(self.expand3x3(x))], 1)


class SqueezeNet(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 96, 7, 2), nn.ReLU(), nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(96, 16, 64, 64), Fire(128, 16, 64, 64), Fire(128, 32, 128, 128),
            nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(256, 32, 128, 128), Fire(256, 48, 192, 192), Fire(384, 48, 192, 192),
            Fire(384, 64, 256, 256), nn.MaxPool2d(3, 2, ceil_mode=True),
            Fire(512, 64, 256, 256))
        self.classifier = nn.Sequential(nn.Dropout(0.0), nn.Conv2d(512, classes, 1), nn.ReLU(),
                                        nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return torch.flatten(self.classifier(self.features(x)), 1)


# ---- MobileNet (L3/19, 20) ----------------------------------------------------------

def conv_bn_act(cin, cout, k, s, groups=1, act=nn.ReLU):
    return [nn.Conv2d(cin, cout, k, s, (k - 1) // 2, groups=groups, bias=False),
            nn.BatchNorm2d(cout), act()]


class MobileNetV1(nn.Module):
    def __init__(self, classes=1000):
        super().__init__()
        dw = [(32, 64, 1), (64, 128, 2), (128, 128, 1), (128, 256, 2), (256, 256, 1),
              (256, 512, 2)] + [(512, 512, 1)] * 5 + [(512, 1024, 2), (1024, 1024, 1)]
        mods = [nn.Sequential(*conv_bn_act(3, 32, 3, 2))]
        for cin, cout, s in dw:
            mods.append(nn.Sequential(*conv_bn_act(cin, cin, 3, s, cin),
                                      *conv_bn_act(cin, cout, 1, 1)))
        mods.append(nn.AvgPool2d(7))
        self.model = nn.Sequential(*mods)
        self.fc = nn.Linear(1024, classes)

    def forward(self, x):
        x = self.model(x)
        return self.fc(x.view(x.size(0), -1))


def inverted(cin, hidden, cout, k, s, expand, act):
    mods = conv_bn_act(cin, hidden, 1, 1, act=act) if expand else []
    mods += conv_bn_act(hidden, hidden, k, s, hidden, act=act)
    mods += [nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout)]
    return nn.Sequential(*mods)


class MobileNetV2(nn.Module):
    """KernelBench's: every block is its Sequential alone (the residual flag is dropped)."""

    def __init__(self, classes=1000):
        super().__init__()
        feats = conv_bn_act(3, 32, 3, 2, act=nn.ReLU6)
        c = 32
        for t, cout, n, s in [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2],
                              [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]:
            for i in range(n):
                feats.append(inverted(c, c * t, cout, 3, s if i == 0 else 1, t != 1, nn.ReLU6))
                c = cout
        feats += conv_bn_act(c, 1280, 1, 1, act=nn.ReLU6) + [nn.AdaptiveAvgPool2d(1)]
        self.features = nn.Sequential(*feats)
        self.classifier = nn.Sequential(nn.Dropout(0.0), nn.Linear(1280, classes))

    def forward(self, x):
        x = self.features(x)
        return self.classifier(x.view(x.size(0), -1))


# ---- EfficientNet (L3/21-24) --------------------------------------------------------

class MBConv(nn.Module):
    def __init__(self, cin, cout, k, s, ratio):
        super().__init__()
        self.use_residual = s == 1 and cin == cout
        hidden = cin * ratio
        if ratio != 1:
            self.expand_conv = nn.Sequential(*conv_bn_act(cin, hidden, 1, 1, act=nn.ReLU6))
        self.depthwise_conv = nn.Sequential(*conv_bn_act(hidden, hidden, k, s, hidden,
                                                         act=nn.ReLU6))
        self.project_conv = nn.Sequential(nn.Conv2d(hidden, cout, 1, bias=False),
                                          nn.BatchNorm2d(cout))

    def forward(self, x):
        h = self.expand_conv(x) if hasattr(self, "expand_conv") else x
        h = self.project_conv(self.depthwise_conv(h))
        return h + x if self.use_residual else h


class EffNetBase(nn.Module):
    def stem(self):
        self.conv1 = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(32)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.body(x)
        conv, bn = (getattr(self, n) for n in self.head)
        x = F.relu(bn(conv(x)))
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


class EfficientNetB0(EffNetBase):
    def __init__(self, classes=1000):
        super().__init__()
        self.stem()
        cfg = [(32, 16, 3, 1, 1), (16, 24, 3, 2, 6), (24, 24, 3, 1, 6), (24, 40, 5, 2, 6),
               (40, 40, 5, 1, 6), (40, 80, 3, 2, 6), (80, 80, 3, 1, 6), (80, 112, 5, 1, 6),
               (112, 112, 5, 1, 6), (112, 192, 5, 2, 6), (192, 192, 5, 1, 6),
               (192, 192, 5, 1, 6), (192, 320, 3, 1, 6)]
        self.blocks = nn.Sequential(*[MBConv(*c) for c in cfg])
        self.conv2 = nn.Conv2d(320, 1280, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(1280)
        self.fc = nn.Linear(1280, classes)
        self.head = ("conv2", "bn2")

    def body(self, x):
        return self.blocks(x)


class EfficientNetB1(EffNetBase):
    def __init__(self, classes=1000):
        super().__init__()
        self.stem()
        cfg = [(32, 16, 1, 1), (16, 24, 2, 6), (24, 40, 2, 6), (40, 80, 2, 6), (80, 112, 1, 6),
               (112, 192, 2, 6), (192, 320, 1, 6)]
        for i, (cin, cout, s, t) in enumerate(cfg):
            setattr(self, "mbconv%d" % (i + 1),
                    inverted(cin, round(cin * t), cout, 3, s, True, nn.ReLU6))
        self.conv2 = nn.Conv2d(320, 1280, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(1280)
        self.fc = nn.Linear(1280, classes)
        self.head = ("conv2", "bn2")

    def body(self, x):
        for i in range(7):
            x = getattr(self, "mbconv%d" % (i + 1))(x)
        return x


class EfficientNetB2(EffNetBase):
    def __init__(self, classes=1000):
        super().__init__()
        self.stem()
        cfg = [(32, 96, 1, 3), (96, 144, 2, 6), (144, 192, 2, 6), (192, 288, 2, 6),
               (288, 384, 1, 6)]
        for i, (cin, cout, s, t) in enumerate(cfg):
            e = cin * t
            setattr(self, "mbconv%d" % (i + 1), nn.Sequential(
                *conv_bn_act(cin, e, 1, 1), *conv_bn_act(e, e, 3, s, e),
                nn.AdaptiveAvgPool2d(1), nn.Conv2d(e, e // 4, 1, bias=False), nn.ReLU(),
                nn.Conv2d(e // 4, e, 1, bias=False), nn.Sigmoid(),
                nn.Conv2d(e, cout, 1, bias=False), nn.BatchNorm2d(cout)))
        self.conv_final = nn.Conv2d(384, 1408, 1, bias=False)
        self.bn_final = nn.BatchNorm2d(1408)
        self.fc = nn.Linear(1408, classes)
        self.head = ("conv_final", "bn_final")

    def body(self, x):
        for i in range(5):
            x = getattr(self, "mbconv%d" % (i + 1))(x)
        return x


# ---- ShuffleNet (L3/25, 26) ---------------------------------------------------------

def channel_shuffle(x, groups):
    n, c, h, w = x.size()
    return x.view(n, groups, c // groups, h, w).transpose(1, 2).contiguous().view(n, -1, h, w)


class ShuffleUnit(nn.Module):
    def __init__(self, cin, cout, groups=3):
        super().__init__()
        mid = cout // 4
        self.groups = groups
        self.conv1 = nn.Conv2d(cin, mid, 1, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.conv2 = nn.Conv2d(mid, mid, 3, 1, 1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.conv3 = nn.Conv2d(mid, cout, 1, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(cout)
        if cin == cout:
            self.shortcut = nn.Sequential()
        else:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False),
                                          nn.BatchNorm2d(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = channel_shuffle(self.bn2(self.conv2(out)), self.groups)
        out = F.relu(self.bn3(self.conv3(out)))
        return out + self.shortcut(x)


class ShuffleNet(nn.Module):
    def __init__(self, classes=1000, groups=3):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 24, 3, 2, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(24)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.stage2 = self._stage(24, 240, 3, groups)
        self.stage3 = self._stage(240, 480, 7, groups)
        self.stage4 = self._stage(480, 960, 3, groups)
        self.conv5 = nn.Conv2d(960, 1024, 1, bias=False)
        self.bn5 = nn.BatchNorm2d(1024)
        self.fc = nn.Linear(1024, classes)

    @staticmethod
    def _stage(cin, cout, n, groups):
        return nn.Sequential(ShuffleUnit(cin, cout, groups),
                             *[ShuffleUnit(cout, cout, groups) for _ in range(1, n)])

    def forward(self, x):
        x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        x = self.stage4(self.stage3(self.stage2(x)))
        x = F.relu(self.bn5(self.conv5(x)))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


# ---- RegNet (L3/27) -----------------------------------------------------------------

class RegNet(nn.Module):
    def __init__(self, cin, widths, classes):
        super().__init__()
        mods = []
        for w in widths:
            mods.append(nn.Sequential(nn.Conv2d(cin, w, 3, padding=1), nn.BatchNorm2d(w),
                                      nn.ReLU(), nn.Conv2d(w, w, 3, padding=1),
                                      nn.BatchNorm2d(w), nn.ReLU(), nn.MaxPool2d(2, 2)))
            cin = w
        self.feature_extractor = nn.Sequential(*mods)
        self.fc = nn.Linear(widths[-1], classes)

    def forward(self, x):
        return self.fc(torch.mean(self.feature_extractor(x), dim=[2, 3]))
