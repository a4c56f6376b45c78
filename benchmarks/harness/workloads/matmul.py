"""float32 matmul, in GFLOP/s (2 n^3 per product), compared with the
measured peak FMA throughput of machine.py."""
from ..registry import workload

SMOKE_N = 16


def _make(n):
    def inputs(np, smoke):
        m = SMOKE_N if smoke else n
        rng = np.random.default_rng(0)
        return {k: rng.uniform(-1.0, 1.0, (m, m)).astype(np.float32) for k in "ab"}

    def reference(np, d):  # float64 reference, then float32 like the result
        return (d["a"].astype(np.float64) @ d["b"].astype(np.float64)).astype(np.float32)

    w = workload(
        name=f"matmul_{n}", kind="flops",
        doc=f"a @ b, float32 {n}x{n} by {n}x{n}; FLOPs = 2 n^3",
        inputs=inputs, reference=reference,
        amount=lambda smoke: 2 * (SMOKE_N if smoke else n) ** 3,
        rtol=1e-4, atol=1e-3)

    @w.impl("sprout")
    def _(ms, d):
        from sprout import ops
        a, b = ms.Tensor(d["a"]), ms.Tensor(d["b"])
        return lambda: ops.matmul(a, b)

    @w.impl("numpy")
    def _(np, d):
        a, b = d["a"], d["b"]
        return lambda: a @ b

    @w.impl("torch")
    def _(torch, d):
        a, b = torch.from_numpy(d["a"]), torch.from_numpy(d["b"])
        return lambda: a @ b

    @w.impl("jax")
    def _(jax, d):
        a, b = jax.numpy.asarray(d["a"]), jax.numpy.asarray(d["b"])
        return lambda: a @ b

    @w.impl("mindspore")
    def _(ms, d):
        a, b = ms.Tensor(d["a"]), ms.Tensor(d["b"])
        return lambda: ms.ops.matmul(a, b)

    return w


MATMUL_1024 = _make(1024)
MATMUL_64 = _make(64)
