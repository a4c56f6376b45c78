"""The losses of ops/function/nn_loss_more_func.py and nn/loss/loss_more.py against NumPy references (float64),
in every reduction mode, with gradients against finite differences, under ms.jit, and with bad arguments."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

from finite_differences import numeric_grad

REDUCTIONS = ["none", "mean", "sum"]
T = ms.Tensor


def reduce(loss, reduction):
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


def check(got, expected):
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-10, atol=1e-12)


# NumPy references (PyTorch's definitions, which the MindSpore 2.x docs state).

def np_huber(x, t, delta):
    d = np.abs(x - t)
    return np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))


def np_soft_margin(x, y):
    return np.logaddexp(0.0, -y * x)


def np_margin_ranking(a, b, y, margin):
    return np.maximum(0.0, -y * (a - b) + margin)


def np_cosine_embedding(a, b, y, margin):
    cos = (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) * ((b * b).sum(1) + 1e-12))
    return np.where(y == 1, 1 - cos, 0.0) + np.where(y == -1, np.maximum(0.0, cos - margin), 0.0)


def np_triplet(a, p, n, margin=1.0, norm=2, eps=1e-6, swap=False):
    def dist(u, v):
        return (np.abs(u - v + eps) ** norm).sum(-1) ** (1.0 / norm)
    d_neg = dist(a, n) if not swap else np.minimum(dist(a, n), dist(p, n))
    return np.maximum(dist(a, p) - d_neg + margin, 0.0)


def np_multi_margin(x, y, p=1, margin=1.0, w=None):
    n, c = x.shape
    out = np.zeros(n)
    for i in range(n):
        for j in range(c):
            if j != y[i]:
                out[i] += max(0.0, margin - x[i, y[i]] + x[i, j]) ** p * (1.0 if w is None else w[y[i]])
    return out / c


def np_multilabel(x, y, w=None):
    def logsig(v):
        return -np.logaddexp(0.0, -v)
    loss = -(y * logsig(x) + (1 - y) * logsig(-x))
    return (loss if w is None else loss * w).mean(-1)


def np_gaussian(x, t, var, full=False, eps=1e-6):
    v = np.maximum(var, eps)
    return 0.5 * (np.log(v) + (x - t) ** 2 / v) + (0.5 * np.log(2 * np.pi) if full else 0.0)


def np_poisson(x, t, log_input=True, full=False, eps=1e-8):
    loss = np.exp(x) - t * x if log_input else x - t * np.log(x + eps)
    if full:
        tt = np.maximum(t, 1.0)
        loss = loss + np.where(t > 1, tt * np.log(tt) - tt + 0.5 * np.log(2 * np.pi * tt), 0.0)
    return loss


RNG = np.random.default_rng(7)
X, Y = RNG.standard_normal((4, 5)), RNG.standard_normal((4, 5))
SIGNS = np.where(RNG.random((4, 5)) < 0.5, -1.0, 1.0)


# Functional forms, every reduction.

@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("delta", [1.0, 0.3, 2])
def test_huber_loss(reduction, delta):
    check(ops.huber_loss(T(X), T(Y), reduction, delta), reduce(np_huber(X, Y, delta), reduction))
    # `target` broadcasts against `input`.
    check(ops.huber_loss(T(X), T(Y[0]), reduction, delta), reduce(np_huber(X, Y[0], delta), reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_soft_margin_loss(reduction):
    big = X * 30  # exp(-y x) overflows a naive log(1 + exp(.)) in float32; the loss stays exact
    check(ops.soft_margin_loss(T(big), T(SIGNS), reduction), reduce(np_soft_margin(big, SIGNS), reduction))
    check(ops.soft_margin_loss(T(X), T(SIGNS.astype(np.int32)), reduction),
          reduce(np_soft_margin(X, SIGNS), reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [0.0, 0.5])
def test_margin_ranking_loss(reduction, margin):
    got = ops.margin_ranking_loss(T(X), T(Y), T(SIGNS), margin, reduction)
    check(got, reduce(np_margin_ranking(X, Y, SIGNS, margin), reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [0.0, -0.3, 0.4])
def test_cosine_embedding_loss(reduction, margin):
    a, b = RNG.standard_normal((6, 3, 2)), RNG.standard_normal((6, 3, 2))
    y = RNG.choice([-1, 1], (6, 2))
    y[0, 0] = 0  # neither 1 nor -1: contributes 0
    got = ops.cosine_embedding_loss(T(a), T(b), T(y, ms.int32), margin, reduction)
    check(got, reduce(np_cosine_embedding(a, b, y, margin), reduction))
    zero = np.zeros((1, 3))  # a zero vector: a finite loss (1 - 0), not NaN
    check(ops.cosine_embedding_loss(T(zero), T(zero + 1), T(np.array([1]), ms.int32)), 1.0)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p,swap,margin", [(2, False, 1.0), (1, True, 0.5), (3, True, 2.0)])
def test_triplet_margin_loss(reduction, p, swap, margin):
    a, pos, neg = (RNG.standard_normal((5, 4)) for _ in range(3))
    got = ops.triplet_margin_loss(T(a), T(pos), T(neg), margin, p, 1e-6, swap, reduction)
    check(got, reduce(np_triplet(a, pos, neg, margin, p, 1e-6, swap), reduction))
    # A 0-d Tensor margin, and 3-d inputs (the distance is over the last axis).
    a3, p3, n3 = (RNG.standard_normal((2, 3, 4)) for _ in range(3))
    got = ops.triplet_margin_loss(T(a3), T(p3), T(n3), T(margin), p, swap=swap, reduction=reduction)
    check(got, reduce(np_triplet(a3, p3, n3, margin, p, 1e-6, swap), reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p,margin,weighted", [(1, 1, False), (2, 0.7, True), (1, 1.5, True)])
def test_multi_margin_loss(reduction, p, margin, weighted):
    x, y = RNG.standard_normal((6, 4)), RNG.integers(0, 4, 6)
    w = RNG.uniform(0.5, 2.0, 4) if weighted else None
    got = ops.multi_margin_loss(T(x), T(y, ms.int64), p, margin, None if w is None else T(w), reduction)
    check(got, reduce(np_multi_margin(x, y, p, margin, w), reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weight", [None, "tensor", 2.5])
def test_multilabel_soft_margin_loss(reduction, weight):
    y = (RNG.random((4, 5)) < 0.5).astype(np.float64)
    w = RNG.uniform(0.5, 2.0, 5) if weight == "tensor" else weight
    got = ops.multilabel_soft_margin_loss(T(X * 10), T(y), T(w) if weight == "tensor" else w, reduction)
    check(got, reduce(np_multilabel(X * 10, y, w), reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("var_shape", [(4, 5), (4, 1), (4,)])
def test_gaussian_nll_loss(reduction, full, var_shape):
    var = RNG.uniform(0.1, 2.0, var_shape)
    var.reshape(-1)[0] = 1e-9  # below eps: clamped to eps
    got = ops.gaussian_nll_loss(T(X), T(Y), T(var), full, 1e-6, reduction)
    expect_var = var if var.ndim == 2 else var[:, None]
    check(got, reduce(np_gaussian(X, Y, expect_var, full, 1e-6), reduction))


def test_mindspore_doc_examples():
    f32 = ms.float32
    assert ops.huber_loss(T([1., 2, 10, 2], f32), T([1., 5, 1, 20], f32), "mean", 2).item() == pytest.approx(13.5)
    got = ops.soft_margin_loss(T([[0.3, 0.7], [0.5, 0.5]], f32), T([[-1., 1], [1, -1]], f32))
    assert got.item() == pytest.approx(0.6764238, rel=1e-6)
    got = ops.multilabel_soft_margin_loss(T([[0.3, 0.6, 0.6], [0.9, 0.4, 0.2]], f32),
                                          T([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]], f32))
    assert got.item() == pytest.approx(0.84693956, rel=1e-6)
    got = ops.triplet_margin_loss(T([[0.3, 0.7], [0.5, 0.5]], f32), T([[0.4, 0.6], [0.4, 0.6]], f32),
                                  T([[0.2, 0.9], [0.3, 0.7]], f32))
    assert got.item() == pytest.approx(0.8881968, rel=1e-6)
    assert ops.multi_margin_loss(T(np.ones((3, 3)), f32), T([1, 2, 1], ms.int64)).item() == pytest.approx(2 / 3)
    got = nn.GaussianNLLLoss()(T(np.arange(8.).reshape(4, 2), f32), T([[2., 3], [1, 4], [6, 4], [4, 9]], f32),
                               T(np.ones((4, 1)), f32))
    assert got.item() == pytest.approx(1.4374993, rel=1e-6)
    assert nn.PoissonNLLLoss()(T([[0.3, 0.7], [0.5, 0.5]], f32), T([[1.0, 2.0], [3.0, 4.0]], f32)).item() == \
        pytest.approx(0.3652635, rel=1e-6)


# The nn cells: reductions, constructor arguments, MindSpore's input names.

@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_loss_cells_match_numpy(reduction):
    y01 = (SIGNS > 0).astype(np.float64)
    a, pos, neg = (RNG.standard_normal((5, 4)) for _ in range(3))
    labels = RNG.integers(0, 5, 4)
    cases = [
        (nn.HuberLoss(reduction, delta=0.5)(logits=T(X), labels=T(Y)), np_huber(X, Y, 0.5)),
        (nn.SoftMarginLoss(reduction)(logits=T(X), labels=T(SIGNS)), np_soft_margin(X, SIGNS)),
        (nn.MarginRankingLoss(0.2, reduction)(input1=T(X), input2=T(Y), target=T(SIGNS)),
         np_margin_ranking(X, Y, SIGNS, 0.2)),
        (nn.CosineEmbeddingLoss(0.1, reduction)(logits_x1=T(X), logits_x2=T(Y), labels=T(SIGNS[:, 0])),
         np_cosine_embedding(X, Y, SIGNS[:, 0], 0.1)),
        (nn.TripletMarginLoss(p=1, swap=True, reduction=reduction)(x=T(a), positive=T(pos), negative=T(neg)),
         np_triplet(a, pos, neg, 1.0, 1, 1e-6, True)),
        (nn.MultiMarginLoss(p=2, margin=0.5, reduction=reduction)(x=T(X), target=T(labels, ms.int64)),
         np_multi_margin(X, labels, 2, 0.5)),
        (nn.MultiLabelSoftMarginLoss(reduction=reduction)(x=T(X), target=T(y01)), np_multilabel(X, y01)),
        (nn.GaussianNLLLoss(full=True, reduction=reduction)(logits=T(X), labels=T(Y), var=T(np.abs(SIGNS) * 0.5)),
         np_gaussian(X, Y, 0.5, True)),
        (nn.MAELoss(reduction)(logits=T(X), label=T(Y)), np.abs(X - Y)),
    ]
    for got, expect in cases:
        check(got, reduce(expect, reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("log_input,full", [(True, False), (True, True), (False, False), (False, True)])
def test_poisson_nll_loss(reduction, log_input, full):
    counts = np.array([[0., 1, 2, 5, 9], [3, 1, 0, 7, 2]])
    rate = RNG.uniform(0.1, 3.0, counts.shape)
    x = np.log(rate) if log_input else rate
    got = nn.PoissonNLLLoss(log_input, full, 1e-8, reduction)(input=T(x), target=T(counts.astype(np.int32)))
    check(got, reduce(np_poisson(x, counts, log_input, full), reduction))


def test_rmse_loss_is_a_scalar_root_mean_square():
    got = nn.RMSELoss()(T(X), T(Y[0]))  # broadcasts, as MSELoss
    check(got, np.sqrt(((X - Y[0]) ** 2).mean()))
    assert nn.RMSELoss()(T([1., 2, 3]), T([1., 2, 2])).item() == pytest.approx(0.57735026)


def test_cell_arguments_override_call_arguments_as_in_mindspore():
    a, pos, neg = (RNG.standard_normal((3, 4)) for _ in range(3))
    # TripletMarginLoss: a constructor margin other than 1.0 wins; otherwise the call's margin is used.
    check(nn.TripletMarginLoss(margin=3.0)(T(a), T(pos), T(neg), 0.5), np_triplet(a, pos, neg, 3.0).mean())
    check(nn.TripletMarginLoss()(T(a), T(pos), T(neg), 0.5), np_triplet(a, pos, neg, 0.5).mean())
    # MultiMarginLoss: the constructor's weight wins over the call's.
    x, y, w1, w2 = X, RNG.integers(0, 5, 4), RNG.uniform(0.5, 2, 5), RNG.uniform(0.5, 2, 5)
    check(nn.MultiMarginLoss(weight=T(w1))(T(x), T(y, ms.int64), T(w2)), np_multi_margin(x, y, 1, 1.0, w1).mean())
    check(nn.MultiMarginLoss()(T(x), T(y, ms.int64), T(w2)), np_multi_margin(x, y, 1, 1.0, w2).mean())


def test_float32_inputs_keep_their_dtype():
    x32, y32 = T(X, ms.float32), T(Y, ms.float32)
    for out in (ops.huber_loss(x32, y32), nn.MAELoss()(x32, y32), nn.PoissonNLLLoss()(x32, y32),
                ops.gaussian_nll_loss(x32, y32, T(np.ones(4), ms.float32), reduction="none"),
                ops.cosine_embedding_loss(x32, y32, T(np.ones(4), ms.int32))):
        assert out.dtype == ms.float32


# Gradients against central finite differences.

def _assert_grad_matches(loss_of, x0, position=0, args=()):
    """d loss_of(*args with x0 at `position`) / d x0, autodiff vs finite differences."""
    def call(v):
        full = list(args)
        full.insert(position, T(v))
        return loss_of(*full)
    full = list(args)
    full.insert(position, T(x0))
    got = ms.grad(loss_of, grad_position=position)(*full)
    np.testing.assert_allclose(got.asnumpy(), numeric_grad(lambda v: call(v).item(), x0), rtol=1e-6, atol=1e-8)


def test_gradients_match_finite_differences():
    a, pos, neg = (RNG.standard_normal((4, 3)) for _ in range(3))
    labels = RNG.integers(0, 5, 4)
    y01 = (SIGNS > 0).astype(np.float64)
    var = RNG.uniform(0.5, 2.0, (4, 5))
    x_off_kinks = X + np.sign(X) * 0.05  # keep |input - target| away from Huber's delta and relu's 0
    _assert_grad_matches(lambda x, t: ops.huber_loss(x, t, "sum", 0.5), x_off_kinks, 0, (T(Y * 0.1),))
    _assert_grad_matches(lambda x, t: ops.soft_margin_loss(x, t), X, 0, (T(SIGNS),))
    _assert_grad_matches(lambda x1, x2, t: ops.cosine_embedding_loss(x1, x2, t, -0.9, "sum"), Y, 1,
                         (T(X), T(SIGNS[:, 0])))
    _assert_grad_matches(lambda an, p, n: ops.triplet_margin_loss(an, p, n, 5.0, 2, swap=True), neg, 2,
                         (T(a), T(pos)))
    _assert_grad_matches(lambda an, p, n: ops.triplet_margin_loss(an, p, n, 5.0, 3), a, 0, (T(pos), T(neg)))
    _assert_grad_matches(lambda x, t: ops.multi_margin_loss(x, t, 2, 3.0, T(var[0]), "sum"), X, 0,
                         (T(labels, ms.int64),))
    _assert_grad_matches(lambda x, t: ops.multilabel_soft_margin_loss(x, t, T(var[0])), X, 0, (T(y01),))
    _assert_grad_matches(lambda x, t, v: ops.gaussian_nll_loss(x, t, v, True), var, 2, (T(X), T(Y)))
    _assert_grad_matches(lambda x, t: nn.PoissonNLLLoss(full=True)(x, t), X, 0, (T(np.abs(Y) * 3),))
    _assert_grad_matches(lambda x, t: nn.RMSELoss()(x, t), X, 0, (T(Y),))


def test_grad_of_two_positions():
    f = lambda a, b, t: ops.margin_ranking_loss(a, b, t, 5.0, "sum")  # noqa: E731 (margin 5: never clipped)
    ga, gb = ms.grad(f, grad_position=(0, 1))(T(X), T(Y), T(SIGNS))
    np.testing.assert_allclose(ga.asnumpy(), -SIGNS)
    np.testing.assert_allclose(gb.asnumpy(), SIGNS)


# Graph mode.

def test_losses_under_jit_match_eager():
    a, pos, neg = (RNG.standard_normal((5, 4)) for _ in range(3))
    labels = T(RNG.integers(0, 4, 5), ms.int64)
    huber, triplet = nn.HuberLoss(delta=0.5), nn.TripletMarginLoss(swap=True)

    def total(an, p, n):
        return (triplet(an, p, n) + huber(an, p) + ops.multi_margin_loss(an, labels, 2)
                + ops.cosine_embedding_loss(an, n, ops.sign(p[:, 0])) + ops.gaussian_nll_loss(an, p, n * n, True))

    args = (T(a), T(pos), T(neg))
    np.testing.assert_allclose(ms.jit(total)(*args).asnumpy(), total(*args).asnumpy(), rtol=1e-12)
    grad_fn = ms.grad(total, grad_position=(0, 1, 2))
    for got, expect in zip(ms.jit(lambda x, y, z: grad_fn(x, y, z))(*args), grad_fn(*args)):
        np.testing.assert_allclose(got.asnumpy(), expect.asnumpy(), rtol=1e-10, atol=1e-12)


# Bad arguments: the named exception, with the API and the argument in the message.

def test_bad_arguments_raise_named_errors():
    x, y = T(X), T(Y)
    labels = T(np.zeros(4), ms.int64)
    cases = [
        (lambda: ops.huber_loss(X, y), TypeError, "huber_loss: 'input' must be a Tensor"),
        (lambda: ops.huber_loss(x, y, delta=0), ValueError, "huber_loss: 'delta' must be positive"),
        (lambda: ops.huber_loss(x, y, delta="1"), TypeError, "huber_loss: 'delta' must be a float"),
        (lambda: ops.huber_loss(x, y, reduction="avg"), ValueError, "huber_loss: 'reduction' must be one of"),
        (lambda: ops.soft_margin_loss(x, y[0]), ValueError, "soft_margin_loss: 'target' must have the shape"),
        (lambda: ops.soft_margin_loss(T(np.ones(3), ms.int32), y), TypeError,
         "soft_margin_loss: 'input' must be a floating-point tensor"),
        (lambda: ops.margin_ranking_loss(x, y, y, margin=None), TypeError, "margin_ranking_loss: 'margin' must be"),
        (lambda: ops.margin_ranking_loss(x, y[:2], y), ValueError, "margin_ranking_loss: 'input2' must have"),
        (lambda: ops.cosine_embedding_loss(x, y, y[:, 0], margin=1.5), ValueError,
         r"cosine_embedding_loss: 'margin' must be in \[-1, 1\]"),
        (lambda: ops.cosine_embedding_loss(x, y, y), ValueError, "cosine_embedding_loss: 'target' must have shape"),
        (lambda: ops.cosine_embedding_loss(x[0], y[0], y[0, 0]), ValueError, "cosine_embedding_loss: 'input1' must"),
        (lambda: ops.triplet_margin_loss(x, y, y, p=2.0), TypeError, "triplet_margin_loss: 'p' must be an int"),
        (lambda: ops.triplet_margin_loss(x, y, y, p=0), ValueError, "triplet_margin_loss: 'p' must be a positive"),
        (lambda: ops.triplet_margin_loss(x, y, y, swap=1), TypeError, "triplet_margin_loss: 'swap' must be a bool"),
        (lambda: ops.triplet_margin_loss(x, y, y, margin=T(np.ones(2))), ValueError,
         "triplet_margin_loss: a Tensor 'margin' must be 0-d"),
        (lambda: ops.triplet_margin_loss(x[0], y[0], y[0]), ValueError, "triplet_margin_loss: 'anchor', 'positive'"),
        (lambda: ops.multi_margin_loss(x, labels, p=3), ValueError, "multi_margin_loss: 'p' must be 1 or 2"),
        (lambda: ops.multi_margin_loss(x, T(np.zeros(4))), TypeError, "multi_margin_loss: 'target' must be an integer"),
        (lambda: ops.multi_margin_loss(x, labels[:2]), ValueError, "multi_margin_loss: 'target' must have shape"),
        (lambda: ops.multi_margin_loss(x[0], labels), ValueError, "multi_margin_loss: 'input' must be 2-d"),
        (lambda: ops.multi_margin_loss(x, labels, weight=T(np.ones(3))), ValueError,
         "multi_margin_loss: 'weight' must have shape"),
        (lambda: ops.multilabel_soft_margin_loss(x[0], y[0]), ValueError,
         "multilabel_soft_margin_loss: 'input' must be 2-d"),
        (lambda: ops.multilabel_soft_margin_loss(x, y, weight="w"), TypeError,
         "multilabel_soft_margin_loss: 'weight' must be"),
        (lambda: ops.gaussian_nll_loss(x, y, T(np.ones(3))), ValueError, "gaussian_nll_loss: 'var' must have"),
        (lambda: ops.gaussian_nll_loss(x, y, y, full=1), TypeError, "gaussian_nll_loss: 'full' must be a bool"),
        (lambda: ops.gaussian_nll_loss(x, y, y, eps=0.0), ValueError, "gaussian_nll_loss: 'eps' must be positive"),
        (lambda: nn.HuberLoss(delta=-1.0), ValueError, "HuberLoss: 'delta' must be positive"),
        (lambda: nn.HuberLoss(reduction="batchmean"), ValueError, "HuberLoss: 'reduction' must be one of"),
        (lambda: nn.CosineEmbeddingLoss(margin=2.0), ValueError, "CosineEmbeddingLoss: 'margin' must be in"),
        (lambda: nn.MarginRankingLoss(margin="0"), TypeError, "MarginRankingLoss: 'margin' must be a float"),
        (lambda: nn.TripletMarginLoss(p=1.5), TypeError, "TripletMarginLoss: 'p' must be an int"),
        (lambda: nn.TripletMarginLoss(swap="yes"), TypeError, "TripletMarginLoss: 'swap' must be a bool"),
        (lambda: nn.MultiMarginLoss(p=3), ValueError, "MultiMarginLoss: 'p' must be 1 or 2"),
        (lambda: nn.MultiMarginLoss(weight=[1.0]), TypeError, "MultiMarginLoss: 'weight' must be a Tensor"),
        (lambda: nn.MultiLabelSoftMarginLoss(weight="w"), TypeError, "MultiLabelSoftMarginLoss: 'weight' must be"),
        (lambda: nn.PoissonNLLLoss(log_input=1), TypeError, "PoissonNLLLoss: 'log_input' must be a bool"),
        (lambda: nn.PoissonNLLLoss(eps=-1.0), ValueError, "PoissonNLLLoss: 'eps' must be positive"),
        (lambda: nn.PoissonNLLLoss()(T(1.0), T(1.0)), ValueError, "PoissonNLLLoss: 'input' and 'target' must not"),
        (lambda: nn.PoissonNLLLoss()(X, y), TypeError, "PoissonNLLLoss: 'input' must be a Tensor"),
        (lambda: nn.GaussianNLLLoss(full="no"), TypeError, "GaussianNLLLoss: 'full' must be a bool"),
        (lambda: nn.GaussianNLLLoss(eps=0), ValueError, "GaussianNLLLoss: 'eps' must be positive"),
        (lambda: nn.MAELoss("avg"), ValueError, "MAELoss: 'reduction' must be one of"),
        (lambda: nn.MAELoss()(x, Y), TypeError, "MAELoss: 'label' must be a Tensor"),
    ]
    for fn, exc, match in cases:
        with pytest.raises(exc, match=match):
            fn()
    with pytest.raises(TypeError, match="GaussianNLLLoss"):
        nn.GaussianNLLLoss(True)  # keyword-only, as in MindSpore
