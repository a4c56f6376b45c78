"""Every layer with Parameters gets the same gradients compiled (GRAPH_MODE, ms.jit) as eager, in float32
and under mixed precision (amp O2, O3 in bfloat16), with respect to its inputs and every Parameter.

Library cells run natively while a graph is staged; a Parameter they read was once a plain Tensor there,
so slicing it (MultiheadAttention's separate q/k/v projections) or casting it (mixed precision) computed
a constant at compile time and the Parameter's gradient came back zero.
"""
import numpy as np
import pytest

import sprout as ms
from sprout import amp, nn


def normal(*shape, seed=0):
    return ms.Tensor(np.random.RandomState(seed).randn(*shape).astype(np.float32))


def same_tensor_three_times():
    x = normal(3, 2, 8)
    return x, x, x


# name: (the layer, its inputs)
LAYERS = {
    "Dense": (lambda: nn.Dense(6, 4), lambda: (normal(3, 6),)),
    "Conv1d": (lambda: nn.Conv1d(3, 4, 3, has_bias=True), lambda: (normal(2, 3, 8),)),
    "Conv2d": (lambda: nn.Conv2d(3, 4, 3, has_bias=True, pad_mode="pad", padding=1), lambda: (normal(2, 3, 6, 6),)),
    "Conv3d": (lambda: nn.Conv3d(2, 3, 2, has_bias=True), lambda: (normal(1, 2, 4, 4, 4),)),
    "Conv2dTranspose": (lambda: nn.Conv2dTranspose(3, 2, 3, stride=2, has_bias=True), lambda: (normal(2, 3, 4, 4),)),
    "BatchNorm1d": (lambda: nn.BatchNorm1d(5), lambda: (normal(4, 5),)),
    "BatchNorm2d": (lambda: nn.BatchNorm2d(3), lambda: (normal(2, 3, 4, 4),)),
    "LayerNorm": (lambda: nn.LayerNorm((6,)), lambda: (normal(3, 6),)),
    "GroupNorm": (lambda: nn.GroupNorm(2, 4), lambda: (normal(2, 4, 3, 3),)),
    "InstanceNorm2d": (lambda: nn.InstanceNorm2d(3, affine=True), lambda: (normal(2, 3, 4, 4),)),
    "Embedding": (lambda: nn.Embedding(10, 4), lambda: (ms.Tensor(np.array([[1, 2, 3], [4, 5, 1]], np.int32)),)),
    "PReLU": (lambda: nn.PReLU(3), lambda: (normal(2, 3, 4),)),
    "LSTM": (lambda: nn.LSTM(4, 5, batch_first=True), lambda: (normal(2, 3, 4),)),
    "GRU": (lambda: nn.GRU(4, 5, num_layers=2, bidirectional=True), lambda: (normal(3, 2, 4),)),
    "RNN": (lambda: nn.RNN(4, 5), lambda: (normal(3, 2, 4),)),
    "LSTMCell": (lambda: nn.LSTMCell(4, 5), lambda: (normal(2, 4), (normal(2, 5, seed=1), normal(2, 5, seed=2)))),
    "GRUCell": (lambda: nn.GRUCell(4, 5), lambda: (normal(2, 4), normal(2, 5, seed=1))),
    "MultiheadAttention": (lambda: nn.MultiheadAttention(8, 2),
                           lambda: (normal(3, 2, 8), normal(3, 2, 8, seed=1), normal(3, 2, 8, seed=2))),
    "MultiheadAttention self": (lambda: nn.MultiheadAttention(8, 2), same_tensor_three_times),
    "TransformerEncoderLayer": (lambda: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), lambda: (normal(3, 2, 8),)),
    "TransformerDecoderLayer": (lambda: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
                                lambda: (normal(3, 2, 8), normal(4, 2, 8, seed=1))),
    "Transformer": (lambda: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0),
                    lambda: (normal(3, 2, 8), normal(4, 2, 8, seed=1))),
}


def floating_leaves(value):
    if isinstance(value, (tuple, list)):
        return [leaf for item in value for leaf in floating_leaves(item)]
    is_float = isinstance(value, ms.Tensor) and value.dtype in (ms.float32, ms.float16, ms.bfloat16)
    return [value] if is_float else []


def gradients(name, mode, level):
    """The gradients of a loss over every floating output, with respect to the float32 inputs and the
    trainable Parameters."""
    ms.set_context(mode=mode)
    ms.set_seed(0)
    make_layer, make_inputs = LAYERS[name]
    layer, inputs = make_layer(), make_inputs()
    if level:
        amp.auto_mixed_precision(layer, level, dtype=ms.bfloat16)
    layer.set_train()

    def loss(*args):
        total = 0
        for i, out in enumerate(floating_leaves(layer(*args))):
            total = total + (out.astype(ms.float32) * (i + 1)).sin().sum()
        return total

    positions = tuple(i for i, t in enumerate(inputs) if isinstance(t, ms.Tensor) and t.dtype == ms.float32)
    grad = ms.grad(loss, positions or None, layer.trainable_params())
    if mode == ms.GRAPH_MODE:
        grad = ms.jit(grad)
    return [g.asnumpy().astype(np.float32) for g in floating_leaves(grad(*inputs))]


@pytest.mark.parametrize("level", [None, "O2", "O3"], ids=["float32", "O2", "O3"])
@pytest.mark.parametrize("name", list(LAYERS))
def test_compiled_gradients_equal_eager(name, level):
    eager, compiled = gradients(name, ms.PYNATIVE_MODE, level), gradients(name, ms.GRAPH_MODE, level)
    assert len(compiled) == len(eager)
    tolerance = 1e-4 if level is None else 3e-2  # bfloat16 products may round differently once fused
    for i, (e, c) in enumerate(zip(eager, compiled)):
        scale = np.abs(e).max()
        assert (np.abs(c).max() > 0) == (scale > 0), f"gradient {i}: zero in one mode only"
        np.testing.assert_allclose(c, e, rtol=tolerance, atol=tolerance * scale, err_msg=f"gradient {i}")
