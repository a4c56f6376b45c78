"""Memory-bound neural-network ops on float32, in GB/s, compared with the
measured triad bandwidth at the same element count (see elementwise.py for
the byte-counting convention: inputs read once, output written once).

Softmax and layernorm read their row more than once (max, sum, normalize);
the fused kernels of the peers keep a 4 KB row in L1, so only the one read
and one write count. JAX runs each op under jax.jit (its own nn functions
are jitted that way); MindSpore's functional layer_norm has no CPU kernel in
2.10 (LayerNormExt), so its LayerNorm primitive is used.
"""
from ..registry import workload

ROWS, COLS = 4096, 1024
N_1M = 1 << 20
EPS = 1e-5


def _shape(smoke):
    return (8, 16) if smoke else (ROWS, COLS)


def _rows(np, smoke, params=False):
    rng = np.random.default_rng(0)  # identical data for every framework
    rows, cols = _shape(smoke)
    d = {"x": rng.uniform(-4.0, 4.0, (rows, cols)).astype(np.float32)}
    if params:
        d["gamma"] = rng.uniform(0.5, 1.5, cols).astype(np.float32)
        d["beta"] = rng.uniform(-0.5, 0.5, cols).astype(np.float32)
    return d


def _ref_softmax(np, d):
    x = d["x"].astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


def _ref_layernorm(np, d):
    x = d["x"].astype(np.float64)
    y = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + EPS)
    return (y * d["gamma"] + d["beta"]).astype(np.float32)


def _bytes_rows(smoke):
    rows, cols = _shape(smoke)
    return 2 * 4 * rows * cols


SOFTMAX = workload(
    name="softmax_4096x1024", kind="bandwidth",
    doc="softmax over the last axis of a (4096, 1024) float32 tensor; bytes = 2 x 16 MB "
        "(read x; write out)",
    inputs=lambda np, smoke: _rows(np, smoke), reference=_ref_softmax,
    amount=_bytes_rows, triad_elems=ROWS * COLS)

LAYERNORM = workload(
    name="layernorm_4096x1024", kind="bandwidth",
    doc="layernorm over the last axis of a (4096, 1024) float32 tensor, with gamma and "
        "beta; bytes = 2 x 16 MB (read x; write out)",
    inputs=lambda np, smoke: _rows(np, smoke, params=True), reference=_ref_layernorm,
    amount=_bytes_rows, triad_elems=ROWS * COLS, rtol=1e-4, atol=1e-4)


def _n(smoke):
    return 1024 if smoke else N_1M


EXP_1M = workload(
    name="exp_1m", kind="bandwidth",
    doc="exp(x), 1M float32; bytes = 2 x 4 MB (read x; write out)",
    inputs=lambda np, smoke: {"x": np.random.default_rng(0).uniform(
        -4.0, 4.0, _n(smoke)).astype(np.float32)},
    reference=lambda np, d: np.exp(d["x"]),
    amount=lambda smoke: 2 * 4 * _n(smoke), triad_elems=N_1M)


def _bcast_inputs(np, smoke):
    rng = np.random.default_rng(0)
    n = 32 if smoke else 1024
    return {"x": rng.uniform(-1.0, 1.0, (n, n)).astype(np.float32),
            "b": rng.uniform(-1.0, 1.0, n).astype(np.float32)}


BCAST_ADD = workload(
    name="broadcast_add_1024x1024", kind="bandwidth",
    doc="x + b, x (1024, 1024), b (1024,) float32; bytes = 2 x 4 MB + 4 KB "
        "(read x, b; write out)",
    inputs=_bcast_inputs, reference=lambda np, d: d["x"] + d["b"],
    amount=lambda smoke: 4 * (2 * (32 if smoke else 1024) ** 2 + (32 if smoke else 1024)),
    triad_elems=N_1M)


# Sprout
@SOFTMAX.impl("sprout")
def _(ms, d):
    from sprout import ops
    x = ms.Tensor(d["x"])
    return lambda: ops.softmax(x, axis=-1)


@LAYERNORM.impl("sprout")
def _(ms, d):
    from sprout import ops
    x, gamma, beta = (ms.Tensor(d[k]) for k in ("x", "gamma", "beta"))
    shape = (d["x"].shape[-1],)
    return lambda: ops.layer_norm(x, shape, gamma, beta, EPS)


@EXP_1M.impl("sprout")
def _(ms, d):
    from sprout import ops
    x = ms.Tensor(d["x"])
    return lambda: ops.exp(x)


@BCAST_ADD.impl("sprout")
def _(ms, d):
    x, b = ms.Tensor(d["x"]), ms.Tensor(d["b"])
    return lambda: x + b


# NumPy: no softmax or layernorm of its own; exp and add only.
@EXP_1M.impl("numpy")
def _(np, d):
    x = d["x"]
    return lambda: np.exp(x)


@BCAST_ADD.impl("numpy")
def _(np, d):
    x, b = d["x"], d["b"]
    return lambda: x + b


# PyTorch
@SOFTMAX.impl("torch")
def _(torch, d):
    x = torch.from_numpy(d["x"])
    return lambda: torch.softmax(x, dim=-1)


@LAYERNORM.impl("torch")
def _(torch, d):
    x, gamma, beta = (torch.from_numpy(d[k]) for k in ("x", "gamma", "beta"))
    shape = (d["x"].shape[-1],)
    return lambda: torch.nn.functional.layer_norm(x, shape, gamma, beta, EPS)


@EXP_1M.impl("torch")
def _(torch, d):
    x = torch.from_numpy(d["x"])
    return lambda: torch.exp(x)


@BCAST_ADD.impl("torch")
def _(torch, d):
    x, b = torch.from_numpy(d["x"]), torch.from_numpy(d["b"])
    return lambda: x + b


# JAX
@SOFTMAX.impl("jax")
def _(jax, d):
    x = jax.numpy.asarray(d["x"])
    softmax = jax.jit(lambda x: jax.nn.softmax(x, axis=-1))
    return lambda: softmax(x)


@LAYERNORM.impl("jax")
def _(jax, d):
    x, gamma, beta = (jax.numpy.asarray(d[k]) for k in ("x", "gamma", "beta"))
    norm = jax.jit(lambda x, g, b: jax.nn.standardize(x, axis=-1, epsilon=EPS) * g + b)
    return lambda: norm(x, gamma, beta)


@EXP_1M.impl("jax")
def _(jax, d):
    x = jax.numpy.asarray(d["x"])
    return lambda: jax.numpy.exp(x)


@BCAST_ADD.impl("jax")
def _(jax, d):
    x, b = jax.numpy.asarray(d["x"]), jax.numpy.asarray(d["b"])
    return lambda: x + b


# MindSpore (PyNative)
@SOFTMAX.impl("mindspore")
def _(ms, d):
    x = ms.Tensor(d["x"])
    return lambda: ms.ops.softmax(x, axis=-1)


@LAYERNORM.impl("mindspore")
def _(ms, d):
    x, gamma, beta = (ms.Tensor(d[k]) for k in ("x", "gamma", "beta"))
    norm = ms.ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=EPS)
    return lambda: norm(x, gamma, beta)[0]


@EXP_1M.impl("mindspore")
def _(ms, d):
    x = ms.Tensor(d["x"])
    return lambda: ms.ops.exp(x)


@BCAST_ADD.impl("mindspore")
def _(ms, d):
    x, b = ms.Tensor(d["x"]), ms.Tensor(d["b"])
    return lambda: x + b
