"""The losses of nn/loss/loss_extra.py (and ops.hinge_embedding_loss / ops.multilabel_margin_loss) against
NumPy references, in every reduction mode, with gradients against finite differences, under ms.jit, and with
bad arguments. FocalLoss and the dice losses are also pinned to values MindSpore 2.10 gave on the same inputs."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

from finite_differences import check_grad

T = ms.Tensor
REDUCTIONS = ["none", "mean", "sum"]


def close(got, expected, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=rtol, atol=atol)


def reduce(loss, reduction):
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


def same_in_graph(fn, *args):
    np.testing.assert_allclose(ms.jit(lambda *a: fn(*a))(*args).asnumpy(), fn(*args).asnumpy(), rtol=1e-7,
                               atol=1e-9)


def mindspore_inputs():
    """The inputs the pinned MindSpore values were computed on (the draws of a script that made images first)."""
    rng = np.random.default_rng(0)
    rng.random((2, 3, 16, 16)), rng.random((2, 3, 16, 16)), rng.random((1, 2, 48, 48)), rng.random((1, 2, 48, 48))
    logits = rng.standard_normal((3, 4, 5)).astype(np.float32)
    labels = rng.integers(0, 4, (3, 1, 5)).astype(np.int32)
    one_hot = np.eye(4, dtype=np.float32)[rng.integers(0, 4, (3, 5))].transpose(0, 2, 1)
    return logits, labels, one_hot


def np_focal(logits, labels, gamma, weight=None):
    """MindSpore's FocalLoss before the reduction, for (N, C, L) logits."""
    z = logits - logits.max(1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(1, keepdims=True))
    w = np.ones(logits.shape[1]) if weight is None else weight
    if labels.shape[1] == 1:
        lp = np.take_along_axis(log_p, labels.astype(np.int64), 1)[:, 0]
        wt = w[labels[:, 0]]
        return (-(1 - np.exp(lp)) ** gamma * lp * wt).mean(1)
    return (-(1 - np.exp(log_p)) ** gamma * labels * log_p * w[None, :, None]).mean(-1)


def np_dice(x, y, smooth=1e-5):
    return 1 - 2 * (x * y).sum() / ((x * x).sum() + (y * y).sum() + smooth)


def test_focal_loss_matches_mindspore():
    logits, labels, one_hot = mindspore_inputs()
    weight = T(np.array([1.0, 2.0, 0.5, 1.5], np.float32))
    close(nn.FocalLoss(weight=weight, gamma=2.0, reduction="none")(T(logits), T(labels)),
          [1.5224183, 1.5491952, 1.5300099], rtol=1e-5)
    close(nn.FocalLoss(gamma=1.5, reduction="none")(T(logits), T(one_hot)),
          [[0.0, 0.19301003, 1.0124217, 0.14723046], [0.62921464, 0.3727806, 0.0, 0.7884463],
           [0.91291714, 0.26491946, 0.29347044, 0.3726666]], rtol=1e-5, atol=1e-6)
    close(nn.FocalLoss()(T(logits[:, :, 0]), T(labels[:, :, 0])), 0.4853138, rtol=1e-5)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_focal_loss(reduction):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 2, 2))
    idx = rng.integers(0, 3, (2, 1, 2, 2))
    w = np.array([0.5, 1.0, 2.0])
    net = nn.FocalLoss(weight=T(w), gamma=2.0, reduction=reduction)
    close(net(T(x), T(idx, ms.int32)), reduce(np_focal(x.reshape(2, 3, 4), idx.reshape(2, 1, 4), 2.0, w), reduction))
    hot = np.eye(3)[idx[:, 0]].transpose(0, 3, 1, 2)
    close(nn.FocalLoss(reduction=reduction)(T(x), T(hot.astype(np.float32))),
          reduce(np_focal(x.reshape(2, 3, 4), hot.reshape(2, 3, 4), 2.0), reduction), rtol=1e-7)
    check_grad(lambda t: net(t, T(idx, ms.int32)), x)
    same_in_graph(lambda t: net(t, T(idx, ms.int32)), T(x))


def test_focal_loss_bad_arguments():
    x = T(np.zeros((2, 3)))
    with pytest.raises(TypeError, match="FocalLoss: 'gamma'"):
        nn.FocalLoss(gamma=2)
    with pytest.raises(TypeError, match="FocalLoss: 'weight'"):
        nn.FocalLoss(weight=[1.0, 2.0])
    with pytest.raises(ValueError, match="FocalLoss: 'weight' must be 1-d"):
        nn.FocalLoss(weight=T(np.ones((2, 2))))
    with pytest.raises(ValueError, match="FocalLoss: 'reduction'"):
        nn.FocalLoss(reduction="max")
    with pytest.raises(ValueError, match=r"FocalLoss: labels.shape\[1\] must be 1 or"):
        nn.FocalLoss()(x, T(np.zeros((2, 2), np.int32)))
    with pytest.raises(TypeError, match="FocalLoss: 'labels' must be int32"):
        nn.FocalLoss()(x, T(np.zeros((2, 1), np.int8)))
    with pytest.raises(ValueError, match="FocalLoss: 'logits' must be 2-d to 4-d"):
        nn.FocalLoss()(T(np.zeros(3)), T(np.zeros(3, np.int32)))


def test_dice_losses():
    logits, _, one_hot = mindspore_inputs()
    close(nn.DiceLoss()(T(logits), T(one_hot)), 1.1618668, rtol=1e-5)
    weights = T(np.array([[1.0], [2.0], [0.5], [1.5]], np.float32))
    close(nn.MultiClassDiceLoss(weights=weights)(T(logits), T(one_hot)), [0.9751633], rtol=1e-5)
    x, y = logits.astype(np.float64), one_hot.astype(np.float64)
    close(nn.DiceLoss(smooth=0.1)(T(x), T(y)), np_dice(x, y, 0.1))
    # The activation ('softmax' by MindSpore's get_activation: the last axis), class 1 ignored, no weights.
    soft = np.exp(x) / np.exp(x).sum(-1, keepdims=True)
    expected = sum(np_dice(soft[:, i], y[:, i]) for i in (0, 2, 3)) / 4
    close(nn.MultiClassDiceLoss(ignore_indiex=1)(T(x), T(y)), expected)
    sig = nn.MultiClassDiceLoss(activation=nn.Sigmoid())(T(x), T(y))
    close(sig, sum(np_dice(1 / (1 + np.exp(-x[:, i])), y[:, i]) for i in range(4)) / 4)
    check_grad(lambda t: nn.DiceLoss()(t, T(y[:2, :2])), x[:2, :2])
    check_grad(lambda t: nn.MultiClassDiceLoss(activation=None)(t, T(y[:2])), x[:2])
    same_in_graph(lambda t: nn.MultiClassDiceLoss()(t, T(y)) + nn.DiceLoss()(t, T(y)), T(x))
    with pytest.raises(ValueError, match="DiceLoss: 'smooth'"):
        nn.DiceLoss(smooth=0.0)
    with pytest.raises(ValueError, match="DiceLoss: 'logits' and 'labels' must have the same shape"):
        nn.DiceLoss()(T(x), T(y[:1]))
    with pytest.raises(TypeError, match="DiceLoss: 'logits' must not be uint8"):
        nn.DiceLoss()(T(x.astype(np.uint8)), T(y))
    with pytest.raises(ValueError, match="MultiClassDiceLoss: 'activation'"):
        nn.MultiClassDiceLoss(activation="gelu")
    with pytest.raises(ValueError, match="MultiClassDiceLoss: 'weights' must be 2-d"):
        nn.MultiClassDiceLoss(weights=T(np.ones(4)))
    with pytest.raises(ValueError, match=r"MultiClassDiceLoss: weights.shape\[0\]"):
        nn.MultiClassDiceLoss(weights=T(np.ones((3, 1))))(T(x), T(y))
    with pytest.raises(TypeError, match="MultiClassDiceLoss: 'ignore_indiex'"):
        nn.MultiClassDiceLoss(ignore_indiex=1.0)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_hinge_embedding_loss(reduction):
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 4))
    y = rng.choice([-1.0, 1.0], (3, 4))
    expected = np.where(y > 0, x, np.maximum(0.0, 0.5 - x))
    net = nn.HingeEmbeddingLoss(margin=0.5, reduction=reduction)
    close(net(T(x), T(y)), reduce(expected, reduction))
    close(ops.hinge_embedding_loss(T(x), T(y), 0.5, reduction), reduce(expected, reduction))
    check_grad(lambda t: net(t, T(y)), x + 0.01)  # away from the kink at margin
    same_in_graph(lambda t: net(t, T(y)), T(x))
    with pytest.raises(TypeError, match="hinge_embedding_loss: 'targets' must be a floating-point tensor"):
        net(T(x), T(y.astype(np.int32)))
    with pytest.raises(TypeError, match="HingeEmbeddingLoss: 'margin'"):
        nn.HingeEmbeddingLoss(margin="1")


def np_multilabel_margin(x, y):
    """PyTorch's definition: per sample, targets up to the first -1."""
    out = np.zeros(x.shape[0])
    for n in range(x.shape[0]):
        targets = []
        for t in y[n]:
            if t < 0:
                break
            targets.append(t)
        for j in targets:
            for i in range(x.shape[1]):
                if i not in targets:
                    out[n] += max(0.0, 1 - (x[n, j] - x[n, i]))
    return out / x.shape[1]


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss(reduction):
    # PyTorch's documented example: 0.85 for the first sample.
    x = np.array([[0.1, 0.2, 0.4, 0.8], [0.2, 0.1, 0.5, 0.3], [0.3, -0.2, 0.1, 0.9]])
    y = np.array([[3, 0, -1, 1], [1, 2, -1, 0], [-1, 1, 2, 3]])
    expected = np_multilabel_margin(x, y)
    np.testing.assert_allclose(expected[:2], [0.85, 0.95])
    net = nn.MultilabelMarginLoss(reduction=reduction)
    close(net(T(x), T(y, ms.int32)), reduce(expected, reduction))
    close(ops.multilabel_margin_loss(T(x[0]), T(y[0], ms.int64), reduction), expected[0])
    check_grad(lambda t: net(t, T(y, ms.int32)), x + np.array([0.013, 0.027, 0.041, 0.003]))
    same_in_graph(lambda t: net(t, T(y, ms.int32)), T(x))
    with pytest.raises(TypeError, match="multilabel_margin_loss: 'target' must be an integer tensor"):
        net(T(x), T(y.astype(np.float64)))
    with pytest.raises(ValueError, match="multilabel_margin_loss: 'target' must have the shape"):
        net(T(x), T(y[:, :2], ms.int32))
    with pytest.raises(ValueError, match="MultilabelMarginLoss: 'reduction'"):
        nn.MultilabelMarginLoss(reduction="avg")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_with_distance_loss(reduction, swap):
    rng = np.random.default_rng(3)
    a, p, n = (rng.standard_normal((4, 3)) for _ in range(3))

    def dist(u, v):
        return np.sqrt(((u - v) ** 2).sum(1))

    d_neg = np.minimum(dist(a, n), dist(p, n)) if swap else dist(a, n)
    expected = np.maximum(dist(a, p) - d_neg + 0.5, 0.0)
    net = nn.TripletMarginWithDistanceLoss(swap=swap, reduction=reduction, margin=0.5)
    close(net(T(a), T(p), T(n)), reduce(expected, reduction))
    l1 = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: ops.abs(u - v).sum(-1),
                                          reduction=reduction)
    close(l1(T(a), T(p), T(n)), reduce(np.maximum(np.abs(a - p).sum(-1) - np.abs(a - n).sum(-1) + 1.0, 0),
                                       reduction))
    check_grad(lambda u, v, w: net(u, v, w), a, p, n)
    same_in_graph(net, T(a), T(p), T(n))


def test_triplet_margin_with_distance_loss_bad_arguments():
    with pytest.raises(TypeError, match="TripletMarginWithDistanceLoss: 'margin'"):
        nn.TripletMarginWithDistanceLoss(margin=1)
    with pytest.raises(TypeError, match="TripletMarginWithDistanceLoss: 'swap'"):
        nn.TripletMarginWithDistanceLoss(swap=0)
    with pytest.raises(TypeError, match="TripletMarginWithDistanceLoss: 'distance_function'"):
        nn.TripletMarginWithDistanceLoss(distance_function="l2")
    with pytest.raises(TypeError, match="TripletMarginWithDistanceLoss: 'positive'"):
        nn.TripletMarginWithDistanceLoss()(T(np.ones((2, 2))), np.ones((2, 2)), T(np.ones((2, 2))))
