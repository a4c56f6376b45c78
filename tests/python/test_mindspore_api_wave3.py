"""MindSpore 2.x names met in MindSpore's own examples: Tensor methods of tensor_methods_wave3, random
generators, top-level settings and helpers, callbacks, containers. NumPy is the reference; values checked
against MindSpore 2.10 while writing them are noted."""
import os

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

from finite_differences import check_grad


def T(a, dtype=None):
    return Tensor(np.asarray(a), dtype)


X = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32)


# --- Tensor methods ---------------------------------------------------------------------------------------

def test_add_with_alpha():
    x, y = T(X), T(X[::-1].copy())
    np.testing.assert_allclose(x.add(y).asnumpy(), X + X[::-1])
    np.testing.assert_allclose(x.add(y, alpha=0.5).asnumpy(), X + 0.5 * X[::-1])
    np.testing.assert_allclose(x.add(1, alpha=2).asnumpy(), X + 2)
    out = T([1, 2], ms.int64).add(T([1, 2], ms.int64), alpha=2)  # MindSpore: Int64 [3, 6]
    assert out.dtype == ms.int64 and out.asnumpy().tolist() == [3, 6]
    with pytest.raises(TypeError, match="float 'alpha' needs a floating-point"):
        T([1, 2]).add(T([1, 2]), alpha=0.5)
    with pytest.raises(TypeError, match="'alpha' must be a number"):
        x.add(y, alpha="2")
    with pytest.raises(TypeError, match="unexpected keyword argument 'beta'"):
        x.add(y, beta=2)
    check_grad(lambda a, b: a.add(b, alpha=0.5), X, X + 1.0)


def test_min_max_overloads():
    x = T(X)
    values, index = x.min(1, keepdim=True)  # MindSpore 2.10: positional dim -> (values, indices)
    np.testing.assert_array_equal(values.asnumpy(), X.min(1, keepdims=True))
    np.testing.assert_array_equal(index.asnumpy(), X.argmin(1)[:, None])
    values, index = x.max(dim=0)
    np.testing.assert_array_equal(values.asnumpy(), X.max(0))
    assert index.dtype == ms.int64 and index.asnumpy().tolist() == X.argmax(0).tolist()
    np.testing.assert_array_equal(x.min(axis=1, keepdims=True).asnumpy(), X.min(1, keepdims=True))
    assert float(x.max().asnumpy()) == 6.0
    np.testing.assert_array_equal(x.min(axis=0, initial=2.5, where=T([False, True, True])).asnumpy(), [2.5, 2, 2.5])
    values, index = x.max(axis=0, return_indices=True)
    assert index.asnumpy().tolist() == X.argmax(0).tolist()
    values, index = x.max(axis=None, return_indices=True)  # MindSpore documents the index 0 here
    assert float(values.asnumpy()) == 6.0 and int(index.asnumpy()) == 0
    with pytest.raises(TypeError, match="'dim' must be an int"):
        x.min(dim=1.0)
    with pytest.raises(TypeError, match="'keepdim' must be a bool"):
        x.max(0, keepdim=1)
    with pytest.raises(ValueError, match="'where' needs 'initial'"):
        x.min(axis=0, where=T([True, True, True]))


def test_median_keywords():
    values, index = T(X).median(dim=0, keepdim=True)
    np.testing.assert_array_equal(values.asnumpy(), [[1.0, 2.0, 3.0]])
    assert index.asnumpy().tolist() == [[0, 1, 0]]
    with pytest.raises(TypeError, match="not both"):
        T(X).median(dim=0, axis=0)


def test_argmax_argmin_with_value():
    a = np.array([[9, 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]], np.int64)
    values, index = T(a).argmax_with_value()
    assert values.asnumpy().tolist() == [9, 3, 7, 6] and index.asnumpy().tolist() == [0, 0, 1, 2]
    values, index = T(a).argmin_with_value(axis=1, keep_dims=True)
    assert values.asnumpy().tolist() == [[3], [2], [1]] and index.asnumpy().tolist() == [[1], [1], [1]]
    values, index = T(a).argmax_with_value(axis=None, keep_dims=True)  # MindSpore: 0-d, index 0
    assert values.shape == () and int(values.asnumpy()) == 9 and int(index.asnumpy()) == 0
    with pytest.raises(TypeError, match="'axis' must be an int or None"):
        T(a).argmax_with_value(axis=1.5)


def test_assign_value_and_data():
    x = T([1, 2], ms.int64)
    assert x.assign_value(T([1.5, 2.5], ms.float32)) is x  # MindSpore: the dtype follows the value
    assert x.dtype == ms.float32 and x.asnumpy().tolist() == [1.5, 2.5]
    x.data = T([7.0, 8.0])
    assert x.data is x and x.asnumpy().tolist() == [7.0, 8.0]
    assert x.value() is x
    with pytest.raises(ValueError, match="must have the tensor's shape"):
        x.assign_value(T([[1.0, 2.0]]))
    with pytest.raises(TypeError, match="'value' must be a Tensor"):
        x.assign_value([1.0, 2.0])


@pytest.mark.parametrize("dtype", [ms.int16, ms.float32, ms.float64, ms.uint8, ms.bfloat16, ms.bool_])
def test_bytes_round_trip(dtype):
    x = T([[1, 0, 3], [4, 5, 1]]).astype(dtype)
    data = x.get_bytes()
    if dtype != ms.bfloat16:
        assert data == x.asnumpy().tobytes()
    back = Tensor.convert_bytes_to_tensor(data, x.shape, dtype)
    assert back.dtype == dtype and back.shape == x.shape
    np.testing.assert_array_equal(back.asnumpy(), x.asnumpy())


def test_bytes_of_views_and_bad_input():
    assert T([1, 2, 3], ms.int16).get_bytes() == b"\x01\x00\x02\x00\x03\x00"  # MindSpore's example
    view = T(X)[:, 1]
    assert view.get_bytes() == X[:, 1].tobytes()
    with pytest.raises(ValueError, match="needs 4 bytes, but got 3"):
        Tensor.convert_bytes_to_tensor(b"\x00\x01\x02", (2,), ms.int16)
    with pytest.raises(TypeError, match="'bytes_data' must be bytes"):
        Tensor.convert_bytes_to_tensor("ab", (1,), ms.int16)


def test_casts_and_device_queries():
    assert T(np.ones((2, 2)), ms.int32).bfloat16().dtype == ms.bfloat16
    assert T(np.ones((2, 2)), ms.float32).byte().dtype == ms.uint8
    x = T(X)
    moved = x.move_to("CPU")
    assert moved is not x and np.array_equal(moved.asnumpy(), X)
    with pytest.raises(ValueError, match="must be one of"):
        x.move_to("cuda")
    with pytest.raises(RuntimeError, match="device target, CPU"):
        x.move_to("GPU")
    assert x.is_pinned() is False and x.has_init is False and x.flush_from_cache() is None
    assert x.set_const_arg() is x
    with pytest.raises(TypeError, match="'const_arg' must be a bool"):
        x.set_const_arg(1)


def test_methods_in_graph_mode():
    @ms.jit
    def f(x, y):
        values, index = x.min(1, keepdim=False)
        return x.add(y, alpha=2.0), values, index, x.argmax_with_value(0)[0], x.median(dim=1)[0]

    added, values, index, best, median = f(T(X), T(X))
    np.testing.assert_allclose(added.asnumpy(), 3 * X)
    np.testing.assert_array_equal(values.asnumpy(), X.min(1))
    np.testing.assert_array_equal(index.asnumpy(), X.argmin(1))
    np.testing.assert_array_equal(best.asnumpy(), X.max(0))
    np.testing.assert_array_equal(median.asnumpy(), [3.0, 4.0])


# --- generators -------------------------------------------------------------------------------------------

def test_generator_state_round_trip():
    g = ms.Generator()
    assert g.initial_seed() == 0  # as MindSpore's new Generator
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    state = g.get_state()
    assert state.dtype == ms.uint8
    first = T(np.zeros(4, np.float32)).uniform_(generator=g).asnumpy()
    new_seed = g.seed()
    assert g.initial_seed() == new_seed
    g.set_state(state)
    assert g.initial_seed() == 5
    np.testing.assert_array_equal(T(np.zeros(4, np.float32)).uniform_(generator=g).asnumpy(), first)
    with pytest.raises(TypeError, match="'seed' must be an int"):
        g.manual_seed(1.5)
    with pytest.raises(ValueError, match="UInt8 tensor of shape"):
        g.set_state(T([1, 2], ms.uint8))


def test_generators_are_independent_of_the_default_one():
    a, b = ms.Generator().manual_seed(7), ms.Generator().manual_seed(7)
    ms.manual_seed(1)
    x = T(np.zeros(5, np.float32)).uniform(0.0, 1.0, a).asnumpy()  # by position too
    ms.manual_seed(2)
    y = T(np.zeros(5, np.float32)).uniform(0.0, 1.0, generator=b).asnumpy()
    np.testing.assert_array_equal(x, y)
    assert 0.0 <= x.min() and x.max() < 1.0
    with pytest.raises(TypeError, match="'generator' must be None or a mindspore.Generator"):
        T(np.zeros(2, np.float32)).normal_(generator=object())


def test_default_generator_functions():
    ms.manual_seed(13)
    assert ms.initial_seed() == 13
    state = ms.get_rng_state()
    first = ops.rand(3).asnumpy()
    ms.set_rng_state(state)
    np.testing.assert_array_equal(ops.rand(3).asnumpy(), first)  # ops draw from the default generator
    ms.manual_seed(-3)
    assert ms.initial_seed() == -3  # MindSpore accepts negative seeds
    ms.set_seed(21)
    assert ms.initial_seed() == 21  # set_seed restarts the same generator
    s = ms.seed()
    assert isinstance(s, int) and ms.initial_seed() == s


# --- top-level functions ----------------------------------------------------------------------------------

def test_settings_and_run_check(capsys):
    ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    ms.set_deterministic(False)
    with pytest.raises(TypeError, match="'deterministic' must be a bool"):
        ms.set_deterministic(1)
    before = ms.get_context("max_call_depth")
    ms.set_recursion_limit(2000)
    assert ms.get_context("max_call_depth") == 2000
    ms.set_recursion_limit(before)
    with pytest.raises(ValueError, match="must be positive"):
        ms.set_recursion_limit(-1)
    with pytest.raises(TypeError, match="must be an int"):
        ms.set_recursion_limit(1.5)
    assert ms.run_check() is None
    assert "multiplication calculation is correct" in capsys.readouterr().out
    assert ms.get_level() in {"0", "1", "2", "3", "4"}
    assert ms.get_log_config()["GLOG_v"] == ms.get_level()


def test_jit_class_in_graph_mode():
    @ms.jit_class
    class Scaler:
        def __init__(self):
            self.value = 10

        def func(self, x):
            return 2 * x

    assert Scaler.__ms_class__ is True

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = Scaler()

        def construct(self, x):
            return self.net.value + self.net.func(x)

    assert Net()(5) == 20
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert Net()(T([1.0, 2.0])).asnumpy().tolist() == [12.0, 14.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(TypeError, match="not nn.Cell"):
        ms.jit_class(Net)
    with pytest.raises(TypeError, match="can only decorate a class"):
        ms.jit_class(lambda: 0)


class _Recomputed(nn.Cell):
    def __init__(self):
        super().__init__(auto_prefix=False)
        self.conv = nn.Conv2d(2, 2, 2, has_bias=False, weight_init="ones")
        self.relu = ops.ReLU()

    def construct(self, x):
        return self.relu(ms.recompute(self.conv, x))


def test_recompute_function_both_modes():
    x = T(np.ones([2, 2, 2, 2], np.float32) * 2)
    expected = np.tile(np.array([[2.0, 4.0], [4.0, 8.0]], np.float32), (2, 2, 1, 1))  # MindSpore's example
    net = _Recomputed()
    np.testing.assert_allclose(ops.grad(net)(x).asnumpy(), expected)
    assert net.conv._recompute is False  # marked for the call only
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(ops.grad(_Recomputed())(x).asnumpy(), expected)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(TypeError, match="'block' must be a Cell"):
        ms.recompute(lambda t: t, x)


def test_merge_sliced_parameter():
    slices = [ms.Parameter(T(np.arange(3.0) + 3 * i), "table") for i in range(4)]
    merged = ms.merge_sliced_parameter(slices)
    assert merged.name == "table" and merged.shape == (12,) and merged.dtype == ms.float64
    np.testing.assert_array_equal(merged.asnumpy(), np.arange(12.0))
    with pytest.raises(ValueError, match="one name"):
        ms.merge_sliced_parameter([slices[0], ms.Parameter(T(np.zeros(3)), "other")])
    with pytest.raises(ValueError, match="'strategy'"):
        ms.merge_sliced_parameter(slices, {"table": object()})
    with pytest.raises(TypeError, match="must be a Parameter"):
        ms.merge_sliced_parameter([T(np.zeros(3))])


def test_parallel_dataset_strategy():
    assert ms.get_auto_parallel_context("dataset_strategy") == "data_parallel"
    ms.set_auto_parallel_context(dataset_strategy="full_batch")
    try:
        assert ms.get_auto_parallel_context("full_batch") is True
        assert ms.get_auto_parallel_context("dataset_strategy") == "full_batch"
    finally:
        ms.reset_auto_parallel_context()
    with pytest.raises(ValueError, match="dataset_strategy must be"):
        ms.set_auto_parallel_context(dataset_strategy=((1, 2),))


# --- training helpers ----------------------------------------------------------------------------------------

def _dataset(n=64, batch=32):
    from sprout import dataset as ds
    rng = np.random.default_rng(0)
    data = {"x": rng.random((n, 10)).astype(np.float32), "y": rng.integers(0, 5, (n,)).astype(np.int32)}
    return ds.NumpySlicesDataset(data=data, shuffle=False).batch(batch)


def test_dataset_helper():
    helper = ms.DatasetHelper(_dataset(), dataset_sink_mode=False)
    batches = list(helper)
    assert len(batches) == len(helper) == 2 and batches[0][0].shape == (32, 10)
    assert nn.Dense(10, 5)(batches[0][0]).shape == (32, 5)
    assert len(list(ms.DatasetHelper(_dataset(), sink_size=1))) == 1
    with pytest.raises(ValueError, match="'sink_size' must be -1 or positive"):
        ms.DatasetHelper(_dataset(), sink_size=0)
    with pytest.raises(TypeError, match="'dataset' must be"):
        ms.DatasetHelper([1, 2])


def test_learning_rate_scheduler_and_history():
    from sprout.train import History, LearningRateScheduler, Model
    net = nn.Dense(10, 5)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = Model(net, loss_fn=nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), optimizer=opt)
    seen = []
    scheduler = LearningRateScheduler(lambda lr, step: seen.append((lr, step)) or lr * 0.5)
    history = History()
    assert history.epoch is None
    model.train(2, _dataset(), callbacks=[scheduler, history], dataset_sink_mode=False)
    assert [step for _, step in seen] == [1, 2, 3, 4]
    np.testing.assert_allclose([lr for lr, _ in seen], [0.1, 0.05, 0.025, 0.0125])
    assert float(opt.get_lr().asnumpy()) == pytest.approx(0.00625)
    assert history.epoch == {"epoch": [1, 2]}  # MindSpore's form
    with pytest.raises(TypeError, match="must be callable"):
        LearningRateScheduler(0.1)


def test_export_and_add_schema_return_none(tmp_path):
    assert ms.export(nn.Dense(3, 2), T(np.ones((1, 3), np.float32)), file_name=str(tmp_path / "d")) is None
    assert os.path.exists(tmp_path / "d.mindir")
    from sprout.mindrecord import FileWriter
    writer = FileWriter(file_name=str(tmp_path / "t.mindrecord"), shard_num=1, overwrite=True)
    assert writer.add_schema({"label": {"type": "int32"}}, "schema") is None


# --- nn containers and cells -----------------------------------------------------------------------------------

def test_cell_containers_and_phase():
    cells = nn.CellDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})
    cells.clear()
    assert len(cells) == 0
    listed = nn.CellList()
    assert listed.append(nn.ReLU()) is None and len(listed) == 1
    update = nn.ParameterUpdate(nn.Dense(3, 4).weight)
    update.phase = "update_param"
    assert update.phase == "update_param"
    update.set_train(False)
    assert update.phase == "predict"
    with pytest.raises(TypeError, match="Cell.phase: must be a str"):
        update.phase = 3
