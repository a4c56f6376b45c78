"""MindSpore's other metrics (Fbeta, ROC, auc, Dice, Perplexity, BleuScore, CosineSimilarity, surface
distances, ConfusionMatrixMetric, OcclusionSensitivity), the metric registry and rearrange_inputs, against
hand-computed values; nn re-exports them."""
import math

import numpy as np
import pytest

import sprout as ms
from sprout import nn, train


def test_fbeta_and_f1():
    y_pred = np.array([[0.2, 0.8], [0.6, 0.4], [0.9, 0.1], [0.3, 0.7]])
    y = np.array([1, 1, 0, 0])
    m = train.Fbeta(2)
    m.update(ms.Tensor(y_pred), ms.Tensor(y))
    # class 0: tp 1, predicted 2, actual 2; class 1: tp 1, predicted 2, actual 2
    np.testing.assert_allclose(m.eval(), [5 * 1 / (4 * 2 + 2)] * 2)
    assert m.eval(average=True) == pytest.approx(0.5)
    m.clear()
    m.update(y_pred, np.eye(2)[y])  # one-hot labels
    assert m.eval(average=True) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="Fbeta: 'beta'"):
        train.Fbeta(0)
    with pytest.raises(RuntimeError, match="Fbeta.eval"):
        train.Fbeta(1).eval()


def test_roc_and_auc():
    y_pred = np.array([0.1, 0.4, 0.35, 0.8])
    y = np.array([0, 0, 1, 1])
    roc = train.ROC(pos_label=1)
    roc.update(y_pred, y)
    fpr, tpr, thresholds = roc.eval()
    np.testing.assert_allclose(fpr, [0, 0, 0.5, 0.5, 1])
    np.testing.assert_allclose(tpr, [0, 0.5, 0.5, 1, 1])
    np.testing.assert_allclose(thresholds, [1.8, 0.8, 0.4, 0.35, 0.1])
    assert train.auc(fpr, tpr) == pytest.approx(0.75)
    assert train.auc(np.array([1.0, 0.5, 0.0]), np.array([1.0, 1.0, 0.0])) == pytest.approx(0.75)  # decreasing x
    with pytest.raises(ValueError, match="increasing or decreasing"):
        train.auc(np.array([0.0, 1.0, 0.5]), np.array([0.0, 1.0, 1.0]))
    multi = train.ROC(class_num=3)
    scores = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.5, 0.3, 0.2], [0.1, 0.3, 0.6]])
    multi.update(ms.Tensor(scores), ms.Tensor(np.array([0, 1, 2, 1, 2])))
    fprs, tprs, _ = multi.eval()
    for c in range(3):  # each class against the rest, as the binary curve of its column
        binary = train.ROC()
        binary.update(scores[:, c], (np.array([0, 1, 2, 1, 2]) == c).astype(int))
        np.testing.assert_allclose(fprs[c], binary.eval()[0])
        np.testing.assert_allclose(tprs[c], binary.eval()[1])


def test_dice_and_perplexity():
    d = train.Dice(smooth=1e-5)
    a, b = np.array([[0, 1], [1, 1]], float), np.array([[0, 1], [0, 1]], float)
    d.update(a, b)
    assert d.eval() == pytest.approx(2 * 2 / (3 + 2 + 1e-5) / 2)  # the sum of coefficients over 2 samples
    p = train.Perplexity(ignore_label=2)
    probs = np.array([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])
    p.update(ms.Tensor(probs), ms.Tensor(np.array([0, 1, 2])))
    assert p.eval() == pytest.approx(math.exp(-(math.log(0.5) + math.log(0.8)) / 2))


def test_bleu_score():
    candidate = [["the", "cat", "sat", "on", "the", "mat"]]
    references = [[["the", "cat", "is", "on", "the", "mat"]]]
    bleu = train.BleuScore(n_gram=2)
    bleu.update(candidate, references)
    # 1-grams: 5 of 6 match (sat does not); 2-grams: the cat, on the, the mat = 3 of 5; same lengths: no penalty
    assert float(bleu.eval()) == pytest.approx(math.sqrt(5 / 6 * 3 / 5))
    smooth = train.BleuScore(n_gram=2, smooth=True)
    smooth.update(candidate, references)
    assert float(smooth.eval()) == pytest.approx(math.sqrt(6 / 7 * 4 / 6))
    with pytest.raises(ValueError, match="'n_gram' must be in"):
        train.BleuScore(n_gram=5)


def test_cosine_similarity_metric():
    x = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    m = nn.CosineSimilarity()
    m.update(ms.Tensor(x))
    r = 1 / math.sqrt(2)
    np.testing.assert_allclose(m.eval(), [[0, r, 0], [r, 0, r], [0, r, 0]], atol=1e-12)
    m = train.CosineSimilarity(similarity="dot", reduction="sum", zero_diagonal=False)
    m.update(x)
    np.testing.assert_allclose(m.eval(), (x @ x.T).sum(-1))


def masks():
    y_pred = np.zeros((6, 6), int)
    y_pred[1:4, 1:4] = 1
    y = np.zeros((6, 6), int)
    y[2:5, 2:5] = 1
    return y_pred, y


def ring(lo, hi):
    m = np.zeros((6, 6), bool)
    m[lo:hi, lo:hi] = True
    m[lo + 1:hi - 1, lo + 1:hi - 1] = False
    return np.argwhere(m)


def nearest(points, targets, metric):
    d = np.abs(points[:, None, :] - targets[None]).astype(float)
    d = {"euclidean": np.sqrt((d ** 2).sum(-1)), "chessboard": d.max(-1), "taxicab": d.sum(-1)}[metric]
    return d.min(1)


@pytest.mark.parametrize("metric", ["euclidean", "chessboard", "taxicab"])
def test_surface_distances(metric):
    y_pred, y = masks()
    a, b = ring(1, 4), ring(2, 5)  # the 3x3 squares' surfaces: all but the centre
    ab, ba = nearest(a, b, metric), nearest(b, a, metric)
    hd = train.HausdorffDistance(distance_metric=metric)
    hd.update(y_pred, y, 1)
    assert hd.eval() == pytest.approx(max(ab.max(), ba.max()))
    hd = train.HausdorffDistance(distance_metric=metric, percentile=50.0, directed=True, crop=False)
    hd.update(ms.Tensor(y_pred), ms.Tensor(y), 1)
    assert hd.eval() == pytest.approx(np.percentile(ab, 50))
    msd = train.MeanSurfaceDistance(symmetric=True, distance_metric=metric)
    msd.update(y_pred, y, 1)
    assert msd.eval() == pytest.approx((ab.mean() + ba.mean()) / 2)
    rms = train.RootMeanSquareDistance(distance_metric=metric)
    rms.update(y_pred, y, 1)
    assert rms.eval() == pytest.approx((ab ** 2).mean())
    rms = train.RootMeanSquareDistance(symmetric=True, distance_metric=metric)
    rms.update(y_pred, y, 1)
    assert rms.eval() == pytest.approx(math.sqrt(((ab ** 2).mean() + (ba ** 2).mean()) / 2))
    with pytest.raises(ValueError, match="appears in neither"):
        msd.update(y_pred, y, 7)


def test_confusion_matrix_metric():
    y_pred = np.array([[[0, 1], [1, 0]], [[1, 1], [0, 0]]])  # (N=2, C=2, 2 positions), one-hot per channel
    y = np.array([[[0, 1], [1, 0]], [[1, 0], [0, 1]]])
    tp = fp = tn = fn = 0
    for p, t in zip(y_pred.reshape(-1), y.reshape(-1)):
        tp += p and t
        fp += p and not t
        tn += (not p) and (not t)
        fn += (not p) and t
    m = train.ConfusionMatrixMetric(metric_name="f1 score")
    m.update(ms.Tensor(y_pred), ms.Tensor(y))
    np.testing.assert_allclose(m.eval(), [2 * tp / (2 * tp + fp + fn)])
    sensitivity = train.ConfusionMatrixMetric(metric_name="sensitivity", calculation_method=True)
    sensitivity.update(y_pred, y)
    # per sample and class: (tp / p): sample 0: 1, 1; sample 1: 1/1, 0/1 -> means 1 and 0.5 -> 0.75
    assert sensitivity.eval() == pytest.approx(0.75)
    with pytest.raises(ValueError, match="unknown 'metric_name'"):
        train.ConfusionMatrixMetric(metric_name="nope")


class Scorer(nn.Cell):
    """Scores (N, 2): [sum of the image, its first pixel]."""

    def construct(self, x):
        flat_x = x.reshape((x.shape[0], -1))
        return ms.ops.stack([flat_x.sum(axis=1), flat_x[:, 0]], axis=1)


def test_occlusion_sensitivity():
    x = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)
    m = train.OcclusionSensitivity(margin=1, n_batch=4)
    m.update(Scorer(), ms.Tensor(x), 0)
    got = m.eval()
    want = np.zeros((1, 3, 3))
    for i in range(3):
        for j in range(3):
            occluded = x.copy()
            occluded[..., 0:1, max(0, i - 1):min(3, i + 1), max(0, j - 1):min(3, j + 1)] = 0.0
            want[0, i, j] = x.sum() - occluded.sum()
    np.testing.assert_allclose(got, want.squeeze())


def test_registry_rearrange_inputs_and_nn_aliases():
    assert "bleu_score" in train.names() and "F1" in train.names()
    assert isinstance(train.get_metric_fn("dice"), train.Dice)
    with pytest.raises(KeyError):
        train.get_metric_fn("nope")
    got = train.get_metrics({"acc", "loss"})
    assert isinstance(got["acc"], train.Accuracy) and isinstance(got["loss"], train.Loss)
    with pytest.raises(TypeError, match="get_metrics"):
        train.get_metrics(["acc"])
    for name in ("Accuracy", "F1", "Precision", "Recall", "MAE", "MSE", "Loss", "Metric", "ConfusionMatrix",
                 "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "get_metric_fn",
                 "Fbeta", "ROC", "auc", "Dice", "names", "get_metrics", "rearrange_inputs"):
        assert getattr(nn, name) is getattr(train, name), name

    class LastTwo(train.Metric):
        def clear(self):
            self.seen = None

        @train.rearrange_inputs
        def update(self, *inputs):
            self.seen = inputs

        def eval(self):
            return self.seen
    m = LastTwo().set_indexes([2, 0])
    m.update("a", "b", "c")
    assert list(m.eval()) == ["c", "a"]
