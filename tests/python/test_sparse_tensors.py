"""COOTensor, CSRTensor, RowTensor, SparseTensor and the ops.coo_* / ops.csr_* functions against dense NumPy
equivalents; gradients with respect to the values against finite differences; compiled use; bad input."""
import numpy as np
import pytest

import sprout as ms
from sprout import COOTensor, CSRTensor, RowTensor, Tensor, ops
from sprout.nn.layer.sparse_tensor import SparseTensorDenseMatmul, SparseToDense

from finite_differences import check_grad

RNG = np.random.default_rng(0)


def coo_dense(indices, values, shape):
    out = np.zeros(shape, values.dtype)
    np.add.at(out, tuple(np.asarray(indices).T), values)
    return out


def csr_parts(dense):
    """(indptr, indices, values) of a dense NumPy matrix's nonzeros, row-major."""
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))])
    return indptr.astype(np.int32), cols.astype(np.int32), dense[rows, cols]


def random_sparse(shape, density=0.4, dtype=np.float32):
    dense = RNG.standard_normal(shape).astype(dtype)
    return dense * (RNG.random(shape) < density)


def make_csr(dense):
    indptr, indices, values = csr_parts(dense)
    return CSRTensor(Tensor(indptr), Tensor(indices), Tensor(values), dense.shape)


# ---- COOTensor ------------------------------------------------------------------------------------------

def test_coo_parts_properties_and_dense_form_add_repeated_coordinates():
    indices = np.array([[0, 1], [2, 3], [0, 1]], np.int64)
    values = np.array([1.5, -2.0, 4.0], np.float32)
    x = COOTensor(Tensor(indices), Tensor(values), (3, 4))
    assert x.shape == (3, 4) and x.dtype == ms.float32 and x.ndim == 2 and x.size == 3 and x.itemsize == 4
    np.testing.assert_array_equal(x.to_dense().asnumpy(), coo_dense(indices, values, (3, 4)))
    i, v, s = x.to_tuple()
    assert s == (3, 4) and i.dtype == ms.int64 and v.shape == (3,)
    copy = COOTensor(coo_tensor=x)
    np.testing.assert_array_equal(copy.values.asnumpy(), values)
    assert x.astype("float64").dtype == ms.float64 and x.astype(np.int32).dtype == ms.int32


def test_coo_prints_as_mindspore_does():
    x = COOTensor(Tensor([[0, 1], [1, 2]], ms.int32), Tensor([1, 2], ms.float32), (3, 4))
    assert repr(x) == ("COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(shape=[2, 2], dtype=Int32, value=\n"
                       "[[0 1]\n [1 2]]), values=Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  "
                       "2.00000000e+00]))")


@pytest.mark.parametrize("name", ["abs", "exp", "neg", "relu", "relu6", "sigmoid", "sin", "square", "tanh", "softsign",
                                  "isnan", "isinf", "isfinite", "floor", "round"])
def test_coo_and_csr_elementwise_functions_map_the_values(name):
    dense = random_sparse((3, 5))
    reference = {"abs": np.abs, "exp": np.exp, "neg": np.negative, "relu": lambda v: np.maximum(v, 0),
                 "relu6": lambda v: np.clip(v, 0, 6), "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "sin": np.sin,
                 "square": np.square, "tanh": np.tanh, "softsign": lambda v: v / (1 + np.abs(v)),
                 "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite, "floor": np.floor,
                 "round": np.round}[name]
    x = ops.dense_to_sparse_coo(Tensor(dense))
    out = getattr(ops, f"coo_{name}")(x)
    np.testing.assert_allclose(out.values.asnumpy(), reference(dense[np.nonzero(dense)]), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out.indices.asnumpy(), x.indices.asnumpy())
    c = getattr(ops, f"csr_{name}")(make_csr(dense))
    np.testing.assert_allclose(c.values.asnumpy(), reference(csr_parts(dense)[2]), rtol=1e-5, atol=1e-6)
    assert c.shape == dense.shape


def test_coo_add_merges_sorted_and_applies_the_threshold_to_shared_coordinates_only():
    # MindSpore's SparseAdd: a sum at a shared coordinate under `thresh` vanishes; lone values stay.
    a = COOTensor(Tensor([[0, 1], [1, 2]], ms.int64), Tensor([1., -2.]), (3, 4))
    b = COOTensor(Tensor([[0, 1], [2, 2]], ms.int64), Tensor([-1., 0.5]), (3, 4))
    out = ops.coo_add(a, b, Tensor(1.0))
    np.testing.assert_array_equal(out.indices.asnumpy(), [[1, 2], [2, 2]])
    np.testing.assert_array_equal(out.values.asnumpy(), [-2., 0.5])
    out = ops.coo_add(a, b, Tensor(0.0))
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [1, 2], [2, 2]])
    np.testing.assert_array_equal(out.values.asnumpy(), [0., -2., 0.5])
    np.testing.assert_array_equal((a + b).to_dense().asnumpy(), a.to_dense().asnumpy() + b.to_dense().asnumpy())
    np.testing.assert_array_equal((a - b).to_dense().asnumpy(), a.to_dense().asnumpy() - b.to_dense().asnumpy())


def test_coo_operators_with_dense_tensors():
    x = COOTensor(Tensor([[0, 1], [1, 2]], ms.int32), Tensor([2., 4.]), (2, 3))
    dense = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    xd = x.to_dense().asnumpy()
    np.testing.assert_array_equal((x + Tensor(dense)).asnumpy(), xd + dense)
    np.testing.assert_array_equal((x - Tensor(dense)).asnumpy(), xd - dense)
    np.testing.assert_array_equal((x * Tensor(dense)).to_dense().asnumpy(), xd * dense)
    np.testing.assert_allclose((x / Tensor(dense)).to_dense().asnumpy(), xd / dense)
    np.testing.assert_array_equal((-x).values.asnumpy(), [-2., -4.])


def test_coo_concat_shifts_and_sorts_row_major():
    a = COOTensor(Tensor([[2, 2], [0, 1]], ms.int64), Tensor([1., 3.]), (3, 4))
    b = COOTensor(Tensor([[0, 1], [1, 2]], ms.int64), Tensor([5., 6.]), (3, 4))
    for dim in (0, 1, -1):
        out = ops.coo_concat((a, b), dim)
        expected = np.concatenate([a.to_dense().asnumpy(), b.to_dense().asnumpy()], dim)
        assert out.shape == expected.shape
        np.testing.assert_array_equal(out.to_dense().asnumpy(), expected)
        keys = out.indices.asnumpy() @ np.array([expected.shape[1], 1])
        assert (np.diff(keys) >= 0).all()


def test_coalesce_and_to_csr_and_back():
    x = COOTensor(Tensor([[2, 0], [0, 3], [2, 0], [1, 1]], ms.int32), Tensor([1., 2., 3., 4.]), (3, 4))
    merged = x.coalesce()
    np.testing.assert_array_equal(merged.indices.asnumpy(), [[0, 3], [1, 1], [2, 0]])
    np.testing.assert_array_equal(merged.values.asnumpy(), [2., 4., 4.])
    csr = x.to_csr()
    np.testing.assert_array_equal(csr.indptr.asnumpy(), [0, 1, 2, 4])
    np.testing.assert_array_equal(csr.to_dense().asnumpy(), x.to_dense().asnumpy())
    np.testing.assert_array_equal(csr.to_coo().to_dense().asnumpy(), x.to_dense().asnumpy())


# ---- CSRTensor ------------------------------------------------------------------------------------------

def test_csr_dense_forms_products_and_sums_match_numpy():
    dense = random_sparse((4, 5))
    dense[2] = 0  # an empty row
    x = make_csr(dense)
    np.testing.assert_array_equal(x.to_dense().asnumpy(), dense)
    np.testing.assert_array_equal(ops.csr_to_dense(x).asnumpy(), dense)
    np.testing.assert_array_equal(ops.csr_to_coo(x).to_dense().asnumpy(), dense)
    right = RNG.standard_normal((5, 3)).astype(np.float32)
    np.testing.assert_allclose(x.mm(Tensor(right)).asnumpy(), dense @ right, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ops.csr_mv(x, Tensor(right[:, :1])).asnumpy(), dense @ right[:, :1], rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(x.sum(1).asnumpy(), dense.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ops.csr_reduce_sum(x, 0).asnumpy(), dense.sum(0, keepdims=True), rtol=1e-5, atol=1e-6)
    scale = RNG.standard_normal((4, 5)).astype(np.float32)
    np.testing.assert_allclose((x * Tensor(scale)).to_dense().asnumpy(), dense * scale, rtol=1e-6)
    np.testing.assert_allclose(ops.csr_div(x, Tensor(scale)).to_dense().asnumpy(), dense / np.where(dense, scale, 1),
                               rtol=1e-5)


def test_csr_add_is_the_union_of_both_structures():
    a_dense, b_dense = random_sparse((3, 4)), random_sparse((3, 4))
    out = ops.csr_add(make_csr(a_dense), make_csr(b_dense), Tensor(2.0), Tensor(-0.5))
    np.testing.assert_allclose(out.to_dense().asnumpy(), 2 * a_dense - 0.5 * b_dense, rtol=1e-6)
    assert out.values.shape[0] == np.count_nonzero((a_dense != 0) | (b_dense != 0))
    np.testing.assert_allclose((make_csr(a_dense) - make_csr(b_dense)).to_dense().asnumpy(), a_dense - b_dense)


def test_csr_softmax_normalizes_each_rows_stored_values():
    logits = CSRTensor(Tensor([0, 4, 6], ms.int32), Tensor([0, 2, 3, 4, 3, 4], ms.int32),
                       Tensor([1, 2, 3, 4, 1, 2], ms.float32), (2, 6))
    out = ops.csr_softmax(logits, ms.float32).values.asnumpy()
    row0, row1 = np.exp([1, 2, 3, 4.]), np.exp([1, 2.])
    np.testing.assert_allclose(out, np.concatenate([row0 / row0.sum(), row1 / row1.sum()]), rtol=1e-6)


def test_csr_mm_of_two_csr_tensors_keeps_the_structural_nonzeros():
    a = CSRTensor(Tensor([0, 1, 1, 3, 4], ms.int32), Tensor([0, 3, 4, 0], ms.int32), Tensor([1.0, 5.0, -1.0, -2.0]),
                  (4, 5))
    b = CSRTensor(Tensor([0, 1, 1, 3, 3, 3], ms.int32), Tensor([0, 0, 1], ms.int32), Tensor([2.0, 7.0, 8.0]), (5, 3))
    c = ops.csr_mm(a, b)
    assert c.shape == (4, 3)
    np.testing.assert_array_equal(c.values.asnumpy(), [2., -4.])
    np.testing.assert_array_equal(c.indptr.asnumpy(), [0, 1, 1, 1, 2])
    np.testing.assert_array_equal(c.indices.asnumpy(), [0, 0])
    t = ops.csr_mm(a, a, trans_b=True)
    np.testing.assert_allclose(t.to_dense().asnumpy(), a.to_dense().asnumpy() @ a.to_dense().asnumpy().T)


def test_dense_to_sparse_and_tensor_methods():
    x = Tensor([[1, 0], [-5, 0]], ms.float32)
    coo, csr = x.to_coo(), x.to_csr()
    np.testing.assert_array_equal(coo.indices.asnumpy(), [[0, 0], [1, 0]])
    np.testing.assert_array_equal(csr.indptr.asnumpy(), [0, 1, 2])
    np.testing.assert_array_equal(ops.dense_to_sparse_csr(x).indices.asnumpy(), [0, 0])
    np.testing.assert_array_equal(ops.coo2csr(Tensor([0, 0, 2], ms.int32), 3).asnumpy(), [0, 2, 2, 3])
    np.testing.assert_array_equal(ops.csr2coo(Tensor([0, 2, 2, 3], ms.int32), 3).asnumpy(), [0, 0, 2])


def test_row_and_legacy_sparse_tensors():
    r = RowTensor(Tensor([0, 2]), Tensor([[1., 2.], [3., 4.]]), (3, 2))
    assert r.dense_shape == (3, 2) and ops.row_tensor_get_values(r).shape == (2, 2)
    s = ms.SparseTensor(Tensor([[0, 1, 1]]), Tensor([7.]), (3, 4, 2))
    np.testing.assert_array_equal(s.to_dense().asnumpy(), coo_dense([[0, 1, 1]], np.array([7.], np.float32), (3, 4, 2)))
    assert isinstance(s, COOTensor)


def test_sparse_to_dense_and_sparse_dense_matmul_primitives_and_layers():
    indices = Tensor([[0, 1], [1, 2]], ms.int32)
    values = Tensor([1., 2.])
    dense = RNG.standard_normal((4, 2)).astype(np.float32)
    reference = coo_dense([[0, 1], [1, 2]], np.array([1., 2.], np.float32), (3, 4))
    np.testing.assert_array_equal(ops.SparseToDense()(indices, values, (3, 4)).asnumpy(), reference)
    np.testing.assert_array_equal(SparseToDense()(COOTensor(indices, values, (3, 4))).asnumpy(), reference)
    np.testing.assert_allclose(SparseTensorDenseMatmul()(indices, values, (3, 4), Tensor(dense)).asnumpy(),
                               reference @ dense, rtol=1e-6)
    np.testing.assert_allclose(ops.SparseTensorDenseMatmul(adjoint_st=True, adjoint_dt=True)(
        indices, values, (4, 3), Tensor(dense.T.copy())).asnumpy(),
        coo_dense([[0, 1], [1, 2]], np.array([1., 2.], np.float32), (4, 3)).T @ dense, rtol=1e-6)
    ones = np.ones((3, 4), np.float32)
    np.testing.assert_array_equal(ops.SparseTensorDenseAdd()(indices, values, (3, 4), Tensor(ones)).asnumpy(),
                                  reference + ones)


# ---- gradients with respect to the values ---------------------------------------------------------------

def test_gradients_with_respect_to_values_match_finite_differences():
    idx = Tensor(np.array([[0, 1], [2, 3], [0, 1], [1, 0]], np.int64))
    other = COOTensor(Tensor(np.array([[0, 1], [2, 2]], np.int64)), Tensor(np.array([0.3, -0.7])), (3, 4))
    v0 = RNG.standard_normal(4)
    check_grad(lambda v: COOTensor(idx, v, (3, 4)).to_dense(), v0)
    check_grad(lambda v: ops.coo_add(COOTensor(idx, v, (3, 4)), other, Tensor(0.0, ms.float64)).values, v0)
    check_grad(lambda v: ops.coo_tanh(COOTensor(idx, v, (3, 4))).coalesce().values, v0)
    indptr, cols = Tensor(np.array([0, 2, 2, 4], np.int32)), Tensor(np.array([0, 3, 1, 2], np.int32))
    right = Tensor(RNG.standard_normal((4, 2)))
    check_grad(lambda v: CSRTensor(indptr, cols, v, (3, 4)).mm(right), v0)
    check_grad(lambda v: ops.csr_softmax(CSRTensor(indptr, cols, v, (3, 4)), ms.float64).values, v0)
    check_grad(lambda v: ops.csr_add(CSRTensor(indptr, cols, v, (3, 4)), CSRTensor(indptr, cols, v * v, (3, 4)),
                                     Tensor(2.0, ms.float64), Tensor(1.0, ms.float64)).to_dense(), v0)
    sp_idx = Tensor(np.array([[0, 1], [1, 2]], np.int32))
    check_grad(lambda v, d: ops.SparseTensorDenseMatmul()(sp_idx, v, (3, 4), d), RNG.standard_normal(2),
               RNG.standard_normal((4, 2)))


# ---- compiled use ---------------------------------------------------------------------------------------

class SparseNet(ms.nn.Cell):
    def construct(self, indices, values, indptr, cols):
        coo = COOTensor(indices, values, (3, 4))
        csr = CSRTensor(indptr, cols, values, (3, 4))
        merged = ops.coo_add(coo, coo.abs(), Tensor(0.0))
        softmax = ops.csr_softmax(csr, ms.float32).values
        return coo.to_dense(), merged.to_dense(), csr.mm(ops.ones((4, 2), ms.float32)), softmax


def test_sparse_tensors_built_and_used_in_compiled_code_match_eager():
    args = (Tensor(np.array([[0, 1], [2, 3], [0, 1], [1, 0]], np.int32)),
            Tensor(np.array([1., -2., 3., -4.], np.float32)), Tensor(np.array([0, 2, 2, 4], np.int32)),
            Tensor(np.array([0, 3, 1, 2], np.int32)))
    eager = SparseNet()(*args)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        compiled = SparseNet()(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for e, c in zip(eager, compiled):
        np.testing.assert_allclose(c.asnumpy(), e.asnumpy(), rtol=1e-6)


# ---- bad input ------------------------------------------------------------------------------------------

def test_bad_input_is_refused_with_clear_errors():
    i, v = Tensor([[0, 1]], ms.int32), Tensor([1.])
    with pytest.raises(TypeError, match="COOTensor: 'indices' must be an int16, int32 or int64 tensor"):
        COOTensor(Tensor([[0., 1.]]), v, (2, 2))
    with pytest.raises(TypeError, match="COOTensor: 'indices' must be a Tensor"):
        COOTensor([[0, 1]], v, (2, 2))
    with pytest.raises(ValueError, match="'shape' must have 2 elements"):
        COOTensor(i, v, (2, 2, 2))
    with pytest.raises(ValueError, match="must be positive"):
        COOTensor(i, v, (2, -2))
    with pytest.raises(ValueError, match="as many rows"):
        COOTensor(i, Tensor([1., 2.]), (2, 2))
    with pytest.raises(ValueError, match="'indptr' must have shape\\[0\\] \\+ 1"):
        CSRTensor(Tensor([0, 1], ms.int32), Tensor([0], ms.int32), v, (2, 2))
    with pytest.raises(ValueError, match="shape\\[2:\\] must equal values.shape\\[1:\\]"):
        CSRTensor(Tensor([0, 1, 1], ms.int32), Tensor([0], ms.int32), Tensor([[1., 2.]]), (2, 2, 3))
    with pytest.raises(TypeError, match="coo_abs: 'x' must be a COOTensor, but got Tensor"):
        ops.coo_abs(v)
    with pytest.raises(ValueError, match="at least 2 COOTensors"):
        ops.coo_concat((COOTensor(i, v, (2, 2)),))
    with pytest.raises(ValueError, match="same shape"):
        ops.coo_add(COOTensor(i, v, (2, 2)), COOTensor(i, v, (2, 3)), Tensor(0.))
    with pytest.raises(ValueError, match="dense_to_sparse_coo: 'tensor' must be 2-d"):
        ops.dense_to_sparse_coo(Tensor(np.ones((2, 2, 2), np.float32)))
    with pytest.raises(TypeError, match="'adjoint_st' must be a bool"):
        SparseTensorDenseMatmul(adjoint_st=1)
    with pytest.raises(ValueError, match="inner dimensions must agree"):
        ops.SparseTensorDenseMatmul()(i, v, (2, 3), Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(TypeError, match="SparseToDense: the input must be a COOTensor"):
        SparseToDense()(v)
    with pytest.raises(TypeError, match="csr_softmax: 'dtype' must be"):
        ops.csr_softmax(make_csr(np.eye(2, dtype=np.float32)), ms.int32)
