"""Backward passes vectorized across the batch (Note [Batch-vectorized backward passes]) at shapes that
nn_conv.cc sends there: channel counts oneDNN would pad to 16, filters 3 or 5 wide, stride 1 (and
backward filter of layers with few input channels when the batch fills whole vectors). Batches
under, at and past a vector of images; planes narrower than a register tile and far wider; more than
one tile of channels; padding on one side only and as wide as the filter allows. Against NumPy in
float64; the same bits on 1 and 2 threads; a NaN or inf reaching only the values it feeds."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from op_records import nn_conv_ref as ref

# (x shape, w shape, pad as (top, bottom, left, right))
CASES = [
    ((64, 6, 14, 14), (16, 6, 5, 5), (0, 0, 0, 0)),  # LeNet's second layer
    ((33, 6, 9, 11), (8, 6, 3, 3), (1, 1, 1, 1)),    # a batch of two vectors and one image; 11 columns
    ((5, 13, 7, 7), (4, 13, 3, 3), (2, 0, 1, 2)),    # channel tiles of 6, 6 and 1; one-sided padding
    ((16, 7, 5, 3), (4, 7, 5, 5), (4, 4, 4, 4)),     # a plane narrower than the filter's padding
    ((20, 8, 16, 40), (8, 8, 5, 3), (2, 2, 1, 1)),   # 40 columns: 14 register tiles
    ((1, 5, 3, 3), (1, 5, 3, 3), (0, 0, 0, 0)),      # one image, one output position: the smallest copies
    ((64, 1, 32, 32), (6, 1, 5, 5), (0, 0, 0, 0)),   # LeNet's first layer (backward filter only)
    ((32, 3, 12, 12), (8, 3, 3, 3), (1, 1, 1, 1)),   # three input channels, two full blocks of images
]


def _grad_input(dy, w, x_shape, pad):
    op = ops.Conv2DBackpropInput(w.shape[0], w.shape[2:], pad_mode="pad", pad=pad)
    return op(ms.Tensor(dy), ms.Tensor(w), x_shape).asnumpy()


def _grad_filter(dy, x, w_shape, pad):
    op = ops.Conv2DBackpropFilter(w_shape[0], w_shape[2:], pad_mode="pad", pad=pad)
    return op(ms.Tensor(dy), ms.Tensor(x), w_shape).asnumpy()


def _dy_shape(x_shape, w_shape, pad):
    top, bottom, left, right = pad
    return (x_shape[0], w_shape[0], x_shape[2] + top + bottom - w_shape[2] + 1, x_shape[3] + left + right - w_shape[3] + 1)


@pytest.mark.parametrize("x_shape, w_shape, pad", CASES)
def test_batched_backward_passes_match_float64(x_shape, w_shape, pad):
    rng = np.random.default_rng(sum(x_shape) + sum(w_shape))
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    dy = rng.standard_normal(_dy_shape(x_shape, w_shape, pad)).astype(np.float32)
    x64, w64, dy64 = x.astype(np.float64), w.astype(np.float64), dy.astype(np.float64)
    expect_dx = ref.conv_backprop_input(dy64, w64, x_shape, (1, 1), (1, 1), pad, 1)
    expect_dw = ref.conv_backprop_filter(dy64, x64, w_shape, (1, 1), (1, 1), pad, 1)
    for got, expect in [(_grad_input(dy, w, x_shape, pad), expect_dx), (_grad_filter(dy, x, w_shape, pad), expect_dw)]:
        assert got.shape == expect.shape
        np.testing.assert_allclose(got, expect, rtol=1e-5, atol=1e-5 * np.abs(expect).max())


def test_thread_count_does_not_change_the_bits():
    rng = np.random.default_rng(3)
    x_shape, w_shape, pad = CASES[1]
    w = rng.standard_normal(w_shape).astype(np.float32)
    dy = rng.standard_normal(_dy_shape(x_shape, w_shape, pad)).astype(np.float32)
    x = rng.standard_normal(x_shape).astype(np.float32)
    results = []
    for threads in (1, 2):
        ms.set_context(runtime_num_threads=threads)
        try:
            results.append((_grad_input(dy, w, x_shape, pad), _grad_filter(dy, x, w_shape, pad)))
        finally:
            ms.set_context(runtime_num_threads=1)
    for one, two in zip(*results):
        np.testing.assert_array_equal(one, two)


def test_non_finite_dy_reaches_only_the_positions_it_feeds():
    # dy's zero columns and the images past the batch share vectors with real data: a NaN or inf must
    # not leak into other images, channels' unrelated positions, or columns its taps do not reach.
    x_shape, w_shape = (20, 6, 14, 14), (16, 6, 5, 5)  # the second block: 4 images and 12 zero lanes
    w = np.ones(w_shape, np.float32)
    dy = np.ones((20, 16, 10, 10), np.float32)
    dy[3, 2, 0, 9] = np.nan
    dy[16, 0, 9, 0] = np.inf
    dx = _grad_input(dy, w, x_shape, (0, 0, 0, 0))
    assert np.isnan(dx[3, :, 0:5, 9:14]).all() and np.isnan(dx).sum() == 6 * 25
    assert (dx[16, :, 9:14, 0:5] == np.inf).all() and np.isinf(dx).sum() == 6 * 25
    finite = np.isfinite(dx)
    assert finite[:3].all() and finite[4:16].all() and finite[17:].all()
    # Filter gradients: x's inf at (image 5, channel 1, row 13, column 0) is read only by the taps of
    # row ky = 13 - y >= 4 and column kx = 0 - x = 0, i.e. tap (4, 0) of channel 1, for every output.
    x = np.ones(x_shape, np.float32)
    x[5, 1, 13, 0] = np.inf
    dw = _grad_filter(np.ones((20, 16, 10, 10), np.float32), x, w_shape, (0, 0, 0, 0))
    assert (dw[:, 1, 4, 0] == np.inf).all() and np.isinf(dw).sum() == 16


def test_float16_runs_the_same_passes_in_float32():
    # Mixed precision (amp O2/O3) hands these ops float16: widened, computed as float32, narrowed once.
    x_shape, w_shape, pad = CASES[0]
    rng = np.random.default_rng(5)
    x = rng.standard_normal(x_shape).astype(np.float16)
    w = rng.standard_normal(w_shape).astype(np.float16)
    dy = rng.standard_normal(_dy_shape(x_shape, w_shape, pad)).astype(np.float16)
    for got, expect in [(_grad_input(dy, w, x_shape, pad), _grad_input(dy.astype(np.float32), w.astype(np.float32),
                                                                         x_shape, pad)),
                        (_grad_filter(dy, x, w_shape, pad), _grad_filter(dy.astype(np.float32), x.astype(np.float32),
                                                                         w_shape, pad))]:
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got, expect.astype(np.float16))
