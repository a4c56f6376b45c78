"""Eager dispatch overhead: ops on 1-element tensors, where the kernel is
nothing and the time is all framework (Python binding, op lookup, output
allocation). One step runs a loop of ops; the runner divides by the op count.
"""
from ..registry import Goal, workload


def _inputs(np, smoke):
    # ops per step: the runner repeats steps until a sample lasts long enough.
    return {"x": np.array([0.5], np.float32), "y": np.array([0.25], np.float32),
            "reps": 10 if smoke else 1000}


def _add_loop(x, y, reps):
    def step():
        for _ in range(reps):
            r = x + y
        return r
    return step


ADD_TINY = workload(
    name="dispatch_add_tiny", kind="latency",
    doc="eager `x + y` on 1-element float32 tensors (a loop of ops, time / ops)",
    inputs=_inputs, reference=lambda np, d: d["x"] + d["y"],
    amount=lambda smoke: 10 if smoke else 1000,
    goal=Goal("torch", 0.5, "Sprout's time per tiny add is at most half of PyTorch's"))


@ADD_TINY.impl("sprout")
def _(ms, d):
    return _add_loop(ms.Tensor(d["x"]), ms.Tensor(d["y"]), d["reps"])


@ADD_TINY.impl("numpy")
def _(np, d):
    return _add_loop(d["x"], d["y"], d["reps"])


@ADD_TINY.impl("torch")
def _(torch, d):
    return _add_loop(torch.from_numpy(d["x"]), torch.from_numpy(d["y"]), d["reps"])


@ADD_TINY.impl("jax")
def _(jax, d):
    return _add_loop(jax.numpy.asarray(d["x"]), jax.numpy.asarray(d["y"]), d["reps"])


@ADD_TINY.impl("mindspore")
def _(ms, d):
    return _add_loop(ms.Tensor(d["x"]), ms.Tensor(d["y"]), d["reps"])


# ---- a 10-op chain: different ops back to back, each on the last result ----

def chain10(add, mul, sub, exp, x, y):
    """Values stay near 1 so exp never overflows, however often it runs."""
    a = add(x, y)
    b = mul(a, y)
    c = sub(b, x)
    d = exp(c)
    e = add(d, x)
    f = mul(e, y)
    g = sub(f, y)
    h = exp(g)
    i = mul(h, y)
    return sub(i, x)


def _chain_inputs(np, smoke):
    d = _inputs(np, smoke)
    d["reps"] = 1 if smoke else 100  # chains per step, 10 ops each
    return d


def _chain_loop(ops, x, y, reps):
    add, mul, sub, exp = ops

    def step():
        for _ in range(reps):
            r = chain10(add, mul, sub, exp, x, y)
        return r
    return step


CHAIN10 = workload(
    name="dispatch_chain10", kind="latency",
    doc="10 eager ops (add, mul, sub, exp, ...) chained on 1-element float32 tensors, time / ops",
    inputs=_chain_inputs,
    reference=lambda np, d: chain10(np.add, np.multiply, np.subtract, np.exp, d["x"], d["y"]),
    amount=lambda smoke: 10 if smoke else 1000)


@CHAIN10.impl("sprout")
def _(ms, d):
    from sprout import ops
    return _chain_loop((ops.add, ops.mul, ops.sub, ops.exp),
                       ms.Tensor(d["x"]), ms.Tensor(d["y"]), d["reps"])


@CHAIN10.impl("numpy")
def _(np, d):
    return _chain_loop((np.add, np.multiply, np.subtract, np.exp), d["x"], d["y"], d["reps"])


@CHAIN10.impl("torch")
def _(torch, d):
    return _chain_loop((torch.add, torch.mul, torch.sub, torch.exp),
                       torch.from_numpy(d["x"]), torch.from_numpy(d["y"]), d["reps"])


@CHAIN10.impl("jax")
def _(jax, d):
    jnp = jax.numpy
    return _chain_loop((jnp.add, jnp.multiply, jnp.subtract, jnp.exp),
                       jnp.asarray(d["x"]), jnp.asarray(d["y"]), d["reps"])


@CHAIN10.impl("mindspore")
def _(ms, d):
    ops = ms.ops
    return _chain_loop((ops.add, ops.mul, ops.sub, ops.exp),
                       ms.Tensor(d["x"]), ms.Tensor(d["y"]), d["reps"])
