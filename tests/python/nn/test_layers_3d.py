"""3-d pooling, BatchNorm3d, transposed 1-d/3-d convolutions, Softmax2d and RReLU against NumPy definitions,
their gradients against finite differences or the forward convolution's adjoint, in both modes."""
import itertools

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

RNG = np.random.RandomState(0)
X = RNG.randn(2, 3, 7, 8, 9).astype(np.float32)


def window_reference(x, kernel, stride, pads, kind, count_include_pad=True, divisor=None):
    """Pooling by its definition: pads[a] = (before, after, extra) cells on spatial axis a."""
    fill = -np.inf if kind == "max" else 0.0
    widths = [(b, a + e) for b, a, e in pads]
    xp = np.pad(x, [(0, 0), (0, 0)] + widths, constant_values=fill)
    counted = np.pad(np.ones(x.shape[2:]), widths) if not count_include_pad else \
        np.pad(np.ones([n + b + a for n, (b, a, _) in zip(x.shape[2:], pads)]), [(0, e) for _, _, e in pads])
    outs = [(xp.shape[2 + a] - kernel[a]) // stride[a] + 1 for a in range(3)]
    y = np.zeros(x.shape[:2] + tuple(outs))
    for o in itertools.product(*map(range, outs)):
        box = tuple(slice(o[a] * stride[a], o[a] * stride[a] + kernel[a]) for a in range(3))
        window = xp[(slice(None), slice(None)) + box]
        if kind == "max":
            y[(Ellipsis,) + o] = window.max(axis=(2, 3, 4))
        else:
            y[(Ellipsis,) + o] = window.sum(axis=(2, 3, 4)) / (divisor or counted[box].sum())
    return y


POOLS = [  # kernel, stride, pad_mode, padding, ceil_mode
    ((2, 2, 2), (2, 2, 2), "valid", 0, False),
    ((3, 2, 3), (2, 1, 2), "pad", 1, False),
    ((3, 3, 3), (2, 2, 2), "pad", 1, True),
    ((2, 3, 2), (1, 2, 3), "valid", 0, False),
    ((3, 3, 3), (2, 2, 2), "same", 0, False),
]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("kernel, stride, pad_mode, padding, ceil_mode", POOLS)
def test_pooling_3d_matches_its_definition(mode, kernel, stride, pad_mode, padding, ceil_mode):
    ms.set_context(mode=mode)
    x = ms.Tensor(X)
    layer = nn.MaxPool3d(kernel, stride, pad_mode, padding, ceil_mode=ceil_mode)
    pads = [layer._axis_padding(X.shape[2 + a], a) for a in range(3)]
    np.testing.assert_allclose(layer(x).asnumpy(), window_reference(X, kernel, stride, pads, "max"))
    for include in (True, False):
        average = nn.AvgPool3d(kernel, stride, pad_mode, padding, ceil_mode, count_include_pad=include)
        np.testing.assert_allclose(average(x).asnumpy(), window_reference(X, kernel, stride, pads, "avg", include),
                                   rtol=1e-5, atol=1e-6)
    overridden = nn.AvgPool3d(kernel, stride, pad_mode, padding, ceil_mode, divisor_override=5)
    np.testing.assert_allclose(overridden(x).asnumpy(), window_reference(X, kernel, stride, pads, "avg", True, 5),
                               rtol=1e-5, atol=1e-6)
    if pad_mode == "same":
        assert layer(x).shape[2:] == (4, 4, 5)  # ceil(size / stride)
    assert layer(ms.Tensor(X[0])).shape == layer(x).shape[1:]  # (C, D, H, W) works too


def adaptive_reference(x, out, kind):
    sizes = x.shape[2:]
    y = np.zeros(x.shape[:2] + tuple(out))
    for o in itertools.product(*map(range, out)):
        box = tuple(slice(o[a] * sizes[a] // out[a], -(-(o[a] + 1) * sizes[a] // out[a])) for a in range(3))
        window = x[(slice(None), slice(None)) + box]
        y[(Ellipsis,) + o] = window.max(axis=(2, 3, 4)) if kind == "max" else window.mean(axis=(2, 3, 4))
    return y


@pytest.mark.parametrize("output_size, sizes", [((3, 4, 5), (3, 4, 5)), (1, (1, 1, 1)), ((7, 3, None), (7, 3, 9))])
def test_adaptive_pooling_3d_matches_its_definition(output_size, sizes):
    x = ms.Tensor(X)
    np.testing.assert_allclose(nn.AdaptiveAvgPool3d(output_size)(x).asnumpy(), adaptive_reference(X, sizes, "avg"),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveMaxPool3d(output_size)(x).asnumpy(), adaptive_reference(X, sizes, "max"))


def finite_difference_check(layer, x):
    weights = ms.Tensor(RNG.randn(*layer(x).shape))
    loss = lambda t: (layer(t) * weights).sum()  # noqa: E731
    grad = ms.grad(loss)(x).asnumpy()
    values, numeric, eps = x.asnumpy(), np.zeros(x.shape), 1e-6
    for i in np.ndindex(values.shape):
        up, down = values.copy(), values.copy()
        up[i] += eps
        down[i] -= eps
        numeric[i] = (loss(ms.Tensor(up)).item() - loss(ms.Tensor(down)).item()) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, atol=1e-6)


@pytest.mark.parametrize("layer", [
    nn.MaxPool3d(2, 2, "pad", 1), nn.AvgPool3d(3, 2, "pad", 1, True, False), nn.AdaptiveAvgPool3d((2, 3, 2)),
    nn.AdaptiveMaxPool3d(2)], ids=["max", "avg", "adaptive_avg", "adaptive_max"])
def test_pooling_3d_gradients_match_finite_differences(layer):
    finite_difference_check(layer, ms.Tensor(RNG.randn(1, 2, 4, 5, 4)))


def test_pooling_3d_refuses_what_it_does_not_do():
    with pytest.raises(ValueError, match="MaxPool3d: return_indices=True is not supported"):
        nn.MaxPool3d(2, return_indices=True)
    with pytest.raises(ValueError, match="'padding' and 'ceil_mode' need pad_mode='pad'"):
        nn.AvgPool3d(2, pad_mode="valid", padding=1)
    with pytest.raises(ValueError, match="AvgPool3d: 'kernel_size' must be an int >= 1 or a tuple of 3"):
        nn.AvgPool3d((2, 2))
    with pytest.raises(ValueError, match=r"MaxPool3d: expects an input of shape \(N, C, D, H, W\)"):
        nn.MaxPool3d(2)(ms.Tensor(np.ones((2, 3, 4), np.float32)))
    with pytest.raises(TypeError, match="AdaptiveAvgPool3d: 'x' must be a Tensor, but got ndarray"):
        nn.AdaptiveAvgPool3d(2)(np.ones((1, 1, 2, 2, 2), np.float32))


def test_batch_norm_3d_normalizes_each_channel_over_batch_and_volume():
    layer = nn.BatchNorm3d(3, momentum=0.9)
    layer.set_train()
    y = layer(ms.Tensor(X)).asnumpy()
    mean, var = X.mean(axis=(0, 2, 3, 4)), X.var(axis=(0, 2, 3, 4))
    expected = (X - mean[:, None, None, None]) / np.sqrt(var[:, None, None, None] + 1e-5)
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(layer.moving_mean.asnumpy(), 0.1 * mean, rtol=1e-5, atol=1e-6)
    layer.set_train(False)
    moving_mean, moving_variance = (p.asnumpy()[:, None, None, None] for p in (layer.moving_mean,
                                                                            layer.moving_variance))
    np.testing.assert_allclose(layer(ms.Tensor(X)).asnumpy(), (X - moving_mean) / np.sqrt(moving_variance + 1e-5),
                               rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="BatchNorm3d: expects an input of rank"):
        layer(ms.Tensor(X[0]))


def transposed_conv_reference(x, w, stride, pads, output_padding):
    """x (N, Cin, *s), w (Cin, Cout, *k): every input cell adds w times itself at stride * position."""
    n, cin = x.shape[:2]
    k = w.shape[2:]
    full = [(s - 1) * st + kk for s, st, kk in zip(x.shape[2:], stride, k)]
    y = np.zeros((n, w.shape[1]) + tuple(f + op for f, op in zip(full, output_padding)))
    for pos in itertools.product(*map(range, x.shape[2:])):
        at = tuple(slice(p * st, p * st + kk) for p, st, kk in zip(pos, stride, k))
        y[(slice(None), slice(None)) + at] += np.einsum("nc,cd...->nd...", x[(Ellipsis,) + pos], w)
    crop = tuple(slice(b, y.shape[2 + a] - e) for a, (b, e) in enumerate(pads))
    return y[(slice(None), slice(None)) + crop]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_transposed_convolutions_match_their_definition_and_are_adjoint_to_convolution(mode):
    ms.set_context(mode=mode)
    ms.set_seed(0)
    x3 = RNG.randn(2, 3, 3, 4, 3)
    layer = nn.Conv3dTranspose(3, 4, (2, 3, 2), stride=2, pad_mode="pad", padding=(0, 0, 1, 1, 0, 0),
                               output_padding=(1, 0, 0), has_bias=True, dtype=ms.float64)
    y = layer(ms.Tensor(x3)).asnumpy()
    w, b = layer.weight.asnumpy(), layer.bias.asnumpy()
    expected = transposed_conv_reference(x3, w, (2, 2, 2), [(0, 0), (1, 1), (0, 0)], (1, 0, 0))
    np.testing.assert_allclose(y, expected + b[:, None, None, None], rtol=1e-10, atol=1e-10)
    x1 = RNG.randn(2, 3, 5)
    layer1 = nn.Conv1dTranspose(3, 4, 3, stride=2, pad_mode="valid", dtype=ms.float64)
    y1 = layer1(ms.Tensor(x1)).asnumpy()
    ref1 = transposed_conv_reference(x1[..., None, None], layer1.weight.asnumpy()[..., None, None], (2, 1, 1),
                                     [(0, 0)] * 3, (0, 0, 0))[..., 0, 0]
    np.testing.assert_allclose(y1, ref1, rtol=1e-10, atol=1e-10)
    # <conv(z, w), x> = <z, conv_transpose(x, w)>: the transposed convolution is the convolution's adjoint.
    z = RNG.randn(*y1.shape)
    forward = ops.conv1d(ms.Tensor(z), layer1.weight, stride=2, pad_mode="valid").asnumpy()
    np.testing.assert_allclose((forward * x1).sum(), (z * y1).sum(), rtol=1e-10)


def test_transposed_convolution_gradients_match_finite_differences():
    ms.set_seed(1)
    finite_difference_check(nn.Conv3dTranspose(2, 2, 2, stride=2, pad_mode="same", dtype=ms.float64),
                            ms.Tensor(RNG.randn(1, 2, 2, 2, 2)))
    finite_difference_check(nn.Conv1dTranspose(2, 3, 3, pad_mode="pad", padding=1, dtype=ms.float64),
                            ms.Tensor(RNG.randn(1, 2, 4)))


def test_softmax_2d_and_rrelu():
    x = RNG.randn(2, 3, 4, 5).astype(np.float32)
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(nn.Softmax2d()(ms.Tensor(x)).asnumpy(), e / e.sum(1, keepdims=True), atol=1e-6)
    rrelu = nn.RReLU(0.1, 0.3)
    rrelu.set_train()
    y = rrelu(ms.Tensor(x)).asnumpy()
    negative = x < 0
    slopes = y[negative] / x[negative]
    assert 0.1 - 1e-6 <= slopes.min() and slopes.max() <= 0.3 + 1e-6 and np.unique(slopes.round(4)).size > 10
    np.testing.assert_array_equal(y[~negative], x[~negative])
    rrelu.set_train(False)
    np.testing.assert_allclose(rrelu(ms.Tensor(x)).asnumpy(), np.where(x >= 0, x, 0.2 * x), rtol=1e-6)
    with pytest.raises(ValueError, match="RReLU: need 0 <= lower <= upper"):
        nn.RReLU(0.5, 0.1)


def test_adaptive_max_pool_3d_returns_indices():
    x = RNG.randn(2, 3, 4, 5, 6).astype(np.float32)
    out, indices = nn.AdaptiveMaxPool3d((2, 1, 3), return_indices=True)(ms.Tensor(x))
    np.testing.assert_array_equal(out.asnumpy(), nn.AdaptiveMaxPool3d((2, 1, 3))(ms.Tensor(x)).asnumpy())
    flat = x.reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, indices.asnumpy().reshape(2, 3, -1).astype(np.int64), 2),
                                  out.asnumpy().reshape(2, 3, -1))  # each index points at its maximum
    assert indices.dtype == ms.int32
