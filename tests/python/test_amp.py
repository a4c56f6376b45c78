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


def test_model_accepts_o1_and_rejects_unknown_levels():
    net = mlp()
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), amp_level="O1")
    assert net[0]._output_dtype == ms.float32 and net[1]._output_dtype is None  # Dense yes, ReLU no
    assert model.train_network is not None
    with pytest.raises(ValueError, match="'amp_level' must be one of"):
        ms.Model(mlp(), nn.MSELoss(), nn.SGD(mlp().trainable_params(), 0.01), amp_level="O5")
    with pytest.raises(ValueError, match="auto_mixed_precision: 'amp_level'"):
        amp.auto_mixed_precision(mlp(), "O4")
