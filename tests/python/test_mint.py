"""sprout.mint (MindSpore's PyTorch-style API) against NumPy references that follow PyTorch's semantics (checked
against PyTorch while writing them): tensor functions, nn.functional, nn layers, optim, linalg and special, bad
input, gradients against finite differences, and compiled code (ms.jit, GRAPH_MODE training step)."""
import numpy as np
import pytest

import sprout as ms
from finite_differences import check_grad
from sprout import mint
from sprout.mint.nn import functional as F

T = ms.Tensor
RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4)).astype(np.float32)


def close(got, want, atol=1e-5):
    got = got.asnumpy() if isinstance(got, ms.Tensor) else np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=atol)


# ---- elementwise ----------------------------------------------------------------------------------------

def test_add_sub_alpha_div_rounding():
    a, b = T(X), T(X[::-1].copy())
    close(mint.add(a, b, alpha=2), X + 2 * X[::-1])
    close(mint.sub(a, 1.5, alpha=2), X - 3)
    close(mint.div(a, b, rounding_mode="floor"), np.floor(X / X[::-1]))
    close(mint.div(a, b, rounding_mode="trunc"), np.trunc(X / X[::-1]))
    close(mint.addcmul(a, a, b, value=0.5), X + 0.5 * X * X[::-1])
    close(mint.addcdiv(a, a, b, value=2), X + 2 * X / X[::-1])
    with pytest.raises(ValueError, match="mint.div: 'rounding_mode'"):
        mint.div(a, b, rounding_mode="round")
    with pytest.raises(TypeError, match="mint.add: 'alpha'"):
        mint.add(a, b, alpha="2")


def test_clamp_bitwise_where_equal():
    a = T(X)
    close(mint.clamp(a, min=-0.5), np.maximum(X, -0.5))
    close(mint.clip(a, -0.5, 0.5), np.clip(X, -0.5, 0.5))
    with pytest.raises(ValueError, match="mint.clamp"):
        mint.clamp(a)
    close(mint.bitwise_not(T(np.array([0, 5, -3], np.int32))), ~np.array([0, 5, -3], np.int32))
    close(mint.bitwise_not(T(np.array([True, False]))), np.array([False, True]))
    with pytest.raises(TypeError, match="mint.bitwise_not"):
        mint.bitwise_not(a)
    rows, cols = mint.where(a > 0)
    np.testing.assert_array_equal(rows.asnumpy(), np.nonzero(X > 0)[0])
    np.testing.assert_array_equal(cols.asnumpy(), np.nonzero(X > 0)[1])
    close(mint.where(a > 0, a, 0.0), np.where(X > 0, X, 0))
    assert mint.equal(a, T(X.copy())) is True and mint.equal(a, T(X[:2])) is False
    assert mint.allclose(a, a + 1e-9) and not mint.allclose(a, a + 1)
    close(mint.nan_to_num(T(np.array([np.nan, 1.0], np.float32))), [0.0, 1.0])
    close(mint.fix(T(np.array([-1.5, 1.5], np.float32))), [-1.0, 1.0])


# ---- reductions, sorting ------------------------------------------------------------------------------

def test_max_min_overloads():
    a = T(X)
    close(mint.max(a), X.max())
    values, indices = mint.max(a, 1, keepdim=True)
    close(values, X.max(1, keepdims=True))
    assert indices.dtype == ms.int64
    np.testing.assert_array_equal(indices.asnumpy(), X.argmax(1)[:, None])
    close(mint.min(a, T(np.zeros_like(X))), np.minimum(X, 0))
    values, indices = mint.min(a, dim=0)
    np.testing.assert_array_equal(indices.asnumpy(), X.argmin(0))
    with pytest.raises(ValueError, match="mint.max: 'dim'"):
        mint.max(a, 2)


def test_reductions_with_torch_arguments():
    a = T(X)
    close(mint.sum(a, dim=1, keepdim=True), X.sum(1, keepdims=True))
    close(mint.mean(a, (0, 1)), X.mean())
    close(mint.prod(a, 1, dtype=ms.float64), X.astype(np.float64).prod(1))
    close(mint.amax(a), X.max())
    close(mint.amin(a, 1), X.min(1))
    close(mint.var(a, 1), X.var(1, ddof=1))
    close(mint.std(a, correction=0), X.std())
    std, mean = mint.std_mean(a, 0, keepdim=True)
    close(std, X.std(0, ddof=1, keepdims=True))
    close(mean, X.mean(0, keepdims=True))
    close(mint.logsumexp(a, 1), np.log(np.exp(X).sum(1)))
    assert mint.argmax(a).asnumpy() == X.argmax() and mint.argmax(a).dtype == ms.int64
    np.testing.assert_array_equal(mint.argmin(a, 1, True).asnumpy(), X.argmin(1)[:, None])
    close(mint.count_nonzero(T(np.array([[0, 1], [2, 3]])), 0), [1, 2])
    close(mint.all(a > -10, 1), np.ones(3, bool))
    close(mint.any(a > 10), False)
    close(mint.nansum(T(np.array([np.nan, 1.0, 2.0], np.float32))), 3.0)
    close(mint.cumsum(a, 1), X.cumsum(1))
    values, indices = mint.cummax(a, 1)
    close(values, np.maximum.accumulate(X, 1))
    assert indices.dtype == ms.int64


def test_sort_topk_median_kthvalue_unique():
    m = np.array([[3, 1, 2, 2], [0, 5, 5, 1]], np.float32)
    values, indices = mint.sort(T(m), dim=1, descending=True)
    close(values, -np.sort(-m, 1))
    assert indices.dtype == ms.int64
    close(mint.argsort(T(m), stable=True), np.argsort(m, 1, kind="stable"))
    values, indices = mint.topk(T(m), 2, dim=1, largest=False)
    close(values, np.sort(m, 1)[:, :2])
    close(mint.median(T(m)), 2.0)  # PyTorch's median is the lower of the two middle values
    values, indices = mint.median(T(m), 1)
    close(values, [2.0, 1.0])
    values, indices = mint.kthvalue(T(m), 3, 1, keepdim=True)
    close(values, np.sort(m, 1)[:, 2:3])
    with pytest.raises(ValueError, match="mint.kthvalue: 'k'"):
        mint.kthvalue(T(m), 5, 1)
    out, inverse, counts = mint.unique(T(m), return_inverse=True, return_counts=True)
    want, want_inverse, want_counts = np.unique(m, return_inverse=True, return_counts=True)
    close(out, want)
    close(inverse, want_inverse.reshape(m.shape))
    close(counts, want_counts)
    rows = np.array([[1, 2], [0, 3], [1, 2], [0, 1]], np.float32)
    out, inverse, counts = mint.unique(T(rows), dim=0, return_inverse=True, return_counts=True)
    want, want_inverse, want_counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    close(out, want)
    close(inverse, want_inverse.reshape(-1))
    close(counts, want_counts)


def test_norms_linalg_special():
    a = T(X)
    close(mint.norm(a), np.linalg.norm(X))
    close(mint.norm(a, 3, 1), (np.abs(X) ** 3).sum(1) ** (1 / 3), atol=1e-5)
    close(mint.norm(a, "nuc"), np.linalg.norm(X, "nuc"), atol=1e-4)
    close(mint.linalg.vector_norm(a, float("inf"), 0), np.abs(X).max(0))
    close(mint.linalg.matrix_norm(a, 1), np.linalg.norm(X, 1))
    close(mint.linalg.norm(a), np.linalg.norm(X))
    sq = X[:, :3] + 3 * np.eye(3, dtype=np.float32)
    close(mint.linalg.inv(T(sq)), np.linalg.inv(sq), atol=1e-5)
    q, r = mint.linalg.qr(T(X))
    close(mint.matmul(q, r), X, atol=1e-5)
    with pytest.raises(ValueError, match="mint.linalg.inv"):
        mint.linalg.inv(a)
    with pytest.raises(ValueError, match="mint.linalg.matrix_norm: 'ord'"):
        mint.linalg.matrix_norm(a, 3)
    close(mint.special.log_softmax(a, 1), X - np.log(np.exp(X).sum(1, keepdims=True)), atol=1e-6)
    close(mint.special.round(T(np.array([0.5, 1.5], np.float32))), [0.0, 2.0])
    close(mint.special.expm1(a), np.expm1(X), atol=1e-6)


# ---- creation and random ----------------------------------------------------------------------------

def test_creation():
    assert mint.zeros((2, 3)).dtype == ms.float32 and mint.ones(4, dtype=ms.int32).dtype == ms.int32
    assert mint.empty(2, 3).shape == (2, 3) and mint.empty((2,), dtype=ms.int64).dtype == ms.int64
    close(mint.eye(2, 3), np.eye(2, 3))
    close(mint.linspace(0, 1, 5), np.linspace(0, 1, 5))
    close(mint.full((2,), 7.0), [7.0, 7.0])
    close(mint.zeros_like(T(X), dtype=ms.int32), np.zeros((3, 4), np.int32))
    c = mint.clone(T(X))
    close(c, X)
    assert mint.item(T([2.5])) == 2.5
    with pytest.raises(TypeError, match="mint.zeros: 'size'"):
        mint.zeros("3")
    with pytest.raises(ValueError, match="mint.eye"):
        mint.eye(-1)


def test_random_functions_and_generators():
    g = ms.Generator()
    g.manual_seed(7)
    first = mint.rand(2, 3, generator=g)
    g.manual_seed(7)
    close(mint.rand((2, 3), generator=g), first.asnumpy())
    assert mint.randn(4).shape == (4,) and mint.rand_like(T(X)).shape == X.shape
    ints = mint.randint(3, 6, (100,)).asnumpy()
    assert ints.dtype == np.int64 and ints.min() >= 3 and ints.max() < 6
    assert mint.randint(4, (5,)).asnumpy().max() < 4
    assert mint.randint_like(T(X), 2).shape == X.shape
    np.testing.assert_array_equal(np.sort(mint.randperm(6).asnumpy()), np.arange(6))
    samples = mint.normal(T(np.array([0.0, 100.0], np.float32)), 0.0).asnumpy()
    close(samples, [0.0, 100.0])
    assert mint.normal(2.0, 1.0, (3, 2)).shape == (3, 2)
    close(mint.bernoulli(T(np.array([0.0, 1.0, 1.0], np.float32))), [0.0, 1.0, 1.0])
    picks = mint.multinomial(T(np.array([0.0, 1.0, 0.0, 1.0], np.float32)), 2)
    assert picks.dtype == ms.int64 and sorted(picks.asnumpy().tolist()) == [1, 3]
    with pytest.raises(ValueError, match="mint.rand: 'device'"):
        mint.rand(2, device="npu")


# ---- shape and indexing ---------------------------------------------------------------------------------

def test_shape_functions():
    a = T(X)
    close(mint.cat([a, a], dim=-1), np.concatenate([X, X], -1))
    close(mint.stack([a, a], 2), np.stack([X, X], 2))
    assert [p.shape for p in mint.split(a, 3, dim=1)] == [(3, 3), (3, 1)]
    assert [p.shape for p in mint.chunk(a, 2, 1)] == [(3, 2), (3, 2)]
    close(mint.flatten(T(np.ones((2, 3, 4)))), np.ones(24))
    assert mint.squeeze(T(np.ones((1, 3, 1))), 0).shape == (3, 1)
    assert mint.squeeze(T(np.ones((1, 3, 1))), (0, 1)).shape == (3, 1)
    close(mint.t(a), X.T)
    close(mint.transpose(a, 0, 1), X.T)
    close(mint.tile(a, (2,)), np.tile(X, (1, 2)))
    close(mint.narrow(a, 1, -2, 2), X[:, 2:])
    close(mint.select(a, 1, -1), X[:, -1])
    close(mint.diag(T(np.array([1.0, 2.0], np.float32)), 1), np.diag([1.0, 2.0], 1))
    close(mint.diag(a, -1), np.diag(X, -1))
    close(mint.ravel(a), X.ravel())
    close(mint.unsqueeze(a, -1), X[..., None])
    close(mint.repeat_interleave(T(np.array([1, 2])), 2), [1, 1, 2, 2])
    grid = mint.meshgrid(T(np.arange(2)), T(np.arange(3)))
    assert grid[0].shape == (2, 3)  # 'ij' by default, as PyTorch
    with pytest.raises(ValueError, match="mint.t"):
        mint.t(T(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match="mint.cat: 'dim'"):
        mint.cat([a, a], 2)
    with pytest.raises(TypeError, match="mint.cat: 'tensors'"):
        mint.cat(a)


def test_gather_scatter_index_add():
    a = T(X)
    index = np.array([[0, 3], [1, 1], [2, 0]])
    close(mint.gather(a, 1, T(index)), np.take_along_axis(X, index, 1))
    src = RNG.standard_normal((3, 2)).astype(np.float32)
    want = X.copy()
    np.put_along_axis(want, index, src, 1)
    close(mint.scatter(a, 1, T(index), T(src)), want)
    want = X.copy()
    np.put_along_axis(want, index, 9.0, 1)
    close(mint.scatter(a, 1, T(index), 9.0), want)
    want = X.copy()
    for i in range(3):
        for j in range(2):
            want[i, index[i, j]] += src[i, j]
    close(mint.scatter_add(a, 1, T(index), T(src)), want)
    source = RNG.standard_normal((2, 4)).astype(np.float32)
    want = X.copy()
    want[2] += 2 * source[0]
    want[0] += 2 * source[1]
    close(mint.index_add(a, 0, T(np.array([2, 0])), T(source), alpha=2), want)
    close(mint.index_select(a, 1, T(np.array([3, 0]))), X[:, [3, 0]])
    close(mint.take(a, T(np.array([0, 5]))), X.ravel()[[0, 5]])
    with pytest.raises(ValueError, match="mint.index_add: 'index'"):
        mint.index_add(a, 0, T(np.array([0])), T(source))


def test_products():
    a3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    b3 = RNG.standard_normal((2, 4, 5)).astype(np.float32)
    close(mint.bmm(T(a3), T(b3)), a3 @ b3, atol=1e-5)
    close(mint.mm(T(X), T(X.T)), X @ X.T, atol=1e-5)
    close(mint.mv(T(X), T(X[0])), X @ X[0], atol=1e-5)
    close(mint.dot(T(X[0]), T(X[1])), X[0] @ X[1], atol=1e-6)
    close(mint.baddbmm(T(a3 @ b3), T(a3), T(b3), beta=0.5, alpha=2), 2.5 * (a3 @ b3), atol=1e-4)
    close(mint.outer(T(X[0]), T(X[1])), np.outer(X[0], X[1]))
    # dim None: the first dimension of size 3, here 0 (PyTorch)
    close(mint.cross(T(X[:, :3]), T(X[:, 1:])), np.cross(X[:, :3], X[:, 1:], axis=0), atol=1e-6)
    close(mint.cdist(T(X), T(X[:2])), np.linalg.norm(X[:, None] - X[None, :2], axis=-1), atol=1e-5)
    inp = T(np.ones((3, 2), np.float32))
    out = mint.addr_(inp, T(np.array([1.0, 2.0, 3.0], np.float32)), T(np.array([1.0, -1.0], np.float32)), beta=2)
    assert out is inp
    close(inp, 2 + np.outer([1.0, 2.0, 3.0], [1.0, -1.0]))
    with pytest.raises(ValueError, match="mint.bmm"):
        mint.bmm(T(a3), T(a3))
    with pytest.raises(ValueError, match="mint.dot"):
        mint.dot(T(X), T(X))
    upper = np.triu(X[:3, :3]) + 3 * np.eye(3, dtype=np.float32)
    solution, _ = mint.triangular_solve(T(X[:3]), T(upper))
    close(upper @ solution.asnumpy(), X[:3], atol=1e-5)


def test_conv_tbc_and_batch_norm_statistics():
    x = RNG.standard_normal((5, 2, 4)).astype(np.float32)  # (time, batch, channels)
    w = RNG.standard_normal((3, 4, 6)).astype(np.float32)
    b = RNG.standard_normal(6).astype(np.float32)
    padded = np.pad(x, ((1, 1), (0, 0), (0, 0)))
    want = np.stack([np.einsum("kbc,kco->bo", padded[t:t + 3], w) for t in range(5)]) + b
    close(mint.conv_tbc(T(x), T(w), T(b), 1), want, atol=1e-4)
    data = RNG.standard_normal((4, 3, 2)).astype(np.float32)
    mean, invstd = mint.batch_norm_stats(T(data), 1e-5)
    close(mean, data.mean((0, 2)))
    close(invstd, 1 / np.sqrt(data.var((0, 2)) + 1e-5), atol=1e-4)
    halves = [data[:2], data[2:]]
    stats = [mint.batch_norm_stats(T(h), 1e-5) for h in halves]
    running_mean, running_var = T(np.zeros(3, np.float32)), T(np.ones(3, np.float32))
    g_mean, g_invstd = mint.batch_norm_gather_stats_with_counts(
        T(data), mint.stack([s[0] for s in stats]), mint.stack([s[1] for s in stats]), running_mean, running_var,
        0.1, 1e-5, T(np.array([4.0, 4.0], np.float32)))
    close(g_mean, mean.asnumpy(), atol=1e-5)
    close(g_invstd, invstd.asnumpy(), atol=1e-3)
    close(running_mean, 0.1 * data.mean((0, 2)), atol=1e-5)
    close(running_var, 0.9 + 0.1 * data.var((0, 2), ddof=1), atol=1e-4)
    normed = mint.batch_norm_elemt(T(data), None, None, mean, invstd)
    close(normed, (data - data.mean((0, 2))[:, None]) / np.sqrt(data.var((0, 2))[:, None] + 1e-5), atol=1e-4)


# ---- nn.functional -----------------------------------------------------------------------------------

def _conv2d_reference(x, w, b, stride, padding, dilation, groups):
    x = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow), np.float64)
    per = o // groups
    for f in range(o):
        g = f // per
        for i in range(oh):
            for j in range(ow):
                patch = x[:, g * cg:(g + 1) * cg, i * stride[0]:i * stride[0] + dilation[0] * (kh - 1) + 1:dilation[0],
                          j * stride[1]:j * stride[1] + dilation[1] * (kw - 1) + 1:dilation[1]]
                out[:, f, i, j] = (patch * w[f]).sum((1, 2, 3))
    return out + (0 if b is None else b[None, :, None, None])


def test_conv_functions():
    x = RNG.standard_normal((2, 4, 5, 6)).astype(np.float32)
    w = RNG.standard_normal((6, 2, 3, 3)).astype(np.float32)
    b = RNG.standard_normal(6).astype(np.float32)
    close(F.conv2d(T(x), T(w), T(b), stride=2, padding=(1, 2), dilation=(1, 2), groups=2),
          _conv2d_reference(x, w, b, (2, 2), (1, 2), (1, 2), 2), atol=1e-4)
    close(F.conv2d(T(x), T(w), None, padding="same", groups=2),
          _conv2d_reference(x, w, None, (1, 1), (1, 1), (1, 1), 2), atol=1e-4)
    close(mint.conv2d(T(x[0]), T(w), groups=2), _conv2d_reference(x[:1], w, None, (1, 1), (0, 0), (1, 1), 2)[0],
          atol=1e-4)
    x1 = RNG.standard_normal((2, 4, 7)).astype(np.float32)
    w1 = RNG.standard_normal((3, 4, 2)).astype(np.float32)
    close(F.conv1d(T(x1), T(w1), padding=1, stride=2),
          _conv2d_reference(x1[:, :, None], w1[:, :, None], None, (1, 2), (0, 1), (1, 1), 1)[:, :, 0], atol=1e-4)
    # conv_transpose2d is the adjoint of conv2d: <conv2d(y, w), x> = <y, conv_transpose2d(x, w)>.
    wt = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
    out = F.conv_transpose2d(T(x), T(wt), stride=2, padding=1, output_padding=1)
    assert out.shape == (2, 3, 10, 12)
    y = RNG.standard_normal(out.shape).astype(np.float32)
    forward = _conv2d_reference(y, wt, None, (2, 2), (1, 1), (1, 1), 1)
    assert np.isclose((forward * x).sum(), (out.asnumpy() * y).sum(), rtol=1e-4)
    with pytest.raises(ValueError, match="mint.nn.functional.conv2d: 'padding'"):
        F.conv2d(T(x), T(w), padding="full")


def test_pooling_functions():
    x = RNG.standard_normal((2, 3, 4, 6)).astype(np.float32)
    windows = x.reshape(2, 3, 2, 2, 3, 2)
    close(F.avg_pool2d(T(x), 2), windows.mean((3, 5)))
    values, indices = F.max_pool2d(T(x), 2, return_indices=True)
    close(values, windows.max((3, 5)))
    assert indices.dtype == ms.int64
    close(x.reshape(2, 3, -1)[np.arange(2)[:, None, None], np.arange(3)[None, :, None],
                              indices.asnumpy().reshape(2, 3, -1)].reshape(values.shape), values.asnumpy())
    x1 = x.reshape(2, 3, 24)
    values, indices = F.adaptive_max_pool1d(T(x1), 3, return_indices=True)
    close(values, x1.reshape(2, 3, 3, 8).max(-1))
    close(F.adaptive_avg_pool1d(T(x1), 4), x1.reshape(2, 3, 4, 6).mean(-1))
    close(F.avg_pool1d(T(x1), 4), x1.reshape(2, 3, 6, 4).mean(-1))


def test_activation_functions():
    a = T(X)
    close(F.relu(a), np.maximum(X, 0))
    close(F.relu6(T(X * 10)), np.clip(X * 10, 0, 6))
    close(F.leaky_relu(a), np.where(X > 0, X, 0.01 * X))
    close(F.elu(a, 0.5), np.where(X > 0, X, 0.5 * np.expm1(X)), atol=1e-6)
    close(F.hardtanh(a, -0.5, 0.5), np.clip(X, -0.5, 0.5))
    close(F.threshold(a, 0.1, 20.0), np.where(X > 0.1, X, 20.0))
    close(F.glu(a, 1), X[:, :2] / (1 + np.exp(-X[:, 2:])), atol=1e-6)
    close(F.softshrink(a, 0.3), np.where(X > 0.3, X - 0.3, np.where(X < -0.3, X + 0.3, 0)), atol=1e-6)
    close(F.prelu(a, T(np.array([0.1, 0.2, 0.3, 0.4], np.float32))),
          np.where(X > 0, X, X * np.array([0.1, 0.2, 0.3, 0.4])), atol=1e-6)
    x3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    close(F.softmax(T(x3)), np.exp(x3) / np.exp(x3).sum(0))  # PyTorch's implicit dim: 0 for a 3-d input
    close(F.log_softmax(a, 1, dtype=ms.float64), X - np.log(np.exp(X).sum(1, keepdims=True)), atol=1e-6)
    close(mint.softmax(a, 0), np.exp(X) / np.exp(X).sum(0))
    inplace = T(X.copy())
    assert F.relu(inplace, inplace=True) is inplace
    close(inplace, np.maximum(X, 0))
    with pytest.raises(ValueError, match="glu"):
        F.glu(T(X[:, :3]))
    with pytest.raises(ValueError, match="gelu: 'approximate'"):
        F.gelu(a, approximate="fast")


def test_loss_functions():
    p = RNG.random((3, 5)).astype(np.float32) * 0.9 + 0.05
    q = RNG.random((3, 5)).astype(np.float32) * 0.9 + 0.05
    close(F.l1_loss(T(p), T(q)), np.abs(p - q).mean())
    close(F.mse_loss(T(p), T(q), "sum"), ((p - q) ** 2).sum(), atol=1e-5)
    d = np.abs(p - 3 * q)
    close(F.smooth_l1_loss(T(p), T(3 * q), beta=0.5), np.where(d < 0.5, d ** 2, d - 0.25).mean(), atol=1e-5)
    close(F.kl_div(T(np.log(p)), T(q), reduction="batchmean"), (q * (np.log(q) - np.log(p))).sum() / 3, atol=1e-5)
    close(F.kl_div(T(np.log(p)), T(np.log(q)), "none", True), q * (np.log(q) - np.log(p)), atol=1e-5)
    close(F.binary_cross_entropy(T(p), T(q)), -(q * np.log(p) + (1 - q) * np.log(1 - p)).mean(), atol=1e-5)
    sig = 1 / (1 + np.exp(-p))
    close(F.binary_cross_entropy_with_logits(T(p), T(q), pos_weight=T(np.full(5, 2.0, np.float32))),
          -(2 * q * np.log(sig) + (1 - q) * np.log(1 - sig)).mean(), atol=1e-5)
    labels = np.array([1, 0, 4])
    logp = p - np.log(np.exp(p).sum(1, keepdims=True))
    close(F.cross_entropy(T(p), T(labels)), -logp[np.arange(3), labels].mean(), atol=1e-5)
    close(F.nll_loss(T(logp), T(labels), reduction="sum"), -logp[np.arange(3), labels].sum(), atol=1e-5)
    sign = np.sign(q - 0.5)
    close(F.soft_margin_loss(T(p), T(sign)), np.log1p(np.exp(-sign * p)).mean(), atol=1e-6)
    with pytest.raises(ValueError, match="mint.nn.functional.l1_loss: 'reduction'"):
        F.l1_loss(T(p), T(q), "avg")
    with pytest.raises(ValueError, match="mint.nn.functional.l1_loss: 'input' and 'target'"):
        F.l1_loss(T(p), T(q[:2]))


def test_normalization_functions():
    x = RNG.standard_normal((4, 3, 2, 2)).astype(np.float32)
    running_mean, running_var = T(np.zeros(3, np.float32)), T(np.ones(3, np.float32))
    out = F.batch_norm(T(x), running_mean, running_var, training=True, momentum=0.1)
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    close(out, (x - mean[:, None, None]) / np.sqrt(var[:, None, None] + 1e-5), atol=1e-4)
    close(running_mean, 0.1 * mean, atol=1e-6)
    close(running_var, 0.9 + 0.1 * x.var((0, 2, 3), ddof=1), atol=1e-5)  # PyTorch: the unbiased variance
    close(F.batch_norm(T(x), running_mean, running_var),
          (x - 0.1 * mean[:, None, None]) / np.sqrt(running_var.asnumpy()[:, None, None] + 1e-5), atol=1e-4)
    close(F.layer_norm(T(x), (2, 2)), (x - x.mean((2, 3), keepdims=True)) / np.sqrt(x.var((2, 3), keepdims=True)
                                                                                    + 1e-5), atol=1e-4)
    close(F.normalize(T(X), p=1, dim=1), X / np.abs(X).sum(1, keepdims=True), atol=1e-6)
    close(F.one_hot(T(np.array([0, 2]))), np.eye(3)[[0, 2]])
    close(F.pad(T(X), (1, 1), mode="reflect"), np.pad(X, ((0, 0), (1, 1)), mode="reflect"))
    close(F.embedding(T(np.array([1, 0])), T(X)), X[[1, 0]])
    dropped = F.dropout(T(np.ones((100,), np.float32)), 0.5).asnumpy()
    assert set(np.unique(dropped)) <= {0.0, 2.0}
    close(F.dropout(T(X), 0.5, training=False), X)


def test_functional_gradients():
    x = RNG.standard_normal((2, 4))
    check_grad(lambda t: F.glu(t, 1), x)
    check_grad(lambda t: F.smooth_l1_loss(t, t * 0 + 0.3, reduction="none"), x)
    check_grad(lambda t: mint.addcdiv(t, t, t * t + 1, value=0.5), x)
    check_grad(lambda t: mint.max(t, 1)[0], x)
    check_grad(lambda t: mint.gather(t, 1, T(np.array([[0, 3], [2, 2]]))), x)
    check_grad(lambda t: F.kl_div(t, ms.ops.exp(t * 0.5), reduction="batchmean"), x)


# ---- nn layers ---------------------------------------------------------------------------------------

def test_batch_norm_without_momentum_averages_every_batch_seen():
    bn = mint.nn.BatchNorm1d(3, momentum=None)
    bn.set_train(True)
    batches = [RNG.standard_normal((8, 3)).astype(np.float32) * (i + 1) + i for i in range(3)]
    for batch in batches:
        bn(T(batch))
    assert int(bn.num_batches_tracked.asnumpy()) == 3
    close(bn.running_mean, np.mean([b.mean(0) for b in batches], axis=0), atol=1e-5)
    close(bn.running_var, np.mean([b.var(0, ddof=1) for b in batches], axis=0), atol=1e-4)
    bn.set_train(False)
    bn(T(batches[0]))  # evaluation neither counts nor updates
    assert int(bn.num_batches_tracked.asnumpy()) == 3
    names = [p.name for p in bn.get_parameters()]
    assert "num_batches_tracked" in " ".join(names)  # saved in checkpoints, as MindSpore's layer saves it


def test_layers_take_torch_arguments():
    linear = mint.nn.Linear(4, 3)
    assert linear.weight.shape == (3, 4) and linear.bias.shape == (3,)
    assert np.abs(linear.weight.asnumpy()).max() <= 0.5  # U(-1/sqrt(4), 1/sqrt(4))
    close(linear(T(X)), X @ linear.weight.asnumpy().T + linear.bias.asnumpy(), atol=1e-5)
    assert mint.nn.Linear(4, 3, bias=False).bias is None
    conv = mint.nn.Conv2d(2, 4, 3, padding=1, padding_mode="reflect")
    x = RNG.standard_normal((1, 2, 4, 5)).astype(np.float32)
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="reflect")
    close(conv(T(x)), _conv2d_reference(padded, conv.weight.asnumpy(), conv.bias.asnumpy(), (1, 1), (0, 0),
                                        (1, 1), 1), atol=1e-4)
    bn = mint.nn.BatchNorm2d(2)
    bn.set_train(True)
    bn(T(x * 3 + 1))
    close(bn.running_mean, 0.1 * (x * 3 + 1).mean((0, 2, 3)), atol=1e-5)  # momentum 0.1: PyTorch's convention
    bn.set_train(False)
    assert bn(T(x)).shape == x.shape
    with pytest.raises(ValueError, match="mint.nn.BatchNorm2d"):
        bn(T(x[0]))
    with pytest.raises(ValueError, match=r"mint.nn.BatchNorm1d: 'momentum' must be a number in \[0, 1\] or None, "
                                         "but got 1.5"):
        mint.nn.BatchNorm1d(2, momentum=1.5)
    ln = mint.nn.LayerNorm(5)
    close(ln(T(x)), (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5), atol=1e-4)
    emb = mint.nn.Embedding(5, 3, padding_idx=0)
    close(emb.weight[0], np.zeros(3))
    close(mint.nn.ZeroPad2d(1)(T(x)), np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))))
    close(mint.nn.ConstantPad1d((1, 2), 3.0)(T(X)), np.pad(X, ((0, 0), (1, 2)), constant_values=3.0))
    close(mint.nn.ReLU()(T(X)), np.maximum(X, 0))
    close(mint.nn.Flatten()(T(x)), x.reshape(1, -1))
    close(mint.nn.MSELoss(reduction="sum")(T(X), T(X * 0)), (X ** 2).sum(), atol=1e-5)
    assert mint.nn.Identity(3, key=4)(T(X)) is not None
    deconv = mint.nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
    assert deconv(T(x)).shape == (1, 3, 7, 9)
    assert deconv(T(x), output_size=(8, 10)).shape == (1, 3, 8, 10)
    with pytest.raises(ValueError, match="mint.nn.ConvTranspose2d: 'output_size'"):
        deconv(T(x), output_size=(12, 10))
    with pytest.raises(ValueError, match="mint.nn.Conv2d: 'padding_mode'"):
        mint.nn.Conv2d(2, 4, 3, padding_mode="wrap")
    with pytest.raises(ValueError, match="mint.nn.Conv2d: 'in_channels'"):
        mint.nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(TypeError, match="mint.nn.ZeroPad2d: 'padding'"):
        mint.nn.ZeroPad2d((1, 2))


# ---- optim ---------------------------------------------------------------------------------------------

def _adam_reference(p, grads, lr, betas, eps, wd, amsgrad, decoupled, maximize=False):
    m, v, vmax = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p)
    for t, g in enumerate(grads, 1):
        g = -g if maximize else g
        if decoupled:
            p = p * (1 - lr * wd)
        else:
            g = g + wd * p
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        vmax = np.maximum(vmax, v)
        denom = np.sqrt(vmax if amsgrad else v) / np.sqrt(1 - betas[1] ** t) + eps
        p = p - lr / (1 - betas[0] ** t) * m / denom
    return p


def _sgd_reference(p, grads, lr, momentum, dampening, wd, nesterov):
    buf = None
    for g in grads:
        g = g + wd * p
        buf = g if buf is None else momentum * buf + (1 - dampening) * g
        p = p - lr * (g + momentum * buf if nesterov else buf)
    return p


P0 = RNG.standard_normal((3, 2)).astype(np.float32)
GRADS = RNG.standard_normal((3, 3, 2)).astype(np.float32)


def _run(cls, **kwargs):
    weight = ms.Parameter(T(P0.copy()), name="w")
    optimizer = cls([weight], **kwargs)
    for g in GRADS:
        optimizer((T(g),))
    return weight


@pytest.mark.parametrize("cls, kwargs, reference", [
    (mint.optim.Adam, dict(lr=0.1, weight_decay=0.1, amsgrad=True),
     lambda: _adam_reference(P0, GRADS, 0.1, (0.9, 0.999), 1e-8, 0.1, True, False)),
    (mint.optim.AdamW, dict(lr=0.1, betas=(0.8, 0.9)),
     lambda: _adam_reference(P0, GRADS, 0.1, (0.8, 0.9), 1e-8, 0.01, False, True)),
    (mint.optim.FusedAdamW, dict(lr=0.1, maximize=True),
     lambda: _adam_reference(P0, GRADS, 0.1, (0.9, 0.999), 1e-8, 0.01, False, True, maximize=True)),
    (mint.optim.SGD, dict(lr=0.1, momentum=0.9, dampening=0.2, weight_decay=0.01),
     lambda: _sgd_reference(P0, GRADS, 0.1, 0.9, 0.2, 0.01, False)),
    (mint.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True),
     lambda: _sgd_reference(P0, GRADS, 0.1, 0.9, 0.0, 0.0, True)),
])
def test_optimizers_follow_pytorch(cls, kwargs, reference):
    close(_run(cls, **kwargs), reference(), atol=1e-5)


def test_optimizer_groups_and_errors():
    a, b = ms.Parameter(T(P0.copy()), name="a"), ms.Parameter(T(P0.copy()), name="b")
    optimizer = mint.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    optimizer((T(GRADS[0]), T(GRADS[0])))
    close(a, P0 - 0.1 * GRADS[0])
    close(b, P0 - 0.5 * GRADS[0])
    with pytest.raises(ValueError, match=r"mint.optim.Adam: 'betas\[1\]'"):
        mint.optim.Adam([a], betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="mint.optim.SGD: nesterov=True needs momentum > 0"):
        mint.optim.SGD([a], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="mint.optim.AdamW: 'lr'"):
        mint.optim.AdamW([a], lr=-1.0)
    with pytest.raises(ValueError, match="gradients"):
        optimizer((T(GRADS[0]),))


# ---- compiled code --------------------------------------------------------------------------------------

def test_functions_compile():
    def f(x, index):
        values, indices = mint.max(x, 1)
        return (values + mint.gather(x, 1, index).sum(1) + F.gelu(mint.std(x, 1)) + mint.add(x, x, alpha=2)[:, 0]
                + F.softmax(x, 1)[:, 0] + mint.clamp(x, -0.5, 0.5).sum(1), indices)

    args = (T(X), T(np.array([[0, 1], [2, 3], [1, 1]])))
    eager, compiled = f(*args), ms.jit(f)(*args)
    close(compiled[0], eager[0].asnumpy())
    close(compiled[1], eager[1].asnumpy())


class _Net(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = mint.nn.Conv2d(1, 2, 3, padding=1)
        self.bn = mint.nn.BatchNorm2d(2)
        self.fc = mint.nn.Linear(2 * 4 * 4, 3)

    def construct(self, x):
        return self.fc(mint.flatten(F.relu(self.bn(self.conv(x))), 1))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_training_step_with_mint_optim(mode):
    ms.set_seed(1)
    net = _Net()
    net.set_train(True)
    optimizer = mint.optim.AdamW(net.trainable_params(), lr=0.05)
    loss_fn = mint.nn.CrossEntropyLoss()
    x = T(RNG.standard_normal((4, 1, 4, 4)).astype(np.float32))
    y = T(np.array([0, 1, 2, 1]))

    def forward(data, label):
        return loss_fn(net(data), label)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    if mode == ms.GRAPH_MODE:
        step = ms.jit(step)
    losses = [float(step(x, y).asnumpy()) for _ in range(15)]
    assert losses[-1] < 0.5 * losses[0]
    assert float(optimizer.state_step.asnumpy()) == 15
    assert np.abs(net.bn.running_mean.asnumpy()).sum() > 0
