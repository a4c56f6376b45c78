"""Max pooling's kernels (2x2 windows tiling the input, and any window, stride and padding) against
NumPy references, with ties, NaN and infinities."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops


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
@pytest.mark.parametrize("stride", [1, 2])  # overlapping windows and tiling ones
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
    # Windows of -inf give -inf (oneDNN's max pooling, which ran here once, gave -FLT_MAX).
    x = np.full((2, 3, 6, 6), -np.inf, np.float32)
    x[1, 2, 4, 4] = 2.5
    got = ops.max_pool2d(ms.Tensor(x), 3, stride=1, padding=padding).asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)), constant_values=-np.inf)
    want = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3)).max(axis=(4, 5))
    np.testing.assert_array_equal(got, want)


def _first_max(window):
    """Offset of the first maximum of a flat window, NaN being the maximum (the kernels' replaces_max)."""
    best = 0
    for k, v in enumerate(window):
        if v > window[best] or (np.isnan(v) and not np.isnan(window[best])):
            best = k
    return best


def _pooled_size(shape, kernel, stride, pads):
    (kh, kw), (sh, sw), (t, b, l, r) = kernel, stride, pads
    return (shape[2] + t + b - kh) // sh + 1, (shape[3] + l + r - kw) // sw + 1


def _reference_any(x, kernel, stride, pads, dy):
    """Max pooling with padding (top, bottom, left, right) that never wins, by loops: the output, the
    gradient of sum(out * dy) (overlapping windows add up) and MaxPoolGradGrad's gather of a tensor of x's
    shape (here dy's gradient pattern: x itself) at each window's first maximum."""
    (kh, kw), (sh, sw), (t, b, l, r) = kernel, stride, pads
    n, c, h, w = x.shape
    oh, ow = _pooled_size(x.shape, kernel, stride, pads)
    out, dx, gathered = np.zeros((n, c, oh, ow), x.dtype), np.zeros_like(x), np.zeros((n, c, oh, ow), x.dtype)
    for i, j, oy, ox in np.ndindex(n, c, oh, ow):
        y0, x0 = oy * sh - t, ox * sw - l
        ys, xs = range(max(y0, 0), min(y0 + kh, h)), range(max(x0, 0), min(x0 + kw, w))
        cells = [(yy, xx) for yy in ys for xx in xs]
        yy, xx = cells[_first_max([x[i, j, a, e] for a, e in cells])]
        out[i, j, oy, ox] = x[i, j, yy, xx]
        dx[i, j, yy, xx] += dy[i, j, oy, ox]
        gathered[i, j, oy, ox] = x[i, j, yy, xx] * 2
    return out, dx, gathered


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kernel, stride, pads, shape", [
    ((3, 3), (2, 2), (1, 1, 1, 1), (2, 3, 9, 8)),       # ResNet's stem pooling, rows shorter than a vector
    ((3, 3), (2, 2), (1, 1, 1, 1), (2, 2, 13, 70)),     # rows of 35 windows: vectors and a last overlapping one
    ((3, 3), (1, 1), (1, 1, 1, 1), (1, 2, 6, 40)),      # stride 1: contiguous loads, heavy overlap
    ((2, 3), (3, 3), (0, 1, 1, 2), (2, 2, 11, 60)),     # stride 3: gathered loads; asymmetric padding
    ((3, 2), (2, 1), (2, 2, 1, 0), (1, 3, 7, 33)),      # padding up to the window: edge windows of one cell
    ((4, 4), (2, 2), (0, 0, 0, 0), (1, 2, 10, 70)),     # no padding, overlapping
    ((1, 1), (2, 2), (0, 0, 0, 0), (1, 1, 5, 40)),      # windows of one cell
    ((3, 3), (2, 2), (1, 1, 1, 1), (8, 16, 20, 20)),    # enough planes to be split across threads
])
def test_max_pool_any_window_with_ties_nan_and_inf(dtype, kernel, stride, pads, shape):
    # Note [Max pooling by window taps]: values and first-maximum positions as the scalar loops give them.
    rng = np.random.default_rng(1)
    x = rng.integers(-1, 2, size=shape).astype(dtype)  # few distinct values: ties everywhere
    flat = x.reshape(-1)
    flat[rng.choice(flat.size, flat.size // 50 + 1, replace=False)] = np.nan
    flat[rng.choice(flat.size, flat.size // 20 + 1, replace=False)] = -np.inf
    flat[rng.choice(flat.size, flat.size // 20 + 1, replace=False)] = np.inf
    attrs = dict(kernel_size=kernel, strides=stride, pad_mode="pad", pad_list=pads)
    from sprout.ops.function._prims import prim
    dy = rng.integers(1, 5, size=shape[:2] + _pooled_size(shape, kernel, stride, pads)).astype(dtype)
    out, dx, gathered = _reference_any(x, kernel, stride, pads, dy)
    got = prim("MaxPool", **attrs)(ms.Tensor(x))
    np.testing.assert_array_equal(got.asnumpy(), out)
    grad = prim("MaxPoolGrad", **attrs)(ms.Tensor(x), got, ms.Tensor(dy))
    np.testing.assert_array_equal(grad.asnumpy(), dx)
    gg = prim("MaxPoolGradGrad", **attrs)(ms.Tensor(x), got, ms.Tensor(x * 2))
    np.testing.assert_array_equal(gg.asnumpy(), gathered)


def test_max_pool2d_padding_and_ceil_mode_through_autodiff_and_graph_mode():
    # ops.max_pool2d pads inside MaxPool (pad_mode "pad"): the gradient, in both modes, and the second
    # derivative of a padded, overlapping, ceil_mode pooling against the loops above.
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 10, 11)).astype(np.float32)
    dy_shape = ops.max_pool2d(ms.Tensor(x), 3, 2, 1, ceil_mode=True).shape
    assert dy_shape == (2, 3, 6, 6)  # PyTorch's sizes: ceil((10 + 2 - 3) / 2) + 1 and ceil((11 + 2 - 3) / 2) + 1
    dy = rng.standard_normal(dy_shape).astype(np.float32)
    out, dx, _ = _reference_any(x, (3, 3), (2, 2), (1, 2, 1, 1), dy)
    np.testing.assert_array_equal(ops.max_pool2d(ms.Tensor(x), 3, 2, 1, ceil_mode=True).asnumpy(), out)
    f = lambda t: (ops.max_pool2d(t, 3, 2, 1, ceil_mode=True) * ms.Tensor(dy)).sum()  # noqa: E731
    np.testing.assert_allclose(ms.grad(f)(ms.Tensor(x)).asnumpy(), dx, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(ms.grad(f))(ms.Tensor(x)).asnumpy(), dx, rtol=1e-6)
    # d/dx of <grad f(x), v>: max pooling is piecewise linear, so zero, through MaxPoolGrad's bprop.
    v = ms.Tensor(rng.standard_normal(x.shape).astype(np.float32))
    second = ms.grad(lambda t: (ms.grad(f)(t) * v).sum())(ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(second, np.zeros_like(x))


def test_max_pool_padding_is_checked():
    from sprout.ops.function._prims import prim
    x = ms.Tensor(np.ones((1, 1, 4, 4), np.float32))
    with pytest.raises(ValueError, match=r"MaxPool: 'pad_list' \(0, 2, 0, 0\) leaves windows of \(2, 2\) with strides"
                                         r" \(1, 1\) wholly in the padding of a \(4, 4\) input"):
        prim("MaxPool", kernel_size=2, strides=1, pad_mode="pad", pad_list=(0, 2, 0, 0))(x)
    with pytest.raises(ValueError, match=r"MaxPool: 'pad_list' must be 4 non-negative ints"):
        prim("MaxPool", kernel_size=2, strides=2, pad_mode="pad", pad_list=(1, -1, 0, 0))(x)
    with pytest.raises(ValueError, match=r"MaxPool: 'pad_list' must be 0 unless pad_mode is 'pad'"):
        prim("MaxPool", kernel_size=2, strides=2, pad_mode="valid", pad_list=(1, 1, 0, 0))(x)
    with pytest.raises(ValueError, match=r"'pad_mode' must be 'valid', 'same' or 'pad', but got 'full'"):
        prim("MaxPool", kernel_size=2, strides=2, pad_mode="full")(x)


def _reference_argmax(x, kernel, stride, pads, dilation, ceil_mode, dy):
    """MaxPoolWithArgmaxV2 by loops (PyTorch's geometry): values, flat argmax and the gradient of
    sum(out * dy); a window with no input cell gives -inf at the first cell of its clipped taps, no gradient."""
    n, c, h, w = x.shape
    taps = []
    for size, k, s, p, d in zip((h, w), kernel, stride, pads, dilation):
        room = size + 2 * p - d * (k - 1) - 1
        out = (room + (s - 1 if ceil_mode else 0)) // s + 1
        out -= 1 if ceil_mode and (out - 1) * s >= size + p else 0
        taps.append([[o * s - p + i * d for i in range(k)] for o in range(out)])
    oh, ow = len(taps[0]), len(taps[1])
    out, at, dx = np.zeros((n, c, oh, ow), x.dtype), np.zeros((n, c, oh, ow), np.int64), np.zeros_like(x)
    for i, j, oy, ox in np.ndindex(n, c, oh, ow):
        rows = [r for r in taps[0][oy] if 0 <= r < h]
        cols = [e for e in taps[1][ox] if 0 <= e < w]
        if not rows or not cols:
            r = rows[0] if rows else min(max(taps[0][oy][0], 0), h - 1)
            e = cols[0] if cols else min(max(taps[1][ox][0], 0), w - 1)
            out[i, j, oy, ox], at[i, j, oy, ox] = -np.inf, r * w + e
            continue
        cells = [(r, e) for r in rows for e in cols]
        r, e = cells[_first_max([x[i, j, a, b] for a, b in cells])]
        out[i, j, oy, ox], at[i, j, oy, ox] = x[i, j, r, e], r * w + e
        dx[i, j, r, e] += dy[i, j, oy, ox]
    return out, at, dx


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("argmax_type", [ms.int32, ms.int64])
@pytest.mark.parametrize("kernel, stride, pads, dilation, ceil_mode, shape", [
    ((3, 3), (2, 2), (1, 1), (1, 1), False, (2, 3, 9, 8)),    # ResNet's stem pooling, with indices
    ((3, 3), (1, 1), (1, 1), (2, 2), False, (1, 2, 7, 70)),   # dilated, stride 1: contiguous vector loads
    ((3, 2), (2, 2), (1, 1), (2, 3), True, (2, 2, 11, 66)),   # dilated, stride 2, ceil_mode's partial windows
    ((2, 3), (3, 3), (1, 0), (1, 2), True, (1, 3, 10, 61)),   # stride 3: gathered loads
    ((2, 2), (1, 1), (1, 1), (2, 2), False, (1, 2, 1, 1)),    # windows missing the input: -inf
    ((3, 3), (2, 2), (1, 1), (1, 1), False, (8, 16, 20, 20)),  # planes split across threads
])
def test_max_pool_with_argmax_any_dilation(dtype, argmax_type, kernel, stride, pads, dilation, ceil_mode, shape):
    # Note [Max pooling with argmax]: values, positions and gradient as the loops give them, with ties,
    # NaN and infinities.
    rng = np.random.default_rng(3)
    x = rng.integers(-1, 2, size=shape).astype(dtype)
    flat = x.reshape(-1)
    flat[rng.choice(flat.size, flat.size // 50 + 1, replace=False)] = np.nan
    flat[rng.choice(flat.size, flat.size // 20 + 1, replace=False)] = np.inf
    attrs = dict(kernel_size=kernel, strides=stride, pads=pads, dilation=dilation, ceil_mode=ceil_mode,
                 argmax_type=argmax_type)
    y, argmax = ops.MaxPoolWithArgmaxV2(**attrs)(ms.Tensor(x))
    dy = rng.integers(1, 5, size=y.shape).astype(dtype)
    out, at, dx = _reference_argmax(x, kernel, stride, pads, dilation, ceil_mode, dy)
    np.testing.assert_array_equal(y.asnumpy(), out)
    assert argmax.dtype == argmax_type
    np.testing.assert_array_equal(argmax.asnumpy(), at)
    grad = ops.MaxPoolGradWithArgmaxV2(**attrs)(ms.Tensor(x), ms.Tensor(dy), argmax)
    np.testing.assert_array_equal(grad.asnumpy(), dx)
    f = lambda t: (ops.MaxPoolWithArgmaxV2(**attrs)(t)[0] * ms.Tensor(dy)).sum()  # noqa: E731
    np.testing.assert_array_equal(ms.grad(f)(ms.Tensor(x)).asnumpy(), dx)


def test_max_pool2d_indices_through_layers_graph_mode_and_unpooling():
    # return_indices and dilation reach MaxPoolWithArgmaxV2 from ops.max_pool2d, nn.MaxPool2d and max_pool1d,
    # in both modes; max_unpool2d puts each maximum back where the indices say; second derivatives are zero.
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 10, 11)).astype(np.float32)
    dy = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
    out, at, dx = _reference_argmax(x, (3, 3), (2, 2), (1, 1), (2, 2), True, dy)
    y, idx = ops.max_pool2d(ms.Tensor(x), 3, 2, 1, 2, return_indices=True, ceil_mode=True)
    np.testing.assert_array_equal(y.asnumpy(), out)
    np.testing.assert_array_equal(idx.asnumpy(), at)
    layer = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, dilation=2, return_indices=True, ceil_mode=True)
    for values, indices in (layer(ms.Tensor(x)), ms.jit(lambda t: layer(t))(ms.Tensor(x))):
        np.testing.assert_array_equal(values.asnumpy(), out)
        np.testing.assert_array_equal(indices.asnumpy(), at)
    f = lambda t: (ops.max_pool2d(t, 3, 2, 1, 2, ceil_mode=True) * ms.Tensor(dy)).sum()  # noqa: E731
    np.testing.assert_allclose(ms.grad(f)(ms.Tensor(x)).asnumpy(), dx, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(ms.grad(f))(ms.Tensor(x)).asnumpy(), dx, rtol=1e-6)
    v = ms.Tensor(rng.standard_normal(x.shape).astype(np.float32))
    second = ms.grad(lambda t: (ms.grad(f)(t) * v).sum())(ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(second, np.zeros_like(x))
    y2, idx2 = ops.max_pool2d(ms.Tensor(x), 2, return_indices=True)
    unpooled = ops.max_unpool2d(y2, idx2, 2, output_size=(10, 11)).asnumpy()
    expected = np.zeros_like(x).reshape(2, 3, -1)
    np.put_along_axis(expected, idx2.asnumpy().reshape(2, 3, -1), y2.asnumpy().reshape(2, 3, -1), -1)
    np.testing.assert_array_equal(unpooled, expected.reshape(x.shape))
    z = x[0, 0]  # (C, L) = (10, 11)
    ref1, at1, _ = _reference_argmax(z[None, :, None, :], (1, 3), (1, 2), (0, 1), (1, 2), False, np.zeros((1, 10, 1, 5)))
    y1, idx1 = ops.max_pool1d(ms.Tensor(z), 3, 2, 1, 2, return_indices=True)
    np.testing.assert_array_equal(y1.asnumpy(), ref1[0, :, 0])
    np.testing.assert_array_equal(idx1.asnumpy(), at1[0, :, 0])


def test_max_pool_with_argmax_primitive_on_integers():
    # The registry op takes floating-point x; ops.MaxPoolWithArgmaxV2 pools integers by gathered windows
    # (Note [Max pooling indices]), with the same values, argmax and argmax dtype as on floats.
    x = np.random.default_rng(5).integers(-50, 50, size=(2, 3, 7, 9)).astype(np.int32)
    pool = ops.MaxPoolWithArgmaxV2((3, 2), (2, 2), (1, 1), (1, 2), True, ms.int32)
    y, argmax = pool(ms.Tensor(x))
    y_float, argmax_float = pool(ms.Tensor(x.astype(np.float64)))
    assert y.dtype == ms.int32 and argmax.dtype == ms.int32
    np.testing.assert_array_equal(y.asnumpy(), y_float.asnumpy().astype(np.int32))
    np.testing.assert_array_equal(argmax.asnumpy(), argmax_float.asnumpy())



def test_average_pooling_along_one_row_or_column_matches_numpy():
    # 1-d average pooling: windows that tile the line are pooled as a plane of several rows (fold_line in
    # nn_pool_onednn.cc); a row, a column, their gradients, and lines that do not fold (overlapping windows,
    # padding, a length the window does not divide).
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 3, 4096)).astype(np.float32)
    want = x.reshape(2, 3, 1024, 4).mean(-1)
    np.testing.assert_allclose(ops.avg_pool1d(ms.Tensor(x), 4, 4).asnumpy(), want, rtol=1e-5, atol=1e-6)
    column = ms.Tensor(x[..., None])
    np.testing.assert_allclose(ops.avg_pool2d(column, (4, 1), (4, 1)).asnumpy()[..., 0], want, rtol=1e-5, atol=1e-6)
    weights = rng.standard_normal((2, 3, 1024)).astype(np.float32)
    grad = ms.grad(lambda t: (ops.avg_pool1d(t, 4, 4) * ms.Tensor(weights)).sum())(ms.Tensor(x))
    np.testing.assert_allclose(grad.asnumpy(), np.repeat(weights, 4, -1) / 4, rtol=1e-6)
    for kernel, stride, pad, length in ((4, 2, 0, 4096), (4, 4, 2, 4096), (4, 4, 0, 4098)):
        y = ms.Tensor(x[..., :length] if length <= 4096 else np.pad(x, ((0, 0), (0, 0), (0, 2))))
        padded = np.pad(y.asnumpy(), ((0, 0), (0, 0), (pad, pad)))
        starts = range(0, padded.shape[-1] - kernel + 1, stride)
        # count_include_pad=True (the default): every window divides by the kernel size
        expect = np.stack([padded[..., s:s + kernel].sum(-1) / kernel for s in starts], -1)
        np.testing.assert_allclose(ops.avg_pool1d(y, kernel, stride, pad).asnumpy(), expect, rtol=1e-5, atol=1e-6)
