"""Memory-bound elementwise ops on large float32 tensors, in GB/s.

Bytes counted are the useful ones: every input read once and the output
written once (no write-allocate, no temporaries), the same convention as the
triad of machine.py, to which each workload is compared at the same element
count (1M floats fit in a 32 MB L3; 4M x 4 arrays do not).

x * y + z also runs compiled (Sprout and MindSpore GRAPH_MODE through their
jit, torch.compile): a compiler may fuse it into one pass over memory, which
eager mode, an op at a time, cannot.
"""
from ..registry import workload

N_1M = 1 << 20
N_4M = 4 << 20
SMOKE_N = 1024


def _arrays(np, n, names):
    rng = np.random.default_rng(0)  # identical data for every framework
    return {k: rng.uniform(-1.0, 1.0, n).astype(np.float32) for k in names}


ADD_1M = workload(
    name="add_1m", kind="bandwidth",
    doc="x + y, 1M float32; bytes = 3 x 4 MB (read x, y; write out)",
    inputs=lambda np, smoke: _arrays(np, SMOKE_N if smoke else N_1M, "xy"),
    reference=lambda np, d: d["x"] + d["y"],
    amount=lambda smoke: 3 * 4 * (SMOKE_N if smoke else N_1M),
    triad_elems=N_1M)

MULADD_4M = workload(
    name="elementwise_4m_muladd", kind="bandwidth",
    doc="x * y + z, 4M float32; bytes = 4 x 16 MB (read x, y, z; write out)",
    inputs=lambda np, smoke: _arrays(np, SMOKE_N if smoke else N_4M, "xyz"),
    reference=lambda np, d: d["x"] * d["y"] + d["z"],
    amount=lambda smoke: 4 * 4 * (SMOKE_N if smoke else N_4M),
    triad_elems=N_4M)

EXP_4M = workload(
    name="elementwise_4m_exp", kind="bandwidth",
    doc="exp(x), 4M float32; bytes = 2 x 16 MB (read x; write out)",
    inputs=lambda np, smoke: _arrays(np, SMOKE_N if smoke else N_4M, "x"),
    reference=lambda np, d: np.exp(d["x"]),
    amount=lambda smoke: 2 * 4 * (SMOKE_N if smoke else N_4M),
    triad_elems=N_4M)


def _muladd(x, y, z):
    return x * y + z


def _tensors(make, d):
    return [make(d[k]) for k in sorted(k for k in d)]


# Sprout
@ADD_1M.impl("sprout")
def _(ms, d):
    x, y = _tensors(ms.Tensor, d)
    return lambda: x + y


@MULADD_4M.impl("sprout")
def _(ms, d):
    x, y, z = _tensors(ms.Tensor, d)
    return lambda: x * y + z


@MULADD_4M.impl("sprout_graph", "mindspore_graph")
def _(ms, d):
    x, y, z = _tensors(ms.Tensor, d)
    muladd = ms.jit(_muladd)
    return lambda: muladd(x, y, z)


@EXP_4M.impl("sprout")
def _(ms, d):
    from sprout import ops
    (x,) = _tensors(ms.Tensor, d)
    return lambda: ops.exp(x)


# NumPy
@ADD_1M.impl("numpy")
def _(np, d):
    x, y = _tensors(np.asarray, d)
    return lambda: x + y


@MULADD_4M.impl("numpy")
def _(np, d):
    x, y, z = _tensors(np.asarray, d)
    return lambda: x * y + z


@EXP_4M.impl("numpy")
def _(np, d):
    (x,) = _tensors(np.asarray, d)
    return lambda: np.exp(x)


# PyTorch
@ADD_1M.impl("torch")
def _(torch, d):
    x, y = _tensors(torch.from_numpy, d)
    return lambda: x + y


@MULADD_4M.impl("torch")
def _(torch, d):
    x, y, z = _tensors(torch.from_numpy, d)
    return lambda: x * y + z


@MULADD_4M.impl("torch_compile")
def _(torch, d):
    x, y, z = _tensors(torch.from_numpy, d)
    muladd = torch.compile(_muladd)
    return lambda: muladd(x, y, z)


@EXP_4M.impl("torch")
def _(torch, d):
    (x,) = _tensors(torch.from_numpy, d)
    return lambda: torch.exp(x)


# JAX (eager)
@ADD_1M.impl("jax")
def _(jax, d):
    x, y = _tensors(jax.numpy.asarray, d)
    return lambda: x + y


@MULADD_4M.impl("jax")
def _(jax, d):
    x, y, z = _tensors(jax.numpy.asarray, d)
    return lambda: x * y + z


@EXP_4M.impl("jax")
def _(jax, d):
    (x,) = _tensors(jax.numpy.asarray, d)
    return lambda: jax.numpy.exp(x)


# MindSpore (PyNative)
@ADD_1M.impl("mindspore")
def _(ms, d):
    x, y = _tensors(ms.Tensor, d)
    return lambda: x + y


@MULADD_4M.impl("mindspore")
def _(ms, d):
    x, y, z = _tensors(ms.Tensor, d)
    return lambda: x * y + z


@EXP_4M.impl("mindspore")
def _(ms, d):
    (x,) = _tensors(ms.Tensor, d)
    return lambda: ms.ops.exp(x)
