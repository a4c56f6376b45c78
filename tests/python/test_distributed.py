"""Data-parallel training on MPI: two ranks started by mpirun (tests/python/dist/data_parallel_job.py),
their collectives checked against NumPy, and their training against one process on the whole batch."""
import json
import os
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops
from mpi_launch import run_mpi

HERE = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.join(HERE, "dist", "data_parallel_job.py")
sys.path.insert(0, os.path.join(HERE, "dist"))
import data_parallel_job  # noqa: E402  (the job's model and data, for the single-process reference)

sys.path.pop(0)


def run_job(mode, tmp_path, ranks=2):
    out = str(tmp_path / "result")
    done = run_mpi([sys.executable, JOB, mode, out], ranks, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return [json.load(open(f"{out}.{r}")) for r in range(ranks)]


def single_process_training():
    """The same steps on one process with the whole global batch: what data parallelism must equal."""
    ms.set_seed(0)  # rank 0's initial weights, which parameter_broadcast gives every rank
    net = data_parallel_job.mlp()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    for xb, yb in data_parallel_job.global_batches():
        step(Tensor(xb), Tensor(yb))
    return [p.asnumpy() for p in net.trainable_params()]


def single_process_model_training():
    ms.set_seed(100)
    net = data_parallel_job.mlp()
    model = ms.train.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    model.train(2, data_parallel_job.dataset().batch(8), dataset_sink_mode=False)
    return [p.asnumpy() for p in net.trainable_params()]


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_two_ranks_train_like_one_process_on_the_whole_batch(tmp_path, mode):
    results = run_job(mode, tmp_path)
    assert [r["rank"] for r in results] == [0, 1] and all(r["size"] == 2 for r in results)
    x = [np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * r for r in range(2)]
    for r in results:
        np.testing.assert_array_equal(r["sum"], x[0] + x[1])
        np.testing.assert_array_equal(r["max"], np.maximum(x[0], x[1]))
        np.testing.assert_array_equal(r["gather"], np.concatenate(x))
        np.testing.assert_array_equal(r["broadcast"], x[1])
        np.testing.assert_array_equal(r["float16_sum"], x[0] + x[1])
        np.testing.assert_array_equal(r["float16_gather"], np.concatenate(x))
        np.testing.assert_array_equal(r["float16_broadcast"], x[1])
        # AllReduce's gradient is the AllReduce of its output's (MindSpore's rule): the gradient of the sum of
        # every rank's loss, each of which sees w_r through x_r * w_r.
        np.testing.assert_array_equal(r["grad"], 2 * x[r["rank"]])
    # Both ranks hold the same weights after every step, and they are the full-batch training's.
    expected = single_process_training()
    for key in ("weights", "loss_scale_weights"):
        for a, b, e in zip(results[0][key], results[1][key], expected):
            np.testing.assert_array_equal(a, b)
            np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6, err_msg=key)
    assert results[0]["losses"] != results[1]["losses"]  # each rank's loss is on its own half of the batch
    # Model.train on dataset shards (rank r: rows r, r + 2, ...; 4 per step) is one process's training on
    # the whole dataset, 8 rows per step.
    for a, b, e in zip(results[0]["model_weights"], results[1]["model_weights"], single_process_model_training()):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6)


def test_one_process_is_a_job_of_one():
    from sprout.communication import get_group_size, get_rank, init
    init()
    assert (get_rank(), get_group_size()) == (0, 1)
    x = Tensor(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(ops.AllReduce()(x).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(ops.AllGather()(x).asnumpy(), x.asnumpy())
    reducer = nn.DistributedGradReducer([ms.Parameter(x, name="p")], mean=True, degree=1)
    np.testing.assert_array_equal(reducer((x,))[0].asnumpy(), x.asnumpy())


def test_bad_arguments_are_clear_errors():
    from sprout.communication import create_group, get_rank, init
    init()
    x = Tensor(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="AllReduce: op must be 'sum', 'max', 'min' or 'prod', but got 'mean'"):
        ops.AllReduce("mean")(x)
    with pytest.raises(ValueError, match="group 'pairs' does not exist"):
        ops.AllReduce("sum", "pairs")(x)
    with pytest.raises(ValueError, match="AllGather: the input must have at least one axis"):
        ops.AllGather()(Tensor(np.float32(1)))
    with pytest.raises(ValueError, match="Broadcast: root_rank 3 is not a rank of the job \\(1 ranks\\)"):
        ops.Broadcast(3)((x,))
    with pytest.raises(ValueError, match="get_rank: group 'pairs' does not exist"):
        get_rank("pairs")
    with pytest.raises(RuntimeError, match="create_group: .* world group only"):
        create_group("pairs", [0, 1])
    with pytest.raises(RuntimeError, match="AllReduce: only op='sum' has a gradient"):
        ms.grad(lambda v: ops.AllReduce("max")(v).sum())(x)
    with pytest.raises(ValueError, match="parallel_mode 'hybrid_parallel' .* is not supported"):
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.HYBRID_PARALLEL)
    with pytest.raises(ValueError, match="unknown key 'pipeline_stages'"):
        ms.set_auto_parallel_context(pipeline_stages=2)
    with pytest.raises(ValueError, match="degree must be an int >= 1, but got 0"):
        nn.DistributedGradReducer([], degree=0)
    with pytest.raises(TypeError, match="mean must be a bool, but got str"):
        nn.DistributedGradReducer([], mean="yes")
    with pytest.raises(ValueError, match="got 2 gradients for 1 parameters"):
        nn.DistributedGradReducer([ms.Parameter(x, name="p")])((x, x))
    with pytest.raises(ValueError, match="init: backend_name must be one of"):
        init("gloo")
    with pytest.raises(TypeError, match="get_rank: group must be a str, but got int"):
        get_rank(0)
    with pytest.raises(TypeError, match="gradients_mean must be a bool, but got str"):
        ms.set_auto_parallel_context(gradients_mean="yes")
    with pytest.raises(ValueError, match="device_num must be an int >= 1, but got 0"):
        ms.set_auto_parallel_context(device_num=0)
    with pytest.raises(ValueError, match="get_auto_parallel_context: unknown key 'strategy'"):
        ms.get_auto_parallel_context("strategy")
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
