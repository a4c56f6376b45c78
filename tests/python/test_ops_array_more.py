"""MindSpore 2.x functions for splitting and stacking (tensor_split ... unique_consecutive), products (dot ...
addbmm, matrix_power, pinv), arrangements (block_diag ... diagflat, matrix_band_part), renorm and scatters
(select/slice/diagonal_scatter, tensor_scatter_mul/div/max/min, the in-place scatter_* / scatter_nd_* and
inplace_add/sub/update): values against NumPy, gradients against finite differences, compiled against
eager (an in-place scatter on a Parameter inside a compiled Cell included), and bad arguments."""
import itertools

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

from finite_differences import check_grad

RNG = np.random.default_rng(11)


def T(a, dtype=None):
    return ms.Tensor(np.asarray(a) if dtype is None else np.asarray(a, dtype))


def randn(*shape):
    return RNG.standard_normal(shape)


def same(got, want, **kw):
    got = [g.asnumpy() for g in got] if isinstance(got, (tuple, list)) else got.asnumpy()
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, **kw)
            assert g.shape == np.shape(w)
    else:
        np.testing.assert_allclose(got, want, **kw)
        assert got.shape == np.shape(want)


# ---- split and stack -------------------------------------------------------------------------------

def test_tensor_split_and_axis_forms_match_numpy():
    x = np.arange(7 * 4 * 3).reshape(7, 4, 3)
    same(ops.tensor_split(T(x), 3), np.array_split(x, 3))
    same(ops.tensor_split(T(x), 9), np.array_split(x, 9))  # more pieces than rows: empty ones at the end
    for cuts in ([2, 5, 9], [5, 2], [-2], []):
        same(ops.tensor_split(T(x), cuts), np.split(x, cuts))
    same(ops.tensor_split(T(x), (1, 3), axis=-2), np.split(x, [1, 3], axis=1))
    same(T(x).tensor_split(2, 2), np.array_split(x, 2, axis=2))
    same(ops.hsplit(T(x), 2), np.array_split(x, 2, axis=1))
    same(ops.vsplit(T(x), [3]), np.split(x, [3], axis=0))
    same(ops.vsplit(T(np.arange(6)), 3), np.array_split(np.arange(6), 3))  # MindSpore takes 1-d here
    same(T(x).dsplit([1]), np.split(x, [1], axis=2))
    with pytest.raises(ValueError, match="hsplit: 'input' must have at least 2 dimensions"):
        ops.hsplit(T(np.arange(6)), 3)
    with pytest.raises(ValueError, match="dsplit: 'input' must have at least 3 dimensions"):
        ops.dsplit(T(np.ones((2, 2))), 2)
    with pytest.raises(ValueError, match="tensor_split: 'indices_or_sections' as a number of sections must be "
                                         "positive, but got 0"):
        ops.tensor_split(T(x), 0)
    with pytest.raises(TypeError, match="tensor_split: 'indices_or_sections' must be an int or a tuple"):
        ops.tensor_split(T(x), 1.5)
    with pytest.raises(ValueError, match=r"tensor_split: 'axis' must be in \[-3, 3\)"):
        ops.tensor_split(T(x), 2, axis=3)
    check_grad(lambda v: ops.concat([p * (i + 1.0) for i, p in enumerate(ops.tensor_split(v, [1, 3], 1))], 1),
               randn(2, 5))


def test_stacks_take_and_t_match_numpy():
    a, b, m = np.arange(3), np.arange(3, 6), np.arange(6).reshape(3, 2)
    same(ops.column_stack([T(a), T(m)]), np.column_stack([a, m]))
    same(ops.column_stack((T(1), T(2))), np.column_stack([1, 2]))
    same(ops.row_stack([T(a), T(b)]), np.vstack([a, b]))
    same(ops.dstack([T(a), T(b)]), np.dstack([a, b]))
    same(ops.dstack([T(m), T(m)]), np.dstack([m, m]))
    x = randn(3, 4)
    idx = np.array([[0, 5], [11, -1]])
    same(ops.take(T(x), T(idx)), np.take(x, idx))
    same(ops.take(T(x), T(idx, np.int32)), np.take(x, idx))
    same(ops.t(T(x)), x.T)
    same(ops.t(T(a)), a)
    with pytest.raises(ValueError, match="t: 'input' must have at most 2 dimensions"):
        ops.t(T(np.ones((2, 2, 2))))
    with pytest.raises(TypeError, match="take: 'index' must be an int32 or int64 tensor, but got Float32"):
        ops.take(T(x), T([1.0], np.float32))
    with pytest.raises(TypeError, match="column_stack: 'tensors' must be a tuple or list of Tensors"):
        ops.column_stack(T(a))
    check_grad(lambda u, v: ops.column_stack([u, v]), randn(3), randn(3, 2))
    check_grad(lambda u, v: ops.dstack([u, v]), randn(2, 3), randn(2, 3))
    check_grad(lambda v: ops.take(v, T(idx)), randn(3, 4))


def _unique_consecutive(x, axis):
    """NumPy reference: (values, inverse, counts) of runs of equal consecutive slices."""
    rows = x.reshape(-1, 1) if axis is None else np.moveaxis(x, axis, 0).reshape(x.shape[axis], -1)
    keys = [tuple(r) for r in rows]
    groups = [(k, len(list(g))) for k, g in itertools.groupby(keys)]
    counts = np.array([n for _, n in groups], np.int64)
    inverse = np.repeat(np.arange(len(groups)), counts)
    firsts = np.cumsum(np.concatenate([[0], counts[:-1]]))
    if axis is None:
        return x.reshape(-1)[firsts], inverse.reshape(x.shape), counts
    return np.take(x, firsts, axis=axis), inverse, counts


def test_unique_consecutive_matches_a_reference():
    x = np.array([1, 1, 2, 2, 3, 1, 1, 2], np.int32)
    values, inverse, counts = _unique_consecutive(x, None)
    same(ops.unique_consecutive(T(x)), values)
    same(ops.unique_consecutive(T(x), return_inverse=True), (values, inverse))
    same(ops.unique_consecutive(T(x), return_counts=True), (values, counts))
    got = T(x).unique_consecutive(True, True)
    same(got, (values, inverse, counts))
    assert got[0].dtype == ms.int32 and got[1].dtype == ms.int64 and got[2].dtype == ms.int64
    m = np.array([[1, 1, 2, 1], [1, 1, 3, 1], [1, 1, 3, 1]], np.float32)
    same(ops.unique_consecutive(T(m), True, True), _unique_consecutive(m, None))
    for axis in (0, 1, -1):
        same(ops.unique_consecutive(T(m), True, True, axis), _unique_consecutive(m, axis % 2))
    with pytest.raises(TypeError, match="unique_consecutive: 'return_counts' must be a bool"):
        ops.unique_consecutive(T(x), False, 1)
    with pytest.raises(ValueError, match=r"unique_consecutive: 'dim' must be in \[-2, 2\)"):
        ops.unique_consecutive(T(m), dim=2)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.float16, np.float32,
                                   np.float64])
@pytest.mark.parametrize("spread", [50, 10**6, None])
def test_unique_takes_each_path_and_matches_numpy(dtype, spread):
    # Note [Unique by one sort]: integers in a short range through the table, others through one sort of
    # (key, index) pairs (64-bit ones as K64V64, with std::sort when a key is the largest); NaNs are one
    # value, -0.0 and 0.0 one, the extremes of int64 and uint64 kept.
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    for n in (1, 9, 5000):
        if spread is None:
            a = (RNG.integers(info.min, info.max, n, dtype=dtype, endpoint=True) if info is not None
                 else RNG.standard_normal(n).astype(dtype))
        else:
            spread = spread if info is not None else min(spread, 30000)  # float16 stays finite
            low = 0 if info is not None and info.min == 0 else -spread // 2
            high = min(spread, int(info.max)) if info is not None else spread
            a = RNG.integers(low, high, n).astype(dtype)
        if n > 5 and info is None:
            a[:5] = [np.nan, -0.0, 0.0, np.inf, np.nan]
        if n > 5 and dtype in (np.int64, np.uint64):
            a[:3] = [info.max, info.min, info.max]
        values, inverse = ops.unique(T(a))
        want = np.unique(a)
        np.testing.assert_array_equal(values.asnumpy(), want)
        np.testing.assert_array_equal(values.asnumpy()[inverse.asnumpy()], a)


# ---- products ----------------------------------------------------------------------------------------

def test_products_match_numpy():
    a, b = randn(2, 3, 4), randn(5, 4, 2)
    same(ops.dot(T(a), T(b)), np.dot(a, b), rtol=1e-12)
    same(ops.dot(T(a[0]), T(b[0])), a[0] @ b[0], rtol=1e-12)
    x, y = randn(3, 4), randn(4)
    same(ops.vecdot(T(x), T(y)), (x * y).sum(-1), rtol=1e-12)
    same(ops.vecdot(T(x), T(x), axis=0), (x * x).sum(0), rtol=1e-12)
    same(ops.mv(T(x), T(y)), x @ y, rtol=1e-12)
    same(ops.mm(T(x), T(x.T)), x @ x.T, rtol=1e-12)
    same(T(x).mm(T(x.T)), x @ x.T, rtol=1e-12)
    u, v = randn(3), randn(4)
    same(ops.ger(T(u), T(v)), np.outer(u, v), rtol=1e-12)
    same(ops.addmv(T(u), T(x), T(y), beta=0.5, alpha=2), 0.5 * u + 2 * (x @ y), rtol=1e-12)
    same(T(x).addr(T(u), T(v), beta=2, alpha=3), 2 * x + 3 * np.outer(u, v), rtol=1e-12)
    b1, b2, c = randn(3, 2, 4), randn(3, 4, 5), randn(2, 5)
    same(ops.addbmm(T(c), T(b1), T(b2), beta=0.5, alpha=2), 0.5 * c + 2 * np.einsum("bij,bjk->ik", b1, b2),
         rtol=1e-12)
    check_grad(lambda p, q: ops.dot(p, q), a, b)
    check_grad(lambda p, q: ops.vecdot(p, q), x, y)
    check_grad(lambda p, q, r: ops.addmv(p, q, r, alpha=2), u, x, y)
    check_grad(lambda p, q, r: ops.addr(p, q, r, beta=3), x[:3], u, v)
    check_grad(lambda p, q, r: ops.addbmm(p, q, r, alpha=0.5), c, b1, b2)


def test_matrix_power_and_pinv_match_numpy():
    a = randn(2, 3, 3) + 3 * np.eye(3)
    for n in (0, 1, 2, 5, -1, -3):
        same(ops.matrix_power(T(a), n), np.linalg.matrix_power(a, n), rtol=1e-9, atol=1e-12)
    same(T(a[0]).matrix_power(3), np.linalg.matrix_power(a[0], 3), rtol=1e-12)
    k = np.array([[2, 1], [0, 1]], np.int32)
    same(ops.matrix_power(T(k), 3), np.linalg.matrix_power(k, 3))
    check_grad(lambda m: ops.matrix_power(m, 3), a)
    check_grad(lambda m: ops.matrix_power(m, -2), a, rtol=1e-5)
    with pytest.raises(TypeError, match="matrix_power: a negative 'n' needs a floating-point 'input'"):
        ops.matrix_power(T(k), -1)
    with pytest.raises(ValueError, match="matrix_power: 'input' must be a batch of square matrices"):
        ops.matrix_power(T(randn(2, 3)), 2)

    m = randn(2, 4, 3)
    same(ops.pinv(T(m)), np.linalg.pinv(m), rtol=1e-9, atol=1e-12)
    rank_one = np.outer([1.0, 2.0, 0.5], [1.0, -1.0])
    same(ops.pinv(T(rank_one)), np.linalg.pinv(rank_one), rtol=1e-9, atol=1e-12)
    d = np.diag([1.0, 1e-3])
    same(ops.pinv(T(d), atol=0.01), np.diag([1.0, 0.0]))
    same(ops.pinv(T(d), rtol=0.01), np.diag([1.0, 0.0]))
    # A (2, 1) tolerance against a batch shape (): (2, 1, 2, 2), one pseudo-inverse per tolerance.
    same(ops.pinv(T(d), atol=T([[0.01], [1e-4]])), np.stack([np.diag([1.0, 0.0]), np.diag([1.0, 1e3])])[:, None],
         rtol=1e-9)
    lower = np.array([[2.0, 99.0], [1.0, 3.0]])
    same(ops.pinv(T(lower), hermitian=True), np.linalg.inv([[2.0, 1.0], [1.0, 3.0]]), rtol=1e-9)
    check_grad(lambda v: ops.pinv(v), m, rtol=1e-5)
    with pytest.raises(TypeError, match="pinv: 'atol' must be a float, a Tensor or None"):
        ops.pinv(T(m), atol="big")
    with pytest.raises(ValueError, match="pinv: hermitian=True needs square matrices"):
        ops.pinv(T(m), hermitian=True)


# ---- arrangements ------------------------------------------------------------------------------------

def test_arrangements_match_numpy():
    a, b = randn(2, 3), randn(2)
    want = np.zeros((4, 6))
    want[:2, :3], want[2, 3], want[3, 4:] = a, 7.0, b
    same(ops.block_diag(T(a), T(7.0), T(b)), want)
    u, v = np.array([1, 2], np.int32), np.array([3, 4, 5], np.int32)
    same(ops.cartesian_prod(T(u), T(v)), np.array(list(itertools.product(u, v))))
    same(ops.cartesian_prod(T(u)), u.reshape(-1, 1))
    w = np.array([1.0, 2.0, 3.0, 4.0])
    same(ops.combinations(T(w)), np.array(list(itertools.combinations(w, 2))))
    same(ops.combinations(T(w), 3, True), np.array(list(itertools.combinations_with_replacement(w, 3))))
    assert ops.combinations(T(w), 5).shape == (0,)
    x = np.array([2.0, -1.0, 0.0, 0.5])
    same(ops.vander(T(x)), np.vander(x), rtol=1e-12)
    same(ops.vander(T(x), 6), np.vander(x, 6), rtol=1e-12)
    got = ops.vander(T(np.array([1, 2, 3], np.int32)), 4)
    assert got.dtype == ms.int64
    same(got, np.vander([1, 2, 3], 4))
    m = randn(2, 3)
    for offset, dim1, dim2 in ((0, -2, -1), (1, -2, -1), (-2, 0, 2), (1, 2, 0)):
        n = 3 + abs(offset)
        planes = np.stack([np.diag(row, offset) for row in m])  # (2, n, n)
        want = np.moveaxis(planes, (1, 2), (dim1 % 3, dim2 % 3))
        same(ops.diag_embed(T(m), offset, dim1, dim2), want)
        assert want.shape[dim1 % 3] == n
    same(ops.diagflat(T(m), -1), np.diagflat(m, -1))
    same(T(m).diagflat(2), np.diagflat(m, 2))
    band = randn(2, 4, 5)
    i, j = np.arange(4)[:, None], np.arange(5)[None, :]
    for lower, upper in ((1, 0), (-1, 2), (0, -1), (2, 2)):
        keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
        same(ops.matrix_band_part(T(band), lower, upper), np.where(keep, band, 0.0))
    same(ops.matrix_band_part(T(band), T(1), T(0)), np.where((i - j <= 1) & (j - i <= 0), band, 0.0))
    check_grad(lambda p, q, r: ops.block_diag(p, q, r), a, np.array(1.5), b)
    check_grad(lambda p, q: ops.cartesian_prod(p, q), w, x)
    check_grad(lambda p: ops.combinations(p, 2, True), w)
    check_grad(lambda p: ops.vander(p, 5), x)  # x holds a 0: the gradient stays finite there
    check_grad(lambda p: ops.diag_embed(p, -1, 0, 2), m)
    check_grad(lambda p: ops.diagflat(p, 1), m)
    check_grad(lambda p: ops.matrix_band_part(p, 1, 0), band)


def test_renorm_matches_numpy():
    x = np.array([[3.0, 4.0, 0.0], [0.3, 0.4, 0.0], [1.0, -2.0, 2.0]])
    for p, axis, maxnorm in ((2, 0, 1.0), (1, 1, 2.5), (3, -1, 0.5)):
        others = tuple(i for i in range(2) if i != axis % 2)
        norms = (np.abs(x) ** p).sum(axis=others, keepdims=True) ** (1 / p)
        want = np.where(norms > maxnorm, x * maxnorm / norms, x)
        same(ops.renorm(T(x), p, axis, maxnorm), want, rtol=1e-12)
    same(T(x).renorm(2, 0, 1.0), ops.renorm(T(x), 2, 0, 1.0).asnumpy())
    check_grad(lambda v: ops.renorm(v, 2, 0, 1.0), x)
    with pytest.raises(TypeError, match="renorm: 'p' must be an int, but got 2.0"):
        ops.renorm(T(x), 2.0, 0, 1.0)
    with pytest.raises(ValueError, match="renorm: 'p' must be positive, but got 0"):
        ops.renorm(T(x), 0, 0, 1.0)
    with pytest.raises(TypeError, match="renorm: 'input' must be a floating-point tensor"):
        ops.renorm(T([1, 2]), 2, 0, 1.0)


# ---- scatters ----------------------------------------------------------------------------------------

def test_view_scatters_match_numpy():
    x = randn(3, 5)
    want = x.copy()
    want[:, -1] = [7.0, 8.0, 9.0]
    same(ops.select_scatter(T(x), T([7.0, 8.0, 9.0]), 1, -1), want)
    same(T(x).select_scatter(T(np.ones(5)), 0, 1), np.vstack([x[0], np.ones(5), x[2]]))
    for start, end, step in ((None, None, 2), (1, 4, 1), (-3, -1, 1), (0, 5, 3)):
        want = x.copy()
        part = want[:, start:end:step]
        src = np.arange(part.size, dtype=np.float64).reshape(part.shape)
        want[:, start:end:step] = src
        same(ops.slice_scatter(T(x), T(src), 1, start, end, step), want)
    for offset, dim1, dim2 in ((0, 0, 1), (2, 0, 1), (-1, 1, 0)):
        want = np.moveaxis(x.copy(), (dim1, dim2), (0, 1)).copy()
        count = len(np.diagonal(want, offset))
        rows = np.arange(count) + max(-offset, 0)
        want[rows, rows + offset] = 10.0 + np.arange(count)
        src = 10.0 + np.arange(count)
        same(ops.diagonal_scatter(T(x), T(src), offset, dim1, dim2), np.moveaxis(want, (0, 1), (dim1, dim2)))
    batch = randn(2, 3, 4)
    src = randn(2, 3)
    got = ops.diagonal_scatter(T(batch), T(src), 0, 1, 2)
    want = batch.copy()
    want[:, np.arange(3), np.arange(3)] = src
    same(got, want)
    check_grad(lambda v, s: ops.select_scatter(v, s, 1, 2), x, randn(3))
    check_grad(lambda v, s: ops.slice_scatter(v, s, 1, 0, 5, 2), x, randn(3, 3))
    check_grad(lambda v, s: ops.slice_scatter(v, s, 0, 1), x, randn(2, 5))
    check_grad(lambda v, s: ops.diagonal_scatter(v, s, 0, 1, 2), batch, src)
    with pytest.raises(ValueError, match=r"select_scatter: 'src' must have shape \(3,\), but got \(4,\)"):
        ops.select_scatter(T(x), T(np.ones(4)), 1, 0)
    with pytest.raises(ValueError, match=r"select_scatter: 'index' must be in \[-5, 5\)"):
        ops.select_scatter(T(x), T(np.ones(3)), 1, 5)
    with pytest.raises(ValueError, match="slice_scatter: 'step' must be positive"):
        ops.slice_scatter(T(x), T(x), 0, step=0)
    with pytest.raises(ValueError, match=r"diagonal_scatter: 'src' must have shape \(3,\)"):
        ops.diagonal_scatter(T(x), T(np.ones(2)))


UFUNCS = {"mul": np.multiply, "div": np.divide, "max": np.maximum, "min": np.minimum}


def _reference(kind, x, indices, updates):
    """NumPy's unbuffered ufunc.at: every repeated index applies in turn."""
    out = x.copy()
    UFUNCS[kind].at(out, tuple(np.moveaxis(indices, -1, 0)), updates)
    return out


@pytest.mark.parametrize("kind", ["mul", "div", "max", "min"])
def test_tensor_scatter_reductions_apply_every_repeated_index(kind):
    fn = getattr(ops, f"tensor_scatter_{kind}")
    x = randn(4, 3)
    idx = np.array([[2], [0], [2], [3], [2]])  # row 2 three times
    upd = randn(5, 3) + 2.0 * np.sign(randn(5, 3))  # away from 0 (div) and from ties (max, min)
    same(fn(T(x), T(idx), T(upd)), _reference(kind, x, idx, upd), rtol=1e-12)
    idx2 = np.array([[[1, 2], [1, 2]], [[0, 0], [3, -1]]])  # elements; one repeated, one negative
    upd2 = randn(2, 2) + 3.0
    same(fn(T(x), T(idx2, np.int32), T(upd2)), _reference(kind, x, idx2 % np.array([4, 3]), upd2), rtol=1e-12)
    check_grad(lambda v, u: fn(v, T(idx), u), x, upd)
    with pytest.raises(ValueError, match=rf"tensor_scatter_{kind}: 'updates' must have shape"):
        fn(T(x), T(idx), T(randn(5, 2)))
    with pytest.raises(IndexError, match=rf"tensor_scatter_{kind}: 'indices' holds 4 for axis 0"):
        fn(T(x), T([[4]]), T(randn(1, 3)))
    with pytest.raises(TypeError, match=rf"tensor_scatter_{kind}: 'indices' must be an int32 or int64 tensor"):
        fn(T(x), T([[1.0]]), T(randn(1, 3)))


def test_tensor_scatter_div_truncates_integers():
    same(ops.tensor_scatter_div(T([7, 9], np.int32), T([[0]], np.int32), T([2], np.int32)), np.array([3, 9]))


@pytest.mark.parametrize("kind", ["max", "min", "mul", "div"])
def test_scatter_rows_write_in_place(kind):
    x, idx, upd = randn(4, 2), np.array([1, 3, 1]), randn(3, 2) + 2.0
    p = ms.Parameter(T(x), name="p")
    out = getattr(ops, f"scatter_{kind}")(p, T(idx, np.int32), T(upd))
    want = _reference(kind, x, idx[:, None], upd)
    assert not isinstance(out, ms.Parameter)  # MindSpore returns the new value as a Tensor
    same(p, want, rtol=1e-12)
    same(out, want, rtol=1e-12)
    t = T(x)
    getattr(t, f"scatter_{kind}")(T(idx), T(upd))  # a plain Tensor is written too, as MindSpore's
    same(t, want, rtol=1e-12)


def test_scatter_update_and_nd_scatters_write_in_place():
    x = randn(3, 4)
    p = ms.Parameter(T(x), name="p")
    out = ops.scatter_update(p, T([[2], [0]]), T(np.ones((2, 1, 4))))
    want = x.copy()
    want[[2, 0]] = 1.0
    same(p, want)
    same(out, want)
    idx, upd = np.array([[0, 1], [2, 3], [0, 1]]), np.array([5.0, 6.0, 7.0])
    cases = {"scatter_nd_add": lambda w: np.add.at(w, (idx[:, 0], idx[:, 1]), upd),
             "scatter_nd_sub": lambda w: np.subtract.at(w, (idx[:, 0], idx[:, 1]), upd),
             "scatter_nd_mul": lambda w: np.multiply.at(w, (idx[:, 0], idx[:, 1]), upd),
             "scatter_nd_div": lambda w: np.divide.at(w, (idx[:, 0], idx[:, 1]), upd),
             "scatter_nd_max": lambda w: np.maximum.at(w, (idx[:, 0], idx[:, 1]), upd),
             "scatter_nd_min": lambda w: np.minimum.at(w, (idx[:, 0], idx[:, 1]), upd)}
    for name, apply in cases.items():
        p = ms.Parameter(T(x), name="p")
        out = getattr(ops, name)(p, T(idx), T(upd))
        want = x.copy()
        apply(want)
        same(p, want, rtol=1e-12, err_msg=name)
        same(out, want, rtol=1e-12, err_msg=name)
    p = ms.Parameter(T(x), name="p")
    ops.scatter_nd_update(p, T([[1]]), T(np.full((1, 4), 9.0)))
    want = x.copy()
    want[1] = 9.0
    same(p, want)
    with pytest.raises(TypeError, match="scatter_nd_add: 'input_x' must be a Parameter or Tensor"):
        ops.scatter_nd_add(x, T(idx), T(upd))
    with pytest.raises(ValueError, match=r"scatter_max: 'updates' must have shape"):
        ops.scatter_max(p, T([0, 1]), T(np.ones((2, 3))))
    with pytest.raises(ValueError, match=r"scatter_nd_update: 'indices' must have shape \(\.\.\., k\)"):
        ops.scatter_nd_update(p, T(np.zeros((1, 3), np.int64)), T([1.0]))


def test_inplace_add_sub_update_return_new_tensors():
    x, v = randn(4, 2), randn(3, 2)
    rows = (0, 2, 0)
    t = T(x)
    want = x.copy()
    np.add.at(want, list(rows), v)
    same(ops.inplace_add(t, T(v), rows), want)
    want = x.copy()
    np.subtract.at(want, list(rows), v)
    same(ops.inplace_sub(t, T(v), rows), want)
    want = x.copy()
    want[[1, 3]] = v[:2]
    same(ops.inplace_update(t, T(v[:2]), (1, 3)), want)
    same(t.inplace_update(T(v[:2]), T([1, -1])), want)
    want = x.copy()
    want[2] = v[0]
    same(ops.inplace_update(t, T(v[:1]), 2), want)
    same(t, x)  # as MindSpore's: x itself is left as it was
    check_grad(lambda p, q: ops.inplace_add(p, q, rows), x, v)
    check_grad(lambda p, q: ops.inplace_update(p, q, (1, 3)), x, v[:2])
    with pytest.raises(TypeError, match="inplace_add: 'indices' must be an int or a tuple of ints"):
        ops.inplace_add(t, T(v), T([0, 1, 2]))
    with pytest.raises(ValueError, match=r"inplace_update: 'v' must have shape \(len\(indices\),\) \+ x.shape\[1:\]"):
        ops.inplace_update(t, T(v[0]), 1)
    with pytest.raises(IndexError, match="inplace_sub: 'indices' holds 4, out of range"):
        ops.inplace_sub(t, T(v[:1]), (4,))


# ---- graph mode --------------------------------------------------------------------------------------

def test_compiled_functions_match_eager():
    def body(x, m, idx, upd):
        parts = ops.tensor_split(x, [1, 3], 1)
        return (parts[1], ops.column_stack([x[:, 0], m[:3, :2]]), ops.take(x, idx[:, 0]), ops.dot(x, m),
                ops.matrix_power(m, -2), ops.pinv(x), ops.block_diag(x, m), ops.combinations(x[0]),
                ops.vander(x[0], 3), ops.diag_embed(x, 1), ops.matrix_band_part(m, 1, 0), ops.renorm(x, 2, 0, 1.0),
                ops.select_scatter(x, x[0], 0, 2), ops.slice_scatter(x, x[:, :2], 1, 0, 4, 2),
                ops.diagonal_scatter(m, m[0]), ops.tensor_scatter_max(m, idx, upd),
                ops.tensor_scatter_mul(m, idx, upd), ops.inplace_add(m, upd, (1, 1)),
                ops.unique_consecutive(x[0] * 0.0 + 1.0))

    x, m = T(randn(3, 4)), T(randn(4, 4) + 4 * np.eye(4))
    idx, upd = T([[1], [1]]), T(randn(2, 4))
    eager = body(x, m, idx, upd)
    compiled = ms.jit(body)(x, m, idx, upd)
    assert len(eager) == len(compiled)
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-10, atol=1e-12)


class _ScatterInto(nn.Cell):
    def __init__(self):
        super().__init__()
        self.table = ms.Parameter(T(np.arange(8.0, dtype=np.float32).reshape(4, 2)), name="table")

    def construct(self, indices, updates):
        ops.scatter_max(self.table, indices, updates)
        return ops.scatter_nd_add(self.table, indices[:, None], updates) * 1.0


def test_in_place_scatter_on_a_parameter_in_a_compiled_cell():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _ScatterInto()
    idx = T(np.array([3, 0, 3], np.int32))
    upd = T(np.array([[9.0, 0.0], [-1.0, 5.0], [1.0, 20.0]], np.float32))
    out = net(idx, upd)
    want = np.arange(8.0).reshape(4, 2)
    np.maximum.at(want, [3, 0, 3], upd.asnumpy())
    np.add.at(want, [3, 0, 3], upd.asnumpy())
    np.testing.assert_allclose(net.table.asnumpy(), want)
    np.testing.assert_allclose(out.asnumpy(), want)


BAD_INPUTS = [
    (lambda: ops.dot(T(randn(3)), T(randn(3, 2))), ValueError, "dot: 'input' and 'other' must have rank >= 2"),
    (lambda: ops.dot(T(np.ones((2, 2), np.int32)), T(np.ones((2, 2), np.int32))), TypeError,
     "dot: 'input' must be a floating-point tensor"),
    (lambda: ops.dot(T(randn(2, 3)), T(randn(2, 3))), ValueError, r"dot: input.shape\[-1\] must equal"),
    (lambda: ops.vecdot(T(randn(2, 3)), T(randn(3)), axis=2), ValueError, r"vecdot: 'axis' must be in \[-2, 2\)"),
    (lambda: ops.mv(T(randn(2, 3)), T(randn(2))), ValueError, "mv: 'mat' .* and 'vec' .* do not match"),
    (lambda: ops.mm(T(randn(2, 3, 3)), T(randn(3, 3))), ValueError, "mm: 'input' must be 2-d"),
    (lambda: ops.ger(T([1, 2]), T([1.0])), TypeError, "ger: 'input' must be a floating-point tensor"),
    (lambda: ops.addbmm(T(randn(2, 2)), T(randn(3, 2, 4)), T(randn(2, 4, 2))), ValueError,
     "addbmm: 'batch1' .* and 'batch2' .* must match in C and T"),
    (lambda: ops.block_diag(T(randn(2, 2, 2))), ValueError, "block_diag: each input must have rank 0, 1 or 2"),
    (lambda: ops.block_diag(), ValueError, "block_diag: needs at least one tensor"),
    (lambda: ops.cartesian_prod(T(randn(2, 2))), ValueError, "cartesian_prod: each input must be 1-d"),
    (lambda: ops.combinations(T(randn(3)), 0), ValueError, "combinations: 'r' must be positive, but got 0"),
    (lambda: ops.combinations(T(randn(3)), 2, 1), TypeError, "combinations: 'with_replacement' must be a bool"),
    (lambda: ops.vander(T(randn(3)), 0), ValueError, "vander: 'N' must be positive, but got 0"),
    (lambda: ops.vander(T(randn(2, 2))), ValueError, "vander: 'x' must be 1-d"),
    (lambda: ops.diag_embed(T(randn(3)), 0, 1, -1), ValueError, "diag_embed: 'dim1' and 'dim2' must be different"),
    (lambda: ops.diag_embed(T(1.0)), ValueError, "diag_embed: 'input' must have at least one dimension"),
    (lambda: ops.matrix_band_part(T(randn(3)), 0, 0), ValueError, "matrix_band_part: 'x' must have rank >= 2"),
    (lambda: ops.matrix_band_part(T(randn(3, 3)), 0.5, 0), TypeError, "matrix_band_part: 'lower' must be an int"),
    (lambda: ops.pinv(T([[1, 2], [3, 4]])), TypeError, "pinv: 'x' must be float32 or float64"),
    (lambda: ops.matrix_power(T(randn(2, 2)), 1.5), TypeError, "matrix_power: 'n' must be an int"),
    (lambda: ops.renorm(T(randn(2, 2)), 2, 0, "1"), TypeError, "renorm: 'maxnorm' must be a float"),
    (lambda: ops.scatter_update(T(randn(3, 2)), T([0.0]), T(randn(1, 2))), TypeError,
     "scatter_update: 'indices' must be an int32 or int64 tensor"),
    (lambda: ops.scatter_div(T(randn(3, 2)), T([5]), T(randn(1, 2))), IndexError,
     "scatter_div: 'indices' holds 5 for axis 0"),
    (lambda: ops.tensor_scatter_min(T(randn(3, 2)), T([[0, 0, 0]]), T([1.0])), ValueError,
     r"tensor_scatter_min: 'indices' must have shape \(\.\.\., k\) with 1 <= k <= 2"),
    (lambda: ops.slice_scatter(T(randn(3, 2)), T(randn(2, 2)), 0, 0, 3), ValueError,
     r"slice_scatter: 'src' must have shape \(3, 2\), but got \(2, 2\)"),
    (lambda: ops.diagonal_scatter(T(randn(3)), T(randn(3))), ValueError, "diagonal: 'input' must have at least 2"),
    (lambda: ops.take(T(randn(3)), "0"), TypeError, "take: 'index' must be a Tensor"),
]


@pytest.mark.parametrize("call,error,message", BAD_INPUTS, ids=[m.split(":")[0] + str(i) for i, (_, _, m) in
                                                                 enumerate(BAD_INPUTS)])
def test_bad_arguments_name_the_function_and_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("axis", [0, 1])
def test_joins_of_few_long_rows_split_across_threads(axis):
    # Few outer rows: threads split the output's bytes, so one thread's range starts and ends inside
    # inputs and rows (Concat's pieces); many rows go whole. Odd sizes put the cuts anywhere.
    rng = np.random.default_rng(0)
    parts = [rng.standard_normal((3, n)).astype(np.float32) for n in (50001, 7, 30011, 1)]
    if axis == 0:
        parts = [p.T.copy() for p in parts[:1]] * 3
    got = ops.cat([ms.Tensor(p) for p in parts], axis).asnumpy()
    np.testing.assert_array_equal(got, np.concatenate(parts, axis))
    same = [rng.standard_normal((2, 40000)).astype(np.float32) for _ in range(3)]
    np.testing.assert_array_equal(ops.stack([ms.Tensor(p) for p in same], 0).asnumpy(), np.stack(same, 0))
    np.testing.assert_array_equal(ops.stack([ms.Tensor(p) for p in same], 1).asnumpy(), np.stack(same, 1))
    many = [rng.standard_normal((100, 3)).astype(np.float32) for _ in range(2)]
    np.testing.assert_array_equal(ops.cat([ms.Tensor(p) for p in many], 1).asnumpy(), np.concatenate(many, 1))
