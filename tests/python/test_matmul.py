"""MatMul and BatchMatMul against NumPy: transposes, views, batch broadcasting, dtypes, errors."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

rng = np.random.default_rng(0)


@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
@pytest.mark.parametrize("dtype, rtol", [(np.float32, 1e-5), (np.float64, 1e-12)])
def test_matmul_transposes(ta, tb, dtype, rtol):
    a = rng.standard_normal((5, 7) if not ta else (7, 5)).astype(dtype)
    b = rng.standard_normal((7, 3) if not tb else (3, 7)).astype(dtype)
    out = ops.MatMul(transpose_a=ta, transpose_b=tb)(ms.Tensor(a), ms.Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), (a.T if ta else a) @ (b.T if tb else b), rtol=rtol, atol=rtol)


def test_matmul_on_strided_views_without_copies_being_wrong():
    a = rng.standard_normal((8, 12)).astype(np.float32)
    t = ms.Tensor(a)
    for x, ref in [(t.T, a.T), (t[::2, ::3], a[::2, ::3]), (t[1:5], a[1:5])]:
        w = rng.standard_normal((ref.shape[1], 4)).astype(np.float32)
        np.testing.assert_allclose(ops.matmul(x, ms.Tensor(w)).asnumpy(), ref @ w, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("sa, sb", [((7,), (7,)), ((7,), (7, 2)), ((3, 7), (7,)), ((2, 3, 7), (7, 4)),
                                    ((4, 1, 3, 7), (5, 7, 2)), ((2, 3, 7), (7,)), ((64, 64), (64, 64))])
def test_ops_matmul_follows_numpy_rules(sa, sb):
    a = rng.standard_normal(sa).astype(np.float32)
    b = rng.standard_normal(sb).astype(np.float32)
    out = ops.matmul(ms.Tensor(a), ms.Tensor(b))
    expect = a @ b
    assert out.shape == expect.shape
    np.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose((ms.Tensor(a) @ ms.Tensor(b)).asnumpy(), expect, rtol=1e-4, atol=1e-4)


def test_batch_matmul_transpose_and_broadcast():
    a = rng.standard_normal((3, 1, 4, 6)).astype(np.float32)
    b = rng.standard_normal((2, 5, 6)).astype(np.float32)
    out = ops.BatchMatMul(transpose_b=True)(ms.Tensor(a), ms.Tensor(b))
    np.testing.assert_allclose(out.asnumpy(), a @ np.swapaxes(b, -1, -2), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16, ms.int32, ms.int64])
def test_other_dtypes(dtype):
    a = rng.integers(-3, 4, (4, 5))
    b = rng.integers(-3, 4, (5, 3))
    out = ops.matmul(ms.Tensor(a, dtype), ms.Tensor(b, dtype))
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.asnumpy().astype(np.int64), a @ b)


@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_small_products_split_across_threads(ta, tb):
    # From 64^3 to 96^3 the rows go to the threads in blocks (gemm.cc): odd row counts and transposed
    # operands (a block of A^T starts at a column).
    m, k, n = 65, 70, 71
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
    expect = (a.T if ta else a) @ (b.T if tb else b)
    ms.set_context(runtime_num_threads=2)
    try:
        out = ops.MatMul(transpose_a=ta, transpose_b=tb)(ms.Tensor(a), ms.Tensor(b))
        np.testing.assert_allclose(out.asnumpy(), expect, rtol=1e-5, atol=1e-4)
    finally:
        ms.set_context(runtime_num_threads=1)


def test_large_matmul_agrees_with_numpy():
    a = rng.standard_normal((256, 300)).astype(np.float32)
    b = rng.standard_normal((300, 200)).astype(np.float32)
    np.testing.assert_allclose(ops.matmul(ms.Tensor(a), ms.Tensor(b)).asnumpy(), a @ b, rtol=1e-4, atol=1e-3)


def test_empty_and_zero_k():
    z = ops.matmul(ms.Tensor(np.zeros((3, 0), np.float32)), ms.Tensor(np.zeros((0, 2), np.float32)))
    assert z.shape == (3, 2) and not z.asnumpy().any()
    assert ops.matmul(ms.Tensor(np.zeros((0, 4), np.float32)), ms.Tensor(np.ones((4, 2), np.float32))).shape == (0, 2)


def test_mixed_dtypes_promote():
    out = ops.matmul(ms.Tensor([[1, 2]], ms.int32), ms.Tensor([[1.5], [2.0]], ms.float32))
    assert out.dtype == ms.float32 and out.item() == 5.5


def test_errors():
    with pytest.raises(ValueError, match=r"MatMul: 'x' has shape \(2, 3\) and 'y' has shape \(4, 5\)"):
        ops.MatMul()(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((4, 5), np.float32)))
    with pytest.raises(ValueError, match="must be 2-d"):
        ops.MatMul()(ms.Tensor(np.ones((2, 2, 3), np.float32)), ms.Tensor(np.ones((3, 5), np.float32)))
    with pytest.raises(TypeError, match="MatMul: 'x' must have dtype in"):
        ops.MatMul()(ms.Tensor(np.ones((2, 3), bool)), ms.Tensor(np.ones((3, 5), bool)))
    with pytest.raises(ValueError, match="0-d"):
        ops.matmul(ms.Tensor(1.0), ms.Tensor([1.0]))
    with pytest.raises(ValueError, match="BatchMatMul: shapes"):
        ops.matmul(ms.Tensor(np.ones((2, 3, 4), np.float32)), ms.Tensor(np.ones((5, 4, 2), np.float32)))
