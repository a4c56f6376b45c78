"""ops.ctc_loss and nn.CTCLoss against a NumPy forward recursion (float64), every reduction, ragged
lengths, repeated labels and impossible alignments; gradients by finite differences; compiled."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

RNG = np.random.default_rng(4)


def log_softmax(x):
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def reference(lp, targets, in_len, tg_len, blank=0):
    """-log p(target | input) per sequence, by the alpha recursion over the blank-extended target."""
    losses = []
    for b in range(lp.shape[1]):
        ext = [blank]
        for c in targets[b, :tg_len[b]]:
            ext += [c, blank]
        alpha = np.full(len(ext), -np.inf)
        alpha[0] = lp[0, b, ext[0]]
        if len(ext) > 1:
            alpha[1] = lp[0, b, ext[1]]
        for t in range(1, in_len[b]):
            new = np.full(len(ext), -np.inf)
            for s in range(len(ext)):
                terms = [alpha[s]] + ([alpha[s - 1]] if s >= 1 else [])
                if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                    terms.append(alpha[s - 2])
                new[s] = np.logaddexp.reduce(terms) + lp[t, b, ext[s]]
            alpha = new
        end = alpha[-1] if len(ext) == 1 else np.logaddexp(alpha[-1], alpha[-2])
        losses.append(-end)
    return np.array(losses)


def make(t=6, n=3, c=5, s=3):
    lp = log_softmax(RNG.standard_normal((t, n, c)))
    targets = RNG.integers(1, c, (n, s))
    targets[0, 1] = targets[0, 0]  # a repeated label: needs a blank between the two
    return lp, targets, np.array([t, t - 1, t - 2]), np.array([s, 2, 0])


def test_losses_match_the_reference():
    lp, targets, in_len, tg_len = make()
    want = reference(lp, targets, in_len, tg_len)
    got, log_alpha = ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(in_len), ms.Tensor(tg_len),
                                  reduction="none")
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)
    assert log_alpha.shape == (3, 6, 7)
    mean, _ = ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), tuple(in_len), tuple(tg_len))
    assert float(mean.asnumpy()) == pytest.approx((want / np.maximum(tg_len, 1)).mean(), rel=1e-12)
    total, _ = ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(in_len), ms.Tensor(tg_len), reduction="sum")
    assert float(total.asnumpy()) == pytest.approx(want.sum(), rel=1e-12)
    cell = nn.CTCLoss(blank=0, reduction="none")
    np.testing.assert_allclose(cell(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(in_len), ms.Tensor(tg_len)).asnumpy(),
                               want, rtol=1e-12)


def test_a_non_zero_blank_and_impossible_alignments():
    lp, targets, in_len, tg_len = make()
    targets = np.where(targets == 2, 0, targets)  # blank 2: class 0 is a label now
    want = reference(lp, targets, in_len, tg_len, blank=2)
    got, _ = ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(in_len), ms.Tensor(tg_len), blank=2,
                          reduction="none")
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-12)
    # Three labels with a repeat need 4 steps; 2 cannot align: an infinite loss, or 0 with zero_infinity.
    short = np.array([2, 6, 6])
    got, _ = ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(short), ms.Tensor(tg_len), blank=2,
                          reduction="none")
    assert np.isinf(got.asnumpy()[0]) and np.isfinite(got.asnumpy()[1:]).all()
    got, _ = ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(short), ms.Tensor(tg_len), blank=2,
                          reduction="none", zero_infinity=True)
    assert got.asnumpy()[0] == 0.0


def test_gradient_and_graph_mode():
    lp, targets, in_len, tg_len = make(t=5, n=2, c=4, s=2)
    in_len, tg_len = in_len[:2], tg_len[:2]
    args = (ms.Tensor(targets[:2]), ms.Tensor(in_len), ms.Tensor(tg_len))
    logits = RNG.standard_normal((5, 2, 4))

    def loss(x):
        return ops.ctc_loss(ops.log_softmax(x, -1), *args)[0]

    got = ms.grad(loss)(ms.Tensor(logits)).asnumpy()
    numeric = np.zeros_like(logits)
    for idx in np.ndindex(logits.shape):
        d = np.zeros_like(logits)
        d[idx] = 1e-6
        numeric[idx] = (float(loss(ms.Tensor(logits + d)).asnumpy()) -
                        float(loss(ms.Tensor(logits - d)).asnumpy())) / 2e-6
    np.testing.assert_allclose(got, numeric, rtol=1e-5, atol=1e-8)
    assert np.isfinite(got).all()
    np.testing.assert_allclose(ms.jit(loss)(ms.Tensor(logits)).asnumpy(), loss(ms.Tensor(logits)).asnumpy(), rtol=1e-12)


def test_bad_arguments():
    lp, targets, in_len, tg_len = make()
    with pytest.raises(ValueError, match=r"ctc_loss: 'blank' must be an int in \[0, 5\)"):
        ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(in_len), ms.Tensor(tg_len), blank=5)
    with pytest.raises(ValueError, match=r"ctc_loss: 'input_lengths' must be a tuple or an int32/int64 tensor"):
        ops.ctc_loss(ms.Tensor(lp), ms.Tensor(targets), ms.Tensor(in_len[:2]), ms.Tensor(tg_len))
    with pytest.raises(ValueError, match="ctc_loss: 'log_probs' must be a float32/float64 \\(T, N, C\\) tensor"):
        ops.ctc_loss(ms.Tensor(lp[0]), ms.Tensor(targets), ms.Tensor(in_len), ms.Tensor(tg_len))


def test_an_unbatched_sequence_through_the_cell():
    # (T, C) log-probabilities with a 1-d target: the cell runs it as a batch of one.
    lp, targets, in_len, tg_len = make()
    single = nn.CTCLoss(reduction="sum")(ms.Tensor(lp[:, 0]), ms.Tensor(targets[0]), ms.Tensor(in_len[:1]),
                                         ms.Tensor(tg_len[:1]))
    want = reference(lp[:, :1], targets[:1], in_len[:1], tg_len[:1])
    assert float(single.asnumpy()) == pytest.approx(want[0], rel=1e-12)
    unreduced = nn.CTCLoss(reduction="none")(ms.Tensor(lp[:, 0]), ms.Tensor(targets[0]), ms.Tensor(in_len[:1]),
                                             ms.Tensor(tg_len[:1]))
    assert unreduced.shape == ()  # one sequence's loss, as MindSpore gives it
    assert float(unreduced.asnumpy()) == pytest.approx(want[0], rel=1e-12)
