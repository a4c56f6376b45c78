"""MindSpore 2.x's functional loss scaling (amp.StaticLossScaler, DynamicLossScaler, all_finite) and
custom_mixed_precision, with MindSpore 2.10's documented values."""
import numpy as np
import pytest

import sprout as ms
from sprout import amp, nn, ops


def test_static_scaler_scales_and_unscales_in_each_dtype():
    scaler = amp.StaticLossScaler(scale_value=2 ** 10)
    assert scaler.scale(ms.Tensor([1.0])).asnumpy().tolist() == [1024.0]
    grads = (ms.Tensor(np.array([1.5, 1.0]), ms.float16), ms.Tensor(np.array([1.2]), ms.float16))
    unscaled = scaler.unscale(grads)
    assert isinstance(unscaled, tuple) and unscaled[0].dtype == ms.float16
    np.testing.assert_allclose(unscaled[0].asnumpy(), [1.4648e-03, 9.7656e-04], rtol=1e-3)
    assert scaler.adjust(ms.Tensor(True)) is False
    with pytest.raises(ValueError, match="StaticLossScaler: 'scale_value' must be >= 1"):
        amp.StaticLossScaler(0.5)


def test_dynamic_scaler_halves_on_overflow_and_grows_after_a_window():
    scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=2)
    bad = (ms.Tensor(np.array([np.nan, 1.0]), ms.float16), ms.Tensor(np.array([0.2]), ms.float16))
    finite = amp.all_finite(scaler.unscale(bad))
    assert not finite.asnumpy().item()
    assert scaler.adjust(finite) is True and scaler.scale_value.asnumpy().item() == 512.0  # MindSpore's value
    for expected in (512.0, 1024.0, 1024.0, 2048.0):  # grows after every 2 finite steps
        scaler.adjust(ms.Tensor(True))
        assert scaler.scale_value.asnumpy().item() == expected
    with pytest.raises(ValueError, match="DynamicLossScaler: 'scale_window' must be a positive int"):
        amp.DynamicLossScaler(8, 2, 0)


def test_a_compiled_training_step_with_a_dynamic_scaler():
    net = nn.Dense(3, 1)
    opt = nn.SGD(net.trainable_params(), 0.1)
    scaler = amp.DynamicLossScaler(1024, 2, 1)
    grad_fn = ms.value_and_grad(lambda x, y: ops.mse_loss(net(x), y) * scaler.scale_value, None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        grads = scaler.unscale(grads)
        finite = amp.all_finite(grads)
        scaler.adjust(finite)
        opt(grads)
        return scaler.unscale(loss)

    x, y = ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 1), np.float32))
    losses = [float(step(x, y).asnumpy()) for _ in range(3)]
    assert losses[2] < losses[0] and scaler.scale_value.asnumpy().item() == 8192.0  # finite: doubled each step


def test_custom_mixed_precision_and_the_lists():
    assert nn.Dense in amp.get_white_list() and nn.LayerNorm in amp.get_black_list()
    net = nn.SequentialCell([nn.Dense(4, 4), nn.ReLU(), nn.Dense(4, 2)])
    amp.custom_mixed_precision(net, white_list=[nn.Dense])
    out = net(ms.Tensor(np.ones((2, 4), np.float32)))
    assert out.dtype == ms.float32  # the white-listed cells hand float32 on
    with pytest.raises(ValueError, match="give exactly one of 'white_list' and 'black_list'"):
        amp.custom_mixed_precision(net)
    assert ms.mutable((ms.Tensor([1.0]), 2)) is not None
    with pytest.raises(TypeError, match="mutable: 'input_data' must be a Tensor"):
        ms.mutable("text")


def test_all_finite_takes_a_sequence_of_tensors():
    assert amp.all_finite([ms.Tensor([1.0]), ms.Tensor([2.0, 3.0])]).asnumpy().item()
    assert amp.all_finite(()).asnumpy().item()
    with pytest.raises(TypeError, match="all_finite: 'inputs' must be a tuple or list of Tensors, but got Tensor"):
        amp.all_finite(ms.Tensor([1.0]))
