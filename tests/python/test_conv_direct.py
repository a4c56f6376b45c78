"""The direct float32 convolution loops (Note [Direct convolution]) at the shapes that reach them:
fewer than 4 input channels, stride 1, up to 8 channels produced, filters up to 5 wide. Rows whose
width is under, at and past a vector (1 ... 40), asymmetric padding, 1x1 to 5x5 filters, against
NumPy in float64; the same bits on 1 and 2 threads; non-finite inputs kept where they belong."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from op_records import nn_conv_ref as ref

# (x shape, w shape, pad as (top, bottom, left, right))
CASES = [
    ((4, 1, 32, 32), (6, 1, 5, 5), (0, 0, 0, 0)),    # LeNet's first layer
    ((3, 3, 9, 40), (8, 3, 3, 3), (1, 1, 1, 1)),     # rows of 40: two vectors and a tail
    ((2, 2, 7, 5), (5, 2, 5, 4), (1, 2, 0, 3)),      # asymmetric padding, a 4-wide filter
    ((2, 1, 30, 18), (1, 1, 5, 5), (2, 2, 2, 2)),    # one channel out: the tallest tiles
    ((5, 3, 6, 6), (7, 3, 1, 1), (0, 0, 0, 0)),      # 1x1 filters
    ((2, 1, 3, 1), (3, 1, 2, 1), (1, 0, 0, 0)),      # rows of one element
    ((1, 2, 20, 17), (2, 2, 3, 5), (2, 0, 4, 1)),    # 17 wide: one vector and one lane
]


def _ops(w_shape, pad):
    args = dict(pad_mode="pad", pad=pad)
    return (ops.Conv2D(w_shape[0], w_shape[2:], **args), ops.Conv2DBackpropInput(w_shape[0], w_shape[2:], **args),
            ops.Conv2DBackpropFilter(w_shape[0], w_shape[2:], **args))


def _run(x, w, dy, pad):
    conv, grad_input, grad_filter = _ops(w.shape, pad)
    return (conv(ms.Tensor(x), ms.Tensor(w)).asnumpy(), grad_input(ms.Tensor(dy), ms.Tensor(w), x.shape).asnumpy(),
            grad_filter(ms.Tensor(dy), ms.Tensor(x), w.shape).asnumpy())


@pytest.mark.parametrize("x_shape, w_shape, pad", CASES)
def test_direct_convolution_matches_float64(x_shape, w_shape, pad):
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    y = ref.conv(x.astype(np.float64), w.astype(np.float64), (1, 1), (1, 1), pad, 1)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    got_y, got_dx, got_dw = _run(x, w, dy, pad)
    expect_dx = ref.conv_backprop_input(dy.astype(np.float64), w.astype(np.float64), x.shape, (1, 1), (1, 1), pad, 1)
    expect_dw = ref.conv_backprop_filter(dy.astype(np.float64), x.astype(np.float64), w.shape, (1, 1), (1, 1), pad, 1)
    for got, expect in [(got_y, y), (got_dx, expect_dx), (got_dw, expect_dw)]:
        assert got.shape == expect.shape
        np.testing.assert_allclose(got, expect, rtol=1e-5, atol=1e-5 * np.abs(expect).max())


def test_thread_count_does_not_change_the_bits():
    rng = np.random.default_rng(7)
    # 37 images: filter gradients summed four images at a time, the last group one; 1 image: the
    # forward and backward data passes split its rows into bands on two threads.
    for images in (37, 1):
        x = rng.standard_normal((images, 1, 32, 32)).astype(np.float32)
        w = rng.standard_normal((6, 1, 5, 5)).astype(np.float32)
        dy = rng.standard_normal((images, 6, 28, 28)).astype(np.float32)
        results = []
        for threads in (1, 2):
            ms.set_context(runtime_num_threads=threads)
            try:
                results.append(_run(x, w, dy, (0, 0, 0, 0)))
            finally:
                ms.set_context(runtime_num_threads=1)
        for one, two in zip(*results):
            np.testing.assert_array_equal(one, two)


def test_non_finite_inputs_stay_where_they_belong():
    # An inf in the last input column reaches only the outputs and filter taps whose window covers it:
    # the lanes the loops compute past a row's end must not carry it (as NaN from 0 * inf) elsewhere.
    x = np.ones((1, 1, 6, 20), np.float32)
    x[0, 0, 2, 19] = np.inf
    w = np.ones((2, 1, 3, 3), np.float32)
    dy = np.ones((1, 2, 4, 18), np.float32)
    y, dx, dw = _run(x, w, dy, (0, 0, 0, 0))
    assert np.isinf(y[0, :, 0:3, 17]).all() and np.isfinite(y[0, :, :, :17]).all() and np.isfinite(y[0, :, 3]).all()
    assert (dw[..., 2] == np.inf).all()  # tap kx = 2 of the last output column reads column 19
    np.testing.assert_array_equal(dw[..., :2], 4 * 18)  # taps kx = 0, 1 never read it
    dy_nan = np.ones((1, 2, 4, 18), np.float32)
    dy_nan[0, 1, 1, 3] = np.nan
    dx = _run(x, w, dy_nan, (0, 0, 0, 0))[1]
    assert np.isnan(dx[0, 0, 1:4, 3:6]).all() and np.isnan(dx).sum() == 9
