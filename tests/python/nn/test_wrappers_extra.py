"""ForwardValueAndGrad, ParameterUpdate, GradAccumulationCell, PipelineCell, MicroBatchInterleaved,
TimeDistributed, Jvp and Vjp: against NumPy, eager and compiled."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from finite_differences import numeric_grad

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 3)).astype(np.float32)
Y = RNG.standard_normal((4, 2)).astype(np.float32)


def dense():
    net = nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 10))
    net.bias.set_data(ms.Tensor(np.array([0.1, -0.2], np.float32)))
    return net


def both_modes(make, *args):
    """make() built and called eagerly, then in GRAPH_MODE: the two results."""
    out = []
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        cell = make()
        ms.set_context(mode=mode)
        try:
            out.append(cell(*args))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    return out


def flat(x):
    if isinstance(x, (tuple, list)):
        return [a for item in x for a in flat(item)]
    return [x.asnumpy()]


def assert_same(a, b, rtol=1e-6):
    fa, fb = flat(a), flat(b)
    assert len(fa) == len(fb)
    for u, v in zip(fa, fb):
        np.testing.assert_allclose(u, v, rtol=rtol, atol=1e-7)


@pytest.mark.parametrize("get_all,get_by_list,sens_param", [(False, False, False), (True, False, False),
                                                             (False, True, False), (True, True, True)])
def test_forward_value_and_grad(get_all, get_by_list, sens_param):
    sens = RNG.standard_normal((4, 2)).astype(np.float32)
    args = (ms.Tensor(X),) + ((ms.Tensor(sens),) if sens_param else ())

    def make():
        net = dense()
        return nn.ForwardValueAndGrad(net, net.trainable_params() if get_by_list else None, get_all, get_by_list,
                                      sens_param)
    eager, graph = both_modes(make, *args)
    assert_same(eager, graph)
    w, b = np.arange(6).reshape(2, 3) / 10, np.array([0.1, -0.2])
    s = sens if sens_param else np.ones((4, 2))
    np.testing.assert_allclose(eager[0].asnumpy(), X @ w.T + b, rtol=1e-6)
    dx, dw, db = s @ w, s.T @ X, s.sum(0)
    want = (((dx,), (dw, db)) if get_all else (dw, db)) if get_by_list else ((dx,) if get_all else dx)
    got, expected = flat(eager[1]), flat_np(want)
    assert [g.shape for g in got] == [np.shape(e) for e in expected]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="ForwardValueAndGrad: with get_by_list=True, 'weights'"):
        nn.ForwardValueAndGrad(dense(), None, get_by_list=True)


def flat_np(x):
    if isinstance(x, tuple):
        return [a for item in x for a in flat_np(item)]
    return [x]


def test_parameter_update():
    p = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="p")
    for mode, value in ((ms.PYNATIVE_MODE, 1.5), (ms.GRAPH_MODE, -2.0)):
        ms.set_context(mode=mode)
        try:
            out = nn.ParameterUpdate(p)(ms.Tensor(np.full(3, value, np.float32)))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        np.testing.assert_allclose(p.asnumpy(), np.full(3, value))
        np.testing.assert_allclose(out.asnumpy(), np.full(3, value))
    with pytest.raises(TypeError, match="ParameterUpdate: 'param'"):
        nn.ParameterUpdate(ms.Tensor(np.zeros(3, np.float32)))


class SumOfSquares(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([1.0, -0.5, 2.0], np.float32)), name="w")

    def construct(self, x, y):
        return (((x * self.w).sum(axis=1) - y) ** 2).sum()


@pytest.mark.parametrize("wrapper", [lambda n: nn.GradAccumulationCell(n, 2), lambda n: nn.PipelineCell(n, 4),
                                     lambda n: nn.MicroBatchInterleaved(n, 2)], ids=["accumulation", "pipeline",
                                                                                     "interleaved"])
def test_micro_batches_sum_the_outputs_and_accumulate_the_gradients(wrapper):
    x, y = ms.Tensor(X), ms.Tensor(Y[:, 0].copy())
    whole = SumOfSquares()
    want_loss = float(whole(x, y).asnumpy())
    want_grad = ms.grad(whole, None, whole.trainable_params())(x, y)[0].asnumpy()
    eager, graph = both_modes(lambda: wrapper(SumOfSquares()), x, y)
    assert float(eager.asnumpy()) == pytest.approx(want_loss, rel=1e-6)
    assert float(graph.asnumpy()) == pytest.approx(want_loss, rel=1e-6)
    cell = wrapper(SumOfSquares())
    got = ms.grad(cell, None, cell.trainable_params())(x, y)[0].asnumpy()
    np.testing.assert_allclose(got, want_grad, rtol=1e-5)


def test_micro_batch_arguments():
    with pytest.raises(ValueError, match="GradAccumulationCell: 'micro_size' must be greater than 0"):
        nn.GradAccumulationCell(SumOfSquares(), 0)
    with pytest.raises(TypeError, match="MicroBatchInterleaved: 'interleave_num' must be an int"):
        nn.MicroBatchInterleaved(SumOfSquares(), 2.0)
    with pytest.raises(ValueError, match="divisible by 3"):
        nn.GradAccumulationCell(SumOfSquares(), 3)(ms.Tensor(X), ms.Tensor(Y[:, 0].copy()))
    net = nn.SequentialCell([nn.Dense(3, 2), nn.ReLU()])
    nn.PipelineCell(net, 2, stage_config={"0": 1})
    assert net[0].pipeline_stage == 1
    with pytest.raises(KeyError, match="stage_config"):
        nn.PipelineCell(net, 2, stage_config={"missing": 0})


@pytest.mark.parametrize("reshape_with_axis", [None, 0])
def test_time_distributed(reshape_with_axis):
    x = RNG.standard_normal((2, 5, 3)).astype(np.float32)
    eager, graph = both_modes(lambda: nn.TimeDistributed(dense(), 1, reshape_with_axis), ms.Tensor(x))
    w, b = np.arange(6).reshape(2, 3) / 10, np.array([0.1, -0.2])
    np.testing.assert_allclose(eager.asnumpy(), x @ w.T + b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(graph.asnumpy(), eager.asnumpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="at least 3-d"):
        nn.TimeDistributed(dense(), 1)(ms.Tensor(X))
    with pytest.raises(TypeError, match="'layer' must be a Cell or Primitive"):
        nn.TimeDistributed(lambda t: t, 1)


def test_time_distributed_time_axis_last():
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)  # time on the last axis: Dense over axis 1
    out = nn.TimeDistributed(dense(), -1)(ms.Tensor(x)).asnumpy()
    w, b = np.arange(6).reshape(2, 3) / 10, np.array([0.1, -0.2])
    np.testing.assert_allclose(out, np.einsum("btk,ot->bok", x, w) + b[None, :, None], rtol=1e-5, atol=1e-6)


class Product(nn.Cell):
    def construct(self, x, y):
        return ops.sin(x) * y


def test_jvp_and_vjp_cells_match_finite_differences():
    x, y = RNG.standard_normal(3), RNG.standard_normal(3)
    u, v = RNG.standard_normal(3), RNG.standard_normal(3)
    tx, ty, tu, tv = (ms.Tensor(a.astype(np.float32)) for a in (x, y, u, v))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            out, jv = nn.Jvp(Product())(tx, ty, (tu, tv))
            out2, (gx, gy) = nn.Vjp(Product())(tx, ty, tv)
            out3, g_single = nn.Vjp(ops.sin)(tx, tu)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        np.testing.assert_allclose(out.asnumpy(), np.sin(x) * y, rtol=1e-5)
        np.testing.assert_allclose(jv.asnumpy(), np.cos(x) * y * u + np.sin(x) * v, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out2.asnumpy(), out.asnumpy())
        gx_fd = numeric_grad(lambda a: float((np.sin(a) * y * v).sum()), x)
        np.testing.assert_allclose(gx.asnumpy(), gx_fd, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(gy.asnumpy(), np.sin(x) * v, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(g_single.asnumpy(), np.cos(x) * u, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Vjp: expects fn's inputs followed by the vector"):
        nn.Vjp(ops.sin)(tx)
