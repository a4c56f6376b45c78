"""The linear-algebra functions (math_linalg_more_func: inverse, det, slogdet, logdet, cholesky, matrix_solve,
cholesky_solve, cholesky_inverse and their aliases): values against np.linalg for batched float32/float64 inputs,
gradients (first and second order) against finite differences through the public functions, compiled against
eager, and singular or indefinite inputs raising clear errors. The ops' own records are in op_records/linalg.py."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

from finite_differences import check_grad, numeric_grad

RNG = np.random.default_rng(11)
FLOAT_TOL = {np.float32: dict(rtol=2e-5, atol=2e-5), np.float64: dict(rtol=1e-11, atol=1e-12)}


def T(a, dtype=np.float64):
    return ms.Tensor(np.asarray(a, dtype))


def invertible(*shape):
    """Diagonally dominant (..., n, n) matrices, some with negative determinants."""
    n = shape[-1]
    a = RNG.uniform(-1, 1, shape) + (n + 1) * np.eye(n)
    a[..., 0, :] *= np.where(RNG.random(shape[:-2]) < 0.5, -1.0, 1.0)[..., None]
    return a


def spd(*shape):
    m = RNG.uniform(-1, 1, shape)
    a = m @ np.swapaxes(m, -1, -2) + (shape[-1] + 1) * np.eye(shape[-1])
    return (a + np.swapaxes(a, -1, -2)) / 2


def swap(x):
    return np.swapaxes(x, -1, -2)


# ---- values --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lu_functions_match_numpy_on_batches(dtype):
    a = invertible(2, 3, 4, 4)
    b = RNG.uniform(-3, 3, (2, 3, 4, 2))
    x = T(a, dtype)
    exact = x.asnumpy().astype(np.float64)
    tol = FLOAT_TOL[dtype]
    for got, want in [(ops.inverse(x), np.linalg.inv(exact)), (x.inverse(), np.linalg.inv(exact)),
                      (ops.det(x), np.linalg.det(exact)), (ops.matrix_determinant(x), np.linalg.det(exact)),
                      (x.det(), np.linalg.det(exact)),
                      (ops.slogdet(x)[1], np.linalg.slogdet(exact)[1]), (x.slogdet()[0], np.linalg.slogdet(exact)[0]),
                      (ops.log_matrix_determinant(x)[1], np.linalg.slogdet(exact)[1]),
                      (ops.matrix_solve(x, T(b, dtype)), np.linalg.solve(exact, b.astype(dtype))),
                      (ops.matrix_solve(x, T(b, dtype), adjoint=True), np.linalg.solve(swap(exact), b.astype(dtype)))]:
        assert got.dtype == x.dtype
        np.testing.assert_allclose(got.asnumpy(), want, **tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cholesky_functions_match_numpy_on_batches(dtype):
    a = T(spd(3, 5, 5), dtype)
    exact = a.asnumpy().astype(np.float64)
    lower = np.linalg.cholesky(exact)
    b = RNG.uniform(-3, 3, (3, 5, 2)).astype(dtype)
    tol = FLOAT_TOL[dtype]
    np.testing.assert_allclose(ops.cholesky(a).asnumpy(), lower, **tol)
    np.testing.assert_allclose(a.cholesky(upper=True).asnumpy(), swap(lower), **tol)
    low, up = T(lower, dtype), T(swap(lower), dtype)
    np.testing.assert_allclose(ops.cholesky_solve(T(b, dtype), low).asnumpy(), np.linalg.solve(exact, b), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(T(b, dtype).cholesky_solve(up, upper=True).asnumpy(), np.linalg.solve(exact, b),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ops.cholesky_inverse(low).asnumpy(), np.linalg.inv(exact), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(up.cholesky_inverse(upper=True).asnumpy(), np.linalg.inv(exact), rtol=1e-4, atol=1e-5)


def test_mindspore_doc_examples():
    np.testing.assert_allclose(ops.inverse(T([[1., 2.], [3., 4.]], np.float32)).asnumpy(), [[-2., 1.], [1.5, -0.5]],
                               rtol=1e-6)
    np.testing.assert_allclose(ops.cholesky(T([[1., 1.], [1., 2.]], np.float32)).asnumpy(), [[1., 0.], [1., 1.]])
    x = T([[[-4.5, -1.5], [7.0, 6.0]], [[2.5, 0.5], [3.0, 9.0]]], np.float32)
    np.testing.assert_allclose(ops.det(x).asnumpy(), [-16.5, 21.0], rtol=1e-6)
    sign, value = ops.slogdet(x)
    np.testing.assert_array_equal(sign.asnumpy(), [-1., 1.])
    np.testing.assert_allclose(value.asnumpy(), [2.80336046, 3.04452229], rtol=1e-6)
    np.testing.assert_allclose(ops.logdet(T([[[8, 9], [1, 2]], [[5, 6], [3, 4]]], np.float32)).asnumpy(),
                               [1.9459091, 0.6931454], rtol=1e-5)
    np.testing.assert_allclose(ops.matrix_solve(T([[1., 4.], [2., 7.]], np.float32), T([[1.], [3.]], np.float32))
                               .asnumpy(), [[5.], [-1.]], rtol=1e-5)
    factor = T([[2, 0, 0], [4, 1, 0], [-1, 1, 2]], np.float32)
    want = [[5.8125, -2.625, 0.625], [-2.625, 1.25, -0.25], [0.625, -0.25, 0.25]]
    np.testing.assert_allclose(ops.cholesky_solve(T(np.eye(3), np.float32), factor).asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(ops.cholesky_inverse(factor).asnumpy(), want, rtol=1e-5)


def test_logdet_is_nan_for_a_negative_and_minus_inf_for_a_zero_determinant():
    out = ops.logdet(T([[[2., 0.], [0., 3.]], [[0., 1.], [1., 0.]], [[1., 1.], [1., 1.]]])).asnumpy()
    np.testing.assert_allclose(out[0], np.log(6.0))
    assert np.isnan(out[1]) and out[2] == -np.inf
    sign, log_abs = ops.slogdet(T([[1., 2.], [2., 4.]]))
    assert sign.asnumpy() == 0 and log_abs.asnumpy() == -np.inf
    assert ops.det(T([[1., 2.], [2., 4.]])).asnumpy() == 0


def test_empty_matrices_and_batches():
    assert ops.inverse(T(np.zeros((0, 0)))).shape == (0, 0)
    np.testing.assert_array_equal(ops.det(T(np.zeros((3, 0, 0)))).asnumpy(), [1., 1., 1.])
    assert ops.det(T(np.zeros((0, 3, 3)))).shape == (0,)
    assert ops.cholesky(T(np.zeros((2, 0, 0)))).shape == (2, 0, 0)
    assert ops.matrix_solve(T(np.eye(2)), T(np.zeros((2, 0)))).shape == (2, 0)


def test_cholesky_factors_the_symmetric_part():
    # Note [Cholesky symmetrizes its input]: the two triangles both count, halved.
    a = spd(4, 4)
    skew = np.triu(RNG.uniform(-1, 1, (4, 4)), 1)
    np.testing.assert_allclose(ops.cholesky(T(a + skew - skew.T)).asnumpy(), np.linalg.cholesky(a), rtol=1e-12,
                               atol=1e-12)


def test_large_matrices_and_large_batches():
    # One matrix above the per-matrix parallel threshold (LAPACK threads itself), and many tiny ones in parallel.
    a = invertible(300, 300)
    np.testing.assert_allclose(ops.inverse(T(a)).asnumpy() @ a, np.eye(300), atol=1e-10)
    small = invertible(5000, 3, 3)
    np.testing.assert_allclose(ops.det(T(small)).asnumpy(), np.linalg.det(small), rtol=1e-12)
    np.testing.assert_allclose(ops.cholesky(T(spd(5000, 3, 3))).shape, (5000, 3, 3))


# ---- errors --------------------------------------------------------------------------------------------------

def test_singular_and_indefinite_inputs_raise_naming_the_op_and_the_matrix():
    batch = np.tile(np.eye(2), (4, 3, 1, 1))
    batch[2, 1] = [[1., 2.], [2., 4.]]
    with pytest.raises(ValueError, match=r"MatrixInverse: 'x' .* the matrix at batch index \(2, 1\) is singular"):
        ops.inverse(T(batch))
    with pytest.raises(ValueError, match=r"MatrixSolve: 'matrix' .* the matrix at batch index \(2, 1\) is singular"):
        ops.matrix_solve(T(batch), T(np.ones((4, 3, 2, 1))))
    with pytest.raises(ValueError, match=r"MatrixSolve: 'matrix' must hold invertible matrices"):
        ops.cholesky_solve(T(np.ones((2, 1))), T(np.zeros((2, 2))))
    many = np.tile(np.eye(2), (1000, 1, 1))
    many[537] = [[1., 2.], [2., 1.]]
    many[900] = -np.eye(2)
    with pytest.raises(ValueError, match=r"Cholesky: 'input_x' must hold symmetric positive-definite matrices, but "
                                         r"the matrix at batch index \(537,\) is not \(its leading minor of order 2"):
        ops.cholesky(T(many))


def test_bad_arguments_of_the_composed_functions():
    with pytest.raises(ValueError, match=r"cholesky_solve: 'input' must have shape \(\.\.\., N, M\) for 'input2'"):
        ops.cholesky_solve(T(np.ones((3, 1))), T(np.eye(2)))
    with pytest.raises(ValueError, match="cholesky_solve: 'input2' must be a batch of square matrices"):
        ops.cholesky_solve(T(np.ones((2, 1))), T(np.ones((2, 3))))
    with pytest.raises(TypeError, match="cholesky_inverse: 'upper' must be a bool, but got 'yes'"):
        ops.cholesky_inverse(T(np.eye(2)), upper="yes")
    with pytest.raises(TypeError, match="cholesky: 'input_x' must be a Tensor, but got str"):
        ops.cholesky("x")
    with pytest.raises(TypeError, match=r"MatrixInverse: 'x' must have dtype in \[Float32, Float64\]"):
        ops.inverse(ms.Tensor(np.eye(2), ms.float16))


# ---- gradients -----------------------------------------------------------------------------------------------

def test_gradients_of_the_lu_functions_match_finite_differences():
    a, b = invertible(2, 3, 3), RNG.uniform(-1, 1, (2, 3, 2))
    check_grad(ops.inverse, a)
    check_grad(lambda x: x.inverse(), a[0])
    check_grad(ops.det, a)
    check_grad(lambda x: ops.slogdet(x)[1], a)
    check_grad(lambda x: ops.log_matrix_determinant(x)[1], a[1])
    check_grad(ops.logdet, a * np.sign(np.linalg.det(a))[:, None, None])  # positive determinants: finite logdet
    check_grad(ops.matrix_solve, a, b)
    check_grad(lambda x, y: ops.matrix_solve(x, y, adjoint=True), a, b)


def test_gradients_of_the_cholesky_functions_match_finite_differences():
    a = spd(2, 3, 3)
    lower = np.linalg.cholesky(a)
    b = RNG.uniform(-1, 1, (2, 3, 2))
    check_grad(ops.cholesky, a)
    check_grad(lambda x: ops.cholesky(x, upper=True), a)
    # Through a product: the loss sees the factor only via L L^T, whose gradient is a's own direction.
    check_grad(lambda x: ops.matmul(ops.cholesky(x), ops.cholesky(x, upper=True)), a)
    check_grad(ops.cholesky_solve, b, lower)
    check_grad(lambda x, f: ops.cholesky_solve(x, f, upper=True), b, swap(lower))
    check_grad(ops.cholesky_inverse, lower)
    check_grad(lambda f: ops.cholesky_inverse(f, upper=True), swap(lower))


@pytest.mark.parametrize("fn", [ops.inverse, ops.det, lambda x: ops.slogdet(x)[1], ops.cholesky,
                                lambda x: ops.matrix_solve(x, T(np.arange(6.0).reshape(3, 2)))],
                         ids=["inverse", "det", "slogdet", "cholesky", "matrix_solve"])
def test_second_order_gradients_match_finite_differences_of_the_first(fn):
    a = spd(3, 3)  # symmetric positive-definite: valid for every fn
    w = RNG.standard_normal(np.shape(fn(T(a)).asnumpy()))
    v = RNG.standard_normal((3, 3))
    first = ms.grad(lambda x: (fn(x) * T(w)).sum())
    second = ms.grad(lambda x: (first(x) * T(v)).sum())(T(a))
    numeric = numeric_grad(lambda x: float((first(T(x)).asnumpy() * v).sum()), a)
    np.testing.assert_allclose(second.asnumpy(), numeric, rtol=1e-6, atol=1e-7)


# ---- compiled ------------------------------------------------------------------------------------------------

@ms.jit
def _compiled_all(a, s, b):
    sign, log_abs = ops.slogdet(a)
    lower = ops.cholesky(s)
    return (ops.inverse(a), ops.det(a), sign, log_abs, ops.logdet(s), lower, ops.cholesky(s, upper=True),
            ops.matrix_solve(a, b), ops.cholesky_solve(b, lower), ops.cholesky_inverse(lower), a.inverse())


def _eager_all(a, s, b):
    sign, log_abs = ops.slogdet(a)
    lower = ops.cholesky(s)
    return (ops.inverse(a), ops.det(a), sign, log_abs, ops.logdet(s), lower, ops.cholesky(s, upper=True),
            ops.matrix_solve(a, b), ops.cholesky_solve(b, lower), ops.cholesky_inverse(lower), a.inverse())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_equals_eager(dtype):
    args = [T(invertible(2, 4, 4), dtype), T(spd(2, 4, 4), dtype), T(RNG.uniform(-1, 1, (2, 4, 3)), dtype)]
    for got, want in zip(_compiled_all(*args), _eager_all(*args)):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6, atol=1e-6)


@ms.jit
def _compiled_grads(a, s, b):
    def loss(x, y, z):
        return ops.det(x).sum() + ops.logdet(y).sum() + (ops.matrix_solve(x, z) ** 2).sum() + ops.cholesky(y).sum()
    return ms.grad(loss, grad_position=(0, 1, 2))(a, s, b)


def test_compiled_gradients_equal_eager_gradients():
    a, s, b = T(invertible(2, 3, 3)), T(spd(2, 3, 3)), T(RNG.uniform(-1, 1, (2, 3, 2)))

    def loss(x, y, z):
        return ops.det(x).sum() + ops.logdet(y).sum() + (ops.matrix_solve(x, z) ** 2).sum() + ops.cholesky(y).sum()
    eager = ms.grad(loss, grad_position=(0, 1, 2))(a, s, b)
    for got, want in zip(_compiled_grads(a, s, b), eager):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-10, atol=1e-12)


@ms.jit
def _compiled_inverse(x):
    return ops.inverse(x)


@ms.jit
def _compiled_cholesky(x):
    return ops.cholesky(x)


def test_compiled_singular_and_indefinite_inputs_raise():
    with pytest.raises(ValueError, match="MatrixInverse: 'x' must hold invertible matrices"):
        _compiled_inverse(T([[1., 2.], [2., 4.]]))
    with pytest.raises(ValueError, match="Cholesky: 'input_x' must hold symmetric positive-definite matrices"):
        _compiled_cholesky(T([[1., 2.], [2., 1.]]))


def _tolerance(dtype):
    return dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)


# ---- svd -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_svd_reconstructs_and_matches_numpy_singular_values(shape, dtype):
    a = T(RNG.standard_normal(shape), dtype)
    exact = a.asnumpy().astype(np.float64)
    tol = _tolerance(dtype)
    s, u, v = ops.svd(a)
    np.testing.assert_allclose(s.asnumpy(), np.linalg.svd(exact, compute_uv=False), **tol)
    np.testing.assert_allclose((u.asnumpy() * s.asnumpy()[..., None, :]) @ swap(v.asnumpy()), exact, **tol)
    np.testing.assert_allclose(a.svd(compute_uv=False).asnumpy(), s.asnumpy(), **tol)
    s_full, u_full, v_full = ops.svd(a, full_matrices=True)
    m, n = shape[-2:]
    assert u_full.shape == shape[:-2] + (m, m) and v_full.shape == shape[:-2] + (n, n)
    np.testing.assert_allclose(swap(u_full.asnumpy()) @ u_full.asnumpy(), np.broadcast_to(np.eye(m), u_full.shape),
                               **tol)
    np.testing.assert_allclose(swap(v_full.asnumpy()) @ v_full.asnumpy(), np.broadcast_to(np.eye(n), v_full.shape),
                               **tol)
    np.testing.assert_allclose(s_full.asnumpy(), s.asnumpy(), **tol)


def test_svd_mindspore_doc_example():
    s, u, v = ops.svd(T([[1, 2], [-4, -5], [2, 1]], np.float32), full_matrices=True)
    np.testing.assert_allclose(s.asnumpy(), [7.0652843, 1.040081], rtol=1e-6)
    # The vectors are MindSpore's up to each column's sign.
    want_u = np.array([[0.30821905, -0.48819482, 0.81649697], [-0.90613353, 0.11070572, 0.40824813],
                       [0.2896955, 0.8656849, 0.4082479]])
    want_v = np.array([[0.63863593, 0.769509], [0.769509, -0.63863593]])
    np.testing.assert_allclose(np.abs(u.asnumpy()[:, :2]), np.abs(want_u[:, :2]), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.abs(v.asnumpy()), np.abs(want_v), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 5, 3)])
def test_svd_gradients_match_finite_differences(shape):
    a = RNG.standard_normal(shape)  # distinct nonzero singular values almost surely
    check_grad(lambda x: ops.svd(x, compute_uv=False), a)
    check_grad(lambda x: ops.svd(x)[1], a)
    check_grad(lambda x: ops.svd(x)[2], a)
    check_grad(lambda x: ops.svd(x)[0].sum() + ops.svd(x)[1].sum() * 2 + ops.svd(x)[2].sum(), a)
    check_grad(lambda x: ops.svd(x, full_matrices=True)[0], a)


def test_svd_gradient_through_extra_singular_vectors_raises():
    x = T(RNG.standard_normal((4, 3)))
    with pytest.raises(ValueError, match=r"Svd: with full_matrices=True and 'input' of non-square shape \(4, 3\) the "
                                         "extra singular vectors are not unique"):
        ms.grad(lambda t: ops.svd(t, full_matrices=True)[1].sum())(x)


@ms.jit
def _compiled_svd_loss_grad(x):
    return ms.grad(lambda t: (ops.svd(t)[0] ** 2).sum() + ops.svd(t)[1][..., 0, :].sum())(x)


def test_svd_compiled_gradient_equals_eager():
    x = T(RNG.standard_normal((2, 4, 3)))
    eager = ms.grad(lambda t: (ops.svd(t)[0] ** 2).sum() + ops.svd(t)[1][..., 0, :].sum())(x)
    np.testing.assert_allclose(_compiled_svd_loss_grad(x).asnumpy(), eager.asnumpy(), rtol=1e-10, atol=1e-12)
    # d sum(s^2) / dA = 2A: the squared singular values sum to the squared Frobenius norm.
    s_only = ms.grad(lambda t: (ops.svd(t, compute_uv=False) ** 2).sum())(x)
    np.testing.assert_allclose(s_only.asnumpy(), 2 * x.asnumpy(), rtol=1e-10, atol=1e-12)


# ---- qr ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
def test_qr_reconstructs_and_matches_numpy(shape, dtype):
    a = T(RNG.standard_normal(shape), dtype)
    exact = a.asnumpy().astype(np.float64)
    tol = _tolerance(dtype)
    m, n = shape[-2:]
    for mode in ("reduced", "complete"):
        q, r = ops.qr(a, mode)
        want_q, want_r = np.linalg.qr(exact, mode)
        assert q.shape == want_q.shape and r.shape == want_r.shape and q.dtype == a.dtype
        np.testing.assert_allclose(q.asnumpy() @ r.asnumpy(), exact, **tol)
        np.testing.assert_allclose(swap(q.asnumpy()) @ q.asnumpy(), np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2]
                                   + (q.shape[-1],) * 2), **tol)
        np.testing.assert_array_equal(np.tril(r.asnumpy(), -1), 0)
        if dtype == np.float64:  # the same LAPACK routines as NumPy: the same signs
            np.testing.assert_allclose(q.asnumpy()[..., :min(m, n)], want_q[..., :min(m, n)], **tol)
            np.testing.assert_allclose(r.asnumpy(), want_r, **tol)


def test_qr_mindspore_doc_example():
    q, r = ops.qr(T([[20., -31, 7], [4, 270, -90], [-8, 17, -32]], np.float32))
    np.testing.assert_allclose(q.asnumpy(), [[-0.912871, 0.16366126, 0.37400758],
                                             [-0.18257418, -0.9830709, -0.01544376],
                                             [0.36514837, -0.08238228, 0.92729706]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r.asnumpy(), [[-21.908903, -14.788506, -1.6431675], [0., -271.9031, 92.25824],
                                             [0., 0., -25.665514]], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (3, 3), (2, 5, 2), (2, 3, 5)])
def test_qr_gradients_match_finite_differences(shape):
    a = RNG.standard_normal(shape)
    check_grad(lambda x: ops.qr(x)[0], a)
    check_grad(lambda x: ops.qr(x)[1], a)
    check_grad(lambda x: ops.qr(x)[0].sum() * 3 + ops.qr(x)[1].sum(), a)
    if shape[-2] <= shape[-1]:  # complete mode is the reduced one
        check_grad(lambda x: ops.qr(x, "complete")[1], a)


def test_qr_complete_gradient_of_a_tall_matrix_raises():
    with pytest.raises(ValueError, match=r"Qr: with full_matrices=True and 'x' of shape \(4, 3\) \(more rows than "
                                         "columns\\) Q's extra columns are not unique"):
        ms.grad(lambda t: ops.qr(t, "complete")[1].sum())(T(RNG.standard_normal((4, 3))))


@ms.jit
def _compiled_qr_grad(x):
    return ms.grad(lambda t: (ops.qr(t)[0] * 2).sum() + (ops.qr(t)[1] ** 2).sum())(x)


def test_qr_compiled_gradient_equals_eager():
    for shape in [(2, 4, 3), (3, 5)]:
        x = T(RNG.standard_normal(shape))
        eager = ms.grad(lambda t: (ops.qr(t)[0] * 2).sum() + (ops.qr(t)[1] ** 2).sum())(x)
        np.testing.assert_allclose(_compiled_qr_grad(x).asnumpy(), eager.asnumpy(), rtol=1e-10, atol=1e-12)
