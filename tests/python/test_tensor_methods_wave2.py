"""The second wave of MindSpore 2.x names: the inverse hyperbolic functions, igamma/igammac, the unsorted
segment max/min/prod, reverse and reverse_sequence, inv, fills, lstsq, lu_solve, triangular_solve, the Tensor
methods that wrap existing ops under MindSpore's method names, the out-of-place random draws, fill_diagonal,
DLPack, and the nn cells LGamma, DiGamma, IGamma, LBeta: against NumPy (or a Python reference), finite
differences and ms.jit."""
import math

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from finite_differences import check_grad

T = ms.Tensor


def rng(seed=0):
    return np.random.default_rng(seed)


# --- acosh / asinh / atanh -------------------------------------------------------------------------------

def _hyperbolic_inputs(name, dtype):
    x = np.concatenate([-np.logspace(-30, 30, 61), [0.0], np.logspace(-30, 30, 61)])
    if name == "acosh":
        x = np.concatenate([1 + np.abs(x), [1.0, 1 + 1e-7, 1 + 1e-3, 3e38]])
    if name == "atanh":
        x = np.concatenate([np.tanh(x), [1 - 1e-7, -1 + 1e-7, 1e-20]])
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,reference", [("asinh", np.arcsinh), ("acosh", np.arccosh), ("atanh", np.arctanh)])
def test_inverse_hyperbolic_within_two_ulps(name, reference, dtype):
    x = _hyperbolic_inputs(name, dtype)
    with np.errstate(divide="ignore"):  # atanh(+-1) = +-inf
        want = reference(x.astype(np.float64))
    got = getattr(ops, name)(T(x)).asnumpy()
    assert got.dtype == dtype
    finite = np.isfinite(want)
    np.testing.assert_array_equal(np.isfinite(got), finite)
    np.testing.assert_allclose(got[finite], want[finite], rtol=2 * np.finfo(dtype).eps, atol=0)


def test_inverse_hyperbolic_special_values_aliases_and_dtypes():
    np.testing.assert_array_equal(ops.acosh(T([0.5, 1.0], ms.float32)).asnumpy()[1:], [0.0])
    assert np.isnan(ops.acosh(T([0.5])).asnumpy()[0])
    np.testing.assert_array_equal(ops.atanh(T([1.0, -1.0])).asnumpy(), [np.inf, -np.inf])
    assert np.isnan(ops.atanh(T([2.0])).asnumpy()[0])
    x = T([0.25, 0.5])
    for name in ("acosh", "asinh", "atanh"):
        np.testing.assert_array_equal(getattr(ops, "arc" + name[1:])(x + 1).asnumpy(), getattr(ops, name)(x + 1).asnumpy())
        np.testing.assert_array_equal(getattr(x, name)().asnumpy(), getattr(ops, name)(x).asnumpy())
    assert ops.asinh(T([1, 2], ms.float16)).dtype == ms.float16
    assert ops.asinh(T([1, 2], ms.int32)).dtype == ms.float32
    with pytest.raises(TypeError, match="asinh: 'input' must be a Tensor"):
        ops.asinh(1.0)


def test_inverse_hyperbolic_gradients():
    check_grad(ops.asinh, np.array([-3.0, -1e-3, 0.0, 0.5, 40.0]))
    check_grad(ops.acosh, np.array([1.001, 1.5, 7.0, 300.0]))
    check_grad(ops.atanh, np.array([-0.9, -1e-4, 0.0, 0.3, 0.99]), rtol=1e-5)


# --- igamma / igammac ------------------------------------------------------------------------------------

def _reference_p(a, x):
    """P(a, x) by Numerical Recipes' series / Lentz continued fraction, iterated to convergence in Python."""
    if x < a + 1:
        term = total = 1.0 / a
        n = 0
        while abs(term) > abs(total) * 1e-17:
            n += 1
            term *= x / (a + n)
            total += term
        return total * math.exp(a * math.log(x) - x - math.lgamma(a))
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        c = b + an / c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return 1 - math.exp(a * math.log(x) - x - math.lgamma(a)) * h


# (a, x, P, Q) from SciPy 1.17's gammainc / gammaincc.
SCIPY_IGAMMA = [(0.5, 1.0, 0.8427007929497151, 0.15729920705028105),
                (2.0, 3.0, 0.8008517265285442, 0.1991482734714558),
                (30.0, 25.0, 0.1821039159774551, 0.8178960840225449),
                (30.0, 60.0, 0.9999931237350312, 6.876264968732136e-06),
                (200.0, 230.0, 0.9796688566711638, 0.020331143328836242),
                (0.001, 2.0, 0.999951023082169, 4.8976917830981356e-05),
                (5.0, 0.1, 7.667801686189327e-08, 0.9999999233219832)]


def test_igamma_matches_scipy_values_in_both_tails():
    a, x, p, q = (np.array(v) for v in zip(*SCIPY_IGAMMA))
    np.testing.assert_allclose(ops.igamma(T(a), T(x)).asnumpy(), p, rtol=1e-12)
    np.testing.assert_allclose(ops.igammac(T(a), T(x)).asnumpy(), q, rtol=1e-11)
    got32 = ops.igamma(T(a, ms.float32), T(x, ms.float32)).asnumpy()
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, p, rtol=1e-6)


def test_igamma_matches_a_converged_reference_over_a_grid():
    r = rng(1)
    a = np.exp(r.uniform(math.log(1e-2), math.log(300.0), 60))
    x = a * np.exp(r.uniform(-2, 1.5, a.size))
    p = np.array([_reference_p(ai, xi) for ai, xi in zip(a, x)])
    np.testing.assert_allclose(ops.igamma(T(a), T(x)).asnumpy(), p, rtol=1e-10)
    keep = p < 0.5  # Q = 1 - P is only accurate where P is not close to 1: compare it there
    np.testing.assert_allclose(ops.igammac(T(a), T(x)).asnumpy()[keep], 1 - p[keep], rtol=1e-10)


def test_igamma_special_values_broadcasting_methods_and_errors():
    a = T([0.0, -1.0, 1.0, 1.0, 2.0, 2.0])
    x = T([1.0, 1.0, 0.0, -1.0, np.inf, np.nan])
    np.testing.assert_array_equal(ops.igamma(a, x).asnumpy(), [np.nan, np.nan, 0.0, np.nan, 1.0, np.nan])
    np.testing.assert_array_equal(ops.igammac(a, x).asnumpy(), [np.nan, np.nan, 1.0, np.nan, 0.0, np.nan])
    out = ops.igamma(T([2.0, 3.0]), T([[3.0]]))
    assert out.shape == (1, 2)
    np.testing.assert_array_equal(T([2.0]).igamma(T([3.0])).asnumpy(), ops.igamma(T([2.0]), T([3.0])).asnumpy())
    np.testing.assert_array_equal(T([2.0]).igammac(T([3.0])).asnumpy(), ops.igammac(T([2.0]), T([3.0])).asnumpy())
    with pytest.raises(TypeError, match="igamma: 'input' must be a floating-point tensor"):
        ops.igamma(T([2], ms.int32), T([3], ms.int32))
    with pytest.raises(TypeError, match="same dtype"):
        ops.igamma(T([2.0], ms.float32), T([3.0], ms.float64))


def test_igamma_gradients_match_finite_differences():
    a = np.array([0.5, 2.0, 7.0, 3.0])
    x = np.array([0.3, 4.5, 6.0, 1.0])
    check_grad(ops.igamma, a, x, rtol=1e-5, atol=1e-9)
    check_grad(ops.igammac, a, x, rtol=1e-5, atol=1e-9)
    # dP/dx = x^(a-1) e^-x / Gamma(a)
    g = ms.grad(lambda x: ops.igamma(T(a), x).sum())(T(x)).asnumpy()
    np.testing.assert_allclose(g, x ** (a - 1) * np.exp(-x) / np.array([math.gamma(v) for v in a]), rtol=1e-10)


# --- unsorted segment max / min / prod -------------------------------------------------------------------

def _segment_reference(x, ids, num, reduce, empty):
    out = np.full((num,) + x.shape[ids.ndim:], empty, x.dtype)
    flat_x = x.reshape((-1,) + x.shape[ids.ndim:])
    for row, i in zip(flat_x, ids.reshape(-1)):
        if 0 <= i < num:
            out[i] = reduce(out[i], row)
    return out


@pytest.mark.parametrize("name,reduce,empty", [
    ("unsorted_segment_max", np.maximum, np.finfo(np.float32).min),
    ("unsorted_segment_min", np.minimum, np.finfo(np.float32).max),
    ("unsorted_segment_prod", np.multiply, 1.0)])
def test_unsorted_segment_reductions_match_numpy(name, reduce, empty):
    x = rng(2).standard_normal((4, 3, 2)).astype(np.float32)
    ids = np.array([[0, 3, 3], [1, 0, -1], [3, 3, 0], [7, 1, 0]], np.int32)  # -1 and 7 are dropped
    got = getattr(ops, name)(T(x), T(ids), 5).asnumpy()
    np.testing.assert_allclose(got, _segment_reference(x, ids, 5, reduce, empty), rtol=1e-6)
    np.testing.assert_array_equal(getattr(T(x), name)(T(ids), T(5)).asnumpy(), got)


def test_unsorted_segment_integers_gradients_and_errors():
    x = T([[1, 2], [3, 4]], ms.int32)
    np.testing.assert_array_equal(ops.unsorted_segment_max(x, T([1, 1]), 2).asnumpy(),
                                  [[np.iinfo(np.int32).min] * 2, [3, 4]])
    ids = np.array([0, 2, 0, 1, 2])
    values = np.array([0.5, -1.0, 2.0, 3.0, 1.5])  # distinct values: max and min are differentiable
    for name in ("unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod"):
        check_grad(lambda v, name=name: getattr(ops, name)(v, T(ids, ms.int32), 3), values)
    with pytest.raises(TypeError, match="'segment_ids' must be an int32 or int64 tensor"):
        ops.unsorted_segment_max(T([1.0]), T([0.0]), 1)
    with pytest.raises(ValueError, match="'num_segments' must be positive"):
        ops.unsorted_segment_min(T([1.0]), T([0]), 0)
    with pytest.raises(ValueError, match="prefix of x's shape"):
        ops.unsorted_segment_prod(T([[1.0, 2.0]]), T([0, 1]), 2)


# --- reverse, reverse_sequence, inv, fills ---------------------------------------------------------------

def test_reverse_and_reverse_sequence_match_numpy():
    x = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(ops.reverse(T(x), [0, 2]).asnumpy(), x[::-1, :, ::-1])
    np.testing.assert_array_equal(T(x).reverse((1,)).asnumpy(), x[:, ::-1])
    lengths = np.array([3, 0, 1, 2])  # along axis 0 (batch axis 2): 0 and 1 leave the entry as it is
    got = ops.reverse_sequence(T(x.transpose(1, 0, 2)[:, :, :4]), T(lengths), seq_dim=0, batch_dim=2).asnumpy()
    y = x.transpose(1, 0, 2)
    want = y.copy()
    for b, n in enumerate(lengths):
        want[:n, :, b] = y[:n, :, b][::-1]
    np.testing.assert_array_equal(got, want)
    m = T([[1, 2, 3], [4, 5, 6], [7, 8, 9]], ms.float32)
    np.testing.assert_array_equal(m.reverse_sequence(T([1, 2, 3]), seq_dim=1).asnumpy(),
                                  [[1, 2, 3], [5, 4, 6], [9, 8, 7]])
    check_grad(lambda v: ops.reverse_sequence(v, T([2, 3]), 1), rng(3).standard_normal((2, 3)))
    with pytest.raises(ValueError, match="'seq_dim' and 'batch_dim' must differ"):
        m.reverse_sequence(T([1, 2, 3]))
    with pytest.raises(ValueError, match="'seq_lengths' must have shape"):
        ops.reverse_sequence(m, T([1, 2]), 1)


def test_inv_and_fills():
    np.testing.assert_array_equal(ops.inv(T([2.0, 0.0, -4.0])).asnumpy(), [0.5, np.inf, -0.25])
    np.testing.assert_array_equal(T([2, 1, -1, 4], ms.int32).inv().asnumpy(), [0, 1, -1, 0])
    out = ops.fills(T([[1, 2]], ms.int32), 3)
    assert out.dtype == ms.int32 and out.shape == (1, 2)
    np.testing.assert_array_equal(out.asnumpy(), [[3, 3]])
    np.testing.assert_array_equal(T([1.0, 2.0], ms.float16).fills(T(2.5)).asnumpy(), [2.5, 2.5])
    with pytest.raises(TypeError, match="fills: 'value' must be a number"):
        ops.fills(T([1.0]), "a")


# --- lstsq, lu_solve, triangular_solve ------------------------------------------------------------------

def _getrf(a):
    """LAPACK-style LU with partial pivoting: (LU packed, 1-based pivots)."""
    lu = a.astype(np.float64).copy()
    n = lu.shape[0]
    pivots = np.zeros(n, np.int32)
    for i in range(n):
        p = i + int(np.argmax(np.abs(lu[i:, i])))
        pivots[i] = p + 1
        lu[[i, p]] = lu[[p, i]]
        lu[i + 1:, i] /= lu[i, i]
        lu[i + 1:, i + 1:] -= np.outer(lu[i + 1:, i], lu[i, i + 1:])
    return lu, pivots


def test_lstsq_matches_numpy_for_tall_and_wide_matrices():
    r = rng(4)
    for m, n in ((5, 3), (2, 4)):
        a, b = r.standard_normal((m, n)), r.standard_normal((m, 2))
        np.testing.assert_allclose(ops.lstsq(T(a), T(b)).asnumpy(), np.linalg.lstsq(a, b, rcond=None)[0],
                                   rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(T(a).lstsq(T(b[:, 0])).asnumpy(),
                                   np.linalg.lstsq(a, b[:, :1], rcond=None)[0], rtol=1e-10, atol=1e-12)
    check_grad(lambda a, b: ops.lstsq(a, b), r.standard_normal((4, 2)), r.standard_normal((4, 3)), rtol=1e-5)
    with pytest.raises(ValueError, match="lstsq: 'A' must have input.shape\\[0\\] = 4 rows"):
        ops.lstsq(T(np.ones((4, 2))), T(np.ones((3, 1))))


def test_lu_solve_uses_lapack_pivots():
    r = rng(5)
    a = r.standard_normal((2, 4, 4))
    b = r.standard_normal((2, 4, 3))
    factors = [_getrf(m) for m in a]
    lu = np.stack([f[0] for f in factors])
    pivots = np.stack([f[1] for f in factors])
    got = ops.lu_solve(T(b), T(lu), T(pivots))
    np.testing.assert_allclose(got.asnumpy(), np.linalg.solve(a, b), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(T(b).lu_solve(T(lu), T(pivots)).asnumpy(), got.asnumpy())
    # MindSpore's documented example
    y = ops.lu_solve(T([[1.0], [3.0], [3.0]]), T([[2.0, 1.0, 1.0], [0.5, 1.0, 1.5], [0.5, 0.0, 2.5]]),
                     T([2, 2, 3], ms.int32))
    np.testing.assert_allclose(y.asnumpy(), [[1.9], [-1.4], [0.6]], rtol=1e-6)


def test_triangular_solve_reads_only_its_triangle():
    r = rng(6)
    a = r.standard_normal((3, 3)) + 4 * np.eye(3)
    b = r.standard_normal((2, 3, 2))
    for upper in (True, False):
        for transpose in (True, False):
            for unit in (True, False):
                t = np.triu(a) if upper else np.tril(a)
                if unit:
                    np.fill_diagonal(t, 1.0)
                t = t.T if transpose else t
                x, a_out = T(b).triangular_solve(T(a), upper, transpose, unit)
                np.testing.assert_allclose(x.asnumpy(), np.linalg.solve(t, b), rtol=1e-10, atol=1e-12)
                np.testing.assert_array_equal(a_out.asnumpy(), a)
    check_grad(lambda b, a: b.triangular_solve(a)[0], b[0], a)


# --- Tensor methods over existing ops -------------------------------------------------------------------

def test_unique_with_dim_inverse_and_counts_matches_numpy():
    x = np.array([[3, 2, 3], [1, 1, 1], [3, 2, 3], [1, 0, 1]])
    for dim in (None, 0, 1):
        want = np.unique(x, return_inverse=True, return_counts=True, axis=dim)
        got = T(x).unique(return_inverse=True, return_counts=True, dim=dim)
        np.testing.assert_array_equal(got[0].asnumpy(), want[0])
        np.testing.assert_array_equal(got[1].asnumpy().reshape(-1), want[1].reshape(-1))
        np.testing.assert_array_equal(got[2].asnumpy(), want[2])
        assert got[1].dtype == ms.int64 and got[2].dtype == ms.int64
    np.testing.assert_array_equal(T([3, 2, 2, 1]).unique().asnumpy(), [1, 2, 3])


def test_searchsorted_dot_qr_fill_diagonal():
    seq = np.array([1.0, 2.0, 2.0, 3.0])
    v = np.array([2.0, 2.5, 0.0])
    for side in ("left", "right"):
        got = T(seq).searchsorted(T(v), side=side)
        assert got.dtype == ms.int32
        np.testing.assert_array_equal(got.asnumpy(), np.searchsorted(seq, v, side=side))
    order = np.array([3, 0, 2, 1])
    shuffled = np.empty_like(seq)
    shuffled[order] = seq
    np.testing.assert_array_equal(T(shuffled).searchsorted(v.tolist(), sorter=order.tolist()).asnumpy(),
                                  np.searchsorted(shuffled, v, sorter=order))
    with pytest.raises(ValueError, match="'side' must be 'left' or 'right'"):
        T(seq).searchsorted(T(v), side="middle")
    assert float(T([2.0, 3.0]).dot(T([2.0, 1.0])).asnumpy()) == 7.0
    with pytest.raises(ValueError, match="Tensor.dot: both tensors must be 1-d"):
        T([[1.0]]).dot(T([[1.0]]))
    a = rng(7).standard_normal((5, 3))
    q, r = T(a).qr(some=False)
    assert q.shape == (5, 5) and r.shape == (5, 3)
    np.testing.assert_allclose((q @ r).asnumpy(), a, atol=1e-12)
    for shape, wrap in (((7, 3), True), ((7, 3), False), ((2, 4), True), ((3, 3, 3), False)):
        want = np.zeros(shape)
        np.fill_diagonal(want, 2.5, wrap=wrap)
        np.testing.assert_array_equal(T(np.zeros(shape)).fill_diagonal(2.5, wrap).asnumpy(), want)
    with pytest.raises(ValueError, match="all sizes equal"):
        T(np.zeros((2, 3, 3))).fill_diagonal(1.0)


def test_methods_that_are_ops_under_their_names():
    x = T(rng(8).standard_normal((1, 2, 4, 4)).astype(np.float32))
    np.testing.assert_array_equal(x.unfold(2, stride=2).asnumpy(), ops.unfold(x, 2, stride=2).asnumpy())
    cols = ops.unfold(x, 2, stride=2)
    np.testing.assert_array_equal(cols.fold((4, 4), 2, stride=2).asnumpy(), ops.fold(cols, (4, 4), 2, stride=2).asnumpy())
    v = T([0.3, -1.0, 0.7])
    np.testing.assert_array_equal(v.hardshrink(0.5).asnumpy(), np.array([0.0, -1.0, 0.7], np.float32))
    np.testing.assert_allclose(v.soft_shrink().asnumpy(), [0.0, -0.5, 0.2], rtol=1e-6)
    np.testing.assert_array_equal(T([1, 2, 1]).bincount(minlength=4).asnumpy(),
                                  ops.bincount(T([1, 2, 1]), minlength=4).asnumpy())
    np.testing.assert_array_equal(T([1.0, 2.0, 1.0]).histc(4, 0, 3).asnumpy(), [0, 2, 1, 0])
    m = T([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(m.gather_nd(T([[0, 1], [1, 0]])).asnumpy(), [2.0, 3.0])
    assert T(np.zeros((2, 3), np.float32)).random_categorical(5).shape == (2, 5)
    assert T([[0.0, 1.0, 0.0]]).multinomial(4).asnumpy().tolist() == [[1, 1, 1, 1]]


def test_random_draws_shaped_like_the_tensor():
    ms.set_seed(3)
    base = T(np.zeros((200, 50), np.float32))
    u = base.uniform(2.0, 3.0).asnumpy()
    assert u.dtype == np.float32 and u.min() >= 2.0 and u.max() < 3.0 and abs(u.mean() - 2.5) < 0.01
    ln = base.log_normal(1.0, 0.5).asnumpy()
    assert (ln > 0).all() and abs(np.log(ln).mean() - 1.0) < 0.02 and abs(np.log(ln).std() - 0.5) < 0.02
    c = base.cauchy(1.0, 2.0).asnumpy()
    assert abs(np.median(c) - 1.0) < 0.1 and abs(np.percentile(c, 75) - 3.0) < 0.15  # quartiles at median +- sigma
    assert T(np.zeros((2, 2), np.int32)).cauchy().dtype == ms.int32
    p = T(np.tile(np.array([0.0, 0.25, 1.0], np.float32), (4000, 1)))
    draws = p.bernoulli().asnumpy()
    assert set(np.unique(draws)) <= {0.0, 1.0}
    np.testing.assert_allclose(draws.mean(axis=0), [0.0, 0.25, 1.0], atol=0.03)
    ms.set_seed(3)
    np.testing.assert_array_equal(base.uniform(2.0, 3.0).asnumpy(), u)  # seeded: the same numbers again
    with pytest.raises(ValueError, match="'from_' must not exceed 'to'"):
        base.uniform(3.0, 2.0)
    with pytest.raises(TypeError, match="Tensor.log_normal: the tensor must be of a floating-point dtype"):
        T([1, 2]).log_normal()
    with pytest.raises(TypeError, match="'generator' must be None"):
        base.bernoulli(generator=object())


def test_dlpack_round_trip_shares_memory():
    x = T(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    capsule = x.to_dlpack()
    y = T.from_dlpack(capsule)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    y[0, 0] = 42.0
    assert float(x.asnumpy()[0, 0]) == 42.0
    z = T.from_dlpack(np.arange(3.0))  # any __dlpack__ producer
    np.testing.assert_array_equal(z.asnumpy(), [0.0, 1.0, 2.0])
    with pytest.raises(TypeError, match="Tensor.from_dlpack"):
        T.from_dlpack([1, 2])


# --- nn cells -------------------------------------------------------------------------------------------

def test_special_function_cells():
    x = T([0.5, 3.0, 7.5])
    np.testing.assert_array_equal(nn.LGamma()(x).asnumpy(), ops.lgamma(x).asnumpy())
    np.testing.assert_array_equal(nn.DiGamma()(x).asnumpy(), ops.digamma(x).asnumpy())
    np.testing.assert_array_equal(nn.IGamma()(x, T([1.0, 1.0, 1.0])).asnumpy(), ops.igamma(x, T([1.0] * 3)).asnumpy())
    # LBeta against SciPy 1.17's betaln (float64 values)
    a = np.array([2.0, 20.0, 1e4, 3.0, 1e10, 0.5])
    b = np.array([3.0, 30.0, 1e4, 30.0, 1.0, 1e10])
    want = [-2.4849066497880004, -33.968820791977386, -13866.28325676141, -9.607773308387083,
            -23.025850929940457, -10.940560522033028]
    np.testing.assert_allclose(nn.LBeta()(T(a), T(b)).asnumpy(), want, rtol=1e-12)
    np.testing.assert_allclose(nn.LBeta()(T(a, ms.float32), T(b, ms.float32)).asnumpy(), want, rtol=1e-6)
    check_grad(lambda x, y: nn.LBeta()(x, y), np.array([0.7, 9.0, 12.0]), np.array([2.5, 3.0, 20.0]), rtol=1e-6)
    with pytest.raises(TypeError, match="LBeta: 'x' and 'y' must have the same dtype"):
        nn.LBeta()(T([1.0], ms.float32), T([1.0], ms.float64))


# --- graph mode -----------------------------------------------------------------------------------------

def test_compiled_functions_match_eager():
    x = T(np.array([[0.2, -0.4, 0.6], [0.1, 0.5, -0.3]], np.float32))
    ids = T(np.array([1, 0], np.int32))

    def f(x, ids):
        h = ops.asinh(x) + ops.atanh(x) + ops.acosh(x * x + 1.0)
        g = ops.igamma(x * x + 0.5, ops.abs(x)) + ops.igammac(x * x + 0.5, ops.abs(x))
        s = ops.unsorted_segment_max(x, ids, 3) + ops.unsorted_segment_prod(x, ids, 3)
        r = ops.reverse_sequence(x, T([2, 3]), 1) + ops.reverse(x, [1]) + ops.inv(x + 2.0) + ops.fills(x, 1.0)
        t = x.T.triangular_solve(T(np.triu(np.ones((3, 3), np.float32)) * 2))[0]
        return h, g, s, r, t, x.fill_diagonal(5.0), ops.lstsq(x.T, T(np.ones((3, 1), np.float32))), \
            nn.LBeta()(x * x + 1.0, x * x + 9.0)

    eager = f(x, ids)
    compiled = ms.jit(f)(x, ids)
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-6)


def test_compiled_gradient_of_igamma_matches_eager():
    a, x = T([0.5, 2.0, 7.0]), T([0.3, 4.5, 6.0])
    grad = ms.grad(lambda a, x: (ops.igamma(a, x) * ops.asinh(x)).sum(), grad_position=(0, 1))
    eager = grad(a, x)
    compiled = ms.jit(grad)(a, x)
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-10)
