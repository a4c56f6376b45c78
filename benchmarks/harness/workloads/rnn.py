"""Recurrent layers, forward + backward, float32, in ms per step.

- lstm_cell: one LSTM step (two matmuls, then the gates' pointwise work), batch 64, input and hidden 256,
  and the gradients of sum(h) + sum(c) with respect to the input, the state and every weight.
- lstm_layer: nn.LSTM(128, 256) over 32 steps of batch 64, gradients of sum(output) with respect to the
  weights (the layer's backward through time).
- gru_layer: the same with nn.GRU(128, 256).

Sprout runs ops.lstm_cell (MatMul + the fused LSTMCellPointwise op and its fused gradient) and nn.LSTM /
nn.GRU (the LSTMRecurrence / GRURecurrence ops) in PYNATIVE and in GRAPH_MODE; MindSpore runs the same
layer code in both modes; PyTorch runs nn.LSTMCell / nn.LSTM / nn.GRU eagerly (on CPU its cell is the
composite of linear, chunk and activations; its layers run oneDNN's RNN primitives); JAX jits
jax.grad of the layers written with lax.scan (PyTorch's gate equations; the input projection of all
steps one product before the scan). Initial weights differ between frameworks, so the check is only
that the gradients are finite.
"""
from ..registry import workload

BATCH, CELL_SIZE = 64, 256
SEQ, LAYER_INPUT, LAYER_HIDDEN = 32, 128, 256
SMOKE = {"batch": 2, "size": 8, "seq": 3}


def _cell_inputs(np, smoke):
    rng = np.random.default_rng(0)
    b, n = (SMOKE["batch"], SMOKE["size"]) if smoke else (BATCH, CELL_SIZE)
    u = lambda *s: (rng.uniform(-1.0, 1.0, s) / np.sqrt(n)).astype(np.float32)  # noqa: E731
    return {"x": u(b, n), "h": u(b, n), "c": u(b, n), "w_ih": u(4 * n, n), "w_hh": u(4 * n, n),
            "b_ih": u(4 * n), "b_hh": u(4 * n)}


def _layer_inputs(np, smoke):
    rng = np.random.default_rng(0)
    seq, b, n = (SMOKE["seq"], SMOKE["batch"], SMOKE["size"]) if smoke else (SEQ, BATCH, LAYER_INPUT)
    return {"x": rng.standard_normal((seq, b, n)).astype(np.float32)}


def _layer_sizes(d):
    """(input, hidden) of the layer: the inputs carry arrays only, so the smoke run is told by its input size."""
    n = d["x"].shape[2]
    return n, (LAYER_HIDDEN if n == LAYER_INPUT else SMOKE["size"])


def check_finite(np, next_grads):
    g = next_grads()
    if not np.isfinite(g).all():
        raise AssertionError("non-finite gradient")


LSTM_CELL = workload(
    name="lstm_cell_fwd_bwd", kind="step",
    doc="one LSTM cell step, batch 64, input and hidden 256, forward + gradients of sum(h) + sum(c) "
        "w.r.t. input, state and weights, float32",
    inputs=_cell_inputs, check=check_finite, amount=lambda smoke: 1)

LSTM_LAYER = workload(
    name="lstm_layer_fwd_bwd", kind="step",
    doc="nn.LSTM(128, 256), 32 steps of batch 64: forward + gradients of sum(output) w.r.t. the weights, "
        "float32",
    inputs=_layer_inputs, check=check_finite, amount=lambda smoke: 1)


GRU_LAYER = workload(
    name="gru_layer_fwd_bwd", kind="step",
    doc="nn.GRU(128, 256), 32 steps of batch 64: forward + gradients of sum(output) w.r.t. the weights, "
        "float32",
    inputs=_layer_inputs, check=check_finite, amount=lambda smoke: 1)


def _call_with(fn, n):
    if n == 1:
        return lambda x: fn(x)
    return lambda x, h, c, w_ih, w_hh, b_ih, b_hh: fn(x, h, c, w_ih, w_hh, b_ih, b_hh)


@LSTM_CELL.impl("sprout", "sprout_graph")
def _(ms, d):
    from sprout import ops
    names = ("x", "h", "c", "w_ih", "w_hh", "b_ih", "b_hh")

    def loss(x, h, c, w_ih, w_hh, b_ih, b_hh):
        hy, cy = ops.lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh)
        return hy.sum() + cy.sum()

    grads = ms.grad(loss, grad_position=tuple(range(len(names))))
    if ms.get_context("mode") == ms.GRAPH_MODE:
        grads = ms.jit(_call_with(grads, len(names)))
    args = [ms.Tensor(d[k]) for k in names]
    return lambda: grads(*args)[0]


def _sprout_layer(ms, d, cls):
    ms.set_seed(0)
    net = cls(*_layer_sizes(d))

    def loss(x):  # a def, not a lambda: MindSpore's GRAPH_MODE parses only lambdas on lines of their own
        return net(x)[0].sum()

    grads = ms.grad(loss, None, net.trainable_params())
    if ms.get_context("mode") == ms.GRAPH_MODE:
        grads = ms.jit(_call_with(grads, 1))
    x = ms.Tensor(d["x"])
    return lambda: grads(x)[0]


@LSTM_LAYER.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    return _sprout_layer(ms, d, ms.nn.LSTM)


@GRU_LAYER.impl("sprout", "sprout_graph", "mindspore", "mindspore_graph")
def _(ms, d):
    return _sprout_layer(ms, d, ms.nn.GRU)


@LSTM_CELL.impl("torch")
def _(torch, d):
    n = d["x"].shape[1]
    cell = torch.nn.LSTMCell(n, n)
    with torch.no_grad():
        for name in ("w_ih", "w_hh", "b_ih", "b_hh"):
            getattr(cell, name.replace("w_", "weight_").replace("b_", "bias_")).copy_(torch.from_numpy(d[name]))
    x, h, c = (torch.from_numpy(d[k]).requires_grad_() for k in ("x", "h", "c"))

    def step():
        for t in (x, h, c, *cell.parameters()):
            t.grad = None
        hy, cy = cell(x, (h, c))
        (hy.sum() + cy.sum()).backward()
        return x.grad
    return step


def _torch_layer(torch, d, cls):
    torch.manual_seed(0)
    net = cls(*_layer_sizes(d))
    x = torch.from_numpy(d["x"])

    def step():
        net.zero_grad(set_to_none=True)
        net(x)[0].sum().backward()
        return net.weight_ih_l0.grad
    return step


@LSTM_LAYER.impl("torch")
def _(torch, d):
    return _torch_layer(torch, d, torch.nn.LSTM)


@GRU_LAYER.impl("torch")
def _(torch, d):
    return _torch_layer(torch, d, torch.nn.GRU)


# ---- JAX: the layers as lax.scan over PyTorch's gate equations ----

def _jax_layer(jax, d, gates, step_fn):
    """jax.grad of sum(outputs) w.r.t. (w_ih, w_hh, b_ih, b_hh), jitted; `gates` rows per hidden unit."""
    import numpy as np
    jnp = jax.numpy
    n_in, n_h = _layer_sizes(d)
    rng = np.random.default_rng(1)
    lim = 1 / np.sqrt(n_h)
    params = tuple(jnp.asarray(rng.uniform(-lim, lim, s).astype(np.float32))
                   for s in ((gates * n_h, n_in), (gates * n_h, n_h), (gates * n_h,), (gates * n_h,)))

    def loss(p, x):
        w_ih, w_hh, b_ih, b_hh = p
        projected = x @ w_ih.T + b_ih  # every step's input projection in one product
        h0 = jnp.zeros((x.shape[1], n_h), x.dtype)
        _, outputs = jax.lax.scan(lambda state, xp: step_fn(state, xp, w_hh, b_hh), (h0, h0), projected)
        return outputs.sum()

    grad = jax.jit(jax.grad(loss))
    x = jnp.asarray(d["x"])
    return lambda: grad(params, x)[0]


@LSTM_LAYER.impl("jax")
def _(jax, d):
    jnn, jnp = jax.nn, jax.numpy

    def lstm_step(state, xp, w_hh, b_hh):
        h, c = state
        i, f, g, o = jnp.split(xp + h @ w_hh.T + b_hh, 4, axis=-1)
        c = jnn.sigmoid(f) * c + jnn.sigmoid(i) * jnp.tanh(g)
        h = jnn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h
    return _jax_layer(jax, d, 4, lstm_step)


@GRU_LAYER.impl("jax")
def _(jax, d):
    jnn, jnp = jax.nn, jax.numpy

    def gru_step(state, xp, w_hh, b_hh):
        h, _ = state
        xr, xz, xn = jnp.split(xp, 3, axis=-1)
        hr, hz, hn = jnp.split(h @ w_hh.T + b_hh, 3, axis=-1)
        r, z = jnn.sigmoid(xr + hr), jnn.sigmoid(xz + hz)
        h = (1 - z) * jnp.tanh(xn + r * hn) + z * h
        return (h, h), h
    return _jax_layer(jax, d, 3, gru_step)
