"""Max pooling's tiled fast path (windows that tile the input) against a NumPy reference, with ties."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops


def _reference(x, kh, kw):
    """Forward and the gradient of sum(out * dy) for windows of kh x kw with the same stride; ties go
    to the first maximum in row-major window order; rows/columns past the last window get nothing."""
    n, c, h, w = x.shape
    oh, ow = h // kh, w // kw
    out, dx = np.zeros((n, c, oh, ow), x.dtype), np.zeros_like(x)
    dy = np.arange(1, n * c * oh * ow + 1, dtype=x.dtype).reshape(out.shape)
    for i, j, oy, ox in np.ndindex(n, c, oh, ow):
        window = x[i, j, oy * kh:(oy + 1) * kh, ox * kw:(ox + 1) * kw]
        k = int(window.argmax())  # NumPy's argmax returns the first maximum
        out[i, j, oy, ox] = window.flat[k]
        dx[i, j, oy * kh + k // kw, ox * kw + k % kw] = dy[i, j, oy, ox]
    return out, dy, dx


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kernel, shape", [
    ((2, 2), (2, 3, 8, 6)), ((2, 2), (1, 2, 7, 9)), ((2, 3), (2, 2, 7, 10)),
    ((2, 2), (3, 2, 12, 40)), ((2, 2), (2, 3, 9, 35)),  # rows longer than a vector, with and without leftovers
    ((2, 2), (16, 8, 28, 28)),  # enough planes to be split across threads
    # Rows at most half a vector wide (Note [Half-width pooling vectors]): LeNet's second pooling, split
    # across threads, and rows exactly half an AVX-512 vector of floats (8) or 9 windows (full width).
    ((2, 2), (64, 16, 10, 10)), ((2, 2), (3, 2, 6, 16)), ((2, 2), (3, 2, 6, 18)),
])
def test_tiled_max_pool_with_ties(dtype, kernel, shape):
    rng = np.random.default_rng(0)
    x = rng.integers(0, 3, size=shape).astype(dtype)  # few distinct values: most windows hold ties
    out, dy, dx = _reference(x, *kernel)
    pool = ops.MaxPool(kernel_size=kernel, strides=kernel)
    np.testing.assert_array_equal(pool(ms.Tensor(x)).asnumpy(), out)
    grad = ops.MaxPoolGrad(kernel_size=kernel, strides=kernel)(ms.Tensor(x), ms.Tensor(out), ms.Tensor(dy))
    np.testing.assert_array_equal(grad.asnumpy(), dx)
    # The same through autodiff in both modes.
    f = lambda t: (pool(t) * ms.Tensor(dy)).sum()  # noqa: E731
    np.testing.assert_array_equal(ms.grad(f)(ms.Tensor(x)).asnumpy(), dx)
    np.testing.assert_array_equal(ms.jit(ms.grad(f))(ms.Tensor(x)).asnumpy(), dx)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("stride", [1, 2])  # overlapping windows (oneDNN for float32) and tiling ones
def test_max_pooling_keeps_inf_and_propagates_nan(dtype, stride):
    x = np.full((1, 2, 4, 4), -np.inf, dtype)
    x[0, 1, 1, 1] = np.nan  # plane 1: windows over (1, 1) are NaN, the others -inf
    x[0, 1, 3, 3] = 5.0
    got = ops.max_pool2d(ms.Tensor(x), 2, stride=stride).asnumpy()
    want = np.lib.stride_tricks.sliding_window_view(x, (2, 2), axis=(2, 3))[:, :, ::stride, ::stride].max(axis=(4, 5))
    np.testing.assert_array_equal(got, want)  # np.max: NaN propagates, -inf stays -inf
    # The gradient goes to the NaN (the window's maximum), as in PyTorch.
    dx = ms.grad(lambda t: ops.max_pool2d(t, 2, stride=stride).sum())(ms.Tensor(x)).asnumpy()
    assert dx[0, 1, 1, 1] == (4 if stride == 1 else 1) and dx[0, 1, 3, 3] == 1


def test_pool_functions_check_rank_windows_and_norm_type():
    image = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
    with pytest.raises(ValueError, match=r"max_pool2d: 'x' must be 4-d \(N, C, H, W\), but got shape \(2, 3\)"):
        ops.max_pool2d(ms.Tensor(np.ones((2, 3), np.float32)), 2)
    with pytest.raises(ValueError, match=r"avg_pool2d: 'input_x' must be 4-d \(N, C, H, W\), but got shape \(3, 4, 4\)"):
        ops.avg_pool2d(ms.Tensor(np.ones((3, 4, 4), np.float32)), 2)
    with pytest.raises(ValueError, match="max_pool2d: 'stride' must be positive, but got 0"):
        ops.max_pool2d(image, 2, stride=0)
    with pytest.raises(ValueError, match=r"avg_pool2d: 'kernel_size' must be positive, but got \(0, 2\)"):
        ops.avg_pool2d(image, (0, 2))
    with pytest.raises(ValueError, match="max_pool1d: 'kernel_size' must be positive, but got 0"):
        ops.max_pool1d(ms.Tensor(np.ones((1, 2, 4), np.float32)), 0)
    with pytest.raises(ValueError, match="avg_pool1d: 'stride' must be positive, but got 0"):
        ops.avg_pool1d(ms.Tensor(np.ones((1, 2, 4), np.float32)), 2, stride=0)
    with pytest.raises(ValueError, match="lp_pool2d: 'norm_type' must be nonzero, but got 0"):
        ops.lp_pool2d(image, 0, 2)
    with pytest.raises(TypeError, match="lp_pool1d: 'norm_type' must be a float, but got NoneType"):
        ops.lp_pool1d(ms.Tensor(np.ones((1, 2, 4), np.float32)), None, 2)
    with pytest.raises(ValueError, match=r"lp_pool2d: 'stride' must be positive, but got \(0, 0\)"):
        ops.lp_pool2d(image, 2, 2, (0, 0))
    with pytest.raises(ValueError, match=r"lp_pool2d: 'x' must be 4-d \(N, C, H, W\), but got shape \(4, 4\)"):
        ops.lp_pool2d(ms.Tensor(np.ones((4, 4), np.float32)), 2, 2)


@pytest.mark.parametrize("padding", [0, 1])
def test_float32_overlapping_max_pooling_of_minus_inf_windows(padding):
    # No NaN: oneDNN runs, and its -FLT_MAX for windows of -inf is corrected (Note [Max pooling through oneDNN]).
    x = np.full((2, 3, 6, 6), -np.inf, np.float32)
    x[1, 2, 4, 4] = 2.5
    got = ops.max_pool2d(ms.Tensor(x), 3, stride=1, padding=padding).asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)), constant_values=-np.inf)
    want = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3)).max(axis=(4, 5))
    np.testing.assert_array_equal(got, want)
