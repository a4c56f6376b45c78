"""The nn layers of nn/layer/{activation_extra,array,bidense,image,lrn,math,sparse,unpooling}.py and the ops
functions behind them (ops/function/nn_layers_more_func.py) against NumPy references, with gradients against
finite differences for the parametrized and differentiable ones, bad arguments, and a run under ms.jit."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

from finite_differences import check_grad

T = ms.Tensor
RNG = np.random.default_rng(0)


def close(got, expected, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(got.asnumpy() if isinstance(got, ms.Tensor) else got, expected, rtol=rtol, atol=atol)


def same_in_graph(fn, *args, rtol=1e-6):
    """fn under ms.jit gives what it gives eagerly."""
    eager, graph = fn(*args), ms.jit(lambda *a: fn(*a))(*args)
    eager = eager if isinstance(eager, tuple) else (eager,)
    graph = graph if isinstance(graph, tuple) else (graph,)
    for e, g in zip(eager, graph):
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=rtol, atol=1e-6)


# ---- NumPy references

def np_lrn(x, r, bias, alpha, beta):
    c = x.shape[1]
    out = np.empty_like(x)
    for i in range(c):
        s = (x[:, max(0, i - r):min(c, i + r + 1)] ** 2).sum(1)
        out[:, i] = x[:, i] / (bias + alpha * s) ** beta
    return out


def np_patches(x, k, s, r, same):
    """TensorFlow's extract_image_patches on NCHW, depth ordered (row, col, channel)."""
    n, c, h, w = x.shape
    eh, ew = (k[0] - 1) * r[0] + 1, (k[1] - 1) * r[1] + 1
    if same:
        oh, ow = -(-h // s[0]), -(-w // s[1])
        ph, pw = max((oh - 1) * s[0] + eh - h, 0), max((ow - 1) * s[1] + ew - w, 0)
        x = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    else:
        oh, ow = (h - eh) // s[0] + 1, (w - ew) // s[1] + 1
    out = np.zeros((n, k[0] * k[1] * c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            for a in range(k[0]):
                for b in range(k[1]):
                    d = (a * k[1] + b) * c
                    out[:, d:d + c, i, j] = x[:, :, i * s[0] + a * r[0], j * s[1] + b * r[1]]
    return out


def np_max_pool_indices(x, k):
    """A (N, C, *spatial) max pool with stride = kernel: values and flat indices in the input planes."""
    spatial = x.shape[2:]
    out_shape = tuple(d // kk for d, kk in zip(spatial, k))
    vals = np.zeros(x.shape[:2] + out_shape)
    idx = np.zeros(x.shape[:2] + out_shape, np.int64)
    for pos in np.ndindex(*out_shape):
        window = tuple(slice(p * kk, (p + 1) * kk) for p, kk in zip(pos, k))
        block = x[(Ellipsis,) + window].reshape(x.shape[:2] + (-1,))
        arg = block.argmax(-1)
        local = np.stack(np.unravel_index(arg, k), -1) + np.array(pos) * np.array(k)
        vals[(Ellipsis,) + pos] = block.max(-1)
        idx[(Ellipsis,) + pos] = np.ravel_multi_index(tuple(np.moveaxis(local, -1, 0)), spatial)
    return vals, idx


def np_valid_filter(x, win):
    k = win.shape[0]
    h, w = x.shape[-2] - k + 1, x.shape[-1] - k + 1
    out = np.zeros(x.shape[:-2] + (h, w))
    for a in range(k):
        for b in range(k):
            out += win[a, b] * x[..., a:a + h, b:b + w]
    return out


def np_window(size, sigma):
    y, x = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1].astype(np.float64)
    g = np.exp(-(x * x + y * y) / (2 * sigma ** 2))
    return g / g.sum()


def np_ssim_cs(x, y, size, sigma=1.5, k1=0.01, k2=0.03, max_val=1.0):
    win = np_window(size, sigma)
    f = lambda t: np_valid_filter(t, win)  # noqa: E731
    mu1, mu2 = f(x), f(y)
    s1, s2, s12 = f(x * x) - mu1 ** 2, f(y * y) - mu2 ** 2, f(x * y) - mu1 * mu2
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    v1, v2 = 2 * s12 + c2, s1 + s2 + c2
    ssim = (2 * mu1 * mu2 + c1) * v1 / ((mu1 ** 2 + mu2 ** 2 + c1) * v2)
    return ssim.mean((2, 3)), (v1 / v2).mean((2, 3))


def np_msssim(x, y, size, powers=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333)):
    terms = []
    for level in range(len(powers)):
        ssim, cs = np_ssim_cs(x, y, size)
        terms.append(np.maximum(ssim if level == len(powers) - 1 else cs, 0))
        n, c, h, w = x.shape
        x = x[:, :, :h // 2 * 2, :w // 2 * 2].reshape(n, c, h // 2, 2, w // 2, 2).mean((3, 5))
        y = y[:, :, :h // 2 * 2, :w // 2 * 2].reshape(n, c, h // 2, 2, w // 2, 2).mean((3, 5))
    return np.prod(np.stack(terms, -1) ** np.array(powers), -1).mean(-1)


# ---- activations, LRN, BiDense, ChannelShuffle

def test_fast_gelu_and_selu():
    x = RNG.standard_normal((3, 4)) * 3
    close(nn.FastGelu()(T(x)), x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x))))
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    close(nn.SeLU()(T(x)), scale * np.where(x > 0, x, alpha * (np.exp(x) - 1)), rtol=1e-7)
    check_grad(ops.fast_gelu, x)
    same_in_graph(lambda t: nn.FastGelu()(t) + nn.SeLU()(t), T(x))
    with pytest.raises(TypeError, match="fast_gelu: 'x'"):
        ops.fast_gelu(T(np.array([1, 2])))


def test_lrn():
    x = RNG.standard_normal((2, 7, 3, 2))
    close(nn.LRN(2, 1.0, 0.5, 0.75)(T(x)), np_lrn(x, 2, 1.0, 0.5, 0.75))
    close(nn.LRN()(T(x)), np_lrn(x, 5, 1.0, 1.0, 0.5))
    close(nn.LRN(0)(T(x)), np_lrn(x, 0, 1.0, 1.0, 0.5))
    check_grad(lambda t: ops.lrn(t, 1, 2.0, 0.3, 0.75), x[:1, :4, :2, :2])
    same_in_graph(nn.LRN(2), T(x))
    with pytest.raises(ValueError, match="LRN: 'depth_radius'"):
        nn.LRN(-1)
    with pytest.raises(ValueError, match="LRN: 'norm_region'"):
        nn.LRN(norm_region="WITHIN_CHANNEL")
    with pytest.raises(TypeError, match="LRN: 'beta'"):
        nn.LRN(beta="0.5")
    with pytest.raises(ValueError, match="lrn: 'x' must be 4-d"):
        nn.LRN()(T(x[0]))


def test_bidense():
    x1, x2 = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 3, 5))
    net = nn.BiDense(4, 5, 6, dtype=ms.float64)
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    assert w.shape == (6, 4, 5) and np.abs(w).max() <= 0.5  # Uniform(1 / sqrt(in1_channels))
    close(net(T(x1), T(x2)), np.einsum("abi,oij,abj->abo", x1, w, x2) + b)
    no_bias = nn.BiDense(4, 5, 6, weight_init=T(w), has_bias=False, dtype=ms.float64)
    close(no_bias(T(x1[0]), T(x2[0])), np.einsum("bi,oij,bj->bo", x1[0], w, x2[0]))
    check_grad(ops.bidense, x1[0, :2], x2[0, :2], w[:2], b[:2])
    same_in_graph(net, T(x1), T(x2))
    with pytest.raises(ValueError, match="BiDense: 'in1_channels'"):
        nn.BiDense(0, 5, 6)
    with pytest.raises(TypeError, match="BiDense: 'has_bias'"):
        nn.BiDense(4, 5, 6, has_bias=1)
    with pytest.raises(ValueError, match="BiDense: 'weight_init' must have shape"):
        nn.BiDense(4, 5, 6, weight_init=T(np.ones((6, 5, 4))))
    with pytest.raises(ValueError, match="bidense: the last dimension of 'input2'"):
        net(T(x1), T(x1))
    with pytest.raises(TypeError, match="BiDense: 'input1'"):
        net(x1, T(x2))


def test_channel_shuffle():
    x = np.arange(2 * 6 * 2 * 2, dtype=np.float64).reshape(2, 6, 2, 2)
    expected = x.reshape(2, 3, 2, 2, 2).transpose(0, 2, 1, 3, 4).reshape(x.shape)
    close(nn.ChannelShuffle(3)(T(x)), expected)
    close(ops.channel_shuffle(T(x), 2), x.reshape(2, 2, 3, 2, 2).transpose(0, 2, 1, 3, 4).reshape(x.shape))
    same_in_graph(nn.ChannelShuffle(3), T(x))
    with pytest.raises(ValueError, match="ChannelShuffle: 'groups'"):
        nn.ChannelShuffle(0)
    with pytest.raises(TypeError, match="ChannelShuffle: 'groups'"):
        nn.ChannelShuffle(2.0)
    with pytest.raises(ValueError, match="divisible by 'groups'"):
        nn.ChannelShuffle(4)(T(x))


# ---- unpooling

@pytest.mark.parametrize("nd", [1, 2, 3])
def test_max_unpool(nd):
    k = (2,) * nd
    x = RNG.standard_normal((2, 3) + (4,) * nd)
    vals, idx = np_max_pool_indices(x, k)
    cell = {1: nn.MaxUnpool1d, 2: nn.MaxUnpool2d, 3: nn.MaxUnpool3d}[nd](2)
    expected = np.zeros(x.shape).reshape(2, 3, -1)
    np.put_along_axis(expected, idx.reshape(2, 3, -1), vals.reshape(2, 3, -1), -1)
    close(cell(T(vals), T(idx)), expected.reshape(x.shape))
    close(cell(T(vals[0]), T(idx[0])), expected.reshape(x.shape)[0])  # unbatched
    bigger = cell(T(vals), T(idx), output_size=(5,) * nd)
    assert bigger.shape == (2, 3) + (5,) * nd
    fn = {1: ops.max_unpool1d, 2: ops.max_unpool2d, 3: ops.max_unpool3d}[nd]
    check_grad(lambda v: fn(v, T(idx), 2), vals)
    same_in_graph(lambda v: cell(v, T(idx)), T(vals))
    name = cell.__class__.__name__
    with pytest.raises(ValueError, match=f"{name}: 'output_size' must be a tuple"):
        cell(T(vals), T(idx), output_size=[4] * nd)
    with pytest.raises(TypeError, match=f"max_unpool{nd}d: 'indices' must be an integer tensor"):
        cell(T(vals), T(idx.astype(np.float64)))
    with pytest.raises(ValueError, match=f"max_unpool{nd}d: 'output_size'"):
        cell(T(vals), T(idx), output_size=(7,) * nd)


# ---- array cells

@pytest.mark.parametrize("padding", ["valid", "same", "SAME"])
def test_unfold(padding):
    x = RNG.standard_normal((2, 3, 5, 6))
    for k, s, r in (((2, 2), (2, 2), (1, 1)), ((3, 2), (1, 2), (2, 1))):
        net = nn.Unfold([1, *k, 1], [1, *s, 1], [1, *r, 1], padding)
        close(net(T(x)), np_patches(x, k, s, r, padding.lower() == "same"))
    same_in_graph(net, T(x))
    with pytest.raises(ValueError, match=r"Unfold: 'ksizes' must be \[1, row, col, 1\]"):
        nn.Unfold([2, 2], [1, 1, 1, 1], [1, 1, 1, 1])
    with pytest.raises(TypeError, match="Unfold: 'strides'"):
        nn.Unfold([1, 2, 2, 1], 1, [1, 1, 1, 1])
    with pytest.raises(ValueError, match="Unfold: 'padding'"):
        nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "full")


@pytest.mark.parametrize("mode,np_mode", [("CONSTANT", "constant"), ("REFLECT", "reflect"),
                                          ("SYMMETRIC", "symmetric")])
def test_pad(mode, np_mode):
    x = RNG.standard_normal((2, 3, 4))
    paddings = ((0, 1), (2, 1), (3, 2))
    net = nn.Pad(paddings, mode)
    close(net(T(x)), np.pad(x, paddings, np_mode))
    check_grad(net, x[:, :, :])
    same_in_graph(net, T(x))
    with pytest.raises(ValueError, match="Pad: 'paddings' has 3 pairs"):
        net(T(x[0]))


def test_pad_bad_arguments():
    with pytest.raises(ValueError, match="Pad: 'mode'"):
        nn.Pad(((1, 1),), "EDGE")
    with pytest.raises(TypeError, match="Pad: 'paddings' must be a tuple"):
        nn.Pad([[1, 1]])
    with pytest.raises(ValueError, match=r"Pad: 'paddings' must have shape \(n, 2\)"):
        nn.Pad(((1, 1, 1),))
    with pytest.raises(ValueError, match="REFLECT padding of"):
        nn.Pad(((3, 0),), "REFLECT")(T(np.ones(3)))


def test_roll_tril_triu_onehot_range():
    x = np.arange(12.0).reshape(3, 4)
    close(nn.Roll((1, -1), (0, 1))(T(x)), np.roll(x, (1, -1), (0, 1)))
    close(nn.Roll(2, -1)(T(x)), np.roll(x, 2, -1))
    close(nn.Tril()(T(x), 1), np.tril(x, 1))
    close(nn.Triu()(T(x), -1), np.triu(x, -1))
    ids = np.array([[0, 2], [1, 3]])
    hot = nn.OneHot(axis=1, depth=4, on_value=5.0, off_value=-1.0, dtype=ms.float64)(T(ids, ms.int32))
    close(hot, np.where(np.eye(4)[ids].transpose(0, 2, 1) > 0, 5.0, -1.0))
    assert nn.OneHot(depth=3)(T(ids, ms.int32)).dtype == ms.float32
    r = nn.Range(1, 8, 2)()
    assert r.dtype == ms.int32 and r.asnumpy().tolist() == [1, 3, 5, 7]
    r = nn.Range(2.5)()
    assert r.dtype == ms.float32 and r.asnumpy().tolist() == [0.0, 1.0, 2.0]
    same_in_graph(lambda t: nn.Roll((1, -1), (0, 1))(t) + nn.Tril()(t) + nn.Triu()(t, 1), T(x))
    same_in_graph(lambda i: nn.OneHot(depth=4)(i), T(ids, ms.int32))
    with pytest.raises(ValueError, match="Roll: 'shift' and 'axis'"):
        nn.Roll((1, 2), 0)
    with pytest.raises(TypeError, match="Roll: 'shift'"):
        nn.Roll(1.5, 0)
    with pytest.raises(ValueError, match="Roll: 'axis' 2 is out of range"):
        nn.Roll(1, 2)(T(x))
    with pytest.raises(ValueError, match="Range: 'delta'"):
        nn.Range(0, 5, 0)
    with pytest.raises(ValueError, match="OneHot: 'depth'"):
        nn.OneHot(depth=0)
    with pytest.raises(TypeError, match="Tril: 'x'"):
        nn.Tril()(x)


# ---- math cells

def test_matmul_norm_clip_l1():
    a, b = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((3, 5))
    close(nn.MatMul(transpose_x1=True)(T(a), T(b)), np.swapaxes(a, -1, -2) @ b)
    close(nn.MatMul(transpose_x2=True)(T(b), T(b)), b @ b.T)
    close(nn.MatMul()(T(a), T(a[0, 0])), a @ a[0, 0])
    close(nn.Norm(axis=1)(T(a)), np.sqrt((a * a).sum(1)))
    close(nn.Norm(axis=(), keep_dims=True)(T(a)), np.sqrt((a * a).sum(keepdims=True)))
    x = RNG.standard_normal((3, 4)) * np.array([[0.1], [1.0], [3.0]])
    norm = np.sqrt((x * x).sum(1, keepdims=True))
    close(nn.ClipByNorm(axis=1)(T(x), T(1.0, ms.float64)), x / np.maximum(norm, 1.0))
    close(nn.ClipByNorm()(T(x), 2.0), x * 2.0 / max(np.sqrt((x * x).sum()), 2.0))
    close(nn.L1Regularizer(0.5)(T(x)), 0.5 * np.abs(x).sum())
    check_grad(lambda t: nn.ClipByNorm(axis=1)(t, 1.0), x)
    same_in_graph(lambda p, q: nn.MatMul(transpose_x1=True)(p, q).sum() + nn.Norm(axis=1)(p).sum()
                  + nn.ClipByNorm(1)(q, 1.0).sum() + nn.L1Regularizer(2)(q), T(a), T(b))
    with pytest.raises(ValueError, match="MatMul: the columns of 'x1'"):
        nn.MatMul()(T(a), T(b))
    with pytest.raises(TypeError, match="MatMul: 'transpose_x1'"):
        nn.MatMul(transpose_x1=1)
    with pytest.raises(TypeError, match="Norm: 'keep_dims'"):
        nn.Norm(keep_dims=None)
    with pytest.raises(ValueError, match="L1Regularizer: 'scale' must be greater than 0"):
        nn.L1Regularizer(0)
    with pytest.raises(ValueError, match="L1Regularizer: 'scale' must be finite"):
        nn.L1Regularizer(float("nan"))
    with pytest.raises(TypeError, match="ClipByNorm: 'clip_norm'"):
        nn.ClipByNorm()(T(x), "1")


def test_moments_logsumexp():
    x = RNG.standard_normal((3, 4, 5))
    mean, var = nn.Moments(axis=(0, 2), keep_dims=True)(T(x))
    close(mean, x.mean((0, 2), keepdims=True))
    close(var, x.var((0, 2), keepdims=True))
    mean, var = nn.Moments()(T(x))
    assert mean.shape == () and var.shape == ()
    close(var, x.var())
    half_mean, _ = nn.Moments(axis=1)(T(x.astype(np.float16)))
    assert half_mean.dtype == ms.float16
    close(nn.ReduceLogSumExp(1)(T(x)), np.log(np.exp(x).sum(1)))
    close(nn.ReduceLogSumExp((0, 2), True)(T(x)), np.log(np.exp(x).sum((0, 2), keepdims=True)))
    check_grad(nn.ReduceLogSumExp(1), x[:2])
    same_in_graph(lambda t: nn.Moments(axis=1)(t) + (nn.ReduceLogSumExp(-1)(t),), T(x))
    with pytest.raises(TypeError, match="Moments: 'x'"):
        nn.Moments()(T(np.arange(3)))
    with pytest.raises(TypeError, match="Moments: 'axis'"):
        nn.Moments(axis=[0])
    with pytest.raises(TypeError, match="ReduceLogSumExp: 'axis'"):
        nn.ReduceLogSumExp(None)


def test_matrix_cells():
    a = RNG.standard_normal((2, 3, 3))
    spd = a @ np.swapaxes(a, -1, -2) + np.eye(3)
    close(nn.MatDet()(T(spd)), np.linalg.det(spd), rtol=1e-9)
    close(nn.MatInverse()(T(spd)), np.linalg.inv(spd), rtol=1e-9, atol=1e-11)
    v = RNG.standard_normal((2, 3))
    close(nn.MatrixDiag()(T(v)), np.stack([np.diag(r) for r in v]))
    m = RNG.standard_normal((2, 3, 4))
    close(nn.MatrixDiagPart()(T(m)), np.stack([np.diag(r) for r in m]))
    for shape in ((2, 3, 4), (2, 4, 3)):
        m = RNG.standard_normal(shape)
        expected = m.copy()
        for i in range(3):
            expected[:, i, i] = v[:, i]
        close(nn.MatrixSetDiag()(T(m), T(v)), expected)
    check_grad(lambda t: nn.MatDet()(t @ t.swapaxes(-1, -2) + T(np.eye(3))), a[:1])
    same_in_graph(lambda s, d: (nn.MatDet()(s), nn.MatInverse()(s), nn.MatrixDiag()(d),
                                nn.MatrixDiagPart()(s), nn.MatrixSetDiag()(s, d[:, :3])), T(spd), T(v))
    with pytest.raises(ValueError, match="MatDet: 'a' must be a"):
        nn.MatDet()(T(m))
    with pytest.raises(TypeError, match="MatInverse: 'a'"):
        nn.MatInverse()(T(np.eye(2, dtype=np.int32)))
    with pytest.raises(ValueError, match="MatrixSetDiag: 'diagonal' must have shape"):
        nn.MatrixSetDiag()(T(m), T(v[:, :2]))
    with pytest.raises(ValueError, match="MatrixDiagPart: 'input_x' must be at least 2-d"):
        nn.MatrixDiagPart()(T(v[0]))


# ---- image cells

def test_central_crop_and_image_gradients():
    img = RNG.standard_normal((2, 3, 7, 9))
    close(nn.CentralCrop(0.5)(T(img)), img[:, :, 1:6, 2:7])
    close(nn.CentralCrop(0.5)(T(img[0])), img[0, :, 1:6, 2:7])
    close(nn.CentralCrop(1.0)(T(img)), img)
    dy, dx = nn.ImageGradients()(T(img))
    close(dy, np.concatenate([np.diff(img, axis=2), np.zeros((2, 3, 1, 9))], 2))
    close(dx, np.concatenate([np.diff(img, axis=3), np.zeros((2, 3, 7, 1))], 3))
    dy, dx = nn.ImageGradients()(T(img[:, :, :1, :1]))
    close(dy, np.zeros((2, 3, 1, 1)))
    same_in_graph(lambda t: nn.ImageGradients()(t) + (nn.CentralCrop(0.5)(t),), T(img))
    with pytest.raises(TypeError, match="CentralCrop: 'central_fraction'"):
        nn.CentralCrop(1)
    with pytest.raises(ValueError, match="CentralCrop: 'central_fraction'"):
        nn.CentralCrop(0.0)
    with pytest.raises(ValueError, match="ImageGradients: 'images' must be 4-d"):
        nn.ImageGradients()(T(img[0]))


def test_ssim_psnr():
    i1 = RNG.random((2, 3, 12, 13))
    i2 = np.clip(i1 + 0.1 * RNG.standard_normal(i1.shape), 0, 1)
    a, b = T(i1.astype(np.float32)), T(i2.astype(np.float32))
    close(nn.SSIM(filter_size=5)(a, b), np_ssim_cs(i1, i2, 5)[0].mean(-1), rtol=2e-5, atol=1e-6)
    close(nn.SSIM()(a, b), np_ssim_cs(i1, i2, 11)[0].mean(-1), rtol=2e-5, atol=1e-6)
    mse = ((i1 - i2) ** 2).mean((1, 2, 3))
    close(nn.PSNR()(a, b), 10 * np.log10(1 / mse), rtol=1e-5)
    close(nn.PSNR(max_val=255)(T((i1 * 255).astype(np.uint8)), T((i2 * 255).astype(np.uint8))),
          10 * np.log10(1 / (((i1 * 255).astype(np.uint8) / 255. - (i2 * 255).astype(np.uint8) / 255.) ** 2)
                        .mean((1, 2, 3))), rtol=1e-5)
    same_in_graph(lambda p, q: (nn.SSIM(filter_size=5)(p, q), nn.PSNR()(p, q)), a, b)
    with pytest.raises(ValueError, match="SSIM: the images"):
        nn.SSIM(filter_size=15)(a, b)
    with pytest.raises(TypeError, match="SSIM: 'k1'"):
        nn.SSIM(k1=1)
    with pytest.raises(ValueError, match="SSIM: 'max_val'"):
        nn.SSIM(max_val=0)
    with pytest.raises(TypeError, match="SSIM: 'img1' must have dtype"):
        nn.SSIM()(T(i1), T(i2))
    with pytest.raises(ValueError, match="PSNR: 'img1' and 'img2' must have the same"):
        nn.PSNR()(a, T(i2))


def test_msssim():
    j1 = RNG.random((1, 2, 32, 32))
    j2 = np.clip(j1 + 0.2 * RNG.random(j1.shape), 0, 1)
    got = nn.MSSSIM(filter_size=2)(T(j1.astype(np.float32)), T(j2.astype(np.float32)))
    close(got, np_msssim(j1, j2, 2), rtol=1e-4)
    u1, u2 = (j1 * 255).astype(np.uint8), (j2 * 255).astype(np.uint8)
    close(nn.MSSSIM(max_val=255, filter_size=2, power_factors=(0.5, 0.5))(T(u1), T(u2)).shape, (1,))
    same_in_graph(lambda p, q: nn.MSSSIM(filter_size=2)(p, q), T(j1.astype(np.float32)), T(j2.astype(np.float32)))
    with pytest.raises(TypeError, match="MSSSIM: 'power_factors'"):
        nn.MSSSIM(power_factors=0.5)
    with pytest.raises(ValueError, match="MSSSIM: the images"):
        nn.MSSSIM()(T(j1.astype(np.float32)), T(j2.astype(np.float32)))


# ---- embedding lookups

def test_embedding_lookup():
    net = nn.EmbeddingLookup(5, 3)
    table = net.embedding_table.asnumpy()
    ids = np.array([[0, 4, 2], [7, -1, 1]])
    expected = np.where(((ids >= 0) & (ids < 5))[..., None], table[np.clip(ids, 0, 4)], 0.0)
    close(net(T(ids, ms.int32)), expected, rtol=1e-6)
    clipped = nn.EmbeddingLookup(5, 3, param_init=T(table), max_norm=0.5)(T(ids, ms.int64))
    norms = np.sqrt((expected ** 2).sum(-1, keepdims=True))
    close(clipped, expected * 0.5 / np.maximum(norms, 0.5), rtol=1e-6)
    grads = ms.grad(lambda t: net(t).sum(), None, net.trainable_params())(T(ids, ms.int32))[0].asnumpy()
    close(grads, np.array([1, 1, 1, 0, 1])[:, None] * np.ones((5, 3)))
    same_in_graph(net, T(ids, ms.int32))
    assert nn.EmbeddingLookup(5, 3, target="DEVICE", sparse=False)(T(ids, ms.int32)).shape == (2, 3, 3)
    with pytest.raises(ValueError, match="EmbeddingLookup: 'sparse' must be True when 'target' is 'CPU'"):
        nn.EmbeddingLookup(5, 3, sparse=False)
    with pytest.raises(ValueError, match="EmbeddingLookup: 'target'"):
        nn.EmbeddingLookup(5, 3, target="GPU")
    with pytest.raises(ValueError, match="EmbeddingLookup: 'manual_shapes'"):
        nn.EmbeddingLookup(5, 3, slice_mode="field_slice", manual_shapes=(2, 3))
    with pytest.raises(ValueError, match="EmbeddingLookup: 'slice_mode'"):
        nn.EmbeddingLookup(5, 3, slice_mode="row_slice")
    with pytest.raises(TypeError, match="EmbeddingLookup: 'indices'"):
        net(T(ids.astype(np.float32)))


@pytest.mark.parametrize("operator", ["SUM", "MEAN", "MAX"])
def test_multi_field_embedding_lookup(operator):
    net = nn.MultiFieldEmbeddingLookup(6, 2, 3, operator=operator)
    table = net.embedding_table.asnumpy().astype(np.float64)
    ids = np.array([[0, 1, 2, 5], [3, 4, 0, 1]])
    values = np.array([[1.0, 0.5, 0.0, 2.0], [2.0, -1.0, 0.0, 1.0]], np.float32)
    fields = np.array([[0, 0, 1, 0], [1, 1, 0, 1]], np.int32)
    expected = np.zeros((2, 3, 2))
    for b in range(2):
        for f in range(3):
            members = [l for l in range(4) if fields[b, l] == f]
            rows = [values[b, l] * table[ids[b, l]] for l in members]
            if operator == "SUM" and rows:
                expected[b, f] = np.sum(rows, 0)
            elif operator == "MEAN" and rows:
                count = sum(abs(values[b, l]) for l in members)
                expected[b, f] = np.sum(rows, 0) / count if count else 0.0
            elif operator == "MAX":
                kept = [values[b, l] * table[ids[b, l]] for l in members if values[b, l] != 0]
                expected[b, f] = np.max(kept, 0) if kept else 0.0
    args = (T(ids, ms.int32), T(values), T(fields))
    close(net(*args), expected, rtol=1e-6, atol=1e-7)
    same_in_graph(net, *args)
    with pytest.raises(TypeError, match="MultiFieldEmbeddingLookup: 'field_ids'"):
        net(T(ids, ms.int32), T(values), T(fields.astype(np.int64)))
    with pytest.raises(ValueError, match="MultiFieldEmbeddingLookup: 'operator'"):
        nn.MultiFieldEmbeddingLookup(6, 2, 3, operator="MIN")
