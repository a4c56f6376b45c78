"""3-d average/adaptive pooling, fractional max pooling, bias_add, the random activations, sequence helpers
and the Primitive classes over them, against NumPy references (MindSpore 2.10's values where noted), with
bad input, gradients by finite differences and graph mode."""
import itertools
import math

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from finite_differences import check_grad


def rand(*shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def np_avg_pool3d(x, k, s, pads, ceil_mode=False, count_include_pad=True, divisor=0):
    """Windows of a (N, C, D, H, W) array padded by pads (head, tail, top, bottom, left, right)."""
    spatial = x.shape[2:]
    outs, bounds = [], []
    for a in range(3):
        before, after = pads[2 * a], pads[2 * a + 1]
        padded = spatial[a] + before + after
        out = (padded - k[a] + (s[a] - 1 if ceil_mode else 0)) // s[a] + 1
        if ceil_mode and (out - 1) * s[a] >= spatial[a] + before:
            out -= 1
        outs.append(out)
        bounds.append((before, after))
    y = np.zeros(x.shape[:2] + tuple(outs))
    for idx in itertools.product(*(range(o) for o in outs)):
        box, count = [], 1
        for a, i in enumerate(idx):
            before, after = bounds[a]
            start = i * s[a] - before
            stop = min(start + k[a], spatial[a] + after)
            lo, hi = max(start, 0), min(stop, spatial[a])
            box.append(slice(lo, hi))
            count *= (stop - start) if count_include_pad else (hi - lo)
        total = x[(slice(None), slice(None)) + tuple(box)].sum(axis=(2, 3, 4))
        y[(slice(None), slice(None)) + idx] = total / (divisor or count)
    return y


@pytest.mark.parametrize("kwargs, pads", [
    (dict(kernel_size=2, stride=2), (0,) * 6),
    (dict(kernel_size=(3, 2, 2), stride=(2, 1, 2), padding=1, ceil_mode=True), (1,) * 6),
    (dict(kernel_size=3, stride=2, padding=(1, 0, 1, 1, 0, 1), ceil_mode=True, count_include_pad=False),
     (1, 0, 1, 1, 0, 1)),
    (dict(kernel_size=2, stride=1, padding=1, divisor_override=3), (1,) * 6),
])
def test_avg_pool3d_matches_numpy(kwargs, pads):
    x = rand(2, 2, 5, 6, 5)
    k = (kwargs["kernel_size"],) * 3 if isinstance(kwargs["kernel_size"], int) else kwargs["kernel_size"]
    s = (kwargs["stride"],) * 3 if isinstance(kwargs["stride"], int) else kwargs["stride"]
    expected = np_avg_pool3d(x, k, s, pads, kwargs.get("ceil_mode", False), kwargs.get("count_include_pad", True),
                             kwargs.get("divisor_override", 0))
    np.testing.assert_allclose(ops.avg_pool3d(ms.Tensor(x), **kwargs).asnumpy(), expected, rtol=1e-5, atol=1e-6)


def adaptive_windows(n, o):
    return [(i * n // o, -(-(i + 1) * n // o)) for i in range(o)]


def np_adaptive(x, outs, reduce):
    spatial = x.shape[-3:]
    y = np.zeros(x.shape[:-3] + tuple(outs))
    idx = np.zeros(y.shape, np.int64)
    for cell in itertools.product(*(range(o) for o in outs)):
        wins = [adaptive_windows(n, o)[i] for n, o, i in zip(spatial, outs, cell)]
        box = x[(..., ) + tuple(slice(a, b) for a, b in wins)]
        y[(...,) + cell] = reduce(box.reshape(box.shape[:-3] + (-1,)), -1)
        if reduce is np.max:
            place = np.argmax(box.reshape(box.shape[:-3] + (-1,)), -1)
            sub = np.unravel_index(place, [b - a for a, b in wins])
            flat = sum((sub[a] + wins[a][0]) * math.prod(spatial[a + 1:]) for a in range(3))
            idx[(...,) + cell] = flat
    return y, idx


@pytest.mark.parametrize("output_size", [(2, 3, 2), 1, (3, None, 2)])
def test_adaptive_pool3d_matches_numpy(output_size):
    x = rand(2, 3, 5, 4, 5)
    outs = tuple(n if o is None else o for o, n in zip(
        (output_size,) * 3 if not isinstance(output_size, tuple) else output_size, x.shape[2:]))
    mean, _ = np_adaptive(x, outs, np.mean)
    top, index = np_adaptive(x, outs, np.max)
    np.testing.assert_allclose(ops.adaptive_avg_pool3d(ms.Tensor(x), output_size).asnumpy(), mean, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(ops.adaptive_max_pool3d(ms.Tensor(x), output_size).asnumpy(), top, rtol=1e-6)
    y, i = ops.adaptive_max_pool3d(ms.Tensor(x), output_size, True)
    assert i.dtype == ms.int32
    np.testing.assert_allclose(y.asnumpy(), top, rtol=1e-6)
    np.testing.assert_array_equal(i.asnumpy(), index)
    y4, i4 = ops.adaptive_max_pool3d(ms.Tensor(x[0]), output_size, True)  # (C, D, H, W)
    np.testing.assert_array_equal(i4.asnumpy(), index[0])
    y, i = ops.AdaptiveMaxPool3D()(ms.Tensor(x), ms.Tensor(np.array(outs, np.int32)))
    np.testing.assert_array_equal(i.asnumpy(), index)
    np.testing.assert_allclose(ops.AdaptiveAvgPool3D(output_size)(ms.Tensor(x)).asnumpy(), mean, rtol=1e-5,
                               atol=1e-6)


def test_adaptive_max_pool3d_doc_example():
    x = ms.Tensor(np.arange(0, 36).reshape((1, 3, 3, 4)).astype(np.float32))
    y, i = ops.adaptive_max_pool3d(x, (1, 1, 2), True)
    np.testing.assert_array_equal(y.asnumpy(), [[[[33., 35.]]]])
    np.testing.assert_array_equal(i.asnumpy(), [[[[33, 35]]]])


def np_fractional(x, kernel, outs, samples, order):
    """The reference of Note [Fractional pooling windows] on (N, C, *spatial) x."""
    nd = len(kernel)
    spatial = x.shape[2:]
    n, c = x.shape[:2]
    y = np.zeros((n, c) + tuple(outs), x.dtype)
    idx = np.zeros(y.shape, np.int64)
    for b, ch in itertools.product(range(n), range(c)):
        starts = []
        for a in range(nd):
            u, size, k, o = np.float32(samples[b, ch, order[a]]), spatial[a], kernel[a], outs[a]
            if o == 1:
                starts.append([size - k])
                continue
            alpha = np.float32(size - k) / np.float32(o - 1)
            seq = [int(np.float32((i + u) * alpha)) - int(np.float32(u * alpha)) for i in range(o - 1)]
            starts.append(seq + [size - k])
        for cell in itertools.product(*(range(o) for o in outs)):
            box = tuple(slice(starts[a][cell[a]], starts[a][cell[a]] + kernel[a]) for a in range(nd))
            window = x[b, ch][box]
            place = np.unravel_index(np.argmax(window), window.shape)
            pos = [starts[a][cell[a]] + place[a] for a in range(nd)]
            y[(b, ch) + cell] = window[place]
            idx[(b, ch) + cell] = np.ravel_multi_index(pos, spatial)
    return y, idx


def test_fractional_max_pool2d_matches_numpy_and_mindspore_order():
    x, samples = rand(2, 3, 9, 11), np.random.default_rng(1).random((2, 3, 2)).astype(np.float32)
    y, i = ops.fractional_max_pool2d(ms.Tensor(x), (2, 3), output_size=(4, 5), return_indices=True,
                                     _random_samples=ms.Tensor(samples))
    ey, ei = np_fractional(x, (2, 3), (4, 5), samples, (1, 0))  # width reads sample 0 (MindSpore's order)
    np.testing.assert_array_equal(y.asnumpy(), ey)
    np.testing.assert_array_equal(i.asnumpy(), ei)
    assert i.dtype == ms.int64
    layer = nn.FractionalMaxPool2d((2, 3), output_ratio=0.5, _random_samples=ms.Tensor(samples))
    assert layer(ms.Tensor(x)).shape == (2, 3, 4, 5)
    assert ops.fractional_max_pool2d(ms.Tensor(x[0]), 2, output_size=(1, 3)).shape == (3, 1, 3)


def test_fractional_max_pool3d_matches_numpy():
    x, samples = rand(2, 2, 7, 8, 9), np.random.default_rng(2).random((2, 2, 3)).astype(np.float32)
    y, i = nn.FractionalMaxPool3d((2, 3, 2), output_ratio=(0.5, 0.5, 0.5), return_indices=True,
                                  _random_samples=ms.Tensor(samples))(ms.Tensor(x))
    ey, ei = np_fractional(x, (2, 3, 2), (3, 4, 4), samples, (0, 1, 2))
    np.testing.assert_array_equal(y.asnumpy(), ey)
    np.testing.assert_array_equal(i.asnumpy(), ei)
    assert ops.fractional_max_pool3d(ms.Tensor(x[0]), 2, output_size=3).shape == (2, 3, 3, 3)


def test_pool_primitives_match_functional():
    x = ms.Tensor(rand(2, 3, 5, 6, 7))
    expected = np_avg_pool3d(x.asnumpy(), (3, 3, 3), (2, 2, 2), (1,) * 6, True, False)
    np.testing.assert_allclose(ops.AvgPool3D(3, 2, "pad", 1, True, False)(x).asnumpy(), expected, rtol=1e-5,
                               atol=1e-6)
    assert ops.AvgPool3D(3, 2, "same")(x).shape == (2, 3, 3, 3, 4)
    assert ops.MaxPool3D(3, 2, "same")(x).shape == (2, 3, 3, 3, 4)
    np.testing.assert_array_equal(ops.MaxPool3D(3, 2, "pad", 1, True)(x).asnumpy(),
                                  ops.max_pool3d(x, 3, 2, 1, ceil_mode=True).asnumpy())
    y, i = ops.MaxPool3DWithArgmax(2, 2, 0, argmax_type=ms.int32)(x)
    ry, ri = ops.max_pool3d(x, 2, 2, return_indices=True)
    assert i.dtype == ms.int32
    np.testing.assert_array_equal(i.asnumpy(), ri.asnumpy())
    unpooled = ops.MaxUnpool3D(2, output_shape=(2, 3, 5, 6, 7))(y, i).asnumpy()
    assert unpooled.shape == (2, 3, 5, 6, 7) and np.isin(y.asnumpy(), unpooled).all()
    x2 = ms.Tensor(rand(1, 2, 4, 6))
    y, i = ops.MaxPoolWithArgmaxV2(2)(x2)
    unpooled = ops.MaxUnpool2D(2)(y, i).asnumpy()
    assert unpooled.shape == (1, 2, 4, 6) and np.isin(y.asnumpy(), unpooled).all()


def test_bias_add_and_primitives():
    x, b = rand(2, 3, 4, 5), rand(3, seed=1)
    np.testing.assert_allclose(ops.bias_add(ms.Tensor(x), ms.Tensor(b)).asnumpy(), x + b[:, None, None])
    np.testing.assert_allclose(ops.BiasAdd()(ms.Tensor(x), ms.Tensor(b)).asnumpy(), x + b[:, None, None])
    b5 = rand(5, seed=2)
    np.testing.assert_allclose(ops.BiasAdd("NHWC")(ms.Tensor(x), ms.Tensor(b5)).asnumpy(), x + b5)
    check_grad(ops.bias_add, rand(2, 3, 2), rand(3, seed=1))


def test_activation_and_loss_primitives():
    x = rand(3, 4)
    t = ms.Tensor(x)
    norm = np.sqrt(np.maximum((x * x).sum(1, keepdims=True), 1e-4))
    np.testing.assert_allclose(ops.L2Normalize(axis=1)(t).asnumpy(), x / norm, rtol=1e-6)
    np.testing.assert_allclose(ops.SeLU()(t).asnumpy(), ops.selu(t).asnumpy())
    np.testing.assert_allclose(ops.Softsign()(t).asnumpy(), x / (1 + np.abs(x)), rtol=1e-6)
    np.testing.assert_allclose(ops.HShrink(0.6)(t).asnumpy(), np.where(np.abs(x) > 0.6, x, 0))
    np.testing.assert_allclose(ops.SoftShrink(0.5)(t).asnumpy(), np.sign(x) * np.maximum(np.abs(x) - 0.5, 0),
                               rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(ops.FastGelu()(t).asnumpy(), x / (1 + np.exp(-1.702 * x)), rtol=1e-5)
    np.testing.assert_allclose(ops.GLU()(t).asnumpy(), x[:, :2] / (1 + np.exp(-x[:, 2:])), rtol=1e-6)
    label = (rand(3, 4, seed=3) > 0).astype(np.float32)
    p = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(ops.SigmoidCrossEntropyWithLogits()(t, ms.Tensor(label)).asnumpy(),
                               -(label * np.log(p) + (1 - label) * np.log(1 - p)), rtol=1e-5)
    w = rand(4, 4, seed=4)
    np.testing.assert_allclose(ops.Dense()(t, ms.Tensor(w)).asnumpy(), x @ w.T, rtol=1e-5)
    check_grad(lambda v: ops.L2Normalize(axis=1, epsilon=1e-4)(v), x.astype(np.float64))


def test_ctc_loss_primitive_matches_mindspore():
    # MindSpore 2.10's CTCLoss on this input (labels below the blank, num_classes - 1).
    x = rand(5, 2, 4, seed=1)
    li, lv, sl = np.array([[0, 0], [0, 1], [0, 2], [1, 0]]), np.array([1, 1, 0, 2]), np.array([5, 4])
    args = (ms.Tensor(x), ms.Tensor(li, ms.int64), ms.Tensor(lv, ms.int32), ms.Tensor(sl, ms.int32))
    loss, grad = ops.CTCLoss()(*args)
    np.testing.assert_allclose(loss.asnumpy(), [6.5352783, 2.2743413], rtol=1e-5)
    np.testing.assert_allclose(grad.asnumpy()[0], [[0.26407, -0.56421, 0.2601, 0.04004],
                                                   [0.38589, 0.24386, 0.03497, -0.66472]], atol=1e-5)
    loss, _ = ops.CTCLoss(preprocess_collapse_repeated=True)(*args)
    np.testing.assert_allclose(loss.asnumpy(), [4.3219028, 2.2743413], rtol=1e-5)
    with pytest.raises(ValueError, match="ctc_merge_repeated"):
        ops.CTCLoss(ctc_merge_repeated=False)


def test_sequence_helpers_match_mindspore():
    np.testing.assert_array_equal(ops.sequence_mask(ms.Tensor([[1, 3], [2, 0]]), 4).asnumpy(),
                                  np.arange(4) < np.array([[1, 3], [2, 0]])[..., None])
    assert ops.sequence_mask(ms.Tensor([1, 3, 2])).shape == (3, 3)
    x = ms.Tensor(np.array([[[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]], [[0.0, 0.6, 0.0], [0.5, 0.4, 0.5]],
                            [[0.6, 0.4, 0.2], [0.8, 0.6, 0.3]]]), ms.float32)
    out = ops.CTCGreedyDecoder()(x, ms.Tensor(np.array([3, 1]), ms.int32))  # MindSpore 2.10's outputs
    assert [t.asnumpy().tolist() for t in out[:3]] == [[[0, 0], [0, 1], [0, 2], [1, 0]], [0, 1, 0, 0], [2, 3]]
    np.testing.assert_allclose(out[3].asnumpy(), [[-1.8], [-0.8]], rtol=1e-6)
    out = ops.ctc_greedy_decoder(x, ms.Tensor(np.array([3, 3]), ms.int32), merge_repeated=False)
    assert out[1].asnumpy().tolist() == [0, 1, 0, 0, 0, 0]


def test_random_activations():
    ms.set_seed(3)
    x = rand(200)
    y = ops.rrelu(ms.Tensor(x)).asnumpy()
    ratio = y[x < 0] / x[x < 0]
    assert np.all(y[x >= 0] == x[x >= 0]) and ratio.min() >= 0.125 and ratio.max() <= 1 / 3
    soft = ops.gumbel_softmax(ms.Tensor(rand(4, 5)), tau=0.5).asnumpy()
    np.testing.assert_allclose(soft.sum(-1), 1, rtol=1e-5)
    hard = ops.gumbel_softmax(ms.Tensor(rand(4, 5)), hard=True).asnumpy()
    assert set(np.unique(hard)) <= {0.0, 1.0} and np.all(hard.sum(-1) == 1)
    out, mask = ops.Dropout2D(0.5)(ms.Tensor(np.ones((4, 8, 2, 2), np.float32)))
    out, mask = out.asnumpy(), mask.asnumpy()
    assert np.all(out == mask * 2.0) and np.all(mask == mask[:, :, :1, :1])


@pytest.mark.parametrize("call, message", [
    (lambda: ops.avg_pool3d(ms.Tensor(rand(2, 3, 4, 4)), 2), "avg_pool3d: 'input_x' must be 5-d"),
    (lambda: ops.avg_pool3d(ms.Tensor(rand(1, 1, 4, 4, 4)), 2, padding=(1, 1)), "avg_pool3d: 'padding'"),
    (lambda: ops.adaptive_max_pool3d(ms.Tensor(rand(1, 1, 4, 4, 4)), (1, 2)), "adaptive_max_pool3d: 'output_size'"),
    (lambda: ops.fractional_max_pool2d(ms.Tensor(rand(1, 1, 5, 5)), 2), "exactly one of 'output_size'"),
    (lambda: ops.fractional_max_pool2d(ms.Tensor(rand(1, 1, 5, 5)), 3, output_size=4), "at least"),
    (lambda: ops.fractional_max_pool2d(ms.Tensor(rand(1, 2, 5, 5)), 2, 3, _random_samples=ms.Tensor(rand(1, 1, 2))),
     "'_random_samples' must have shape"),
    (lambda: ops.bias_add(ms.Tensor(rand(2, 3)), ms.Tensor(rand(4))), "bias_add: 'bias' must have shape"),
    (lambda: ops.BiasAdd("NDHWC"), "BiasAdd: 'data_format'"),
    (lambda: ops.MaxPool3D(2, 1, "valid", 1), "MaxPool3D: 'pad_list' must be 0"),
    (lambda: ops.L2Normalize(epsilon=1), "L2Normalize: 'epsilon' must be a float"),
    (lambda: ops.sequence_mask(ms.Tensor([1.0]), 2), "sequence_mask: 'lengths' must be an integer"),
])
def test_bad_input(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_gradients_by_finite_differences():
    x = rand(1, 2, 4, 4, 3, dtype=np.float64)
    check_grad(lambda v: ops.avg_pool3d(v, 2, 1, padding=1, count_include_pad=False), x)
    check_grad(lambda v: ops.adaptive_avg_pool3d(v, (2, 3, 2)), x)
    check_grad(lambda v: ops.adaptive_max_pool3d(v, (2, 3, 2), True)[0], x)
    samples = ms.Tensor(np.random.default_rng(0).random((1, 2, 3)))
    check_grad(lambda v: ops.fractional_max_pool3d(v, 2, output_size=(2, 2, 2), _random_samples=samples), x)


def test_graph_mode_matches_eager():
    x = ms.Tensor(rand(1, 2, 4, 5, 6))
    samples = ms.Tensor(np.random.default_rng(0).random((1, 2, 2)).astype(np.float32))

    def f(v):
        y, i = ops.adaptive_max_pool3d(v, (2, 2, 3), True)
        z = ops.fractional_max_pool2d(v[:, :, 0], 2, output_size=(2, 3), _random_samples=samples)
        return ops.avg_pool3d(v, 2, 1, padding=1) .sum() + y.sum() + z.sum(), i, ops.BiasAdd()(v, ms.Tensor(
            np.ones(2, np.float32)))

    eager = f(x)
    compiled = ms.jit(f)(x)
    for a, b in zip(eager, compiled):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_space_batch_layouts_match_numpy():
    x = rand(2, 3, 4, 6)
    y = ops.space_to_batch_nd(ms.Tensor(x), [2, 3], [[0, 2], [3, 0]]).asnumpy()
    padded = np.pad(x, ((0, 0), (0, 0), (0, 2), (3, 0)))
    expected = np.stack([padded[:, :, i::2, j::3] for i in range(2) for j in range(3)]).reshape(12, 3, 3, 3)
    np.testing.assert_array_equal(y, expected)
    back = ops.batch_to_space_nd(ms.Tensor(y), [2, 3], [[0, 2], [3, 0]]).asnumpy()
    np.testing.assert_array_equal(back, x)
    np.testing.assert_array_equal(ops.SpaceToBatchND([2, 3], [[0, 2], [3, 0]])(ms.Tensor(x)).asnumpy(), y)
    depth = ops.SpaceToDepth(2)(ms.Tensor(x)).asnumpy()
    expected = np.concatenate([x[:, :, i::2, j::2] for i in range(2) for j in range(2)], 1)
    np.testing.assert_array_equal(depth, expected)
    np.testing.assert_array_equal(ops.DepthToSpace(2)(ms.Tensor(depth)).asnumpy(), x)
    pads = [[0, 0], [1, 2], [2, 1], [0, 3]]
    for mode, np_mode in (("REFLECT", "reflect"), ("SYMMETRIC", "symmetric")):
        np.testing.assert_array_equal(ops.MirrorPad(mode)(ms.Tensor(x), ms.Tensor(np.array(pads))).asnumpy(),
                                      np.pad(x, pads, np_mode))
    check_grad(lambda v: ops.mirror_pad(v, [[1, 1], [0, 2]], "SYMMETRIC"), rand(3, 4, dtype=np.float64))
    with pytest.raises(ValueError, match="mirror_pad: mode 'REFLECT' pads axis 1"):
        ops.mirror_pad(ms.Tensor(x), [[0, 0], [3, 0], [0, 0], [0, 0]], "REFLECT")


def test_boxes_match_numpy():
    anchors = np.array([[0, 0, 9, 9], [5, 5, 14, 19]], np.float32)
    gts = np.array([[2, 2, 11, 11], [0, 0, 4, 4], [20, 20, 30, 30]], np.float32)

    def area(b):
        return (b[..., 2] - b[..., 0] + 1) * (b[..., 3] - b[..., 1] + 1)
    a, g = anchors[None], gts[:, None]
    w = np.maximum(np.minimum(a[..., 2], g[..., 2]) - np.maximum(a[..., 0], g[..., 0]) + 1, 0)
    h = np.maximum(np.minimum(a[..., 3], g[..., 3]) - np.maximum(a[..., 1], g[..., 1]) + 1, 0)
    np.testing.assert_allclose(ops.IOU()(ms.Tensor(anchors), ms.Tensor(gts)).asnumpy(),
                               w * h / (area(a) + area(g) - w * h), rtol=1e-6)
    np.testing.assert_allclose(ops.iou(ms.Tensor(anchors), ms.Tensor(gts), "iof").asnumpy(), w * h / area(g),
                               rtol=1e-6)
    deltas = ops.BoundingBoxEncode(stds=(0.1, 0.1, 0.2, 0.2))(ms.Tensor(anchors), ms.Tensor(gts[:2]))
    boxes = ops.BoundingBoxDecode((100, 100), stds=(0.1, 0.1, 0.2, 0.2))(ms.Tensor(anchors), deltas)
    np.testing.assert_allclose(boxes.asnumpy(), gts[:2], atol=1e-4)
    valid = ops.check_valid(ms.Tensor(gts), ms.Tensor(np.array([20, 25, 1], np.float32))).asnumpy()
    np.testing.assert_array_equal(valid, [True, True, False])
