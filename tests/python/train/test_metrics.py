"""Metrics against hand-computed values."""
import numpy as np
import pytest

import sprout as ms
from sprout.train import (F1, MAE, MSE, Accuracy, ConfusionMatrix, Loss, Precision, Recall,
                          Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy)

SCORES = np.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
LABELS = np.array([1, 0, 1, 2])  # correct: rows 0 and 1


def test_accuracy_with_labels_and_one_hot_over_batches():
    acc = Accuracy()
    acc.update(ms.Tensor(SCORES[:2]), ms.Tensor(LABELS[:2]))
    acc.update(SCORES[2:], np.eye(3)[LABELS[2:]])
    assert acc.eval() == 0.5
    acc.clear()
    with pytest.raises(RuntimeError, match="no batch"):
        acc.eval()
    acc.update(SCORES, LABELS)
    assert acc(SCORES[:2], LABELS[:2]) == 1.0  # calling a metric: clear, update, eval on these inputs alone
    ml = Accuracy("multilabel")
    ml.update(np.array([[0.9, 0.1], [0.2, 0.7]]), np.array([[1, 0], [1, 1]]))
    assert ml.eval() == 0.5


def test_topk():
    t2 = TopKCategoricalAccuracy(2)
    t2.update(SCORES, LABELS)
    assert t2.eval() == 0.75  # row 3's label 2 is its lowest score
    t1 = Top1CategoricalAccuracy()
    t1.update(SCORES, LABELS)
    assert t1.eval() == 0.5
    t5 = Top5CategoricalAccuracy()
    t5.update(np.random.rand(4, 10), np.array([0, 1, 2, 3]))
    assert 0 <= t5.eval() <= 1


def test_precision_recall_f1_confusion():
    cm = ConfusionMatrix(3)
    cm.update(SCORES, LABELS)
    expected = np.zeros((3, 3))
    for t, p in zip(LABELS, SCORES.argmax(1)):
        expected[t, p] += 1
    np.testing.assert_array_equal(cm.eval(), expected)
    p, r, f = Precision(), Recall(), F1()
    for m in (p, r, f):
        m.update(SCORES, LABELS)
    tp = np.diag(expected)
    prec = np.nan_to_num(tp / expected.sum(0))
    rec = tp / expected.sum(1)
    np.testing.assert_allclose(p.eval(), prec)
    np.testing.assert_allclose(r.eval(), rec)
    with np.errstate(invalid="ignore"):
        expected_f1 = np.nan_to_num(2 * prec * rec / (prec + rec)).mean()
    np.testing.assert_allclose(f.eval(average=True), expected_f1)


def test_regression_and_loss():
    mae, mse, loss = MAE(), MSE(), Loss()
    mae.update(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0]))
    mse.update(np.array([1.0, 2.0]), np.array([2.0, 4.0]))
    assert mae.eval() == 1.5 and mse.eval() == 2.5
    loss.update(ms.Tensor(2.0))
    loss.update(ms.Tensor(4.0))
    assert loss.eval() == 3.0
    with pytest.raises(ValueError, match="scalar"):
        loss.update(ms.Tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="must be a Tensor"):
        mae.update("a", "b")
