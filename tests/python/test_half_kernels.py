"""float16/bfloat16 kernels: the vectorized conversions round exactly as the scalar ones (NumPy's float16
rules, bfloat16 to nearest even), and ops on half tensors compute in float32 whatever path they take."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops


def _bfloat16_bits_of(f):
    """The bfloat16 bit patterns of float32 array f, rounded to nearest even (NaN not handled)."""
    u = f.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def _floats_of_every_magnitude(n=1 << 16):
    rng = np.random.default_rng(0)
    f = rng.standard_normal(n).astype(np.float32) * np.float32(10.0) ** rng.integers(-9, 6, n).astype(np.float32)
    edges = [65504, 65519.99, 65520, 1e-8, 6e-8, 3e-8, -0.0, np.inf, -np.inf, 3.4e38, -3.4e38, 1.1754944e-38]
    return np.concatenate([f, np.array(edges, np.float32)])


def test_every_float16_widens_exactly():
    h = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    got = ms.Tensor(h).astype(ms.float32).asnumpy()
    nan = np.isnan(h)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.uint32), h[~nan].astype(np.float32).view(np.uint32))


def test_float32_narrows_to_float16_as_numpy_rounds():
    f = _floats_of_every_magnitude()
    with np.errstate(over="ignore"):
        expected = f.astype(np.float16)
    got = ms.Tensor(f).astype(ms.float16).asnumpy()
    np.testing.assert_array_equal(got.view(np.uint16), expected.view(np.uint16))
    assert np.isnan(ms.Tensor(np.array([np.nan] * 40, np.float32)).astype(ms.float16).asnumpy()).all()


def test_float32_narrows_to_bfloat16_to_nearest_even_and_keeps_nan():
    f = _floats_of_every_magnitude()
    got = ms.Tensor(f).astype(ms.bfloat16).astype(ms.float32).asnumpy()
    np.testing.assert_array_equal(got.view(np.uint32) >> 16, _bfloat16_bits_of(f))
    nan = np.array([np.nan, -np.nan] * 20, np.float32)
    assert np.isnan(ms.Tensor(nan).astype(ms.bfloat16).astype(ms.float32).asnumpy()).all()


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
@pytest.mark.parametrize("n", [1, 7, 513, 4099])
def test_half_elementwise_and_reductions_compute_in_float32(dtype, n):
    rng = np.random.default_rng(n)
    a32 = ms.Tensor(rng.standard_normal((3, n)).astype(np.float32)).astype(dtype).astype(ms.float32)
    b32 = ms.Tensor(rng.standard_normal((1, n)).astype(np.float32)).astype(dtype).astype(ms.float32)
    a, b = a32.astype(dtype), b32.astype(dtype)

    def same(got, expected):  # the float32 result rounded once to the half type
        np.testing.assert_array_equal(got.astype(ms.float32).asnumpy(),
                                      expected.astype(dtype).astype(ms.float32).asnumpy())

    same(a + b, a32 + b32)             # a broadcast operand
    same(a * 2.5, a32 * 2.5)           # a scalar
    same(ops.exp(a), ops.exp(a32))
    same(ops.relu(a), ops.relu(a32))
    np.testing.assert_array_equal((a > b).asnumpy(), (a32 > b32).asnumpy())
    for axis in (0, 1):
        for reduce in (ops.sum, ops.amax, ops.amin):
            np.testing.assert_allclose(reduce(a, axis).astype(ms.float32).asnumpy(),
                                       reduce(a32, axis).astype(dtype).astype(ms.float32).asnumpy(), rtol=1e-2)


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16])
def test_half_softmax_and_layer_norm_over_many_blocks_of_rows(dtype):
    # 300 rows of 1000: ten blocks of rows widened in turn, split across threads.
    x32 = ms.Tensor(np.random.default_rng(2).standard_normal((300, 1000)).astype(np.float32)).astype(dtype)
    x32 = x32.astype(ms.float32)
    x = x32.astype(dtype)
    tol = 1e-2 if dtype == ms.bfloat16 else 2e-3
    for f in (lambda t: ops.softmax(t, -1), lambda t: ops.log_softmax(t, -1)):
        np.testing.assert_allclose(f(x).astype(ms.float32).asnumpy(), f(x32).asnumpy(), rtol=tol, atol=tol * 1e-2)
    gamma, beta = np.linspace(0.5, 2, 1000).astype(np.float32), np.linspace(-1, 1, 1000).astype(np.float32)
    y, mean, rstd = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(
        x, ms.Tensor(gamma).astype(dtype), ms.Tensor(beta).astype(dtype))
    y32, mean32, rstd32 = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(
        x32, ms.Tensor(gamma).astype(dtype).astype(ms.float32), ms.Tensor(beta).astype(dtype).astype(ms.float32))
    assert y.dtype == mean.dtype == dtype
    for got, expected in ((y, y32), (mean, mean32), (rstd, rstd32)):
        np.testing.assert_allclose(got.astype(ms.float32).asnumpy(), expected.asnumpy(), rtol=tol, atol=tol)


def test_bfloat16_convolution_and_its_gradients_match_float32():
    # 16 channels in and out: oneDNN's primitives (natively bfloat16 on CPUs with AVX512-BF16 or AMX).
    rng = np.random.default_rng(4)
    x = ms.Tensor(rng.standard_normal((4, 16, 12, 12)).astype(np.float32)).astype(ms.bfloat16)
    w = ms.Tensor(rng.standard_normal((16, 16, 3, 3)).astype(np.float32) * 0.1).astype(ms.bfloat16)

    def loss(a, b):
        y = ops.conv2d(a, b, pad_mode="pad", padding=1)
        return (y * y).sum(), y

    grads = ms.grad(lambda a, b: loss(a, b)[0], grad_position=(0, 1))
    y, y32 = loss(x, w)[1], loss(x.astype(ms.float32), w.astype(ms.float32))[1]
    assert y.dtype == ms.bfloat16
    for got, expected in [(y, y32)] + list(zip(grads(x, w), grads(x.astype(ms.float32), w.astype(ms.float32)))):
        scale = np.abs(expected.asnumpy()).max()
        np.testing.assert_allclose(got.astype(ms.float32).asnumpy() / scale, expected.asnumpy() / scale, atol=2e-2)


def test_bfloat16_batched_products_match_float32():
    # One oneDNN call per batch where the entries are evenly spaced (a broadcast operand included),
    # one call per entry where they are not; transposed operands read in place.
    rng = np.random.default_rng(6)

    def rounded(shape):
        return ms.Tensor(rng.standard_normal(shape).astype(np.float32)).astype(ms.bfloat16)

    cases = [((4, 8, 16), (4, 16, 8), {}), ((4, 8, 16), (16, 8), {}), ((2, 3, 8, 16), (1, 3, 16, 8), {}),
             ((5, 8, 16), (5, 8, 16), {"transpose_b": True}), ((5, 16, 8), (1, 16, 8), {"transpose_a": True})]
    for a_shape, b_shape, flags in cases:
        a, b = rounded(a_shape), rounded(b_shape)
        got = ops.BatchMatMul(**flags)(a, b) if len(b_shape) == len(a_shape) else ops.matmul(a, b)
        expected = (ops.BatchMatMul(**flags)(a.astype(ms.float32), b.astype(ms.float32)) if len(b_shape) == len(a_shape)
                    else ops.matmul(a.astype(ms.float32), b.astype(ms.float32)))
        assert got.dtype == ms.bfloat16
        np.testing.assert_allclose(got.astype(ms.float32).asnumpy(), expected.asnumpy(), rtol=2e-2, atol=5e-2)
    # Attention's heads: permuted views of one projection (copied dense first), and a flipped batch.
    qkv = rounded((2, 12, 3, 4, 16))
    q, k = (ops.transpose(qkv[:, :, i], (0, 2, 1, 3)) for i in (0, 1))
    for a, b in ((q, ops.transpose(k, (0, 1, 3, 2))), (q[::-1], ops.transpose(k, (0, 1, 3, 2))[:, ::-1])):
        expected = ops.matmul(a.astype(ms.float32), b.astype(ms.float32)).asnumpy()
        np.testing.assert_allclose(ops.matmul(a, b).astype(ms.float32).asnumpy(), expected, rtol=2e-2, atol=5e-2)
