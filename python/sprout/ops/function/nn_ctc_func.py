"""Connectionist temporal classification loss (MindSpore 2.x ops.ctc_loss; Graves et al. 2006).

The forward (alpha) recursion in log space over the blank-extended targets, one step per time step, each
step a handful of ops on (N, 2S + 1) tensors: shifts by one and two positions, a three-way logaddexp and
a gather of the step's log-probabilities. Inputs past their length keep their alphas; the loss reads each
sequence's last two extended positions. Gradients come from those ops' rules (logaddexp is written so
that unreachable, -inf states pass no NaN back).
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _shift, _tensor, cast
from sprout.ops.function.math_elementwise_func import logaddexp

_INTS = (mstype.int32, mstype.int64)


def _lengths(api, arg, value, n):
    t = Tensor(list(value), mstype.int64) if isinstance(value, (tuple, list)) else _tensor(value, api, arg)
    if t.dtype not in _INTS or t.shape != (n,):
        raise ValueError(f"{api}: '{arg}' must be a tuple or an int32/int64 tensor of shape ({n},), but got "
                         f"{t.dtype} of shape {t.shape}")
    return cast(t, mstype.int64)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """(loss, log_alpha): the CTC loss of log_probs (T, N, C) (log-softmax over the C classes, blank
    included) against targets (N, S) padded, with each sequence's lengths; loss per sequence (reduction
    'none'), summed, or 'mean' (each divided by its target length, then averaged). log_alpha is (N, T,
    2S + 1). zero_infinity turns impossible alignments' infinite losses (and their gradients) into 0."""
    api = "ctc_loss"
    lp, tg = _tensor(log_probs, api, "log_probs"), _tensor(targets, api, "targets")
    if lp.ndim != 3 or lp.dtype not in (mstype.float32, mstype.float64):
        raise ValueError(f"{api}: 'log_probs' must be a float32/float64 (T, N, C) tensor, but got {lp.dtype} of "
                         f"shape {lp.shape}")
    steps, n, classes = lp.shape
    if tg.ndim != 2 or tg.shape[0] != n or tg.dtype not in _INTS:
        raise ValueError(f"{api}: 'targets' must be an int32/int64 ({n}, S) tensor, but got {tg.dtype} of shape "
                         f"{tg.shape}")
    if isinstance(blank, bool) or not isinstance(blank, int) or not 0 <= blank < classes:
        raise ValueError(f"{api}: 'blank' must be an int in [0, {classes}), but got {blank!r}")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{api}: 'reduction' must be 'none', 'mean' or 'sum', but got {reduction!r}")
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"{api}: 'zero_infinity' must be a bool, but got {type(zero_infinity).__name__}")
    in_len = _lengths(api, "input_lengths", input_lengths, n)
    tg_len = _lengths(api, "target_lengths", target_lengths, n)
    s = tg.shape[1]
    width = 2 * s + 1
    # The extended targets: blank, t0, blank, t1, ..., blank.
    labels = cast(tg, mstype.int64)
    spread = prim("Reshape")(prim("Stack", axis=2)((Tensor(np.full((n, s), blank, np.int64)), labels)), (n, 2 * s))
    ext = prim("Concat", axis=1)((spread, Tensor(np.full((n, 1), blank, np.int64))))  # (N, 2S + 1)
    # A skip from s - 2 is allowed into a label that differs from the label two back.
    two_back = _shift(ext, 1, 2, blank)
    skip = prim("LogicalAnd")(prim("NotEqual")(ext, Tensor(blank, mstype.int64)), prim("NotEqual")(ext, two_back))
    neg_inf = float("-inf")
    positions = Tensor(np.arange(width, dtype=np.int64))
    alphas = []
    alpha = None
    for t in range(steps):
        emit = prim("GatherElements")(lp[t], ext, 1)  # (N, 2S + 1): log p(ext[s]) at step t
        if alpha is None:
            start = prim("Less")(positions, Tensor(2, mstype.int64))  # only the first blank and first label
            new = prim("Select")(prim("BroadcastTo", shape=(n, width))(start), emit, prim("ZerosLike")(emit) + neg_inf)
        else:
            stay, step1, step2 = alpha, _shift(alpha, 1, 1, neg_inf), _shift(alpha, 1, 2, neg_inf)
            step2 = prim("Select")(skip, step2, prim("ZerosLike")(step2) + neg_inf)
            new = logaddexp(logaddexp(stay, step1), step2) + emit
            active = prim("ExpandDims")(prim("Less")(Tensor(t, mstype.int64), in_len), 1)  # still inside the input
            new = prim("Select")(prim("BroadcastTo", shape=(n, width))(active), new, alpha)
        alpha = new
        alphas.append(alpha)
    # The paths end on the last label or the blank after it: extended positions 2L and 2L - 1.
    last = prim("ExpandDims")(tg_len * 2, 1)
    end_blank = prim("GatherElements")(alpha, last, 1)
    end_label = prim("GatherElements")(alpha, prim("Maximum")(last - 1, Tensor(0, mstype.int64)), 1)
    end_label = prim("Select")(prim("Greater")(last, Tensor(0, mstype.int64)), end_label,
                               prim("ZerosLike")(end_label) + neg_inf)  # an empty target ends on the blank only
    loss = prim("Neg")(prim("Squeeze", axis=(1,))(logaddexp(end_blank, end_label)))
    if zero_infinity:
        loss = prim("Select")(prim("IsInf")(loss), prim("ZerosLike")(loss), loss)
    if reduction == "mean":
        divisor = prim("Maximum")(cast(tg_len, loss.dtype), Tensor(1, loss.dtype))
        loss = prim("ReduceMean", keep_dims=False)(loss / divisor, ())
    elif reduction == "sum":
        loss = prim("ReduceSum", keep_dims=False)(loss, ())
    return loss, prim("Stack", axis=1)(tuple(alphas))


__all__ = ["ctc_loss"]
