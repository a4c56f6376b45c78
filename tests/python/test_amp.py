"""Mixed precision: amp levels O0-O3 (auto_mixed_precision, build_train_network, Model(amp_level))."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, amp, nn


def mlp():
    ms.set_seed(0)
    return nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2))


def test_o1_runs_white_list_cells_in_float16_and_returns_float32():
    net = amp.auto_mixed_precision(mlp(), "O1")
    x = Tensor(np.random.RandomState(0).randn(3, 4).astype(np.float32))
    out = net(x)
    assert out.dtype == ms.float32
    w1, b1, w2, b2 = [p.asnumpy() for p in net.trainable_params()]
    assert w1.dtype == np.float32  # the Parameters stay float32; the computation is cast
    h16 = x.asnumpy().astype(np.float16) @ w1.astype(np.float16).T + b1.astype(np.float16)
    h = np.maximum(h16.astype(np.float32), 0)
    ref = (h.astype(np.float16) @ w2.astype(np.float16).T + b2.astype(np.float16)).astype(np.float32)
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=2e-3, atol=2e-3)
    full = mlp()(x).asnumpy()
    assert np.abs(out.asnumpy() - full).max() > 0  # float16 arithmetic really happened
    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_array_equal(net(x).asnumpy(), out.asnumpy())  # the same casts when compiled


@pytest.mark.parametrize("level", ["O0", "O1", "O2", "O3"])
def test_training_at_every_level_lowers_the_loss(level):
    net = mlp()
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    step = amp.build_train_network(net, opt, nn.MSELoss(), level=level)
    rng = np.random.RandomState(1)
    x = Tensor(rng.randn(16, 4).astype(np.float32))
    y = Tensor(rng.randn(16, 2).astype(np.float32))
    losses = []
    for _ in range(20):
        out = step(x, y)  # the loss-scaled steps (O2) also return the overflow flag and the scale
        losses.append(float((out[0] if isinstance(out, tuple) else out).asnumpy()))
    assert losses[-1] < losses[0]


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_to_float_computes_in_half_precision_with_float32_weights(dtype):
    ms.set_seed(0)
    dense, conv = nn.Dense(4, 3).to_float(dtype), nn.Conv2d(2, 4, 3).to_float(dtype)
    x = Tensor(np.random.RandomState(0).randn(5, 4).astype(np.float32))
    image = Tensor(np.random.RandomState(1).randn(1, 2, 6, 6).astype(np.float32))
    assert dense(x).dtype == dtype and conv(image).dtype == dtype
    w, b = dense.weight.asnumpy(), dense.bias.asnumpy()
    half = lambda a: Tensor(a).astype(dtype).astype(ms.float32).asnumpy()  # noqa: E731
    np.testing.assert_allclose(dense(x).astype(ms.float32).asnumpy(), half(half(x.asnumpy()) @ half(w).T + half(b)),
                               rtol=1e-2, atol=1e-2)
    grads = ms.grad(lambda t: dense(t).astype(ms.float32).sum(), grad_position=None,
                    weights=dense.trainable_params())(x)
    assert all(g.dtype == ms.float32 for g in grads)  # float32 Parameters get float32 gradients
    np.testing.assert_allclose(grads[0].asnumpy(), np.tile(half(x.asnumpy()).sum(0), (3, 1)), rtol=1e-2)


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_compiled_gradients_reach_every_cast_parameter(dtype):
    # A compiled step once staged each Parameter's cast as a constant: every cast Parameter got a zero
    # gradient, and only the float32 norms trained.
    def grads_in(mode):
        ms.set_context(mode=mode)
        ms.set_seed(0)
        net = nn.SequentialCell(nn.Conv2d(2, 4, 3), nn.Flatten(), nn.LayerNorm((144,)), nn.Dense(144, 3))
        amp.auto_mixed_precision(net, "O2", dtype=dtype)
        grad = ms.grad(lambda t: net(t).astype(ms.float32).square().sum(), grad_position=None,
                       weights=net.trainable_params())
        if mode == ms.GRAPH_MODE:
            grad = ms.jit(grad)
        x = Tensor(np.random.RandomState(4).randn(2, 2, 6, 6).astype(np.float32))
        return [g.asnumpy() for g in grad(x)]

    eager, compiled = grads_in(ms.PYNATIVE_MODE), grads_in(ms.GRAPH_MODE)
    assert len(eager) == 5  # conv weight, the norm's gamma and beta, dense weight and bias
    for e, c in zip(eager, compiled):
        assert np.abs(e).max() > 0
        np.testing.assert_allclose(c, e, rtol=2e-2, atol=2e-2 * np.abs(e).max())


def test_a_cell_casts_a_tensor_passed_twice_once_and_passes_its_own_dtype_through():
    class Same(nn.Cell):
        def construct(self, a, b, c):
            seen.append((a is b, a.dtype, c))
            return a

    seen = []
    cell = Same().to_float(ms.bfloat16)
    x, h = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((2, 3), np.float32)).astype(ms.bfloat16)
    cell(x, x, 1)
    assert seen[-1] == (True, ms.bfloat16, 1)  # MultiheadAttention's `query is key is value` still holds
    cell(h, h, 1)
    assert seen[-1][0]
    ms.set_seed(0)
    attention = nn.MultiheadAttention(8, 2).to_float(ms.bfloat16)
    q = Tensor(np.random.RandomState(5).randn(3, 2, 8).astype(np.float32))
    fused = attention(q, q, q)[0].astype(ms.float32).asnumpy()
    apart = attention(q, q + 0, q + 0)[0].astype(ms.float32).asnumpy()  # three projections: same values
    np.testing.assert_allclose(fused, apart, rtol=2e-2, atol=2e-2)


def test_o2_keeps_the_norms_in_float32_and_o3_runs_them_in_half_precision():
    def net():
        ms.set_seed(0)
        return nn.SequentialCell(nn.Dense(8, 8), nn.LayerNorm((8,)), nn.Dense(8, 2))

    x = Tensor(np.random.RandomState(2).randn(4, 8).astype(np.float32))
    o2 = amp.auto_mixed_precision(net(), "O2", dtype=ms.bfloat16)
    assert o2[1]._float_dtype == ms.float32 and o2[1]._output_dtype == ms.bfloat16
    o3 = amp.auto_mixed_precision(net(), "O3", dtype=ms.bfloat16)
    assert o3[1]._float_dtype == ms.bfloat16
    full = net()(x).asnumpy()
    for model in (o2, o3):
        out = model(x)
        assert out.dtype == ms.bfloat16
        np.testing.assert_allclose(out.astype(ms.float32).asnumpy(), full, rtol=5e-2, atol=5e-2)


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_a_conv_net_with_batch_norm_and_a_frozen_layer_trains_in_bfloat16(level):
    ms.set_seed(0)
    net = nn.SequentialCell(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Dense(8 * 8 * 8, 4))
    net[0].weight.requires_grad = False  # frozen: still cast, or the convolution would see mixed dtypes
    amp.auto_mixed_precision(net, level, dtype=ms.bfloat16)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    step = nn.TrainOneStepCell(loss_net, opt)
    step.set_train()
    rng = np.random.RandomState(3)
    x, y = Tensor(rng.randn(16, 3, 8, 8).astype(np.float32)), Tensor(rng.randint(0, 4, 16).astype(np.int32))
    moving_mean = net[1].moving_mean
    losses = [float(step(x, y).asnumpy()) for _ in range(15)]
    assert losses[-1] < losses[0]
    assert net[1].moving_mean is moving_mean and moving_mean.dtype == ms.float32  # updated in place, float32
    assert np.abs(moving_mean.asnumpy()).max() > 0


@pytest.mark.parametrize("level", ["O1", "O2", "O3"])
def test_model_trains_through_build_train_network_alike_eager_and_compiled(level):
    # Model(amp_level) builds its step as amp.build_train_network does (MindSpore's Model): O2 scales the
    # loss dynamically, which compiled code once refused; its evaluation keeps integer labels integer.
    from sprout import dataset
    from sprout.nn.wrap.loss_scale import TrainOneStepWithLossScaleCell
    weights, accuracy = {}, {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        net = mlp()
        rng = np.random.RandomState(5)
        data = dataset.NumpySlicesDataset({"x": rng.randn(32, 4).astype(np.float32),
                                           "y": rng.randint(0, 2, 32).astype(np.int32)}, shuffle=False).batch(8)
        model = ms.train.Model(net, nn.CrossEntropyLoss(), nn.Adam(net.trainable_params(), 0.01),
                               metrics={"acc"}, amp_level=level)
        assert isinstance(model.train_network, TrainOneStepWithLossScaleCell) == (level == "O2")
        model.train(2, data)
        weights[mode] = [p.asnumpy() for p in net.trainable_params()]
        accuracy[mode] = model.eval(data)["acc"]
    for eager, compiled in zip(weights[ms.PYNATIVE_MODE], weights[ms.GRAPH_MODE]):
        np.testing.assert_allclose(compiled, eager, rtol=1e-4, atol=1e-5)
    assert accuracy[ms.GRAPH_MODE] == accuracy[ms.PYNATIVE_MODE]


def test_model_accepts_o1_and_rejects_unknown_levels():
    net = mlp()
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), amp_level="O1")
    assert net[0]._output_dtype == ms.float32 and net[1]._output_dtype is None  # Dense yes, ReLU no
    assert model.train_network is not None
    with pytest.raises(ValueError, match="'amp_level' must be one of"):
        ms.Model(mlp(), nn.MSELoss(), nn.SGD(mlp().trainable_params(), 0.01), amp_level="O5")
    with pytest.raises(ValueError, match="auto_mixed_precision: 'amp_level'"):
        amp.auto_mixed_precision(mlp(), "O4")
