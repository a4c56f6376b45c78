"""Models that move between Sprout and MindSpore as MindIR files, written once for both: `ms` is
`sprout` or `mindspore` (Sprout runs MindSpore code as `import sprout as ms`)."""
import numpy as np


def models(ms):
    nn, ops = ms.nn, ms.ops

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    class ConvBN(nn.Cell):
        """Padded, strided and grouped convolutions, BatchNorm with running statistics, average pooling."""

        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 8, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
            self.bn = nn.BatchNorm2d(8)
            self.conv2 = nn.Conv2d(8, 8, 3, pad_mode="same", group=2)
            self.pool = nn.AvgPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(8 * 2 * 2, 5)
            self.softmax = nn.Softmax()

        def construct(self, x):
            x = ops.relu(self.bn(self.conv1(x)))
            x = self.pool(ops.sigmoid(self.conv2(x)))
            return self.softmax(self.fc(self.flatten(x)))

    class Mixer(nn.Cell):
        """Shape ops, reductions, normalization and elementwise math; two outputs."""

        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(6, 6, activation="tanh")
            self.norm = nn.LayerNorm((6,))

        def construct(self, x, y):
            h = self.norm(self.dense(x))                        # (4, 6)
            t = ops.transpose(ops.reshape(h, (4, 2, 3)), (0, 2, 1))  # (4, 3, 2)
            c = ops.concat((t, ops.exp(t) - ops.abs(t)), axis=2)     # (4, 3, 4)
            m = ops.maximum(c, y) * ops.sqrt(ops.abs(c) + 1.0) / (c * c + 2.0) - ops.neg(c)
            r = ops.mean(m, 1) + ops.sum(m, 1)                      # (4, 4)
            return ops.log_softmax(r, 1), ops.minimum(ops.sigmoid(r), 0.75)

    class Layers(nn.Cell):
        """More layers: 'same' padding, GroupNorm, LeakyReLU, adaptive pooling, Dropout at inference, GELU,
        SiLU, HSwish, ELU, ReLU6, an Embedding (int32 indices), a batched matmul and a transpose."""

        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, has_bias=True)
            self.bn = nn.BatchNorm2d(8)
            self.gn = nn.GroupNorm(2, 8)
            self.pool = nn.AdaptiveAvgPool2d((1, 1))
            self.max_pool = nn.MaxPool2d(3, 1, pad_mode="same")
            self.drop = nn.Dropout(p=0.5)
            self.gelu, self.silu, self.lrelu = nn.GELU(), nn.SiLU(), nn.LeakyReLU(0.1)
            self.hswish, self.elu, self.relu6 = nn.HSwish(), nn.ELU(), nn.ReLU6()
            self.dense = nn.Dense(8, 4)
            self.embedding = nn.Embedding(10, 4)

        def construct(self, x, indices):
            y = self.max_pool(self.lrelu(self.gn(self.bn(self.conv(x)))))
            y = ops.flatten(self.pool(self.silu(y)))
            y = self.dense(self.hswish(self.drop(self.gelu(y)))) + self.embedding(indices).sum(1)
            y = self.elu(self.relu6(y))
            z = ops.matmul(y, y.T)
            return ops.softmax(z, -1), ops.cat((y, y), 1).mean(1, keep_dims=True), ops.squeeze(ops.unsqueeze(y, 0), 0)

    class Primitives(nn.Cell):
        """Primitives called directly, with MindSpore's constructor arguments."""

        def __init__(self):
            super().__init__()
            self.softplus, self.hsigmoid, self.erfc, self.sign = ops.Softplus(), ops.HSigmoid(), ops.Erfc(), ops.Sign()
            self.adaptive = ops.AdaptiveAvgPool2D((1, 1))
            self.gather, self.tile, self.split, self.slice = ops.Gather(), ops.Tile(), ops.Split(1, 2), ops.Slice()
            self.argmax = ops.Argmax(1)
            self.resize = ops.ResizeNearestNeighbor((4, 4))
            self.broadcast = ops.BroadcastTo((3, 2, 4))
            self.strided = ops.StridedSlice()
            self.pow, self.addn = ops.Pow(), ops.AddN()

        def construct(self, x, image, indices):
            a = self.softplus(x) + self.hsigmoid(x) + self.erfc(x) + self.sign(x)
            left, right = self.split(x)
            return (a, self.adaptive(image), self.gather(x, indices, 0), self.tile(x, (2, 1)), left * right,
                    self.slice(x, (0, 1), (2, 2)), self.argmax(x), self.resize(image), self.broadcast(x),
                    self.strided(x, (0, 0), (2, 4), (1, 2)), self.pow(x, 2.0) + self.addn((x, x, x)))

    class MorePrimitives(nn.Cell):
        """Elementwise math (lgamma, digamma and erfinv among it), comparisons and logic, reductions, flips,
        triangles, adaptive max pooling, Mish, Stack, Cdist, NanToNum and Hypot, as primitives; clamping and the exact GELU, which
        Sprout writes as the ops MindSpore computes them with; GatherD and OneHot, whose arguments sit between
        their tensors."""

        def __init__(self):
            super().__init__()
            self.unary = [ops.Ceil(), ops.Cosh(), ops.Expm1(), ops.Sinh(), ops.Tan(), ops.Round(), ops.Mish(),
                          ops.Trunc()]
            self.positive = [ops.Log1p(), ops.Reciprocal(), ops.Lgamma(), ops.Digamma()]
            self.erfinv, self.cdist = ops.Erfinv(), ops.Cdist(p=3.0)
            self.nan_to_num, self.hypot = ops.NanToNum(nan=1.0, posinf=2.0, neginf=-3.0), ops.Hypot()
            self.ge, self.le, self.ne = ops.GreaterEqual(), ops.LessEqual(), ops.NotEqual()
            self.logical = [ops.LogicalAnd(), ops.LogicalOr(), ops.LogicalXor()]
            self.logical_not, self.isfinite, self.isinf = ops.LogicalNot(), ops.IsFinite(), ops.IsInf()
            self.floordiv, self.lerp, self.masked_fill = ops.FloorDiv(), ops.Lerp(), ops.MaskedFill()
            self.all, self.any, self.min = ops.ReduceAll(keep_dims=True), ops.ReduceAny(), ops.ReduceMin()
            self.flip, self.triu = ops.ReverseV2(axis=(1,)), ops.Triu(1)
            self.pool, self.stack = ops.AdaptiveMaxPool2D((2, 2)), ops.Stack(1)
            self.gelu = nn.GELU(approximate=False)

        def construct(self, x, image, indices):
            a = x * 0.0
            for op in self.unary:
                a = a + op(x)
            for op in self.positive:
                a = a + op(ops.abs(x) + 0.5)
            a = a + self.erfinv(ops.tanh(x) * 0.9)
            p, q = self.ge(x, 0.0), self.le(x, 0.5)
            logic = self.logical_not(self.ne(p, q))
            for op in self.logical:
                logic = logic + op(p, q).astype(ms.int32)
            finite = self.isfinite(x / a).astype(ms.float32) + self.isinf(x / (a * 0.0)).astype(ms.float32)
            b = self.lerp(x, a, 0.25) + self.floordiv(x * 4.0, a + 1.0) + self.masked_fill(x, p, 2.0)
            return (a, logic, finite, b, self.all(p, 1), self.any(q, 0), self.min(x, 1), self.flip(x), self.triu(x),
                    self.pool(image)[0], self.stack((x, b)), ops.clamp(x, -0.5, 0.5), self.gelu(x),
                    ops.gather_elements(x, 1, indices),
                    ops.one_hot(indices, 4, ms.Tensor(2.0, ms.float32), ms.Tensor(-1.0, ms.float32)),
                    self.cdist(x, b), self.nan_to_num(ops.log(x) * 1e38 * 1e38),
                    self.hypot(x, b))

    class ConvLayers(nn.Cell):
        """Transposed convolutions (2-d in 'pad' and 'same' modes, 1-d, 3-d), a 3-d convolution, Pad and
        bilinear resizing."""

        def __init__(self):
            super().__init__()
            self.up = nn.Conv2dTranspose(3, 4, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
            self.up_same = nn.Conv2dTranspose(4, 2, 2, stride=2, pad_mode="same")
            self.up_1d = nn.Conv1dTranspose(3, 2, 3, stride=2)
            self.conv3d = nn.Conv3d(2, 3, 2, pad_mode="pad", padding=1, has_bias=True)
            self.up_3d = nn.Conv3dTranspose(2, 3, 2, stride=2, has_bias=True)
            self.pad = ops.Pad(((0, 0), (0, 0), (1, 2), (0, 1)))

        def construct(self, x, volume, sequence):
            return (self.up_same(self.up(x)), self.up_1d(sequence), self.conv3d(volume), self.pad(x),
                    ops.interpolate(x, size=(8, 9), mode="bilinear"), self.up_3d(volume))

    class Recurrent(nn.Cell):
        """A two-layer bidirectional GRU and LSTM. Sprout writes both unrolled over the sequence, MindSpore the
        GRU unrolled and the LSTM as one LSTM primitive per layer and direction."""

        def __init__(self):
            super().__init__()
            self.gru = nn.GRU(4, 5, num_layers=2, bidirectional=True)
            self.lstm = nn.LSTM(4, 3, num_layers=2, bidirectional=True)

        def construct(self, x):
            y, (h, c) = self.lstm(x)
            return self.gru(x)[0], y, h, c

    class Losses(nn.Cell):
        """Loss primitives with their reductions (MindSpore writes a reduction as a number); cross entropy with
        class weights, label smoothing and an ignored class (Sprout writes its CrossEntropy as LogSoftmax and
        NLLLoss, MindSpore its own composition)."""

        def __init__(self):
            super().__init__()
            self.bce = ops.BinaryCrossEntropy(reduction="mean")
            self.bce_logits = ops.BCEWithLogitsLoss(reduction="sum")
            self.nll = ops.NLLLoss(reduction="none")
            self.smooth = ops.SmoothL1Loss(beta=0.5, reduction="mean")
            self.kl = ops.KLDivLoss(reduction="sum")
            self.ce = nn.CrossEntropyLoss(label_smoothing=0.1)

        def construct(self, logits, labels, classes, weight, class_weight):
            probabilities, targets = ops.sigmoid(logits), ops.sigmoid(labels)
            return (self.bce(probabilities, targets, weight), self.bce_logits(logits, targets, weight, class_weight),
                    self.nll(ops.log_softmax(logits, 1), classes, class_weight)[0], self.smooth(logits, labels),
                    self.kl(ops.log_softmax(logits, 1), ops.softmax(labels, 1)), self.ce(logits, classes),
                    ops.cross_entropy(logits, classes, class_weight, reduction="sum", label_smoothing=0.2),
                    ops.cross_entropy(logits, classes, class_weight, ignore_index=1, reduction="none"))

    class Pooling(nn.Cell):
        """Max pooling with padding (ResNet's stem pooling) and with ceil_mode's last partial windows; MindSpore
        writes it as 3-d pooling (MaxPool3DWithArgmax), Sprout as the input padded by Concat, then MaxPool.
        Dilated pooling returning its indices (MaxPool3DWithArgmax again in MindSpore's file), and the
        MaxPoolWithArgmaxV2 primitive with an int32 argmax (Sprout writes both as MaxPoolWithArgmaxV2)."""

        def __init__(self):
            super().__init__()
            self.stem = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1)
            self.ceil = nn.MaxPool2d((3, 2), (2, 1), pad_mode="pad", padding=(1, 0), ceil_mode=True)
            self.dilated = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, dilation=2, return_indices=True,
                                        ceil_mode=True)
            self.argmax = ops.MaxPoolWithArgmaxV2((3, 2), (1, 2), (1, 1), (1, 2), False, ms.int32)

        def construct(self, x):
            values, indices = self.dilated(x)
            y, argmax = self.argmax(ops.relu(x))
            return self.stem(x), self.ceil(ops.relu(x)), values, indices, y, argmax

    rng = np.random.default_rng(5)

    def tensor(*shape):
        return ms.Tensor(rng.standard_normal(shape).astype(np.float32))

    def with_statistics(net):
        # Running statistics away from (0, 1), so inference-mode BatchNorm visibly uses them.
        net.bn.moving_mean.set_data(tensor(8))
        net.bn.moving_variance.set_data(ms.Tensor(rng.uniform(0.5, 2.0, 8).astype(np.float32)))
        return net

    return [("lenet", LeNet5(), [tensor(2, 1, 32, 32)]),
            ("convbn", with_statistics(ConvBN()), [tensor(2, 3, 8, 8)]),
            ("mixer", Mixer(), [tensor(4, 6), tensor(4, 3, 4)]),
            ("layers", Layers(), [tensor(2, 3, 6, 6), ms.Tensor(np.array([[1, 2], [3, 4]], np.int32))]),
            ("primitives", Primitives(), [tensor(2, 4), tensor(1, 2, 2, 2), ms.Tensor(np.array([1, 0], np.int32))]),
            ("more_primitives", MorePrimitives(), [tensor(3, 4), tensor(1, 2, 5, 5),
                                                   ms.Tensor(np.array([[0, 3, 1, 1], [2, 2, 0, 3], [1, 0, 3, 2]],
                                                                      np.int32))]),
            ("conv_layers", ConvLayers(), [tensor(1, 3, 5, 5), tensor(1, 2, 3, 4, 3), tensor(2, 3, 5)]),
            ("recurrent", Recurrent(), [tensor(3, 2, 4)]),
            ("losses", Losses(), [tensor(3, 4), tensor(3, 4), ms.Tensor(np.array([0, 3, 1], np.int32)),
                                  ms.Tensor(rng.uniform(0.5, 1.5, (3, 4)).astype(np.float32)),
                                  ms.Tensor(rng.uniform(0.5, 1.5, 4).astype(np.float32))]),
            ("pooling", Pooling(), [tensor(2, 3, 9, 8)])]
