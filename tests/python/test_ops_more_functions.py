"""MindSpore 2.x functions built from other ops (array_view_func, math_products_func, math_elementwise_func,
nn_layout_func, ops.max/min/count_nonzero, prelu, rand/randn): values against NumPy, gradients against
finite differences, compiled against eager, and bad arguments."""
import numpy as np
import pytest

import sprout as ms
from sprout import mint, nn, ops

from finite_differences import check_grad

RNG = np.random.default_rng(7)


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a) if dtype is None else np.asarray(a, dtype))


def randn(*shape):
    return RNG.standard_normal(shape)


# ---- array views and queries -----------------------------------------------------------------------

def test_broadcast_to_as_function_primitive_and_method():
    x = randn(1, 3)
    want = np.broadcast_to(x, (2, 4, 3))
    np.testing.assert_array_equal(ops.broadcast_to(T(x), (2, 4, 3)).asnumpy(), want)
    np.testing.assert_array_equal(ops.BroadcastTo((2, 4, 3))(T(x)).asnumpy(), want)
    np.testing.assert_array_equal(T(x).broadcast_to((4, -1)).asnumpy(), np.broadcast_to(x, (4, 3)))
    with pytest.raises(ValueError, match="BroadcastTo: cannot broadcast"):
        ops.broadcast_to(T(np.ones(3)), (2, 4))
    with pytest.raises(TypeError, match="broadcast_to: 'shape' must be an int or a tuple of ints"):
        ops.broadcast_to(T(x), "3")


def test_axis_moves_match_numpy():
    x = randn(2, 3, 4)
    np.testing.assert_array_equal(ops.swapaxes(T(x), 0, 2).asnumpy(), np.swapaxes(x, 0, 2))
    np.testing.assert_array_equal(ops.swapdims(T(x), -1, 1).asnumpy(), np.swapaxes(x, -1, 1))
    np.testing.assert_array_equal(ops.moveaxis(T(x), 0, -1).asnumpy(), np.moveaxis(x, 0, -1))
    np.testing.assert_array_equal(ops.movedim(T(x), (0, 1), (2, 0)).asnumpy(), np.moveaxis(x, (0, 1), (2, 0)))
    np.testing.assert_array_equal(T(x).swapaxes(1, 2).asnumpy(), np.swapaxes(x, 1, 2))
    with pytest.raises(ValueError, match=r"swapaxes: 'axis1' must be in \[-3, 3\) for a 3-d input, but got 3"):
        ops.swapaxes(T(x), 0, 3)
    with pytest.raises(ValueError, match="moveaxis: 'source' and 'destination' must have as many axes"):
        ops.moveaxis(T(x), (0, 1), 2)
    with pytest.raises(ValueError, match="moveaxis: repeated axis"):
        ops.moveaxis(T(x), (0, 0), (1, 2))


def test_narrow_unbind_and_stacks():
    x = randn(3, 5)
    np.testing.assert_array_equal(ops.narrow(T(x), 1, 1, 3).asnumpy(), x[:, 1:4])
    np.testing.assert_array_equal(ops.narrow(T(x), -1, -2, 2).asnumpy(), x[:, -2:])
    with pytest.raises(ValueError, match="narrow: 'start' 4 and 'length' 2 must stay within axis 1 of size 5"):
        ops.narrow(T(x), 1, 4, 2)
    parts = ops.unbind(T(x), 1)
    assert isinstance(parts, tuple) and len(parts) == 5
    np.testing.assert_array_equal(parts[2].asnumpy(), x[:, 2])
    with pytest.raises(ValueError, match="unbind: 'input' must have at least one dimension"):
        ops.unbind(T(1.0))
    a, b = np.array([1, 2]), np.array([3, 4])
    np.testing.assert_array_equal(ops.hstack([T(a), T(b)]).asnumpy(), np.hstack([a, b]))
    np.testing.assert_array_equal(ops.vstack([T(a), T(b)]).asnumpy(), np.vstack([a, b]))
    np.testing.assert_array_equal(ops.hstack([T(x), T(x[:, :2])]).asnumpy(), np.hstack([x, x[:, :2]]))
    with pytest.raises(TypeError, match="hstack: 'tensors' must be a tuple or list of Tensors"):
        ops.hstack(T(a))


def test_repeat_interleave_and_nonzero():
    x = np.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(ops.repeat_interleave(T(x), 2).asnumpy(), np.repeat(x, 2))
    np.testing.assert_array_equal(ops.repeat_interleave(T(x), 3, axis=1).asnumpy(), np.repeat(x, 3, axis=1))
    np.testing.assert_array_equal(ops.repeat_interleave(T(x), T(2), axis=0).asnumpy(), np.repeat(x, 2, axis=0))
    with pytest.raises(ValueError, match="repeat_interleave: 'repeats' must be >= 0"):
        ops.repeat_interleave(T(x), -1)
    # One count per element (a list, tuple or 1-d Tensor): a Gather, so autodiff and graph mode follow.
    f = x.astype(np.float64)
    for counts, axis in (([1, 3], 0), ((0, 2), 1), (T(np.array([2, 0, 1, 1])), None)):
        want = np.repeat(f, counts.asnumpy() if isinstance(counts, ms.Tensor) else counts, axis=axis)
        np.testing.assert_array_equal(ops.repeat_interleave(T(f), counts, axis).asnumpy(), want)
    np.testing.assert_array_equal(ms.jit(lambda t: ops.repeat_interleave(t, [1, 3], 0))(T(f)).asnumpy(),
                                  np.repeat(f, [1, 3], axis=0))
    weights = np.arange(8.0).reshape(4, 2)
    grad = ms.grad(lambda t: (ops.repeat_interleave(t, [1, 3], 0) * T(weights)).sum())(T(f)).asnumpy()
    np.testing.assert_array_equal(grad, [weights[0], weights[1:].sum(0)])
    np.testing.assert_array_equal(mint.repeat_interleave(T(f), T(np.array([2, 1])), dim=1).asnumpy(),
                                  np.repeat(f, [2, 1], axis=1))
    with pytest.raises(ValueError, match=r"repeat_interleave: 'repeats' must hold one count per element along "
                                         r"axis 0 \(2\), or a single count, but got 3 counts"):
        ops.repeat_interleave(T(f), [1, 2, 3], 0)
    with pytest.raises(ValueError, match="repeat_interleave: 'repeats' must be >= 0, but got"):
        ops.repeat_interleave(T(f), [1, -1], 0)
    with pytest.raises(ValueError, match="repeat_interleave: a Tensor 'repeats' must be a 0-d or 1-d integer"):
        ops.repeat_interleave(T(f), T(np.array([1.0, 2.0])), 0)
    m = np.array([[0.0, 1.5, 0.0], [-2.0, 0.0, np.nan]])
    np.testing.assert_array_equal(ops.nonzero(T(m)).asnumpy(), np.argwhere(m))
    assert ops.nonzero(T(m)).dtype == ms.int64
    for got, want in zip(ops.nonzero(T(m), as_tuple=True), np.nonzero(m)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    assert ops.nonzero(T(np.zeros((2, 3)))).shape == (0, 2)
    np.testing.assert_array_equal(ops.nonzero(T([True, False, True])).asnumpy(), [[0], [2]])
    np.testing.assert_array_equal(T(m).nonzero().asnumpy(), np.argwhere(m))


def test_tensor_queries():
    x = T(np.zeros((2, 3, 4), np.float16))
    assert (ops.numel(x), ops.size(x), ops.rank(x), ops.shape(x)) == (24, 24, 3, (2, 3, 4))
    assert ops.is_tensor(x) and not ops.is_tensor(np.zeros(2))
    assert ops.is_floating_point(x) and not ops.is_floating_point(T([1, 2]))
    assert x.numel() == 24


# ---- reductions ------------------------------------------------------------------------------------

def test_max_and_min_return_values_and_indices():
    x = np.array([[1.0, 5.0, 5.0], [7.0, -1.0, 2.0]])
    values, indices = ops.max(T(x), 1)
    np.testing.assert_array_equal(values.asnumpy(), x.max(1))
    np.testing.assert_array_equal(indices.asnumpy(), [1, 0])  # the first maximum on ties
    assert indices.dtype == ms.int64
    values, indices = ops.min(T(x), 0, keepdims=True)
    np.testing.assert_array_equal(values.asnumpy(), x.min(0, keepdims=True))
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1, 1]])
    values, indices = ops.max(T(x))
    assert float(values.asnumpy()) == 7.0 and int(indices.asnumpy()) == 3
    values, _ = ops.max(T(x), 1, initial=6.0)
    np.testing.assert_array_equal(values.asnumpy(), [6.0, 7.0])
    values, _ = ops.min(T(x), 1, initial=0.0, where=T(x > 1.5))
    np.testing.assert_array_equal(values.asnumpy(), [0.0, 0.0])
    with pytest.raises(ValueError, match="max: 'initial' must be given with 'where'"):
        ops.max(T(x), 1, where=T(x > 0))
    with pytest.raises(TypeError, match="min: 'axis' must be an int or None"):
        ops.min(T(x), (0, 1))
    check_grad(lambda t: ops.max(t, 1)[0], randn(3, 4))


def test_count_nonzero():
    x = np.array([[0, 1, 2], [0, 0, 3]])
    assert int(ops.count_nonzero(T(x)).asnumpy()) == 3
    np.testing.assert_array_equal(ops.count_nonzero(T(x), axis=1).asnumpy(), [2, 1])
    got = ops.count_nonzero(T(x), axis=(0,), keep_dims=True, dtype=ms.int64)
    assert got.dtype == ms.int64 and got.shape == (1, 3)


# ---- products --------------------------------------------------------------------------------------

def test_batched_and_scaled_products():
    a, b, c = randn(2, 3, 4), randn(2, 4, 5), randn(2, 3, 5)
    np.testing.assert_allclose(ops.bmm(T(a), T(b)).asnumpy(), a @ b, rtol=1e-12)
    np.testing.assert_allclose(ops.baddbmm(T(c), T(a), T(b), beta=0.5, alpha=2).asnumpy(), 0.5 * c + 2 * (a @ b),
                               rtol=1e-12)
    m1, m2, bias = randn(3, 4), randn(4, 5), randn(5)
    np.testing.assert_allclose(ops.addmm(T(bias), T(m1), T(m2), beta=2, alpha=0.5).asnumpy(),
                               2 * bias + 0.5 * (m1 @ m2), rtol=1e-12)
    with pytest.raises(ValueError, match="bmm: 'input_x' and 'mat2' must be batches of matrices"):
        ops.bmm(T(m1), T(m2))
    with pytest.raises(ValueError, match="addmm: 'mat1' must be 2-d"):
        ops.addmm(T(bias), T(a), T(m2))
    check_grad(lambda x, y, z: ops.baddbmm(z, x, y, beta=0.5, alpha=2), a, b, c)


def test_outer_inner_kron_cross_trace_diag():
    u, v = randn(3), randn(4)
    np.testing.assert_allclose(ops.outer(T(u), T(v)).asnumpy(), np.outer(u, v), rtol=1e-12)
    x, y = randn(2, 3, 4), randn(5, 4)
    np.testing.assert_allclose(ops.inner(T(x), T(y)).asnumpy(), np.inner(x, y), rtol=1e-12)
    with pytest.raises(ValueError, match="inner: the last dimensions of 'input' and 'other' must match"):
        ops.inner(T(x), T(randn(3)))
    p, q = randn(2, 3), randn(3, 2, 2)
    np.testing.assert_allclose(ops.kron(T(p), T(q)).asnumpy(), np.kron(p, q), rtol=1e-12)
    a, b = randn(4, 3), randn(4, 3)
    np.testing.assert_allclose(ops.cross(T(a), T(b)).asnumpy(), np.cross(a, b), rtol=1e-12)
    np.testing.assert_allclose(ops.cross(T(a.T), T(b.T), dim=0).asnumpy(), np.cross(a.T, b.T, axis=0), rtol=1e-12)
    with pytest.raises(ValueError, match="cross: axis 'dim' 1 of 'input' must exist and have size 3"):
        ops.cross(T(randn(3, 2)), T(randn(3, 2)), dim=1)
    m = randn(3, 5)
    assert float(ops.trace(T(m)).asnumpy()) == pytest.approx(np.trace(m))
    with pytest.raises(ValueError, match="trace: 'input' must be 2-d"):
        ops.trace(T(u))
    np.testing.assert_array_equal(ops.diag(T(u)).asnumpy(), np.diag(u))
    d2 = np.arange(6.0).reshape(2, 3)
    want = np.zeros((2, 3, 2, 3))
    for i in range(2):
        for j in range(3):
            want[i, j, i, j] = d2[i, j]
    np.testing.assert_array_equal(ops.diag(T(d2)).asnumpy(), want)
    check_grad(ops.cross, a, b)
    check_grad(ops.kron, p, q)
    check_grad(ops.trace, m)


def test_cdist_takes_differences_in_tiles():
    # Note [Distances by tiles]: the differences themselves, so identical rows are exactly 0 apart (a matrix
    # product's |a|^2 + |b|^2 - 2 a.b leaves ~1e-3 there); rows across the 8-, 4- and 1-row tiles, columns
    # across 32-row panels, a batch, strided and float16 inputs.
    rng = np.random.default_rng(8)
    a = rng.standard_normal((3, 45, 19)).astype(np.float32) * 100
    b = np.concatenate([a[:, :7], rng.standard_normal((3, 66, 19)).astype(np.float32)], axis=1)
    diff = np.abs(a[:, :, None, :].astype(np.float64) - b[:, None, :, :])
    for p, want in ((2.0, np.sqrt((diff ** 2).sum(-1))), (1.0, diff.sum(-1)), (0.5, (diff ** 0.5).sum(-1) ** 2),
                    (float("inf"), diff.max(-1)), (0.0, (diff != 0).sum(-1))):
        got = ops.cdist(ms.Tensor(a), ms.Tensor(b), p).asnumpy()
        np.testing.assert_allclose(got, want, rtol=2e-6, err_msg=f"p={p}")
        assert (np.diagonal(got[:, :7, :7], axis1=1, axis2=2) == 0).all(), p
    strided = ms.Tensor(np.ascontiguousarray(a[0].T)).T  # a transposed view
    np.testing.assert_allclose(ops.cdist(strided, ms.Tensor(b[0])).asnumpy(), np.sqrt((diff[0] ** 2).sum(-1)),
                               rtol=2e-6)
    half = ops.cdist(ms.Tensor(a[0, :4] / 100, ms.float16), ms.Tensor(b[0, :5], ms.float16))
    assert half.dtype == ms.float16 and half.shape == (4, 5)
    # p = 2's gradient: (x - y) / d summed by products, 0 where two rows coincide.
    x = T(a[0, :3].astype(np.float64))
    g = ms.grad(lambda v: ops.cdist(v, v).sum())(x).asnumpy()
    d = np.sqrt(((a[0, :3, None].astype(np.float64) - a[0, None, :3]) ** 2).sum(-1))
    t = a[0, :3, None].astype(np.float64) - a[0, None, :3]
    want = (np.where(d[..., None] > 0, t / np.where(d > 0, d, 1)[..., None], 0)).sum(1) * 2  # both arguments
    np.testing.assert_allclose(g, want, rtol=1e-10)


def test_pdist_takes_the_pairs_of_cdist():
    # ops.pdist is Cdist of the rows with themselves, the pairs i < j gathered in row-major order: N^2
    # distances in memory, not N(N-1)/2 difference rows; leading batch axes, empty inputs and every p.
    rng = np.random.default_rng(10)
    x = rng.standard_normal((2, 3, 41, 5))
    i, j = np.triu_indices(41, 1)
    diff = np.abs(x[..., i, :] - x[..., j, :])
    for p, want in ((2.0, np.sqrt((diff ** 2).sum(-1))), (1.0, diff.sum(-1)), (float("inf"), diff.max(-1))):
        got = ops.pdist(T(x), p).asnumpy()
        assert got.shape == (2, 3, 820)
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert ops.pdist(T(np.ones((1, 3)))).shape == (0,) and ops.pdist(T(np.ones((2, 0, 3)))).shape == (2, 0)
    check_grad(ops.pdist, rng.standard_normal((6, 3)), rtol=1e-5)


def test_cdist_and_cosine_similarity():
    a, b = randn(2, 5, 3), randn(2, 4, 3)
    diff = a[:, :, None, :] - b[:, None, :, :]
    for p, want in ((2.0, np.sqrt((diff ** 2).sum(-1))), (1.0, np.abs(diff).sum(-1)),
                    (3.0, (np.abs(diff) ** 3).sum(-1) ** (1 / 3)), (float("inf"), np.abs(diff).max(-1)),
                    (0.0, (diff != 0).sum(-1))):
        np.testing.assert_allclose(ops.cdist(T(a), T(b), p).asnumpy(), want, rtol=1e-10)
    np.testing.assert_allclose(ops.cdist(T(a[0]), T(b[0])).asnumpy(), np.sqrt((diff[0] ** 2).sum(-1)), rtol=1e-10)
    with pytest.raises(ValueError, match="cdist: 'x1' and 'x2' must be"):
        ops.cdist(T(a), T(randn(2, 4, 2)))
    with pytest.raises(ValueError, match="cdist: 'p' must be a number >= 0"):
        ops.cdist(T(a), T(b), -1.0)
    check_grad(ops.cdist, a, b)
    x, y = randn(4, 6), randn(4, 6)
    want = (x * y).sum(1) / np.maximum(np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1), 1e-8)
    np.testing.assert_allclose(ops.cosine_similarity(T(x), T(y)).asnumpy(), want, rtol=1e-10)
    np.testing.assert_array_equal(ops.cosine_similarity(T(np.zeros((2, 3))), T(x[:2, :3])).asnumpy(), [0.0, 0.0])
    check_grad(ops.cosine_similarity, x, y)


# ---- elementwise -----------------------------------------------------------------------------------

def test_elementwise_functions_match_numpy():
    x = np.abs(randn(10)) + 0.1
    s = randn(10) * 5
    cases = [(ops.log2, np.log2, x), (ops.log10, np.log10, x), (ops.exp2, np.exp2, s), (ops.trunc, np.trunc, s),
             (ops.frac, lambda v: v - np.trunc(v), s), (ops.deg2rad, np.deg2rad, s), (ops.rad2deg, np.rad2deg, s)]
    for fn, ref, arg in cases:
        np.testing.assert_allclose(fn(T(arg)).asnumpy(), ref(arg), rtol=1e-12, err_msg=fn.__name__)
    y = randn(10) * 5
    np.testing.assert_allclose(ops.hypot(T(s), T(y)).asnumpy(), np.hypot(s, y), rtol=1e-12)
    np.testing.assert_allclose(ops.hypot(T([0.0, 1e300]), T([0.0, 1e300])).asnumpy(), np.hypot([0, 1e300], [0, 1e300]),
                               rtol=1e-15)  # no overflow to inf, no 0 / 0
    np.testing.assert_allclose(ops.logaddexp(T(s), T(y)).asnumpy(), np.logaddexp(s, y), rtol=1e-12)
    big = np.array([1000.0, -np.inf, np.inf])
    np.testing.assert_array_equal(ops.logaddexp(T(big), T(np.array([1000.0, -np.inf, 1.0]))).asnumpy(),
                                  np.logaddexp(big, [1000.0, -np.inf, 1.0]))
    assert ops.log2(T([8, 16])).dtype == ms.float32  # integers give Float32
    np.testing.assert_array_equal(ops.trunc(T([3, -4])).asnumpy(), [3, -4])
    check_grad(ops.hypot, s, y)
    check_grad(ops.logaddexp, s, y)
    ties = ms.grad(lambda a, b: ops.logaddexp(a, b).sum(), (0, 1))(T([1.0, np.inf]), T([1.0, np.inf]))
    np.testing.assert_array_equal([g.asnumpy() for g in ties], [[0.5, 0.5], [0.5, 0.5]])  # not all to one side
    near_max = np.array([3e38, -3e38], np.float32)  # equal values whose sum would overflow float32
    np.testing.assert_allclose(ops.logaddexp(T(near_max), T(near_max)).asnumpy(), np.logaddexp(near_max, near_max))
    check_grad(ops.log2, x)


def test_isclose_and_nan_to_num():
    a = np.array([1.0, 1.0, np.inf, np.inf, np.nan, 0.0])
    b = np.array([1.0 + 1e-9, 1.1, np.inf, -np.inf, np.nan, 1e-9])
    for kwargs in ({}, {"equal_nan": True}, {"rtol": 0.2}, {"atol": 0.0}):
        np.testing.assert_array_equal(ops.isclose(T(a), T(b), **kwargs).asnumpy(), np.isclose(a, b, **kwargs),
                                      err_msg=str(kwargs))
    with pytest.raises(ValueError, match="isclose: 'rtol' must be a number >= 0"):
        ops.isclose(T(a), T(b), rtol=-1)
    v = np.array([np.nan, np.inf, -np.inf, 2.5], np.float32)
    np.testing.assert_array_equal(ops.nan_to_num(T(v)).asnumpy(), np.nan_to_num(v))
    np.testing.assert_array_equal(ops.nan_to_num(T(v), 1.0, 9.0, -9.0).asnumpy(),
                                  np.nan_to_num(v, nan=1.0, posinf=9.0, neginf=-9.0))
    np.testing.assert_array_equal(ops.nan_to_num(T(v.astype(np.float64))).asnumpy(), np.nan_to_num(v.astype(np.float64)))
    with pytest.raises(TypeError, match="nan_to_num: 'nan' must be a number"):
        ops.nan_to_num(T(v), nan="0")
    # MindSpore's primitive: None means the dtype's own limits, resolved where the input's dtype is known.
    half = np.array([np.nan, np.inf, -np.inf, 1.5], np.float16)
    np.testing.assert_array_equal(ops.NanToNum()(T(half, np.float16)).asnumpy(), np.nan_to_num(half))
    np.testing.assert_array_equal(ops.NanToNum(nan=2.0, posinf=5.0)(T(v)).asnumpy(),
                                  np.nan_to_num(v, nan=2.0, posinf=5.0))
    with pytest.raises(TypeError, match="NanToNum"):
        ops.NanToNum(posinf="big")


# ---- nn ----------------------------------------------------------------------------------------------

def _pixel_shuffle_reference(x, r):
    n, c, h, w = x.shape
    return x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (r * r), h * r, w * r)


def test_pixel_shuffle_and_unshuffle():
    x = randn(2, 8, 3, 5)
    y = ops.pixel_shuffle(T(x), 2)
    np.testing.assert_array_equal(y.asnumpy(), _pixel_shuffle_reference(x, 2))
    np.testing.assert_array_equal(ops.pixel_unshuffle(y, 2).asnumpy(), x)
    np.testing.assert_array_equal(ops.pixel_shuffle(T(x[0]), 2).asnumpy(), _pixel_shuffle_reference(x[:1], 2)[0])
    with pytest.raises(ValueError, match="pixel_shuffle: 'input' must be .* divisible by upscale_factor"):
        ops.pixel_shuffle(T(randn(1, 6, 2, 2)), 2)
    with pytest.raises(ValueError, match="pixel_unshuffle: 'downscale_factor' must be >= 1"):
        ops.pixel_unshuffle(T(x), 0)
    check_grad(lambda t: ops.pixel_shuffle(t, 2), randn(1, 4, 2, 3))


def test_prelu():
    x, w = randn(2, 3, 4), np.array([0.1, 0.2, 0.3])
    want = np.where(x > 0, x, w[None, :, None] * x)
    np.testing.assert_allclose(ops.prelu(T(x), T(w)).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(ops.prelu(T(x), T([0.25])).asnumpy(), np.where(x > 0, x, 0.25 * x), rtol=1e-12)
    with pytest.raises(ValueError, match=r"prelu: 'weight' must be 1-d with 1 or 3 \(the channels of 'x'\)"):
        ops.prelu(T(x), T([0.1, 0.2]))
    check_grad(ops.prelu, x, w)


# ---- random ------------------------------------------------------------------------------------------

def test_rand_and_randn():
    ms.set_seed(5)
    u = ops.rand(200, 50)
    assert u.shape == (200, 50) and u.dtype == ms.float32
    values = u.asnumpy()
    assert values.min() >= 0 and values.max() < 1 and abs(values.mean() - 0.5) < 0.02
    z = ops.randn((400, 50), dtype=ms.float64)
    assert z.dtype == ms.float64 and abs(z.asnumpy().std() - 1) < 0.03
    ms.set_seed(5)
    np.testing.assert_array_equal(ops.rand(200, 50).asnumpy(), values)  # reproducible under set_seed
    assert not np.array_equal(ops.rand(200, 50).asnumpy(), values)      # successive calls differ
    with pytest.raises(TypeError, match="randn: 'dtype' must be a floating-point type"):
        ops.randn(2, dtype=ms.int32)


# ---- graph mode --------------------------------------------------------------------------------------

def test_compiled_functions_match_eager():
    def body(x, y, w):
        values, indices = ops.max(x, 1)
        parts = (ops.swapaxes(x, 0, 1), ops.kron(x, y), ops.nan_to_num(ops.log2(x)), ops.cross(y, y + 1.0),
                 ops.pixel_shuffle(ops.reshape(x, (1, 4, 1, 3)), 2), ops.prelu(x, w), ops.logaddexp(x, y[:1]),
                 ops.broadcast_to(w, (2, 4)))
        return (values, indices) + parts

    x, y, w = T(randn(4, 3)), T(randn(2, 3)), T(randn(1))
    eager = body(x, y, w)
    compiled = ms.jit(body)(x, y, w)
    assert len(eager) == len(compiled)
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-12, equal_nan=True)


def test_prelu_and_pixel_shuffle_layers_train():
    net = ms.nn.SequentialCell(ms.nn.PixelShuffle(2), ms.nn.PReLU(channel=2), ms.nn.PixelUnshuffle(2))
    params = net.trainable_params()
    assert [p.shape for p in params] == [(2,)] and np.allclose(params[0].asnumpy(), 0.25)
    x = T(randn(3, 8, 2, 2).astype(np.float32))
    want = np.where(x.asnumpy() > 0, x.asnumpy(), 0.25 * x.asnumpy())  # shuffling there and back is the identity
    np.testing.assert_allclose(net(x).asnumpy(), want, rtol=1e-6)
    grads = ms.grad(lambda v: net(v).sum(), grad_position=None, weights=params)(x)
    # d/dw of sum(w_c * x) over the negative elements of channel c (after the shuffle: 4 input channels each).
    neg = np.minimum(x.asnumpy(), 0).reshape(3, 2, 4, 2, 2).sum(axis=(0, 2, 3, 4))
    np.testing.assert_allclose(grads[0].asnumpy(), neg, rtol=1e-5)
    assert isinstance(ms.nn.get_activation("prelu"), ms.nn.PReLU)
    with pytest.raises(ValueError, match="PReLU: 'channel' must be a positive int"):
        ms.nn.PReLU(channel=0)


# ---- searching, positions, scans -----------------------------------------------------------------------

def test_searchsorted_and_bucketize():
    seq, vals = np.array([[0.0, 1, 3, 5, 7], [2, 4, 6, 8, 10]]), np.array([[3.0, 6, 9], [3, 6, 9]])
    for right in (False, True):
        want = np.stack([np.searchsorted(s, v, side="right" if right else "left") for s, v in zip(seq, vals)])
        got = ops.searchsorted(T(seq), T(vals), right=right)
        np.testing.assert_array_equal(got.asnumpy(), want)
        assert got.dtype == ms.int64
    flat = np.array([1.0, 2.0, 2.0, 3.0])
    np.testing.assert_array_equal(ops.searchsorted(T(flat), T([[2.0, 0.5], [3.5, 2.0]]), side="right").asnumpy(),
                                  np.searchsorted(flat, [[2.0, 0.5], [3.5, 2.0]], side="right"))
    assert ops.searchsorted(T(flat), T([2.0]), out_int32=True).dtype == ms.int32
    with pytest.raises(ValueError, match="searchsorted: side='left' contradicts right=True"):
        ops.searchsorted(T(flat), T([2.0]), right=True, side="left")
    x = np.array([[3, 6, 9], [3, 6, 9]])
    got = ops.bucketize(T(x), [1.0, 3, 5, 7, 9])
    np.testing.assert_array_equal(got.asnumpy(), np.digitize(x, [1, 3, 5, 7, 9], right=True))
    assert got.dtype == ms.int32
    np.testing.assert_array_equal(ops.bucketize(T(x), [1.0, 3, 5, 7, 9], right=True).asnumpy(),
                                  np.digitize(x, [1, 3, 5, 7, 9]))
    with pytest.raises(TypeError, match="bucketize: 'boundaries' must be a list of numbers"):
        ops.bucketize(T(x), T([1.0]))


def test_diagonal_triangles_and_rotations():
    x = randn(2, 3, 4)
    for args in ((0, 0, 1), (1, 0, 2), (-1, 2, 1), (5, 1, 2)):
        np.testing.assert_array_equal(ops.diagonal(T(x), *args).asnumpy(), np.diagonal(x, *args), err_msg=str(args))
    check_grad(lambda t: ops.diagonal(t, 1, 1, 2), x)
    np.testing.assert_array_equal(ops.tril_indices(3, 4, 1).asnumpy(), np.stack(np.tril_indices(3, 1, 4)))
    np.testing.assert_array_equal(ops.triu_indices(4, 3, -1, dtype=ms.int32).asnumpy(), np.stack(np.triu_indices(4, -1, 3)))
    for k in (-1, 0, 1, 2, 3, 5):
        np.testing.assert_array_equal(ops.rot90(T(x), k, (0, 2)).asnumpy(), np.rot90(x, k, (0, 2)), err_msg=str(k))
    np.testing.assert_array_equal(ops.fliplr(T(x)).asnumpy(), np.fliplr(x))
    np.testing.assert_array_equal(ops.flipud(T(x)).asnumpy(), np.flipud(x))
    for shape in ((), (3,), (2, 3), (2, 3, 4)):
        a = np.zeros(shape)
        for fn in ("atleast_1d", "atleast_2d", "atleast_3d"):
            assert getattr(ops, fn)(T(a)).shape == getattr(np, fn)(a).shape, (fn, shape)
    assert [t.shape for t in ops.atleast_2d([T(1.0), T(np.zeros(3))])] == [(1, 1), (1, 3)]
    np.testing.assert_array_equal(ops.argwhere(T([[0, 2], [3, 0]])).asnumpy(), np.argwhere([[0, 2], [3, 0]]))
    with pytest.raises(ValueError, match="rot90: 'dims' must be two different axes"):
        ops.rot90(T(x), 1, (1, 1))


def test_index_add_and_index_fill():
    x, y = randn(4, 3), randn(3, 2)
    target = randn(4, 2)
    got = ops.index_add(T(target), T(np.array([0, 3, 0], np.int32)), T(y), 0)
    want = target.copy()
    np.add.at(want, [0, 3, 0], y)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)
    param = ms.Parameter(T(target.copy()), name="p")
    out = ops.index_add(param, T(np.array([1, 1, 2])), T(y), 0)  # a Parameter is updated in place too
    want = target.copy()
    np.add.at(want, [1, 1, 2], y)
    np.testing.assert_allclose(param.asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12)
    check_grad(lambda a, b: ops.index_add(a, T(np.array([2, 0, 2])), b, 0), target, y)
    with pytest.raises(ValueError, match="index_add: 'y' must have the shape of 'x'"):
        ops.index_add(T(target), T(np.array([0, 1])), T(y), 0)
    filled = ops.index_fill(T(x), 1, T(np.array([0, 2])), -1.0).asnumpy()
    want = x.copy()
    want[:, [0, 2]] = -1.0
    np.testing.assert_array_equal(filled, want)
    with pytest.raises(TypeError, match="index_fill: 'index' must be a 1-d int32 or int64 tensor"):
        ops.index_fill(T(x), 1, T(np.array([0.5])), 1.0)


def test_median_scans_and_small_elementwise_functions():
    x = randn(3, 6)
    values, indices = ops.median(T(x), 1)
    np.testing.assert_array_equal(values.asnumpy(), np.sort(x, 1)[:, 2])  # the lower middle of six
    np.testing.assert_array_equal(indices.asnumpy(), np.argsort(x, 1)[:, 2])
    values, _ = ops.median(T(x), 0, keepdims=True)
    assert values.shape == (1, 6)
    y = np.array([[-100.0, 0.0, 100.0, 3.0, -np.inf], [1.0, 2.0, 3.0, 4.0, 5.0]])
    np.testing.assert_allclose(ops.logcumsumexp(T(y), 1).asnumpy(), np.logaddexp.accumulate(y, 1), rtol=1e-12)
    np.testing.assert_allclose(ops.logcumsumexp(T(x), 0).asnumpy(), np.logaddexp.accumulate(x, 0), rtol=1e-12)
    check_grad(lambda t: ops.logcumsumexp(t, 1), x)
    a, b = randn(2, 3, 4), randn(4, 3, 5)
    np.testing.assert_allclose(ops.tensor_dot(T(a), T(b), ((1, 2), (1, 0))).asnumpy(),
                               np.tensordot(a, b, ((1, 2), (1, 0))), rtol=1e-12)
    np.testing.assert_allclose(ops.tensor_dot(T(a), T(b.transpose(0, 2, 1)), 1).asnumpy(),
                               np.tensordot(a, b.transpose(0, 2, 1), 1), rtol=1e-12)
    with pytest.raises(ValueError, match="tensor_dot: the paired axes"):
        ops.tensor_dot(T(a), T(b), ((0,), (0,)))
    v = np.array([1.0, 4.0, 9.0, 16.0])
    np.testing.assert_array_equal(ops.diff(T(v)).asnumpy(), np.diff(v))
    np.testing.assert_array_equal(ops.diff(T(v), 2, prepend=T([0.0]), append=T([30.0])).asnumpy(),
                                  np.diff(v, 2, prepend=[0.0], append=[30.0]))
    p = np.array([0.0, 2.0, 0.5])
    np.testing.assert_allclose(ops.xlogy(T(p), T([0.0, np.e, 4.0])).asnumpy(), [0.0, 2.0, 0.5 * np.log(4.0)])
    assert np.isnan(ops.xlogy(T([0.0]), T([np.nan])).asnumpy()[0])
    np.testing.assert_allclose(ops.logit(T([0.25, 0.0]), eps=0.1).asnumpy(), np.log([1 / 3, 0.1 / 0.9]), rtol=1e-12)
    np.testing.assert_array_equal(ops.heaviside(T([-2.0, 0.0, 3.0]), T(0.5)).asnumpy(), [0.0, 0.5, 1.0])
    np.testing.assert_allclose(ops.addcdiv(T([1.0]), T([2.0]), T([4.0]), value=3).asnumpy(), [2.5])
    ms.set_seed(1)
    samples = ops.normal((20000,), 5.0, 0.5).asnumpy()
    assert abs(samples.mean() - 5.0) < 0.02 and abs(samples.std() - 0.5) < 0.02


# ---- scans, counting, windows, distances, small constructors ---------------------------------------------

def test_cummax_and_cummin():
    x = np.array([[1.0, 3, 3, 2, 5, 0], [2, 2, 1, 4, 4, 4]])
    values, indices = ops.cummax(T(x), 1)
    np.testing.assert_array_equal(values.asnumpy(), np.maximum.accumulate(x, 1))
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1, 2, 2, 4, 4], [0, 1, 1, 3, 4, 5]])  # ties: the latest
    values, indices = ops.cummin(T(x.T.astype(np.int32)), 0)
    np.testing.assert_array_equal(values.asnumpy(), np.minimum.accumulate(x.T, 0))
    assert values.dtype == ms.int32 and indices.dtype == ms.int64
    for dtype in (np.int64, np.uint8):  # the scan pads with the dtype's limit: int64's max read as 2^63 once
        np.testing.assert_array_equal(ops.cummin(T(x.astype(dtype)), 1)[0].asnumpy(), np.minimum.accumulate(x, 1))
        np.testing.assert_array_equal(ops.cummax(T(x.astype(dtype)), 1)[0].asnumpy(), np.maximum.accumulate(x, 1))
    r = randn(3, 5)
    check_grad(lambda t: ops.cummax(t, 1)[0], r)
    with pytest.raises(ValueError, match="cummin: 'axis' must be an int in range"):
        ops.cummin(T(x), 2)


def test_histc_and_bincount():
    data = RNG.uniform(-1, 3, 200)
    np.testing.assert_array_equal(ops.histc(T(data), 8, min=0.0, max=2.0).asnumpy(),
                                  np.histogram(data, 8, (0.0, 2.0))[0])
    np.testing.assert_array_equal(ops.histc(T(data), 5).asnumpy(), np.histogram(data, 5)[0])  # the data's range
    values = np.array([0, 1, 1, 3, 7])
    np.testing.assert_array_equal(ops.bincount(T(values)).asnumpy(), np.bincount(values))
    np.testing.assert_array_equal(ops.bincount(T(values), minlength=10).asnumpy(), np.bincount(values, minlength=10))
    w = RNG.standard_normal(5)
    np.testing.assert_allclose(ops.bincount(T(values), T(w)).asnumpy(), np.bincount(values, w), rtol=1e-12)
    with pytest.raises(ValueError, match="bincount: 'input' must be non-negative"):
        ops.bincount(T(np.array([1, -1])))


def test_unfold_and_fold():
    x = randn(2, 3, 5, 6)
    cols = ops.unfold(T(x), (2, 3), padding=1, stride=(2, 1)).asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.stack([padded[:, :, i:i + 2, j:j + 3].reshape(2, -1) for i in range(0, 6, 2) for j in range(6)], -1)
    np.testing.assert_array_equal(cols, want)
    np.testing.assert_array_equal(ops.unfold(T(x), 2, dilation=2).asnumpy()[:, :, 0],
                                  x[:, :, ::2, ::2][:, :, :2, :2].reshape(2, -1))
    # fold adds every window back: an all-ones unfold-then-fold counts the windows covering each pixel.
    folded = ops.fold(T(cols), (5, 6), (2, 3), padding=1, stride=(2, 1)).asnumpy()
    counts = ops.fold(ops.unfold(T(np.ones_like(x)), (2, 3), padding=1, stride=(2, 1)), (5, 6), (2, 3), padding=1,
                      stride=(2, 1)).asnumpy()
    np.testing.assert_allclose(folded, x * counts, rtol=1e-12)
    check_grad(lambda t: ops.unfold(t, 2, stride=2), randn(1, 2, 4, 4))
    with pytest.raises(ValueError, match="fold: 'input' must be"):
        ops.fold(T(cols[:, :, :5]), (5, 6), (2, 3), padding=1, stride=(2, 1))
    with pytest.raises(ValueError, match="unfold: a 9x9 window"):
        ops.unfold(T(x), 9)


def test_power_average_pooling():
    x = np.abs(randn(1, 2, 4, 6)) + 0.1
    want = (x.reshape(1, 2, 2, 2, 3, 2) ** 3).sum(axis=(3, 5)) ** (1 / 3)
    np.testing.assert_allclose(ops.lp_pool2d(T(x), 3, 2).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(nn.LPPool2d(3, 2)(T(x)).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(nn.LPPool1d(2, 3)(T(x[0, 0])).asnumpy(),
                               np.sqrt((x[0, 0].reshape(4, 2, 3) ** 2).sum(-1)), rtol=1e-12)


def test_distances_clipping_and_small_constructors():
    a, b = randn(4, 3), randn(4, 3)
    assert float(ops.dist(T(a), T(b)).asnumpy()) == pytest.approx(np.linalg.norm(a - b))
    assert float(ops.dist(T(a), T(b), 1).asnumpy()) == pytest.approx(np.abs(a - b).sum())
    np.testing.assert_allclose(ops.pairwise_distance(T(a), T(b)).asnumpy(), np.linalg.norm(a - b + 1e-6, axis=-1),
                               rtol=1e-12)
    v = np.array([3.0, 4.0])
    np.testing.assert_allclose(ops.clip_by_norm(T(v), 1.0).asnumpy(), v / (5 + 1e-6), rtol=1e-6)
    kept = ops.clip_by_norm((T(v), T(v)), 100.0)
    assert isinstance(kept, tuple) and np.array_equal(kept[0].asnumpy(), v)
    with pytest.raises(RuntimeError, match="clip_by_norm: the total 2.0-norm of 'x' is not finite"):
        ops.clip_by_norm(T([np.inf, 1.0]), 1.0, error_if_nonfinite=True)
    base = np.zeros((3, 2))
    got = ops.tensor_scatter_add(T(base), T(np.array([[1], [1], [2]])), T(np.ones((3, 2))))
    np.testing.assert_array_equal(got.asnumpy(), [[0, 0], [2, 2], [1, 1]])
    got = ops.tensor_scatter_sub(T(base), T(np.array([[0, 1]])), T(np.array([5.0])))
    np.testing.assert_array_equal(got.asnumpy(), [[0, -5], [0, 0], [0, 0]])
    with pytest.raises(ValueError, match=r"tensor_scatter_add: 'updates' must have shape \(1, 2\)"):
        ops.tensor_scatter_add(T(base), T(np.array([[0]])), T(np.ones(2)))
    np.testing.assert_array_equal(ops.repeat_elements(T(np.array([[1, 2]])), 2, 1).asnumpy(), [[1, 1, 2, 2]])
    assert ops.scalar_to_tensor(3, ms.int32).dtype == ms.int32 and ops.tuple_to_array((1, 2)).dtype == ms.int32
    assert ops.tuple_to_array((1, 2.5)).dtype == ms.float32
    img = T(randn(1, 1, 2, 2))
    np.testing.assert_array_equal(ops.upsample(img, scale_factor=2.0).asnumpy(), ops.interpolate(img, scale_factor=2.0).asnumpy())
    ms.set_seed(2)
    lap = ops.standard_laplace((40000,)).asnumpy()
    assert abs(lap.mean()) < 0.03 and abs(np.abs(lap).mean() - 1.0) < 0.03  # E|X| = 1 for Laplace(0, 1)
    draws = ops.random_categorical(T(np.log(np.array([[0.2, 0.8]], np.float32))), 4000).asnumpy()
    assert draws.shape == (1, 4000) and abs(draws.mean() - 0.8) < 0.03


def test_empty_inputs_and_more_bad_arguments():
    empty = T(np.zeros(0, np.float32))
    np.testing.assert_array_equal(ops.histc(empty, 4).asnumpy(), np.zeros(4))  # no data range to take
    assert ops.cummax(T(np.zeros((2, 0))), 1)[0].shape == (2, 0)
    assert ops.bincount(T(np.zeros(0, np.int64))).shape == (0,)
    assert ops.searchsorted(T([1.0, 2.0]), empty).shape == (0,)
    with pytest.raises(ValueError, match="median: axis 1 of 'input' is empty"):
        ops.median(T(np.zeros((2, 0))), 1)
    with pytest.raises(ValueError, match="histc: 'bins' must be a positive int"):
        ops.histc(T([1.0]), 0)
    with pytest.raises(ValueError, match="histc: 'min' must not exceed 'max'"):
        ops.histc(T([1.0]), 4, min=2.0, max=1.0)
    with pytest.raises(TypeError, match="bincount: 'input' must be a 1-d integer tensor"):
        ops.bincount(T([1.0, 2.0]))
    with pytest.raises(ValueError, match="bincount: 'weights' must have the shape of 'input'"):
        ops.bincount(T(np.array([0, 1])), T([1.0]))
    with pytest.raises(TypeError, match="scalar_to_tensor: 'input_x' must be an int or float"):
        ops.scalar_to_tensor("1")
    with pytest.raises(TypeError, match="tuple_to_array: 'input_x' must be a non-empty tuple of numbers"):
        ops.tuple_to_array([1, 2])
    with pytest.raises(TypeError, match="clip_by_norm: 'x' must be a Tensor or a non-empty tuple/list of Tensors"):
        ops.clip_by_norm([], 1.0)
    with pytest.raises(ValueError, match="clip_by_norm: 'max_norm' must be a number >= 0"):
        ops.clip_by_norm(T([1.0]), -1.0)
    with pytest.raises(ValueError, match="diagonal: 'dim1' and 'dim2' must differ"):
        ops.diagonal(T(np.zeros((2, 2))), 0, 1, 1)
    with pytest.raises(TypeError, match="grid_sample: 'input' and 'grid' must share a floating-point dtype"):
        ops.grid_sample(T(np.zeros((1, 1, 2, 2), np.float32)), T(np.zeros((1, 2, 2, 2))))
    with pytest.raises(TypeError, match="Unflatten: 'unflattened_size' must be a tuple or list"):
        nn.Unflatten(1, 4)


# ---- inputs a fuzzer found mishandled -------------------------------------------------------------------

def test_out_of_range_axes_are_value_errors_naming_the_op():
    x = T(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    with pytest.raises(ValueError, match=r"topk: 'dim' must be in \[-3, 3\) for a 3-d input, but got 3"):
        ops.topk(x, 1, dim=3)
    with pytest.raises(ValueError, match=r"topk: 'dim' must be in \[-3, 3\) for a 3-d input, but got -4"):
        ops.topk(x, 1, dim=-4)
    for axis in (3, -4):
        with pytest.raises(ValueError, match=rf"median: 'axis' must be in \[-3, 3\) for a 3-d input, but got {axis}"):
            ops.median(x, axis=axis)
    with pytest.raises(ValueError, match=r"split: 'axis' must be in \[-3, 3\) for a 3-d input, but got 100"):
        ops.split(x, 1, axis=100)
    with pytest.raises(ValueError, match=r"chunk: 'axis' must be in \[-3, 3\) for a 3-d input, but got -100"):
        ops.chunk(x, 2, axis=-100)
    assert ops.topk(x, 1, dim=-3)[0].shape == (1, 3, 4) and ops.median(x, axis=-3)[0].shape == (3, 4)


def test_zero_d_inputs():
    s = T(np.array(1.5, np.float32))
    with pytest.raises(ValueError, match="diff: 'x' must have at least one dimension, but got a 0-d tensor"):
        ops.diff(s)
    with pytest.raises(ValueError, match="narrow: 'input' must have at least one dimension, but got a 0-d tensor"):
        ops.narrow(s, 0, 0, 1)
    # Axis 0 and -1 name a 0-d tensor's one element, as PyTorch's swapaxes and NumPy's repeat take them.
    assert ops.swapaxes(s, 0, -1).shape == () and ops.swapaxes(s, 0, -1).item() == 1.5
    np.testing.assert_array_equal(ops.repeat_interleave(s, 2, 0).asnumpy(), [1.5, 1.5])
    np.testing.assert_array_equal(ops.repeat_elements(s, 3).asnumpy(), [1.5, 1.5, 1.5])
    filled = ops.index_fill(s, 0, T(np.array([0], np.int32)), 7.0)
    assert filled.shape == () and filled.item() == 7.0
    assert ops.index_fill(s, 0, T(np.array([], np.int32)), 7.0).item() == 1.5
    np.testing.assert_array_equal(ops.index_fill(T(np.ones((2, 3))), 1, T(np.array([], np.int64)), 7.0).asnumpy(),
                                  np.ones((2, 3)))  # an empty index fills nothing
    with pytest.raises(ValueError, match=r"swapaxes: 'axis0' must be in \[-1, 1\) for a 0-d input, but got 1"):
        ops.swapaxes(s, 1, 0)


def test_nan_propagates_through_median_and_running_extremes():
    x = np.array([1.0, np.nan, 3.0, np.nan, 2.0], np.float32)
    for fn in (ops.cummax, ops.cummin):  # as PyTorch's: NaN wins from where it occurs, the latest NaN's index
        values, indices = fn(T(x), 0)
        np.testing.assert_array_equal(values.asnumpy(), [1.0, np.nan, np.nan, np.nan, np.nan])
        np.testing.assert_array_equal(indices.asnumpy(), [0, 1, 1, 3, 3])
    rows = np.array([[3.0, 1.0, 2.0], [np.nan, 5.0, np.nan]])
    values, indices = ops.median(T(rows), 1)  # as PyTorch's: NaN, at the first NaN
    np.testing.assert_array_equal(values.asnumpy(), [2.0, np.nan])
    np.testing.assert_array_equal(indices.asnumpy(), [2, 0])
    values, indices = ops.median(T(x))
    assert np.isnan(values.item()) and indices.item() == 1
    flags = np.array([[True, False, True], [False, False, True]])
    values, indices = ops.cummax(T(flags), 1)
    np.testing.assert_array_equal(values.asnumpy(), np.maximum.accumulate(flags, 1))
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 0, 2], [0, 1, 2]])
    np.testing.assert_array_equal(ops.cummin(T(flags), 1)[0].asnumpy(), np.minimum.accumulate(flags, 1))


def test_hypot_at_infinity_and_heaviside_promotion():
    a = np.array([np.inf, -np.inf, np.inf, np.nan, 3.0], np.float32)
    b = np.array([np.inf, -np.inf, np.nan, -np.inf, 4.0], np.float32)
    np.testing.assert_array_equal(ops.hypot(T(a), T(b)).asnumpy(), np.hypot(a, b))  # inf beats NaN (IEEE)
    assert np.isnan(ops.hypot(T([np.nan]), T([1.0])).asnumpy()[0])
    x, values = np.array([-1, 0, 1], np.int32), np.array([0.5], np.float32)
    got = ops.heaviside(T(x), T(values))
    assert got.dtype == ms.float32
    np.testing.assert_array_equal(got.asnumpy(), np.heaviside(x, values))  # [0, 0.5, 1], not truncated to 0


def test_float32_hypot_is_the_rounded_double_result_in_every_lane():
    # simd_math.h: float32 hypot as sqrt(x^2 + y^2) in double, so 5-12-13 is exact and huge or tiny sides
    # neither overflow nor underflow; NumPy's float32 hypot bit for bit, broadcast operands included.
    rng = np.random.default_rng(9)
    x = np.concatenate([rng.standard_normal(1003) * 10.0 ** rng.uniform(-30, 30, 1003), [5, 1e38, 1e-40, 0]])
    y = np.concatenate([rng.standard_normal(1003), [12, 3e38, 1e-40, -0.0]])
    x, y = x.astype(np.float32), y.astype(np.float32)
    np.testing.assert_array_equal(ops.hypot(T(x), T(y)).asnumpy(), np.hypot(x, y))
    np.testing.assert_array_equal(ops.hypot(T(x), T(np.float32(2.5))).asnumpy(), np.hypot(x, np.float32(2.5)))


def test_offsets_past_the_matrix():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    for offset in (-2**63, 2**63 - 1, 5, -3):  # NumPy's own diagonal overflows past a C int
        assert ops.diagonal(T(x), offset=offset).shape == (0,)
    assert ops.diagonal(T(x), offset=-1).tolist() == [3.0]
    for offset in (-2**63, -4, -3, 2, 4, 2**63):
        clamped = min(max(offset, -3), 4)  # beyond these every offset gives the same triangle
        np.testing.assert_array_equal(ops.tril_indices(3, 4, offset).asnumpy(), np.stack(np.tril_indices(3, clamped, 4)))
        np.testing.assert_array_equal(ops.triu_indices(3, 4, offset).asnumpy(), np.stack(np.triu_indices(3, clamped, 4)))


def test_bad_argument_types_name_the_op():
    x = T(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="permute: 'dims' must be a tuple or list of ints, but got int"):
        ops.permute(x, 0)
    with pytest.raises(TypeError, match="reshape: 'shape' must be a tuple or list of ints, but got NoneType"):
        ops.reshape(x, None)
    with pytest.raises(TypeError, match="transpose: 'input_perm' must be a tuple or list of ints, but got NoneType"):
        ops.transpose(x, None)
    assert ops.reshape(x, [3, 2]).shape == (3, 2) and ops.transpose(x, range(1, -1, -1)).shape == (3, 2)
    with pytest.raises(TypeError, match="full: 'fill_value' must be a number or a one-element Tensor, but got NoneType"):
        ops.full((2, 3), None)
    with pytest.raises(TypeError, match="fill: 'value' must be a number or a one-element Tensor, but got str"):
        ops.fill(ms.float32, (2,), "a")
    with pytest.raises(TypeError, match="full_like: 'fill_value' must be a number"):
        ops.full_like(x, None)
    assert ops.full((2,), T(3.0)).tolist() == [3.0, 3.0] and ops.full((1,), True).dtype == ms.bool_
    int64 = np.iinfo(np.int64)  # the fill value travels as a double: the limits saturate rather than wrap
    assert ops.full((1,), int64.max, dtype=ms.int64).tolist() == [int64.max]
    assert ops.full((1,), int64.min, dtype=ms.int64).tolist() == [int64.min]
    with pytest.raises(TypeError, match="pad: 'value' must be a number or a one-element Tensor, but got str"):
        ops.pad(x, (1, 1), value="abc")
    with pytest.raises(ValueError, match=r"pad: 'value' must be a number or a one-element Tensor, but got a Tensor "
                                         r"of shape \(0,\)"):
        ops.pad(x, (1, 1), value=T(np.zeros(0, np.float32)))
    assert ops.pad(x, (1, 0), value=T(2.0)).asnumpy()[:, 0].tolist() == [2.0, 2.0]
    with pytest.raises(TypeError, match="bincount: 'weights' must be a Tensor, but got list"):
        ops.bincount(T(np.array([0, 1], np.int32)), weights=[1.0, 2.0])
    with pytest.raises(TypeError, match="cosine_similarity: 'eps' must be a float, but got NoneType"):
        ops.cosine_similarity(x, x, eps=None)
    with pytest.raises(TypeError, match="pairwise_distance: 'eps' must be a float, but got str"):
        ops.pairwise_distance(x, x, eps="a")


def pad_with_value(x):
    return ops.pad(x, (1, 2, 0, 3), value=-1.5)


@pytest.mark.parametrize("compiled", [False, True])
def test_pad_with_a_value_matches_numpy_and_passes_gradients_inside(compiled):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    fn = ms.jit(pad_with_value) if compiled else pad_with_value
    want = np.pad(x, ((0, 0), (0, 3), (1, 2)), constant_values=-1.5)
    np.testing.assert_array_equal(fn(T(x)).asnumpy(), want)
    grad = ms.grad(lambda t: (pad_with_value(t) * pad_with_value(t)).sum())(T(x)).asnumpy()
    np.testing.assert_array_equal(grad, 2 * x)  # the padding holds constants: no gradient flows there
