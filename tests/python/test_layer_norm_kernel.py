"""LayerNorm's float32 kernel at row sizes its op records (rows of 3-20 elements) do not reach: whole
vectors and a tail, rows longer than one summation block, enough rows for every thread, and a mean far
from zero next to a small spread (Note [LayerNorm rows]). Against NumPy in float64."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops


def _reference(x, gamma, beta, eps):
    x = x.astype(np.float64)
    mean = x.mean(-1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + eps)
    y = (x - mean) * rstd
    if gamma is not None:
        y = y * gamma + beta
    return y, mean[..., 0], rstd[..., 0]


def _run(x, gamma, beta, eps):
    ln = ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=eps)
    n = x.shape[-1]
    g = np.ones(n, np.float32) if gamma is None else gamma
    b = np.zeros(n, np.float32) if beta is None else beta
    y, mean, rstd = ln(ms.Tensor(x), ms.Tensor(g), ms.Tensor(b))
    return y.asnumpy(), mean.asnumpy().reshape(x.shape[:-1]), rstd.asnumpy().reshape(x.shape[:-1])


@pytest.mark.parametrize("rows, n", [(1, 16), (3, 17), (64, 1024), (300, 333), (5, 9000)])
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_rows_match_numpy(rows, n, affine):
    rng = np.random.default_rng(rows * n)
    x = rng.standard_normal((rows, n)).astype(np.float32) * 3 + 1
    gamma = rng.standard_normal(n).astype(np.float32) if affine else None
    beta = rng.standard_normal(n).astype(np.float32) if affine else None
    y, mean, rstd = _run(x, gamma, beta, 1e-5)
    ry, rmean, rrstd = _reference(x, gamma, beta, 1e-5)
    np.testing.assert_allclose(mean, rmean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(rstd, rrstd, rtol=1e-5)
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-4)


def test_layer_norm_of_a_large_mean_and_small_spread_keeps_the_spread():
    # The variance is taken about the mean, not as E[x^2] - E[x]^2, which would cancel to noise here.
    rng = np.random.default_rng(0)
    x = (1000 + 0.01 * rng.standard_normal((8, 4096))).astype(np.float32)
    y, _, rstd = _run(x, None, None, 1e-12)
    ry, _, rrstd = _reference(x, None, None, 1e-12)
    np.testing.assert_allclose(rstd, rrstd, rtol=1e-3)
    np.testing.assert_allclose(y, ry, rtol=1e-2, atol=2e-2)  # x itself is rounded to 6e-5 at 1000


@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_past_the_last_level_cache_streams_the_same_values(affine):
    # Past a 32 MB L3 the rows' outputs go around the caches (Note [Streaming stores]): the same bits
    # as rows small enough to be written through them, two threads splitting the rows.
    rng = np.random.default_rng(4)
    x = rng.standard_normal((4200, 1024)).astype(np.float32)
    gamma = rng.standard_normal(1024).astype(np.float32) if affine else None
    beta = rng.standard_normal(1024).astype(np.float32) if affine else None
    before = ms.get_context("runtime_num_threads")
    try:
        ms.set_context(runtime_num_threads=2)
        y, mean, rstd = _run(x, gamma, beta, 1e-5)
        small = _run(x[-70:], gamma, beta, 1e-5)[0]
    finally:
        ms.set_context(runtime_num_threads=before)
    np.testing.assert_array_equal(y[-70:], small)
    ry, rmean, _ = _reference(x, gamma, beta, 1e-5)
    np.testing.assert_allclose(mean, rmean, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(y, ry, rtol=1e-4, atol=1e-4)


def test_layer_norm_is_the_same_on_any_thread_count():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((257, 1000)).astype(np.float32)
    before = ms.get_context("runtime_num_threads")
    outs = []
    try:
        for threads in (1, 2, 3):
            ms.set_context(runtime_num_threads=threads)
            outs.append(_run(x, None, None, 1e-5)[0])
    finally:
        ms.set_context(runtime_num_threads=before)
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(outs[0], outs[2])


def test_layer_norm_of_a_row_holding_inf_or_nan_is_nan_in_that_row_only():
    x = np.ones((3, 40), np.float32)
    x[0, 5] = np.inf
    x[1, 39] = np.nan
    x[2] = np.arange(40)
    y, _, _ = _run(x, None, None, 1e-5)
    assert np.isnan(y[0]).all() and np.isnan(y[1]).all()
    np.testing.assert_allclose(y[2], _reference(x[2:], None, None, 1e-5)[0][0], rtol=1e-5, atol=1e-5)


def _grad_reference(x, dy, gamma):
    x, dy = x.astype(np.float64), dy.astype(np.float64)
    mean = x.mean(-1, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + 1e-5)
    xhat, g = (x - mean) * rstd, dy * gamma
    dx = rstd * (g - g.mean(-1, keepdims=True) - xhat * (g * xhat).mean(-1, keepdims=True))
    return dx, (dy * xhat).sum(0), dy.sum(0)


@pytest.mark.parametrize("rows, n", [(1, 16), (3, 17), (64, 1024), (300, 333), (5, 9000)])
def test_layer_norm_gradient_rows_match_numpy(rows, n):
    rng = np.random.default_rng(rows + n)
    x = rng.standard_normal((rows, n)).astype(np.float32) * 2 - 1
    dy = rng.standard_normal((rows, n)).astype(np.float32)
    gamma = rng.standard_normal(n).astype(np.float32)

    def loss(x, gamma, beta):
        return (ops.layer_norm(x, (n,), gamma, beta, 1e-5) * ms.Tensor(dy)).sum()

    dx, dgamma, dbeta = ms.grad(loss, grad_position=(0, 1, 2))(
        ms.Tensor(x), ms.Tensor(gamma), ms.Tensor(np.zeros(n, np.float32)))
    rdx, rdgamma, rdbeta = _grad_reference(x, dy, gamma)
    np.testing.assert_allclose(dx.asnumpy(), rdx, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dgamma.asnumpy(), rdgamma, rtol=1e-4, atol=1e-4 * rows)
    np.testing.assert_allclose(dbeta.asnumpy(), rdbeta, rtol=1e-4, atol=1e-4 * rows)
