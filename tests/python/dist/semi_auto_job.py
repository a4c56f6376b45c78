"""One rank of a semi-auto-parallel job: run by tests/python/test_semi_auto_parallel.py as
`mpirun -n 2 python semi_auto_job.py MODE OUT`. Each case runs a sharded primitive and its gradients
beside the same primitive unsharded; writes the differences (and what else the test asks) to OUT.<rank>.

Each rank's inputs are poisoned with NaN outside the block Note [Sharded primitives] gives that rank
(rank r at coordinate r of the one split label), so a sharded call that read more than its block would
return NaN: the results being right shows the work was split."""
import json
import sys

import numpy as np

import sprout as ms
from sprout import Parameter, Tensor, nn, ops
from sprout.communication import get_group_size, get_rank, init


class Probe(nn.Cell):
    """sum(prim(x[, y][, extra]) * sens): a scalar whose gradient sends `sens` back through prim."""

    def __init__(self, prim, sens, binary, extra):
        super().__init__()
        self.prim, self.sens, self.binary, self.extra = prim, Tensor(sens), binary, extra

    def construct(self, x, y):
        if self.binary:
            out = self.prim(x, y)
        elif self.extra is None:
            out = self.prim(x)
        else:
            out = self.prim(x, self.extra)
        return (out * self.sens).sum(), out


class GradOf(nn.Cell):
    def __init__(self, probe):
        super().__init__()
        self.probe = probe

    def construct(self, x, y):
        (_, out), grads = ms.value_and_grad(self.probe, grad_position=(0, 1), has_aux=True)(x, y)
        return out, grads[0], grads[1]


def rows(n, r, parts=2):
    """The index range of part r of n along an axis split in `parts`."""
    return slice(n // parts * r, n // parts * (r + 1))


def poison(a, axis, r):
    """a with NaN everywhere along `axis` but in rank r's part."""
    out = np.full_like(a, np.nan)
    index = [slice(None)] * a.ndim
    index[axis] = rows(a.shape[axis], r)
    out[tuple(index)] = a[tuple(index)]
    return out


def cases(rng, r):
    """(name, make primitive, strategy, x, y or None, extra, x as this rank sees it, y as it sees it)."""
    f = lambda *shape: rng.standard_normal(shape).astype(np.float32)  # noqa: E731
    x, w = f(4, 6), f(6, 5)
    yield "matmul_rows", lambda: ops.MatMul(), ((2, 1), (1, 1)), x, w, None, poison(x, 0, r), w
    yield "matmul_contracted", lambda: ops.MatMul(), ((1, 2), (2, 1)), x, w, None, poison(x, 1, r), poison(w, 0, r)
    wt = f(4, 6)
    yield ("matmul_transpose_b_columns", lambda: ops.MatMul(transpose_b=True), ((1, 1), (2, 1)), x, wt, None, x,
           poison(wt, 0, r))
    a, b = f(2, 3, 4), f(2, 4, 5)
    yield "batch_matmul_batch", lambda: ops.BatchMatMul(), ((2, 1, 1), (2, 1, 1)), a, b, None, poison(a, 0, r), \
        poison(b, 0, r)
    p, q = f(3, 4), f(4)
    yield "add_broadcast", lambda: ops.Add(), ((1, 2), (2,)), p, q, None, poison(p, 1, r), poison(q, 0, r)
    yield "softmax_rows", lambda: ops.Softmax(axis=-1), ((2, 1),), x, None, None, poison(x, 0, r), None
    yield "reduce_mean_split_axis", lambda: ops.ReduceMean(), ((1, 2),), x, None, 1, poison(x, 1, r), None
    yield "reduce_sum_keep_dims", lambda: ops.ReduceSum(keep_dims=True), ((2, 1),), x, None, 0, poison(x, 0, r), None
    yield "transpose", lambda: ops.Transpose(), ((2, 1),), x, None, (1, 0), poison(x, 0, r), None
    yield "relu_repeated", lambda: ops.ReLU(), ((1, 1),), x, None, None, x, None  # one block, two ranks repeat it


def run_cases(rank):
    rng = np.random.default_rng(3)
    result = {}
    for name, make, strategy, x, y, extra, x_seen, y_seen in cases(rng, rank):
        binary = y is not None
        y = y if binary else np.zeros(1, np.float32)
        y_seen = y_seen if binary else y
        reference = GradOf(Probe(make(), 0, binary, extra))
        out_ref = reference(Tensor(x), Tensor(y))[0].asnumpy()
        sens = np.random.default_rng(4).standard_normal(out_ref.shape).astype(np.float32)
        want = [t.asnumpy() for t in GradOf(Probe(make(), sens, binary, extra))(Tensor(x), Tensor(y))]
        got = [t.asnumpy() for t in GradOf(Probe(make().shard(strategy), sens, binary, extra))(Tensor(x_seen),
                                                                                             Tensor(y_seen))]
        result[name] = [float(np.max(np.abs(g - w))) if g.shape == w.shape else f"shape {g.shape} != {w.shape}"
                        for g, w in zip(got, want)]
    return result


class DenseMatMulNet(nn.Cell):
    """The two-matmul network of the auto-parallel slides: rows of x split, then columns of v."""

    def __init__(self, sharded):
        super().__init__()
        self.matmul1, self.matmul2 = ops.MatMul(), ops.MatMul()
        if sharded:
            self.matmul1.shard(((2, 1), (1, 1)))
            self.matmul2.shard(((1, 1), (1, 2)))
        rng = np.random.default_rng(5)
        self.w = Parameter(Tensor(rng.standard_normal((6, 8)).astype(np.float32) * 0.3), name="w")
        self.v = Parameter(Tensor(rng.standard_normal((8, 4)).astype(np.float32) * 0.3), name="v")

    def construct(self, x):
        return self.matmul2(ops.tanh(self.matmul1(x, self.w)), self.v)


def dense_layers(sharded):
    """Two nn.Dense, the first split by output features, the second by input features (Megatron-LM's
    column- then row-parallel pair)."""
    ms.set_seed(1)
    first, second = nn.Dense(6, 8, activation="tanh"), nn.Dense(8, 4)
    if sharded:
        first.matmul.shard(((1, 1), (2, 1)))
        first.bias_add.shard(((1, 2), (2,)))
        second.matmul.shard(((1, 2), (1, 2)))
    return nn.SequentialCell(first, second)


def train(net):
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    rng = np.random.default_rng(6)
    losses = [float(step(Tensor(rng.standard_normal((4, 6)).astype(np.float32)),
                         Tensor(rng.standard_normal((4, 4)).astype(np.float32))).asnumpy()) for _ in range(5)]
    return losses, [p.asnumpy() for p in net.trainable_params()]


def errors():
    """The messages of strategies that cannot work on these inputs."""
    x = Tensor(np.ones((3, 4), np.float32))
    calls = {
        "indivisible": lambda: ops.MatMul().shard(((2, 1), (1, 1)))(x, Tensor(np.ones((4, 2), np.float32))),
        "disagree": lambda: ops.MatMul().shard(((1, 2), (1, 1)))(Tensor(np.ones((2, 4), np.float32)),
                                                                 Tensor(np.ones((4, 2), np.float32))),
        "too_many_ranks": lambda: ops.ReLU().shard(((4, 1),))(Tensor(np.ones((4, 4), np.float32))),
        "softmax_axis": lambda: ops.Softmax().shard(((1, 2),))(x),
        "rank_mismatch": lambda: ops.ReLU().shard(((2,),))(x),
        "input_count": lambda: ops.Add().shard(((1, 1),))(x, x),
    }
    messages = {}
    for name, call in calls.items():
        try:
            call()
            messages[name] = "no error"
        except (TypeError, ValueError) as e:
            messages[name] = f"{type(e).__name__}: {e}"
    return messages


def main():
    mode, out = sys.argv[1], sys.argv[2]
    init()
    rank = get_rank()
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE, runtime_num_threads=1)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, full_batch=True)
    result = {"rank": rank, "size": get_group_size(), "cases": run_cases(rank)}
    for name, make in (("matmul_net", DenseMatMulNet), ("dense_layers", dense_layers)):
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.STAND_ALONE)
        reference = train(make(sharded=False))
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
        result[name] = {"reference": reference, "sharded": train(make(sharded=True))}
    result["errors"] = errors()
    with open(f"{out}.{rank}", "w") as f:
        json.dump(result, f, default=lambda a: a.tolist())


if __name__ == "__main__":
    main()
