"""MindSpore Primitive classes carried out by functional ops (array, indexing, math, linalg, random, RmsNorm):
each against NumPy on small inputs (the expected values were also checked against MindSpore 2.10), a bad
constructor argument per family, a few compiled, gradients of a few against finite differences."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops
from finite_differences import check_grad

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def t(a, dtype=None):
    return Tensor(np.asarray(a), dtype) if dtype is not None else Tensor(np.asarray(a))


# ---- array ------------------------------------------------------------------------------------------

def test_shape_queries():
    x = t(X)
    assert ops.Shape()(x) == (2, 3) and ops.Rank()(x) == 2 and ops.Size()(x) == 6
    assert ops.DType()(x) == ms.float32 and ops.dtype(x) == ms.float32
    shape = ops.TensorShape()(x)
    assert shape.dtype == ms.int64 and shape.asnumpy().tolist() == [2, 3]
    assert ops.TensorToTuple()(t([1, 2, 3])) == (1, 2, 3)


def test_conversions_and_fills():
    arr = ops.TupleToArray()((1, 2, 3))
    assert arr.dtype == ms.int32 and arr.asnumpy().tolist() == [1, 2, 3]
    assert ops.ScalarToTensor()(3, ms.int32).dtype == ms.int32
    np.testing.assert_array_equal(ops.FillV2()((2, 3), Tensor(2, ms.int32)).asnumpy(), np.full((2, 3), 2))
    np.testing.assert_array_equal(ops.Expand()(t([[1.0], [2.0]]), t([2, 3])).asnumpy(),
                                  np.broadcast_to([[1.0], [2.0]], (2, 3)))
    np.testing.assert_array_equal(ops.expand(t([[1.0], [2.0]]), (2, 3)).asnumpy(),
                                  np.broadcast_to([[1.0], [2.0]], (2, 3)))
    assert ops.InvertPermutation()((3, 4, 0, 2, 1)) == (2, 4, 3, 0, 1)


def test_pack_unstack_views():
    x = t(X)
    np.testing.assert_array_equal(ops.Pack(1)([x, x]).asnumpy(), np.stack([X, X], 1))
    for prim in (ops.Unpack(1), ops.Unstack(1)):
        parts = prim(x)
        assert len(parts) == 3 and all(np.array_equal(p.asnumpy(), X[:, i]) for i, p in enumerate(parts))
    assert len(ops.unstack(x)) == 2
    np.testing.assert_array_equal(ops.TransposeView()(x, (1, 0)).asnumpy(), X.T)
    np.testing.assert_array_equal(ops.TransposeExtView()(x, 0, 1).asnumpy(), X.T)
    np.testing.assert_array_equal(ops.SelectView()(x, 1, 0).asnumpy(), X[1])  # (input, index, dim)
    assert all(a is b for a, b in zip(ops.IdentityN()([x, x]), (x, x)))


def test_diagonals():
    d = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(ops.Diag()(t([1.0, 2.0])).asnumpy(), np.diag([1.0, 2.0]))
    m = np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)
    np.testing.assert_array_equal(ops.DiagPart()(t(m)).asnumpy(), [[m[0, 0, 0, 0], m[0, 1, 0, 1]],
                                                                  [m[1, 0, 1, 0], m[1, 1, 1, 1]]])
    out = ops.MatrixDiagV3()(t(d), Tensor([-1, 0], ms.int32), Tensor(-1, ms.int32), Tensor(-1, ms.int32),
                             Tensor(9.0))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 9, 9], [4, 2, 9], [9, 5, 3]])
    out = ops.MatrixDiagV3("LEFT_RIGHT")(t(d), Tensor([0, 1], ms.int32), Tensor(-1, ms.int32),
                                         Tensor(5, ms.int32), Tensor(0.0))
    np.testing.assert_array_equal(out.asnumpy(), [[4, 1, 0, 0, 0], [0, 5, 2, 0, 0], [0, 0, 6, 3, 0]])
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    out = ops.MatrixDiagPartV3("RIGHT_RIGHT")(t(x), Tensor([-2, 2], ms.int32), Tensor(-1.0))
    np.testing.assert_array_equal(out.asnumpy(), [[-1, 3, 8], [2, 7, 12], [1, 6, 11], [-1, 5, 10], [-1, -1, 9]])
    np.testing.assert_array_equal(ops.MatrixDiagPartV3()(t(x), Tensor(1, ms.int32), Tensor(0.0)).asnumpy(),
                                  np.diagonal(x, 1))
    filled = ops.FillDiagonal(5.0, True)(t(np.zeros((5, 2), np.float32))).asnumpy()
    np.testing.assert_array_equal(filled, [[5, 0], [0, 5], [0, 0], [5, 0], [0, 5]])
    np.testing.assert_array_equal(ops.TrilIndices(3, 2)().asnumpy(), np.stack(np.tril_indices(3, 0, 2)))
    np.testing.assert_array_equal(ops.TriuIndices(3, 3, 1)().asnumpy(), np.stack(np.triu_indices(3, 1, 3)))


def test_sequences():
    out, idx, counts = ops.UniqueConsecutive()(Tensor([1, 1, 2, 2, 3, 1], ms.int32))
    assert out.asnumpy().tolist() == [1, 2, 3, 1] and idx.asnumpy().tolist() == [0, 0, 1, 1, 2, 3]
    assert counts.asnumpy().tolist() == [2, 2, 1, 1]
    np.testing.assert_array_equal(ops.ReverseSequence(1)(t(X), Tensor([1, 2], ms.int32)).asnumpy(),
                                  [[0, 1, 2], [4, 3, 5]])
    np.testing.assert_allclose(ops.LogSpace(5, 2)(Tensor(1.0), Tensor(3.0)).asnumpy(), np.logspace(1, 3, 5, base=2),
                               rtol=1e-6)


def test_array_bad_arguments():
    with pytest.raises(TypeError, match="Pack: 'axis' must be an int"):
        ops.Pack(axis=1.5)
    with pytest.raises(ValueError, match="InvertPermutation: 'input_x' must be a permutation"):
        ops.InvertPermutation()((0, 0, 1))
    with pytest.raises(ValueError, match="DiagPart: 'input_x' must have an even rank"):
        ops.DiagPart()(t(X))
    with pytest.raises(ValueError, match="matrix_diag_part: 'align' must be one of"):
        ops.matrix_diag_part(t(X), 0, 0.0, align="UP")


# ---- indexing ---------------------------------------------------------------------------------------

def test_gathers_and_searches():
    x = t(X)
    np.testing.assert_array_equal(ops.GatherD()(x, 1, Tensor([[0, 0], [1, 2]], ms.int32)).asnumpy(),
                                  np.take_along_axis(X, np.array([[0, 0], [1, 2]]), 1))
    np.testing.assert_array_equal(ops.GatherV2()(x, Tensor([1, 0], ms.int32), 1).asnumpy(), X[:, [1, 0]])
    seq = np.array([[1.0, 3, 5], [2, 4, 6]], np.float32)
    out = ops.SearchSorted()(t(seq), t(np.array([[3.0], [7.0]], np.float32)))
    assert out.dtype == ms.int64 and out.asnumpy().tolist() == [[1], [3]]
    assert ops.SearchSorted(ms.int32, True)(t(seq), t(np.array([[3.0], [4.0]], np.float32))).dtype == ms.int32
    out = ops.Bucketize([1.0, 3.0])(t(np.array([0.0, 1, 2, 3, 4], np.float32)))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == np.digitize([0, 1, 2, 3, 4], [1, 3]).tolist()
    coords = ops.UnravelIndex()(Tensor([5, 3], ms.int32), Tensor([2, 3], ms.int32))
    np.testing.assert_array_equal(coords.asnumpy(), np.stack(np.unravel_index([5, 3], (2, 3))))
    params = np.arange(8, dtype=np.float32).reshape(4, 2)
    out = ops.EmbeddingLookup()(t(params), Tensor([[1, 5], [0, 3]], ms.int32), 1).asnumpy()
    np.testing.assert_array_equal(out, [[params[0], [0, 0]], [[0, 0], params[2]]])


def test_segment_reductions():
    data = np.array([[1.0, 5, 2], [4, 0, 6], [3, 3, 3]], np.float32)
    ids = Tensor([0, 0, 2], ms.int32)
    np.testing.assert_array_equal(ops.UnsortedSegmentMax()(t(data), ids, 3).asnumpy()[[0, 2]],
                                  [data[:2].max(0), data[2]])
    np.testing.assert_array_equal(ops.UnsortedSegmentMin()(t(data), ids, Tensor(3, ms.int32)).asnumpy()[0],
                                  data[:2].min(0))
    prod = ops.UnsortedSegmentProd()(t(data), ids, 3).asnumpy()
    np.testing.assert_array_equal(prod, [data[:2].prod(0), [1, 1, 1], data[2]])


def test_updates_in_place_and_out_of_place():
    v = t(np.zeros((2, 3), np.float32))
    out = ops.InplaceIndexAdd(1)(v, Tensor([0, 2], ms.int32), t(np.ones((2, 2), np.float32)))
    assert v.asnumpy().tolist() == out.asnumpy().tolist() == [[1, 0, 1], [1, 0, 1]]  # written in place, as MindSpore's
    w = t(np.zeros((2, 3), np.float32))
    ops.IndexAdd(1)(w, Tensor([0, 0], ms.int32), t(np.ones((2, 2), np.float32)))
    assert w.asnumpy().tolist() == [[2, 0, 0], [2, 0, 0]]
    p = ms.Parameter(t(np.zeros((3, 2), np.float32)), name="p")
    ops.ScatterNdAdd()(p, Tensor([[0], [2], [0]], ms.int32), t(np.ones((3, 2), np.float32)))
    ops.ScatterUpdate()(p, Tensor([1], ms.int32), t(np.full((1, 2), 7.0, np.float32)))
    ops.ScatterNdUpdate()(p, Tensor([[2, 1]], ms.int32), t(np.array([9.0], np.float32)))
    assert p.asnumpy().tolist() == [[2, 2], [7, 7], [1, 9]]
    x = t(X)
    np.testing.assert_array_equal(ops.InplaceAdd((1, 0))(x, t(np.ones((2, 3), np.float32))).asnumpy(), X + 1)
    np.testing.assert_array_equal(ops.InplaceSub(1)(x, t(np.ones((1, 3), np.float32))).asnumpy(), X - [[0], [1]])
    np.testing.assert_array_equal(ops.InplaceUpdateV2()(x, 1, t(np.full((1, 3), 9.0, np.float32))).asnumpy(),
                                  [X[0], [9, 9, 9]])
    assert x.asnumpy().tolist() == X.tolist()
    np.testing.assert_array_equal(ops.IndexFill()(x, 1, Tensor([0, 2], ms.int32), Tensor(-1.0)).asnumpy(),
                                  [[-1, 1, -1], [-1, 4, -1]])
    np.testing.assert_array_equal(ops.IndexPut(1)(x, t(np.array([5.0], np.float32)), (Tensor([0, 1], ms.int32),))
                                  .asnumpy(), X + 5)
    mask = np.array([[True, False, True], [False, False, True]])
    out = ops.MaskedScatter()(x, Tensor(mask), t(np.array([7.0, 8, 9, 10], np.float32))).asnumpy()
    np.testing.assert_array_equal(out, [[7, 1, 8], [3, 4, 9]])
    np.testing.assert_array_equal(ops.TensorScatterAdd()(x, Tensor([[0, 0]], ms.int32), t(np.array([1.0], np.float32)))
                                  .asnumpy(), X + [[1, 0, 0], [0, 0, 0]])


def test_indexing_bad_arguments():
    with pytest.raises(TypeError, match="IndexAdd: 'use_lock' must be a bool"):
        ops.IndexAdd(0, use_lock=1)
    with pytest.raises(ValueError, match="IndexPut: 'accumulate' must be 0 or 1"):
        ops.IndexPut(2)
    with pytest.raises(ValueError, match="Bucketize: 'boundaries' must be sorted"):
        ops.Bucketize([3.0, 1.0])
    with pytest.raises(TypeError, match="UnravelIndex: 'indices' and 'dims' must be int32 or int64"):
        ops.UnravelIndex()(t(np.array([1.0], np.float32)), Tensor([2], ms.int32))


# ---- math -------------------------------------------------------------------------------------------

def test_math_elementwise_and_products():
    x = t(X)
    np.testing.assert_allclose(ops.Addcdiv()(x, x, x + 1, Tensor(2.0)).asnumpy(), X + 2 * X / (X + 1), rtol=1e-6)
    np.testing.assert_array_equal(ops.TensorAdd()(x, x).asnumpy(), 2 * X)
    np.testing.assert_allclose(ops.LerpScalar()(x, x * 3, 0.5).asnumpy(), 2 * X)
    out = ops.NanToNum(posinf=7.0)(t(np.array([np.nan, np.inf, -np.inf, 1], np.float32))).asnumpy()
    np.testing.assert_array_equal(out, [0, 7, np.finfo(np.float32).min, 1])
    np.testing.assert_array_equal(ops.Ger()(t([1.0, 2.0]), t([1.0, 2.0, 3.0])).asnumpy(), np.outer([1, 2], [1, 2, 3]))
    assert float(ops.Trace()(t(X[:, :2])).asnumpy()) == 4.0
    rows = np.array([[1.0, 2, 3], [4, 5, 6]], np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    np.testing.assert_allclose(ops.Renorm(2, 0, 5.0)(t(rows)).asnumpy(),
                               np.where(norms > 5, rows * 5 / norms, rows), rtol=1e-5)
    pts = np.array([[0.0, 0], [3, 4], [1, 1]], np.float32)
    np.testing.assert_allclose(ops.Pdist()(t(pts)).asnumpy(), [5, np.sqrt(2), np.sqrt(13)], rtol=1e-6)
    np.testing.assert_allclose(ops.pdist(t(pts), 1.0).asnumpy(), [7, 2, 5])
    np.testing.assert_allclose(ops.Cdist(1.0)(t(pts[None]), t(pts[None, :1])).asnumpy()[0, :, 0], [0, 7, 2])


def test_scans_and_statistics():
    values, indices = ops.Cummin(0)(t(np.array([3.0, 1, 2, 0], np.float32)))
    assert values.asnumpy().tolist() == [3, 1, 1, 0] and indices.dtype == ms.int32
    values, indices = ops.Cummax(0)(t(np.array([3.0, 1, 4, 0], np.float32)))
    assert values.asnumpy().tolist() == [3, 3, 4, 4] and indices.dtype == ms.int64
    a = np.array([1.0, 2, 3], np.float32)
    lse = np.logaddexp.accumulate(a)
    np.testing.assert_allclose(ops.CumulativeLogsumexp()(t(a), Tensor(0)).asnumpy(), lse, rtol=1e-6)
    out = ops.CumulativeLogsumexp(True, True)(t(a), 0).asnumpy()
    np.testing.assert_allclose(out, [np.logaddexp(2, 3), 3, np.finfo(np.float32).min], rtol=1e-6)
    m = np.array([[1.0, np.nan, 3, 7], [4, 2, 6, 0]], np.float32)
    v, i = ops.Median(False, 1, False, True)(t(m))
    assert v.asnumpy().tolist() == [3, 2] and i.asnumpy().tolist() == [2, 1]
    v, _ = ops.Median(False, 1, True)(t(m))
    assert np.isnan(v.asnumpy()[0, 0]) and v.shape == (2, 1)
    v, i = ops.Median(True)(t(np.array([[1, 7, 6], [5, 1, 3], [9, 17, 1]], np.int32)))
    assert int(v.asnumpy()) == 5 and int(i.asnumpy()) == 0  # MindSpore's global index is 0
    s = np.array([[1.0, 2, 4], [3, 5, 9]], np.float32)
    std, mean = ops.ReduceStd(1)(t(s))
    np.testing.assert_allclose(std.asnumpy(), s.std(1, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(mean.asnumpy(), s.mean(1), rtol=1e-6)
    std, _ = ops.ReduceStd((0,), False, True)(t(s))
    np.testing.assert_allclose(std.asnumpy(), s.std(0, keepdims=True), rtol=1e-6)
    sx, sy = ops.SquareSumAll()(t([1.0, 2.0]), t([3.0, 4.0]))
    assert float(sx.asnumpy()) == 5 and float(sy.asnumpy()) == 25


def test_counts_and_windows():
    assert ops.EqualCount()(Tensor([1, 2, 3], ms.int32), Tensor([1, 2, 4], ms.int32)).asnumpy().tolist() == [2]
    c = ops.CountNonZero(dims=1)(t(np.array([[0.0, 1], [2, 3]], np.float32)))
    assert c.dtype == ms.int64 and c.asnumpy().tolist() == [1, 2]
    data = np.array([0.0, 1, 1, 2, 5], np.float32)
    np.testing.assert_array_equal(ops.Histogram(4, 0.0, 3.0)(t(data)).asnumpy(), np.histogram(data, 4, (0, 3))[0])
    counts = ops.Histogram(4, 0.0, 3.0)(t(data.astype(np.int32)))
    assert counts.dtype == ms.int32
    arr = Tensor([0, 1, 1, 3, 7], ms.int32)
    np.testing.assert_array_equal(ops.Bincount()(arr, Tensor(5, ms.int32), Tensor([], ms.float32)).asnumpy(),
                                  np.bincount([0, 1, 1, 3], minlength=5))
    out = ops.Bincount()(arr, 5, t(np.array([1.0, 2, 3, 4, 5], np.float32))).asnumpy()
    np.testing.assert_array_equal(out, [1, 5, 0, 4, 0])
    np.testing.assert_allclose(ops.BartlettWindow(False)(Tensor(5, ms.int32)).asnumpy(), np.bartlett(5), atol=1e-6)
    np.testing.assert_allclose(ops.HammingWindow(False)(Tensor([5])).asnumpy(), np.hamming(5), atol=1e-6)
    w = ops.BlackmanWindow(False, ms.float64)(Tensor(4, ms.int64))
    assert w.dtype == ms.float64
    np.testing.assert_allclose(w.asnumpy(), np.blackman(4), atol=1e-12)


def test_math_bad_arguments():
    with pytest.raises(TypeError, match="Cummin: 'axis' must be an int"):
        ops.Cummin("0")
    with pytest.raises(ValueError, match="Histogram: 'min' must not exceed 'max'"):
        ops.Histogram(4, 3.0, 1.0)
    with pytest.raises(TypeError, match="ReduceStd: 'axis' must be an int or a tuple/list of ints"):
        ops.ReduceStd(axis="x")
    with pytest.raises(ValueError, match="HammingWindow: 'window_length' must be in"):
        ops.HammingWindow()(Tensor(-1, ms.int32))


# ---- linalg -----------------------------------------------------------------------------------------

def test_linalg():
    a = np.array([[2.0, 9.0], [1.0, 4.0]], np.float32)
    b = np.array([[2.0], [3.0]], np.float32)
    lower = np.tril(a)
    np.testing.assert_allclose(ops.MatrixTriangularSolve()(t(a), t(b)).asnumpy(), np.linalg.solve(lower, b))
    np.testing.assert_allclose(ops.MatrixTriangularSolve(True, True)(t(a), t(b)).asnumpy(),
                               np.linalg.solve(lower.T, b))
    np.testing.assert_allclose(ops.MatrixTriangularSolve(False)(t(a), t(b)).asnumpy(),
                               np.linalg.solve(np.triu(a), b), rtol=1e-6)
    m = np.array([[1.0, 2], [3, 4], [5, 7]], np.float32)
    rhs = np.array([[1.0], [2], [3]], np.float32)
    np.testing.assert_allclose(ops.Lstsq()(t(m), t(rhs)).asnumpy(), np.linalg.lstsq(m, rhs, rcond=None)[0],
                               atol=1e-5)
    np.testing.assert_allclose(ops.MatrixPower(3)(t(a[None])).asnumpy()[0], np.linalg.matrix_power(a, 3))
    spd = np.array([[4.0, 2], [2, 3]], np.float32)
    factor = np.linalg.cholesky(spd)
    np.testing.assert_allclose(ops.CholeskyInverse()(t(factor)).asnumpy(), np.linalg.inv(spd), rtol=1e-5)
    np.testing.assert_allclose(ops.CholeskySolve()(t(b), t(factor)).asnumpy(), np.linalg.solve(spd, b), rtol=1e-5)
    lu = np.array([[2.0, 1.0], [0.5, 1.5]], np.float32)
    np.testing.assert_allclose(ops.LuSolve()(t(np.array([[1.0], [3.0]], np.float32)), t(lu), Tensor([1, 2], ms.int32)).asnumpy(),
                               [[-1 / 3], [5 / 3]], rtol=1e-5)


def test_linalg_bad_arguments():
    with pytest.raises(ValueError, match="Lstsq: 'l2_regularizer' must be 0.0"):
        ops.Lstsq(l2_regularizer=0.5)
    with pytest.raises(ValueError, match="MatrixDiagV3: 'align' must be one of"):
        ops.MatrixDiagV3("MIDDLE")


# ---- random and RmsNorm -----------------------------------------------------------------------------

def test_random():
    assert ops.StandardLaplace(1, 2)((2, 3)).shape == (2, 3)
    assert ops.Cauchy([2, 3])().shape == (2, 3)
    sample = ops.LogNormalReverse()(t(np.zeros((50,), np.float32))).asnumpy()
    assert (sample > 0).all()
    assert sorted(ops.RandpermV2(1)(Tensor(5)).asnumpy().tolist()) == [0, 1, 2, 3, 4]
    draws = ops.MultinomialWithReplacement(6, True)(t(np.array([[0.0, 9, 4, 0]], np.float32)), Tensor(0), Tensor(0))
    assert draws.shape == (1, 6) and set(draws.asnumpy().ravel()) <= {1, 2}
    flags = np.array([[True, False, True], [False, True, False]])
    index, mask = ops.RandomChoiceWithMask(6, 3, 4)(Tensor(flags))
    assert index.dtype == ms.int32 and index.shape == (6, 2) and mask.asnumpy().tolist() == [True] * 3 + [False] * 3
    chosen = {tuple(r) for r in index.asnumpy()[:3]}
    assert chosen == {tuple(r) for r in np.argwhere(flags)}


def test_rms_norm():
    x = np.array([[1.0, 2], [3, 4]], np.float32)
    gamma = np.array([1.0, 2.0], np.float32)
    y, rstd = ops.RmsNorm()(t(x), t(gamma))
    ref_rstd = 1 / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(rstd.asnumpy(), ref_rstd, rtol=1e-6)
    np.testing.assert_allclose(y.asnumpy(), x * ref_rstd * gamma, rtol=1e-6)


def test_random_and_norm_bad_arguments():
    with pytest.raises(ValueError, match="Cauchy: 'sigma' must be positive"):
        ops.Cauchy([2], sigma=0.0)
    with pytest.raises(ValueError, match="RandomChoiceWithMask: 'count' must be at least 1"):
        ops.RandomChoiceWithMask(0)
    with pytest.raises(ValueError, match="rms_norm: 'gamma' must have the trailing shape"):
        ops.RmsNorm()(t(X), t(np.ones(2, np.float32)))


# ---- graph mode and gradients -------------------------------------------------------------------------

def test_compiled():
    x = t(np.array([[1.0, 5, 3], [4, 2, 6]], np.float32))

    @ms.jit
    def f(x):
        std, mean = ops.ReduceStd(1)(x)
        values, _ = ops.Cummin(1)(x)
        diag = ops.MatrixDiagPartV3()(x, Tensor([0, 1], ms.int32), Tensor(0.0))
        return std + mean, values, diag, ops.Pdist()(x), ops.GatherD()(x, 1, Tensor([[2], [0]], ms.int32))

    eager = (ops.ReduceStd(1)(x)[0] + ops.ReduceStd(1)(x)[1], ops.Cummin(1)(x)[0],
             ops.MatrixDiagPartV3()(x, Tensor([0, 1], ms.int32), Tensor(0.0)), ops.Pdist()(x),
             ops.GatherD()(x, 1, Tensor([[2], [0]], ms.int32)))
    for compiled, expected in zip(f(x), eager):
        np.testing.assert_allclose(compiled.asnumpy(), expected.asnumpy(), rtol=1e-6)


def test_compiled_random_choice_and_rms_norm():
    flags = Tensor(np.array([True, False, True, True]))
    index, mask = ms.jit(lambda b: ops.RandomChoiceWithMask(5)(b))(flags)
    assert mask.asnumpy().tolist() == [True, True, True, False, False]
    assert sorted(index.asnumpy()[:3, 0].tolist()) == [0, 2, 3]
    x, gamma = t(X + 1), t(np.array([1.0, 2, 3], np.float32))
    compiled = ms.jit(lambda a, g: ops.RmsNorm()(a, g)[0])(x, gamma)
    np.testing.assert_allclose(compiled.asnumpy(), ops.RmsNorm()(x, gamma)[0].asnumpy(), rtol=1e-6)


def test_gradients():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 3))
    check_grad(lambda x: ops.Pdist(2.0)(x), a, rtol=1e-5)
    check_grad(lambda x: ops.CumulativeLogsumexp(False, True)(x, 1), a, rtol=1e-5)
    check_grad(lambda x: ops.MatrixDiagV3()(x, Tensor([-1, 1], ms.int32), Tensor(-1, ms.int32),
                                            Tensor(-1, ms.int32), Tensor(0.0, ms.float64)), a[:3], rtol=1e-5)
    check_grad(lambda x: ops.EmbeddingLookup()(x, Tensor([[1, 5], [0, 3]], ms.int32), 1), a, rtol=1e-5)
    check_grad(lambda x: ops.ReduceStd(0)(x)[0], a, rtol=1e-5)


def test_function_primitives_neither_shadow_the_registry_nor_each_other():
    # ops/__init__ imports function_primitives after operations: a class of the same name would silently
    # replace the registry's primitive, and a name given by two modules would depend on import order.
    from collections import Counter
    from sprout.ops import function_primitives, operations
    assert not set(operations.__all__) & set(function_primitives.__all__)
    assert [n for n, k in Counter(function_primitives.__all__).items() if k > 1] == []
