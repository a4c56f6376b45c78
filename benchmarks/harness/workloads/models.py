"""Larger models' training steps (forward, loss, backward, update), ms per step, float32 (the GPT step also
in bfloat16 mixed precision):

- ResNet-18 for 32x32 inputs (the CIFAR form: 3x3 stem, no max-pool, stages 64-128-256-512 of two basic
  blocks, global average pool, dense 10), batch 32; Momentum 0.01/0.9; cross entropy.
- A small GPT-style Transformer: vocabulary 1000, width 256, 4 post-norm encoder layers with a causal
  mask (4 heads, feed-forward 1024, relu, no dropout), sequence 128, batch 8; next-token cross entropy;
  Adam 1e-3.

Sprout and MindSpore share the Cell code; PyTorch builds the same networks; JAX writes them as functions
of a parameter tree (no Flax in the bench venv) and jits the whole step (forward, gradients, update), its
buffers donated so that the update reuses them, as a JAX training loop does.
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

GPT_BF16_STEP = workload(
    name="gpt_train_step_bf16", kind="step",
    doc="gpt_train_step in bfloat16 mixed precision: float32 weights and Adam, bfloat16 arithmetic (Sprout, "
        "MindSpore: amp O2 with dtype bfloat16, the layer norms and the loss in float32; PyTorch: "
        "torch.autocast('cpu', torch.bfloat16); JAX: the parameters cast to bfloat16 in the loss, layer norms "
        "and the loss in float32)",
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


def _gpt_cell_step(ms, d, amp_dtype=None):
    nn = ms.nn
    seq = d["x"].shape[1]
    net = _gpt(nn, ms.ops, ms, seq)
    if amp_dtype is not None:
        ms.amp.auto_mixed_precision(net, "O2", dtype=amp_dtype)

    class WithTokenLoss(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.loss = nn.CrossEntropyLoss()

        def construct(self, x, y):
            logits = self.net(x).astype(ms.float32)
            return self.loss(logits.reshape(-1, GPT["vocab"]), y.reshape(-1))

    step = nn.TrainOneStepCell(WithTokenLoss(net), nn.Adam(net.trainable_params(), GPT["lr"]))
    step.set_train()
    x, y = ms.Tensor(d["x"]), ms.Tensor(d["y"])
    return lambda: step(x, y)


@GPT_STEP.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    return _gpt_cell_step(ms, d)


@GPT_BF16_STEP.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    return _gpt_cell_step(ms, d, ms.bfloat16)


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


def _torch_gpt_step(torch, d, autocast=False):
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
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            logits = net(x)
        loss = torch.nn.functional.cross_entropy(logits.float().reshape(-1, GPT["vocab"]), y.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()
    return step


@GPT_STEP.impl("torch")
def _(torch, d):
    return _torch_gpt_step(torch, d)


@GPT_BF16_STEP.impl("torch")
def _(torch, d):
    return _torch_gpt_step(torch, d, autocast=True)


# ---- JAX: the same networks as functions of a parameter tree; the whole step jitted ----

def _uniform(np, rng, shape, fan_in):
    lim = 1 / np.sqrt(fan_in)
    return rng.uniform(-lim, lim, shape).astype(np.float32)


def _jax_step(jax, d, loss_fn, params, update, state0):
    """The harness's step over the batch d["x"], d["y"]: one jitted call computing loss_fn(params, x, y) ->
    (loss, aux) and its gradients, then update(params, grads, state) -> (params, state); aux holds new
    non-trained buffers (BatchNorm's running statistics) that replace params["buffers"]."""
    def train(params, state, x, y):
        (loss, buffers), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, y)
        params, state = update(params, grads, state)
        if buffers is not None:
            params = {**params, "buffers": buffers}
        return params, state, loss

    train = jax.jit(train, donate_argnums=(0, 1))
    held = {"p": params, "s": state0}  # donated each call: the step keeps the returned buffers
    x, y = jax.numpy.asarray(d["x"]), jax.numpy.asarray(d["y"])

    def step():
        held["p"], held["s"], loss = train(held["p"], held["s"], x, y)
        return loss
    return step


def _jax_resnet18(jax, np):
    lax = jax.lax
    rng = np.random.default_rng(1)
    params = {"convs": [], "bns": [], "buffers": []}

    def conv(cin, cout, k):
        params["convs"].append(_uniform(np, rng, (cout, cin, k, k), cin * k * k))
        params["bns"].append((np.ones(cout, np.float32), np.zeros(cout, np.float32)))
        params["buffers"].append((np.zeros(cout, np.float32), np.ones(cout, np.float32)))
        return len(params["convs"]) - 1

    stem = conv(3, 64, 3)
    blocks, cin = [], 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        for s in (stride, 1):
            down = conv(cin, cout, 1) if s != 1 or cin != cout else None
            blocks.append((conv(cin, cout, 3), conv(cout, cout, 3), down, s))
            cin = cout
    params["fc"] = (_uniform(np, rng, (512, 10), 512), _uniform(np, rng, (10,), 512))

    def forward(p, x):
        stats = []

        def conv_bn(i, x, stride, relu):
            k = p["convs"][i].shape[2]
            y = lax.conv_general_dilated(x, p["convs"][i], (stride, stride), [(k // 2, k // 2)] * 2,
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
            mean, var = y.mean((0, 2, 3)), y.var((0, 2, 3))  # training: batch statistics
            running_mean, running_var = p["buffers"][i]
            n = y.shape[0] * y.shape[2] * y.shape[3]
            stats.append((0.9 * running_mean + 0.1 * mean, 0.9 * running_var + 0.1 * var * n / (n - 1)))
            gamma, beta = p["bns"][i]
            y = (y - mean[:, None, None]) * lax.rsqrt(var + 1e-5)[:, None, None] * gamma[:, None, None] \
                + beta[:, None, None]
            return jax.nn.relu(y) if relu else y

        x = conv_bn(stem, x, 1, True)
        for c1, c2, down, s in blocks:
            out = conv_bn(c2, conv_bn(c1, x, s, True), 1, False)
            x = jax.nn.relu(out + (x if down is None else conv_bn(down, x, s, False)))
        return x.mean((2, 3)) @ p["fc"][0] + p["fc"][1], stats

    return params, forward


@RESNET_STEP.impl("jax")
def _(jax, d):
    import numpy as np
    jnp = jax.numpy
    params, forward = _jax_resnet18(jax, np)

    def loss_fn(p, x, y):
        logits, stats = forward(p, x)
        logp = jax.nn.log_softmax(logits)
        return -jnp.take_along_axis(logp, y[:, None], axis=1).mean(), jax.lax.stop_gradient(stats)

    def momentum(p, g, vel):  # MindSpore's Momentum: v = m v + g; p -= lr v (running statistics untouched)
        trained = {k: v for k, v in p.items() if k != "buffers"}
        vel = jax.tree_util.tree_map(lambda v, g: RESNET["momentum"] * v + g, vel, {k: g[k] for k in trained})
        trained = jax.tree_util.tree_map(lambda w, v: w - RESNET["lr"] * v, trained, vel)
        return {**trained, "buffers": p["buffers"]}, vel

    params = jax.tree_util.tree_map(jnp.asarray, params)
    vel = jax.tree_util.tree_map(jnp.zeros_like, {k: v for k, v in params.items() if k != "buffers"})
    return _jax_step(jax, d, loss_fn, params, momentum, vel)


def _jax_gpt(jax, np, seq, compute=None):
    """The parameters and forward(p, tokens); with `compute` (bfloat16) the forward casts the parameters
    to it and keeps the layer norms and softmax in float32 (mixed precision, as autocast and amp O2)."""
    jnp = jax.numpy
    f32 = jnp.float32
    rng = np.random.default_rng(1)
    w, f, v = GPT["width"], GPT["ff"], GPT["vocab"]
    dense = lambda cin, cout: (_uniform(np, rng, (cin, cout), cin), _uniform(np, rng, (cout,), cin))  # noqa: E731
    norm = lambda: (np.ones(w, np.float32), np.zeros(w, np.float32))  # noqa: E731
    params = {"tok": rng.standard_normal((v, w)).astype(np.float32),
              "pos": rng.standard_normal((seq, w)).astype(np.float32),
              "layers": [{"qkv": dense(w, 3 * w), "out": dense(w, w), "ln1": norm(), "ff1": dense(w, f),
                          "ff2": dense(f, w), "ln2": norm()} for _ in range(GPT["layers"])],
              "head": dense(w, v)}
    mask = jnp.asarray(np.triu(np.full((seq, seq), -1e9, np.float32), 1))
    heads, hd = GPT["heads"], w // GPT["heads"]

    def layer_norm(x, gb):
        dtype, x = x.dtype, x.astype(f32)
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return ((x - mean) * jax.lax.rsqrt(var + 1e-5) * gb[0].astype(f32) + gb[1].astype(f32)).astype(dtype)

    def attention(x, p):
        b, t, _ = x.shape
        q, k, v = jnp.split(x @ p["qkv"][0] + p["qkv"][1], 3, axis=-1)
        q, k, v = (z.reshape(b, t, heads, hd).transpose(0, 2, 1, 3) for z in (q, k, v))
        scores = (q @ k.transpose(0, 1, 3, 2)).astype(f32) / np.sqrt(hd) + mask
        a = jax.nn.softmax(scores, axis=-1).astype(v.dtype)
        return (a @ v).transpose(0, 2, 1, 3).reshape(b, t, w) @ p["out"][0] + p["out"][1]

    def forward(p, tokens):
        if compute is not None:
            p = jax.tree_util.tree_map(lambda a: a.astype(compute), p)
        x = p["tok"][tokens] + p["pos"][jnp.arange(tokens.shape[1])]
        for lp in p["layers"]:  # post-norm, as nn.TransformerEncoderLayer's default
            x = layer_norm(x + attention(x, lp), lp["ln1"])
            ff = jax.nn.relu(x @ lp["ff1"][0] + lp["ff1"][1]) @ lp["ff2"][0] + lp["ff2"][1]
            x = layer_norm(x + ff, lp["ln2"])
        return x @ p["head"][0] + p["head"][1]

    return params, forward


def _jax_gpt_step(jax, d, compute=None):
    import numpy as np
    jnp = jax.numpy
    params, forward = _jax_gpt(jax, np, d["x"].shape[1], compute)

    def loss_fn(p, x, y):
        logp = jax.nn.log_softmax(forward(p, x).astype(jnp.float32).reshape(-1, GPT["vocab"]))
        return -jnp.take_along_axis(logp, y.reshape(-1, 1), axis=1).mean(), None

    def adam(p, g, state):  # beta 0.9, 0.999, eps 1e-8: MindSpore's and PyTorch's defaults
        t, m, v = state
        t = t + 1
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        lr = GPT["lr"] * jnp.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        p = jax.tree_util.tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + 1e-8), p, m, v)
        return p, (t, m, v)

    params = jax.tree_util.tree_map(jnp.asarray, params)
    zeros = lambda: jax.tree_util.tree_map(jnp.zeros_like, params)  # noqa: E731  (m and v: two buffers, both donated)
    return _jax_step(jax, d, loss_fn, params, adam, (jnp.zeros((), jnp.float32), zeros(), zeros()))


@GPT_STEP.impl("jax")
def _(jax, d):
    return _jax_gpt_step(jax, d)


@GPT_BF16_STEP.impl("jax")
def _(jax, d):
    return _jax_gpt_step(jax, d, jax.numpy.bfloat16)
