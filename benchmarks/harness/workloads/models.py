"""Larger models' training steps (forward, loss, backward, update), ms per step, float32:

- ResNet-18 for 32x32 inputs (the CIFAR form: 3x3 stem, no max-pool, stages 64-128-256-512 of two basic
  blocks, global average pool, dense 10), batch 32; Momentum 0.01/0.9; cross entropy.
- A small GPT-style Transformer: vocabulary 1000, width 256, 4 post-norm encoder layers with a causal
  mask (4 heads, feed-forward 1024, relu, no dropout), sequence 128, batch 8; next-token cross entropy;
  Adam 1e-3.

Sprout and MindSpore share the Cell code; PyTorch builds the same networks. JAX has no implementation
here (its column says so).
"""
from ..registry import workload
from .training import check_loss_falls

RESNET = {"batch": 32, "smoke_batch": 2, "lr": 0.01, "momentum": 0.9}
GPT = {"vocab": 1000, "width": 256, "layers": 4, "heads": 4, "ff": 1024, "seq": 128, "batch": 8,
       "smoke_seq": 16, "smoke_batch": 2, "lr": 1e-3}


def _resnet_inputs(np, smoke):
    rng = np.random.default_rng(0)
    n = RESNET["smoke_batch"] if smoke else RESNET["batch"]
    return {"x": rng.standard_normal((n, 3, 32, 32), np.float32), "y": rng.integers(0, 10, n).astype(np.int32)}


def _gpt_inputs(np, smoke):
    rng = np.random.default_rng(0)
    n, t = (GPT["smoke_batch"], GPT["smoke_seq"]) if smoke else (GPT["batch"], GPT["seq"])
    tokens = rng.integers(0, GPT["vocab"], (n, t + 1)).astype(np.int32)
    return {"x": tokens[:, :-1], "y": tokens[:, 1:]}


RESNET_STEP = workload(
    name="resnet18_train_step", kind="step",
    doc="ResNet-18 (32x32 form) training step, batch 32 of 3x32x32, Momentum 0.01/0.9, float32",
    inputs=_resnet_inputs, check=check_loss_falls, amount=lambda smoke: 1, peak_memory=True)

GPT_STEP = workload(
    name="gpt_train_step", kind="step",
    doc="GPT-style Transformer training step (4 layers, width 256, 4 heads, causal, sequence 128, batch 8, "
        "vocabulary 1000), Adam 1e-3, float32",
    inputs=_gpt_inputs, check=check_loss_falls, amount=lambda smoke: 1)


# ---- Sprout and MindSpore: the same Cells ----

def _resnet18(nn, ops):
    class Block(nn.Cell):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode="pad", padding=1)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="pad", padding=1)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.SequentialCell(nn.Conv2d(cin, cout, 1, stride=stride), nn.BatchNorm2d(cout))

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            skip = x if self.down is None else self.down(x)
            return self.relu(out + skip)

    class ResNet18(nn.Cell):
        def __init__(self):
            super().__init__()
            self.stem = nn.SequentialCell(nn.Conv2d(3, 64, 3, pad_mode="pad", padding=1), nn.BatchNorm2d(64),
                                          nn.ReLU())
            blocks, cin = [], 64
            for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                blocks += [Block(cin, cout, stride), Block(cout, cout, 1)]
                cin = cout
            self.blocks = nn.SequentialCell(blocks)
            self.fc = nn.Dense(512, 10)

        def construct(self, x):
            x = self.blocks(self.stem(x))
            return self.fc(ops.mean(x, (2, 3)))

    return ResNet18()


def _gpt(nn, ops, ms, seq):
    import numpy as np

    class GPTNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(GPT["vocab"], GPT["width"])
            self.pos = nn.Embedding(seq, GPT["width"])
            self.layers = nn.CellList([nn.TransformerEncoderLayer(GPT["width"], GPT["heads"], GPT["ff"], dropout=0.0,
                                                                  batch_first=True)
                                       for _ in range(GPT["layers"])])
            self.head = nn.Dense(GPT["width"], GPT["vocab"])
            self.positions = ms.Tensor(np.arange(seq, dtype=np.int32))
            self.mask = ms.Tensor(np.triu(np.full((seq, seq), -1e9, np.float32), 1))

        def construct(self, tokens):
            x = self.tok(tokens) + self.pos(self.positions)
            for layer in self.layers:
                x = layer(x, self.mask)
            return self.head(x)

    return GPTNet()


@RESNET_STEP.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    nn = ms.nn
    net = _resnet18(nn, ms.ops)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), RESNET["lr"], RESNET["momentum"])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    x, y = ms.Tensor(d["x"]), ms.Tensor(d["y"])
    return lambda: step(x, y)


@GPT_STEP.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    nn = ms.nn
    seq = d["x"].shape[1]
    net = _gpt(nn, ms.ops, ms, seq)

    class WithTokenLoss(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.loss = nn.CrossEntropyLoss()

        def construct(self, x, y):
            logits = self.net(x)
            return self.loss(logits.reshape(-1, GPT["vocab"]), y.reshape(-1))

    step = nn.TrainOneStepCell(WithTokenLoss(net), nn.Adam(net.trainable_params(), GPT["lr"]))
    step.set_train()
    x, y = ms.Tensor(d["x"]), ms.Tensor(d["y"])
    return lambda: step(x, y)


# ---- PyTorch ----

def _torch_resnet18(torch):
    tnn = torch.nn

    class Block(tnn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1, self.bn1 = tnn.Conv2d(cin, cout, 3, stride, 1), tnn.BatchNorm2d(cout)
            self.conv2, self.bn2 = tnn.Conv2d(cout, cout, 3, 1, 1), tnn.BatchNorm2d(cout)
            self.down = None if stride == 1 and cin == cout else tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride),
                                                                                 tnn.BatchNorm2d(cout))

        def forward(self, x):
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return torch.relu(out + (x if self.down is None else self.down(x)))

    blocks, cin = [], 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        blocks += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    return tnn.Sequential(tnn.Conv2d(3, 64, 3, 1, 1), tnn.BatchNorm2d(64), tnn.ReLU(), *blocks,
                          tnn.AdaptiveAvgPool2d(1), tnn.Flatten(), tnn.Linear(512, 10))


@RESNET_STEP.impl("torch")
def _(torch, d):
    net = _torch_resnet18(torch).train()
    opt = torch.optim.SGD(net.parameters(), lr=RESNET["lr"], momentum=RESNET["momentum"])
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"]).long()

    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


@GPT_STEP.impl("torch")
def _(torch, d):
    tnn = torch.nn
    seq = d["x"].shape[1]

    class GPTNet(tnn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = tnn.Embedding(GPT["vocab"], GPT["width"]), tnn.Embedding(seq, GPT["width"])
            self.layers = tnn.ModuleList([tnn.TransformerEncoderLayer(GPT["width"], GPT["heads"], GPT["ff"], 0.0,
                                                                      batch_first=True)
                                          for _ in range(GPT["layers"])])
            self.head = tnn.Linear(GPT["width"], GPT["vocab"])
            self.register_buffer("mask", torch.triu(torch.full((seq, seq), -1e9), 1))

        def forward(self, t):
            x = self.tok(t) + self.pos(torch.arange(seq))
            for layer in self.layers:
                x = layer(x, self.mask)
            return self.head(x)

    net = GPTNet()
    opt = torch.optim.Adam(net.parameters(), lr=GPT["lr"])
    x, y = torch.from_numpy(d["x"]).long(), torch.from_numpy(d["y"]).long()

    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(x).reshape(-1, GPT["vocab"]), y.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return step
