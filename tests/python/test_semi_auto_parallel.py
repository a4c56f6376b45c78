"""SEMI_AUTO_PARALLEL: primitives sharded by strategy (Note [Sharded primitives]). Two ranks started by
mpirun (tests/python/dist/semi_auto_job.py) check outputs, gradients and training against the same ops
unsharded; the rest runs in this process."""
import json
import os
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops
from mpi_launch import run_mpi

JOB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dist", "semi_auto_job.py")


@pytest.fixture(autouse=True)
def stand_alone_after():
    yield
    ms.reset_auto_parallel_context()


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_sharded_ops_on_two_ranks_match_unsharded_ones(tmp_path, mode):
    out = str(tmp_path / "result")
    done = run_mpi([sys.executable, JOB, mode, out], 2, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    results = [json.load(open(f"{out}.{r}")) for r in range(2)]
    for r in results:
        assert r["size"] == 2
        # Output, then the gradients of both inputs: max |sharded - unsharded|, with each rank's inputs NaN
        # outside its block (so reading beyond it would show).
        for case, diffs in r["cases"].items():
            assert all(isinstance(d, float) and d <= 1e-5 for d in diffs), (case, diffs)
        for net in ("matmul_net", "dense_layers"):  # five training steps, sharded and not
            (losses, weights), (ref_losses, ref_weights) = r[net]["sharded"], r[net]["reference"]
            np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
            for w, ref in zip(weights, ref_weights):
                np.testing.assert_allclose(w, ref, rtol=1e-5, atol=1e-6)
        errors = r["errors"]
        assert "input 0 axis 0 of size 3 cannot be split into 2 equal parts" in errors["indivisible"]
        assert "into 2 on input 0 but into 1 on input 1" in errors["disagree"]
        assert "over 4 ranks, which does not divide the job's 2" in errors["too_many_ranks"]
        assert errors["softmax_axis"].startswith("ValueError: Softmax: input 0 axis 1 must not be split")
        assert "has 1 entries, but the input has rank 2" in errors["rank_mismatch"]
        assert "has 1 entries but the call has 2 tensor inputs" in errors["input_count"]
    for net in ("matmul_net", "dense_layers"):
        assert results[0][net]["sharded"] == results[1][net]["sharded"]  # the ranks' weights stay equal


def test_shard_returns_the_primitive_still_an_instance_of_its_class():
    matmul = ops.MatMul(transpose_b=True)
    assert matmul.shard(((2, 1), (1, 1))) is matmul
    assert isinstance(matmul, ops.MatMul) and type(matmul).__name__ == "MatMul"
    assert matmul.in_strategy == ((2, 1), (1, 1)) and matmul.transpose_b
    assert type(ops.MatMul()) is ops.MatMul  # other instances keep the plain class


def test_strategy_is_ignored_outside_semi_auto_parallel():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = ops.MatMul().shard(((4, 1), (1, 1)))(Tensor(x), Tensor(x.T)).asnumpy()
    np.testing.assert_array_equal(got, x @ x.T)


def test_a_job_of_one_runs_strategies_that_split_nothing():
    from sprout.communication import init
    init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    got = ops.MatMul().shard(((1, 1), (1, 1)))(Tensor(x), Tensor(x.T)).asnumpy()
    np.testing.assert_array_equal(got, x @ x.T)
    with pytest.raises(ValueError, match=r"MatMul: the shard strategy \(\(1, 2\), \(2, 1\)\) splits the op over 2 "
                                         r"ranks, which does not divide the job's 1"):
        ops.MatMul().shard(((1, 2), (2, 1)))(Tensor(x), Tensor(x.T))
    ms.set_auto_parallel_context(device_num=8)
    with pytest.raises(ValueError, match=r"MatMul: set_auto_parallel_context\(device_num=8\) but the job has 1 ranks"):
        ops.MatMul().shard(((1, 1), (1, 1)))(Tensor(x), Tensor(x.T))


@pytest.mark.parametrize("strategy, error, message", [
    ([(2, 1), (1, 1)], TypeError, "in_strategy must be a non-empty tuple of tuples"),
    ((), TypeError, "in_strategy must be a non-empty tuple of tuples"),
    (((2, 1), [1, 1]), TypeError, "in_strategy must be a non-empty tuple of tuples"),
    (((0, 1), (1, 1)), ValueError, r"in_strategy\[0\] must hold ints >= 1"),
    (((2.0, 1), (1, 1)), ValueError, r"in_strategy\[0\] must hold ints >= 1"),
    (((True, 1), (1, 1)), ValueError, r"in_strategy\[0\] must hold ints >= 1"),
])
def test_shard_rejects_malformed_strategies(strategy, error, message):
    with pytest.raises(error, match=r"MatMul\.shard: " + message):
        ops.MatMul().shard(strategy)


def test_shard_names_the_ops_it_is_built_for():
    with pytest.raises(ValueError, match=r"Conv2D\.shard: sharding is built for .*MatMul.*; not for Conv2D"):
        ops.Conv2D(6, 5).shard(((1, 1, 1, 1), (1, 1, 1, 1)))
    with pytest.raises(ValueError, match=r"MatMul\.shard: out_strategy must be None"):
        ops.MatMul().shard(((2, 1), (1, 1)), out_strategy=((2, 1),))


def test_parallel_modes():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, full_batch=True)
    assert ms.get_auto_parallel_context("parallel_mode") == "semi_auto_parallel"
    assert ms.get_auto_parallel_context("full_batch") is True
    with pytest.raises(ValueError, match="parallel_mode 'auto_parallel' .* is not supported"):
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL)
    with pytest.raises(TypeError, match="full_batch must be a bool, but got int"):
        ms.set_auto_parallel_context(full_batch=1)
