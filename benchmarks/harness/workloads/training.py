"""Whole training steps (forward, loss, backward, optimizer update), in ms
per step, batch 64, float32, on one fixed random batch.

- LeNet-5 as in MindSpore's model zoo: conv 1->6 k5 valid, relu, maxpool 2,
  conv 6->16 k5 valid, relu, maxpool 2, flatten, dense 400-120-84-10 (relu
  between), convolutions without bias; softmax cross entropy (sparse
  labels, mean); Momentum lr 0.01, momentum 0.9.
- The quick-start MLP: flatten 1x28x28, dense 784-512-512-10 with relu;
  cross entropy (mean); SGD lr 0.01.

Sprout and MindSpore share the same Cell code (the APIs match) and train
with nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer); both run
it in PYNATIVE and in GRAPH_MODE (a worker of its own each).
PyTorch runs eagerly and under torch.compile (forward, backward and
optimizer step compiled together); JAX jits the whole step.

Each framework initializes the weights its own way, so the losses are not
comparable across frameworks: the check is that the loss of the first step
is finite and that it falls over a few steps.
"""
import math

from ..registry import workload

BATCH = 64
SMOKE_BATCH = 8   # `make test` runs a few steps; batch 64 LeNet steps are slow there
CHECK_STEPS = 5
LENET = {"lr": 0.01, "momentum": 0.9, "shape": (1, 32, 32)}
MLP = {"lr": 0.01, "shape": (1, 28, 28), "hidden": 512}


def _batch(shape):
    def inputs(np, smoke):
        rng = np.random.default_rng(0)
        n = SMOKE_BATCH if smoke else BATCH
        return {"x": rng.standard_normal((n, *shape), np.float32),
                "y": rng.integers(0, 10, n).astype(np.int32)}
    return inputs


def check_loss_falls(np, next_loss):
    losses = [float(next_loss()) for _ in range(CHECK_STEPS)]
    if not math.isfinite(losses[0]):
        raise AssertionError(f"first-step loss is {losses[0]}")
    if not all(map(math.isfinite, losses)) or not losses[-1] < losses[0]:
        raise AssertionError(f"loss does not fall over {CHECK_STEPS} steps: {losses}")


LENET_STEP = workload(
    name="lenet5_train_step", kind="step",
    doc="LeNet-5 training step (MindSpore's LeNet, Momentum 0.01/0.9), batch 64 of "
        "1x32x32, float32",
    inputs=_batch(LENET["shape"]), check=check_loss_falls, amount=lambda smoke: 1)

MLP_STEP = workload(
    name="mlp_train_step", kind="step",
    doc="quick-start MLP training step (784-512-512-10, relu, cross entropy, SGD 0.01), "
        "batch 64 of 1x28x28, float32",
    inputs=_batch(MLP["shape"]), check=check_loss_falls, amount=lambda smoke: 1)


# ---- Sprout and MindSpore: the same Cells ----

def _lenet_cell(nn):
    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(400, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.relu(self.fc1(self.flatten(x)))
            return self.fc3(self.relu(self.fc2(x)))
    return LeNet5()


def _mlp_cell(nn):
    h = MLP["hidden"]
    return nn.SequentialCell(nn.Flatten(), nn.Dense(784, h), nn.ReLU(), nn.Dense(h, h),
                             nn.ReLU(), nn.Dense(h, 10))


def _cell_step(ms, d, net, loss, opt):
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, loss), opt)
    step.set_train()
    x, y = ms.Tensor(d["x"]), ms.Tensor(d["y"])
    return lambda: step(x, y)


@LENET_STEP.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    nn = ms.nn
    net = _lenet_cell(nn)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), LENET["lr"], LENET["momentum"])
    return _cell_step(ms, d, net, loss, opt)


@MLP_STEP.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    nn = ms.nn
    net = _mlp_cell(nn)
    return _cell_step(ms, d, net, nn.CrossEntropyLoss(),
                      nn.SGD(net.trainable_params(), MLP["lr"]))


# ---- PyTorch: eager, and the same step under torch.compile ----

def _torch_step(torch, d, net, opt):
    F = torch.nn.functional
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"]).long()

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


def _torch_lenet(torch, d):
    tnn = torch.nn
    net = tnn.Sequential(
        tnn.Conv2d(1, 6, 5, bias=False), tnn.ReLU(), tnn.MaxPool2d(2),
        tnn.Conv2d(6, 16, 5, bias=False), tnn.ReLU(), tnn.MaxPool2d(2), tnn.Flatten(),
        tnn.Linear(400, 120), tnn.ReLU(), tnn.Linear(120, 84), tnn.ReLU(), tnn.Linear(84, 10))
    opt = torch.optim.SGD(net.parameters(), lr=LENET["lr"], momentum=LENET["momentum"])
    return _torch_step(torch, d, net, opt)


def _torch_mlp(torch, d):
    tnn, h = torch.nn, MLP["hidden"]
    net = tnn.Sequential(tnn.Flatten(), tnn.Linear(784, h), tnn.ReLU(), tnn.Linear(h, h),
                         tnn.ReLU(), tnn.Linear(h, 10))
    return _torch_step(torch, d, net, torch.optim.SGD(net.parameters(), lr=MLP["lr"]))


LENET_STEP.impl("torch")(_torch_lenet)
MLP_STEP.impl("torch")(_torch_mlp)
# torch.compile compiles on the first call, i.e. in the worker's correctness
# check, before any timing.
LENET_STEP.impl("torch_compile")(lambda torch, d: torch.compile(_torch_lenet(torch, d)))
MLP_STEP.impl("torch_compile")(lambda torch, d: torch.compile(_torch_mlp(torch, d)))


# ---- JAX: the whole step under jit; PyTorch-style uniform initialization ----

def _jax_params(np, shapes):
    """[(w, b)]: w, b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)); b None if no bias."""
    rng = np.random.default_rng(1)
    out = []
    for shape, bias in shapes:
        fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
        lim = 1 / np.sqrt(fan_in)
        w = rng.uniform(-lim, lim, shape).astype(np.float32)
        b = rng.uniform(-lim, lim, shape[-1] if len(shape) == 2 else shape[0]
                        ).astype(np.float32) if bias else None
        out.append((w, b))
    return out


def _jax_train(jax, d, forward, params, lr, momentum=0.0):
    jnp = jax.numpy

    def loss_fn(params, x, y):
        logp = jax.nn.log_softmax(forward(params, x))
        return -jnp.take_along_axis(logp, y[:, None], axis=1).mean()

    @jax.jit
    def train(params, vel, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        # MindSpore's Momentum and torch's SGD: v = m v + g; p -= lr v
        vel = jax.tree_util.tree_map(lambda v, g: momentum * v + g, vel, grads)
        params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, vel)
        return params, vel, loss

    params = jax.tree_util.tree_map(jnp.asarray, params)
    state = {"p": params, "v": jax.tree_util.tree_map(jnp.zeros_like, params)}
    x, y = jnp.asarray(d["x"]), jnp.asarray(d["y"])

    def step():
        state["p"], state["v"], loss = train(state["p"], state["v"], x, y)
        return loss
    return step


@LENET_STEP.impl("jax")
def _jax_lenet_step(jax, d):
    import numpy as np
    lax = jax.lax

    def conv(x, w):
        return lax.conv_general_dilated(x, w, (1, 1), "VALID",
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def pool(x):
        return lax.reduce_window(x, -np.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def forward(p, x):
        relu = jax.nn.relu
        x = pool(relu(conv(x, p[0][0])))
        x = pool(relu(conv(x, p[1][0]))).reshape(x.shape[0], -1)
        x = relu(x @ p[2][0] + p[2][1])
        x = relu(x @ p[3][0] + p[3][1])
        return x @ p[4][0] + p[4][1]

    params = _jax_params(np, [((6, 1, 5, 5), False), ((16, 6, 5, 5), False),
                              ((400, 120), True), ((120, 84), True), ((84, 10), True)])
    params = [(w, b) if b is not None else (w,) for w, b in params]
    return _jax_train(jax, d, forward, params, LENET["lr"], LENET["momentum"])


@MLP_STEP.impl("jax")
def _(jax, d):
    import numpy as np
    h = MLP["hidden"]

    def forward(p, x):
        x = x.reshape(x.shape[0], -1)
        x = jax.nn.relu(x @ p[0][0] + p[0][1])
        x = jax.nn.relu(x @ p[1][0] + p[1][1])
        return x @ p[2][0] + p[2][1]

    params = _jax_params(np, [((784, h), True), ((h, h), True), ((h, 10), True)])
    return _jax_train(jax, d, forward, params, MLP["lr"])


# ---- The backward pass alone, and compile times ----

MLP_BACKWARD = workload(
    name="mlp_backward", kind="step",
    doc="gradients of the quick-start MLP's loss (784-512-512-10, relu, cross entropy) with respect to "
        "its weights: forward + backward, no update; batch 64 of 1x28x28, float32",
    inputs=_batch(MLP["shape"]), check=lambda np, next_grads: next_grads(), amount=lambda smoke: 1)


@MLP_BACKWARD.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    nn = ms.nn
    net = nn.WithLossCell(_mlp_cell(nn), nn.CrossEntropyLoss())
    grads = ms.grad(net, None, net.trainable_params())
    if ms.get_context("mode") == ms.GRAPH_MODE:
        grads = ms.jit(_call_with(grads))
    x, y = ms.Tensor(d["x"]), ms.Tensor(d["y"])
    return lambda: grads(x, y)[0]


def _call_with(fn):
    def call(x, y):
        return fn(x, y)
    return call


@MLP_BACKWARD.impl("torch")
def _(torch, d):
    F, tnn, h = torch.nn.functional, torch.nn, MLP["hidden"]
    net = tnn.Sequential(tnn.Flatten(), tnn.Linear(784, h), tnn.ReLU(), tnn.Linear(h, h),
                         tnn.ReLU(), tnn.Linear(h, 10))
    x, y = torch.from_numpy(d["x"]), torch.from_numpy(d["y"]).long()

    def backward():
        net.zero_grad(set_to_none=True)
        F.cross_entropy(net(x), y).backward()
        return net[1].weight.grad
    return backward


@MLP_BACKWARD.impl("jax")
def _(jax, d):
    import numpy as np
    jnp, h = jax.numpy, MLP["hidden"]
    params = jax.tree_util.tree_map(jnp.asarray, _jax_params(np, [((784, h), True), ((h, h), True),
                                                                  ((h, 10), True)]))

    def loss_fn(p, x, y):
        x = x.reshape(x.shape[0], -1)
        x = jax.nn.relu(x @ p[0][0] + p[0][1])
        x = jax.nn.relu(x @ p[1][0] + p[1][1])
        logp = jax.nn.log_softmax(x @ p[2][0] + p[2][1])
        return -jnp.take_along_axis(logp, y[:, None], axis=1).mean()

    grad = jax.jit(jax.grad(loss_fn))
    x, y = jnp.asarray(d["x"]), jnp.asarray(d["y"])
    return lambda: grad(params, x, y)[0][0]  # all gradients are computed; the check looks at one


LENET_COMPILE = workload(
    name="lenet5_step_compile", kind="step",
    doc="time to the first LeNet-5 training step (forward, gradient, Momentum update) of a new network, "
        "batch 8: in the graph modes and JAX this is compiling the step (plus one execution), in the "
        "eager modes one step",
    inputs=lambda np, smoke: {"x": np.random.default_rng(0).standard_normal((8, 1, 32, 32), np.float32),
                              "y": np.arange(8, dtype=np.int32) % 10},
    check=lambda np, first_loss: first_loss(), amount=lambda smoke: 1)


@LENET_COMPILE.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    nn = ms.nn
    x, y = ms.Tensor(d["x"]), ms.Tensor(d["y"])

    def compile_and_run_once():
        net = _lenet_cell(nn)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Momentum(net.trainable_params(), LENET["lr"], LENET["momentum"])
        return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)(x, y)
    return compile_and_run_once


@LENET_COMPILE.impl("jax")
def _(jax, d):
    def compile_and_run_once():
        return _jax_lenet_step(jax, d)()  # a new jit function: traced and compiled on this call
    return compile_and_run_once
