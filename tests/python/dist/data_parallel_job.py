"""One rank of a data-parallel job: run by tests/python/test_distributed.py as
`mpirun -n 2 python data_parallel_job.py MODE OUT`. Writes what it computed to OUT.<rank> (JSON)."""
import json
import sys

import numpy as np

import sprout as ms
from sprout import Tensor, nn, ops
from sprout.communication import get_group_size, get_rank, init


def mlp():
    return nn.SequentialCell(nn.Dense(6, 8, activation="tanh"), nn.Dense(8, 3))


def global_batches():
    """Four steps of a global batch of 8 rows; rank r trains on rows 4r .. 4r + 3 of each."""
    rng = np.random.default_rng(7)
    return [(rng.standard_normal((8, 6)).astype(np.float32), rng.standard_normal((8, 3)).astype(np.float32))
            for _ in range(4)]


def dataset(**shard):
    rng = np.random.default_rng(8)
    data = {"x": rng.standard_normal((24, 6)).astype(np.float32), "y": rng.standard_normal((24, 3)).astype(np.float32)}
    return ms.dataset.NumpySlicesDataset(data, shuffle=False, **shard)


def main():
    mode, out = sys.argv[1], sys.argv[2]
    init()
    rank, size = get_rank(), get_group_size()
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE, runtime_num_threads=1)
    result = {"rank": rank, "size": size}

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank)
    result["sum"] = ops.AllReduce()(x).asnumpy().tolist()
    result["max"] = ops.AllReduce(ops.ReduceOp.MAX)(x).asnumpy().tolist()
    result["gather"] = ops.AllGather()(x).asnumpy().tolist()
    result["broadcast"] = ops.Broadcast(1)((x,))[0].asnumpy().tolist()
    half = x.astype(ms.float16)  # no MPI type: sent as Float32
    result["float16_sum"] = ops.AllReduce()(half).asnumpy().astype(np.float32).tolist()
    result["float16_gather"] = ops.AllGather()(half).asnumpy().astype(np.float32).tolist()
    result["float16_broadcast"] = ops.Broadcast(1)((half,))[0].asnumpy().astype(np.float32).tolist()
    # The gradient of sum(AllReduce(x * w)): every rank's output depends on every rank's w.
    w = Tensor(np.ones((2, 3), np.float32))
    result["grad"] = ms.grad(lambda w: ops.AllReduce()(x * w).sum())(w).asnumpy().tolist()

    ms.set_seed(rank)  # different initial weights on each rank: parameter_broadcast makes them rank 0's
    net = mlp()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 parameter_broadcast=True)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = []
    for xb, yb in global_batches():
        rows = slice(4 * rank, 4 * rank + 4)
        losses.append(float(step(Tensor(xb[rows]), Tensor(yb[rows])).asnumpy()))
    result["losses"] = losses
    result["weights"] = [p.asnumpy().tolist() for p in net.trainable_params()]

    # The same steps with loss scaling (as amp does): the ranks' gradients are reduced after unscaling.
    ms.set_seed(rank)
    net = mlp()
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.Momentum(net.trainable_params(), 0.1, 0.9), Tensor([1024.0]))
    for xb, yb in global_batches():
        step(Tensor(xb[4 * rank:4 * rank + 4]), Tensor(yb[4 * rank:4 * rank + 4]))
    result["loss_scale_weights"] = [p.asnumpy().tolist() for p in net.trainable_params()]

    # Model.train on this rank's shard of a dataset (rows rank, rank + size, ...), 4 rows per step.
    ms.set_seed(100 + rank)
    net = mlp()
    model = ms.train.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    model.train(2, dataset(num_shards=size, shard_id=rank).batch(4), dataset_sink_mode=False)
    result["model_weights"] = [p.asnumpy().tolist() for p in net.trainable_params()]
    with open(f"{out}.{rank}", "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
