"""Max pooling that returns indices (ops.max_pool1d/2d/3d, nn.MaxPool1d/2d/3d with return_indices), with
dilation and ceil_mode: values and indices against PyTorch's (written out) and a NumPy loop that does what
PyTorch's kernel does, the round trip through MaxUnpool, gradients against finite differences, compiled
against eager, and bad arguments."""
import itertools

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

from finite_differences import check_grad


def reference_max_pool(x, kernel, stride, padding, dilation, ceil_mode):
    """PyTorch's max pooling as a loop: per window, the first largest input cell and its flat index in the
    input plane (or volume); padding never wins. Checked against torch while writing these tests."""
    nd = len(kernel)
    spatial = x.shape[-nd:]
    outs = []
    for n, k, s, p, d in zip(spatial, kernel, stride, padding, dilation):
        out = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
        outs.append(out - 1 if ceil_mode and (out - 1) * s >= n + p else out)
    planes = x.reshape((-1,) + spatial)
    values = np.zeros((planes.shape[0],) + tuple(outs), x.dtype)
    indices = np.zeros(values.shape, np.int64)
    for b in range(planes.shape[0]):
        for o in itertools.product(*[range(v) for v in outs]):
            best, where = None, None
            for j in itertools.product(*[range(k) for k in kernel]):
                pos = tuple(oi * s - p + ji * d for oi, ji, s, p, d in zip(o, j, stride, padding, dilation))
                if all(0 <= q < n for q, n in zip(pos, spatial)) and (best is None or planes[(b,) + pos] > best):
                    best, where = planes[(b,) + pos], np.ravel_multi_index(pos, spatial)
            values[(b,) + o], indices[(b,) + o] = best, where
    return values.reshape(x.shape[:-nd] + tuple(outs)), indices.reshape(x.shape[:-nd] + tuple(outs))


def pool(nd, x, kernel, stride, padding, dilation, ceil_mode, return_indices=True):
    """ops.max_pool{nd}d with per-axis tuples (max_pool1d takes ints; max_pool3d puts ceil_mode first)."""
    if nd == 1:
        return ops.max_pool1d(x, kernel[0], stride[0], padding[0], dilation[0], return_indices, ceil_mode)
    if nd == 2:
        return ops.max_pool2d(x, kernel, stride, padding, dilation, return_indices, ceil_mode)
    return ops.max_pool3d(x, kernel, stride, padding, dilation, ceil_mode, return_indices)


# (nd, input shape, kernel, stride, padding, dilation, ceil_mode)
CASES = [
    (2, (1, 2, 5, 6), (2, 2), (2, 2), (0, 0), (1, 1), False),
    (2, (1, 2, 5, 6), (3, 3), (2, 2), (1, 1), (1, 1), True),
    (2, (1, 2, 5, 6), (2, 3), (1, 2), (1, 1), (2, 1), False),
    (2, (2, 1, 6, 7), (3, 3), (1, 1), (1, 1), (2, 2), True),
    (2, (1, 1, 5, 7), (2, 2), (3, 3), (0, 0), (1, 1), True),
    (1, (2, 3, 9), (3,), (2,), (1,), (2,), True),
    (1, (3, 8), (2,), (2,), (1,), (1,), False),
    (3, (1, 2, 3, 4, 5), (2, 2, 2), (1, 2, 2), (1, 1, 1), (1, 2, 1), False),
    (3, (1, 1, 4, 5, 5), (3, 2, 2), (2, 2, 1), (1, 0, 1), (1, 1, 2), True),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}d-{i}" for i, c in enumerate(CASES)])
def test_values_and_indices_match_pytorchs_rule(case):
    nd, shape, kernel, stride, padding, dilation, ceil_mode = case
    x = np.random.RandomState(0).randint(0, 4, shape).astype(np.float32)  # few values: many ties
    want_y, want_i = reference_max_pool(x, kernel, stride, padding, dilation, ceil_mode)
    y, i = pool(nd, ms.Tensor(x), kernel, stride, padding, dilation, ceil_mode)
    assert i.dtype == ms.int64
    np.testing.assert_array_equal(y.asnumpy(), want_y)
    np.testing.assert_array_equal(i.asnumpy(), want_i)
    np.testing.assert_array_equal(pool(nd, ms.Tensor(x), kernel, stride, padding, dilation, ceil_mode, False).asnumpy(),
                                  want_y)


def test_indices_are_pytorchs_written_out():
    x = (np.arange(20).reshape(1, 1, 4, 5) * 7 % 6).astype(np.float32)
    y, i = ops.max_pool2d(ms.Tensor(x), 3, 2, 1, 1, return_indices=True, ceil_mode=True)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[5, 3, 4], [5, 5, 3], [4, 5, 1]])
    np.testing.assert_array_equal(i.asnumpy()[0, 0], [[5, 3, 4], [5, 11, 9], [16, 17, 19]])
    y, i = ops.max_pool2d(ms.Tensor(x), 2, 1, 1, 2, return_indices=True)
    np.testing.assert_array_equal(y.asnumpy()[0, 0], [[0, 5, 2, 3, 2], [5, 4, 5, 4, 3], [4, 5, 4, 5, 2],
                                                      [5, 4, 5, 2, 1]])
    np.testing.assert_array_equal(i.asnumpy()[0, 0], [[6, 5, 8, 9, 8], [11, 10, 11, 4, 3], [16, 5, 16, 17, 8],
                                                      [11, 10, 11, 14, 13]])
    x3 = (np.arange(36).reshape(1, 1, 3, 3, 4) * 5 % 7).astype(np.float32)
    y, i = ops.max_pool3d(ms.Tensor(x3), 2, (1, 2, 2), 1, (1, 1, 2), ceil_mode=True, return_indices=True)
    np.testing.assert_array_equal(y.asnumpy()[0, 0, :, :, 0], [[5, 4], [5, 4], [6, 5], [6, 5]])
    np.testing.assert_array_equal(i.asnumpy()[0, 0], [[[1, 1, 3], [5, 11, 11]], [[1, 1, 15], [5, 11, 11]],
                                                      [[25, 25, 15], [29, 29, 19]], [[25, 25, 27], [29, 29, 31]]])


def test_a_window_of_minus_infinity_names_its_first_input_cell():
    x = np.full((1, 1, 4, 4), -np.inf, np.float32)
    x[0, 0, 3, 3] = 1.0
    y, i = ops.max_pool2d(ms.Tensor(x), 3, 2, 1, return_indices=True, ceil_mode=True)
    np.testing.assert_array_equal(i.asnumpy()[0, 0], [[0, 1, 3], [4, 15, 15], [12, 15, 15]])  # as PyTorch
    assert np.isneginf(y.asnumpy()[0, 0, 0]).all()


def test_integer_inputs_pool_with_indices():
    x = np.random.RandomState(1).randint(-5, 5, (2, 2, 5, 5)).astype(np.int32)
    want_y, want_i = reference_max_pool(x, (3, 3), (2, 2), (1, 1), (1, 1), False)
    y, i = ops.max_pool2d(ms.Tensor(x), 3, 2, 1, return_indices=True)
    assert y.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy(), want_y)
    np.testing.assert_array_equal(i.asnumpy(), want_i)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_layers_return_indices_batched_and_not(nd):
    layer = {1: nn.MaxPool1d, 2: nn.MaxPool2d, 3: nn.MaxPool3d}[nd](3, 2, pad_mode="pad", padding=1, dilation=1,
                                                                     return_indices=True, ceil_mode=True)
    x = np.random.RandomState(2).randn(*(2, 3) + (5,) * nd).astype(np.float32)
    want_y, want_i = reference_max_pool(x, (3,) * nd, (2,) * nd, (1,) * nd, (1,) * nd, True)
    y, i = layer(ms.Tensor(x))
    np.testing.assert_array_equal(y.asnumpy(), want_y)
    np.testing.assert_array_equal(i.asnumpy(), want_i)
    y, i = layer(ms.Tensor(x[0]))  # no batch axis
    np.testing.assert_array_equal(y.asnumpy(), want_y[0])
    np.testing.assert_array_equal(i.asnumpy(), want_i[0])
    plain = {1: nn.MaxPool1d, 2: nn.MaxPool2d, 3: nn.MaxPool3d}[nd](3, 2, pad_mode="pad", padding=1, dilation=2)
    np.testing.assert_array_equal(plain(ms.Tensor(x)).asnumpy(),
                                  reference_max_pool(x, (3,) * nd, (2,) * nd, (1,) * nd, (2,) * nd, False)[0])


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_max_unpool_puts_each_maximum_back_where_it_was(nd):
    x = np.random.RandomState(3).rand(*(2, 2) + (4,) * nd).astype(np.float32) + 0.5  # above the zeros unpool adds
    pool_layer = {1: nn.MaxPool1d, 2: nn.MaxPool2d, 3: nn.MaxPool3d}[nd](2, 2, pad_mode="pad", return_indices=True)
    unpool = {1: nn.MaxUnpool1d, 2: nn.MaxUnpool2d, 3: nn.MaxUnpool3d}[nd](2, 2)
    y, i = pool_layer(ms.Tensor(x))
    back = unpool(y, i).asnumpy()
    # Each 2-wide block keeps its maximum in place (the values are distinct), zeros elsewhere.
    blocks = x.reshape((2, 2) + sum(((2, 2) for _ in range(nd)), ()))
    axes = tuple(3 + 2 * a for a in range(nd))
    want = np.where(blocks == blocks.max(axis=axes, keepdims=True), blocks, 0).reshape(x.shape)
    np.testing.assert_array_equal(back, want)
    np.testing.assert_array_equal(pool_layer(ms.Tensor(back))[0].asnumpy(), y.asnumpy())  # pooling it again


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_gradients_reach_each_windows_maximum(nd):
    x = np.random.RandomState(4).randn(*(1, 2) + (5,) * nd)  # distinct values: differentiable everywhere
    k, s, p, d = (3,) * nd, (2,) * nd, (1,) * nd, (1,) + (2,) * (nd - 1)
    check_grad(lambda t: pool(nd, t, k, s, p, d, True)[0], x)
    check_grad(lambda t: pool(nd, t, k, s, p, d, True, return_indices=False), x)


def test_ties_send_the_gradient_to_the_first_maximum_only():
    x = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))
    g = ms.grad(lambda t: ops.max_pool2d(t, 2, return_indices=True)[0].sum())(x)
    np.testing.assert_array_equal(g.asnumpy()[0, 0], [[1, 0], [0, 0]])


def test_compiled_pooling_matches_eager():
    x = ms.Tensor(np.random.RandomState(5).randn(2, 3, 6, 6).astype(np.float32))
    x3 = ms.Tensor(np.random.RandomState(6).randn(1, 2, 4, 5, 5).astype(np.float32))

    def both(t, t3):
        y, i = ops.max_pool2d(t, 3, 2, 1, 2, return_indices=True, ceil_mode=True)
        y3, i3 = ops.max_pool3d(t3, 2, 2, 1, ceil_mode=True, return_indices=True)
        return y, i, y3, i3, ops.max_pool1d(t[:, :, 0], 2, 2, 1, 2)

    for got, want in zip(ms.jit(both)(x, x3), both(x, x3)):
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
    layer = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, return_indices=True)
    eager = [t.asnumpy() for t in layer(x)]
    grad_eager = ms.grad(lambda t: layer(t)[0].sum())(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for got, want in zip(layer(x), eager):
            np.testing.assert_array_equal(got.asnumpy(), want)
        np.testing.assert_array_equal(ms.jit(ms.grad(lambda t: layer(t)[0].sum()))(x).asnumpy(), grad_eager)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_bad_arguments_are_refused_naming_the_api():
    x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
    with pytest.raises(TypeError, match="max_pool2d: 'return_indices' must be a bool, but got 1"):
        ops.max_pool2d(x, 2, return_indices=1)
    with pytest.raises(ValueError, match=r"max_pool2d: 'padding' must be between 0 and half the kernel size \(2\)"):
        ops.max_pool2d(x, 2, padding=2, return_indices=True)
    with pytest.raises(ValueError, match="max_pool2d: 'dilation' must be >= 1, but got 0"):
        ops.max_pool2d(x, 2, dilation=0)
    with pytest.raises(ValueError, match="max_pool2d: 'padding' must be >= 0"):
        ops.max_pool2d(x, 2, padding=-1, return_indices=True)
    with pytest.raises(ValueError, match="max_pool2d: a window of 3 cells at dilation 2 .5 wide. is larger"):
        ops.max_pool2d(x, 3, dilation=2)
    with pytest.raises(ValueError, match="max_pool1d: 'dilation' must be positive, but got 0"):
        ops.max_pool1d(ms.Tensor(np.ones((1, 2, 6), np.float32)), 2, dilation=0)
    with pytest.raises(ValueError, match=r"max_pool3d: 'x' must be 5-d \(N, C, D, H, W\), but got shape"):
        ops.max_pool3d(x, 2)
    with pytest.raises(TypeError, match="max_pool3d: 'ceil_mode' must be a bool"):
        ops.max_pool3d(ms.Tensor(np.ones((1, 1, 2, 2, 2), np.float32)), 2, ceil_mode="yes")
    with pytest.raises(ValueError, match="max_pool3d: 'stride' must be an int or a tuple of 1 or 3 ints"):
        ops.max_pool3d(ms.Tensor(np.ones((1, 1, 2, 2, 2), np.float32)), 2, (1, 1))
    with pytest.raises(ValueError, match="MaxPool2d: 'dilation' other than 1 and return_indices=True need "
                                         "pad_mode='pad', got 'valid'"):
        nn.MaxPool2d(2, return_indices=True)
    with pytest.raises(ValueError, match="MaxPool1d: 'dilation' other than 1 and return_indices=True need"):
        nn.MaxPool1d(2, dilation=2)
    with pytest.raises(ValueError, match="MaxPool3d: return_indices=True is not supported with pad_mode='same'"):
        nn.MaxPool3d(2, pad_mode="same", return_indices=True)
    with pytest.raises(TypeError, match="MaxPool2d: 'ceil_mode' and 'return_indices' must be bools"):
        nn.MaxPool2d(2, pad_mode="pad", return_indices="yes")
