"""dense (a linear layer's product) and einsum, composed of MatMul/BatchMatMul, Transpose, Reshape,
BroadcastTo and ReduceSum, so their gradients come from those ops' rules."""
import numpy as np

from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_matmul_t = prim("MatMul", transpose_b=True)
_batch_matmul, _mul, _add = prim("BatchMatMul"), prim("Mul"), prim("Add")
_reshape, _transpose, _broadcast_to = prim("Reshape"), prim("Transpose"), prim("BroadcastTo")


def dense(input, weight, bias=None):
    """input @ weight.T + bias over the last axis of `input`: weight is (out_channels, in_channels)."""
    for arg, value in (("input", input), ("weight", weight)):
        if not isinstance(value, Tensor):
            raise TypeError(f"dense: '{arg}' must be a Tensor, but got {type(value).__name__}")
    if weight.ndim != 2 or input.ndim == 0 or input.shape[-1] != weight.shape[1]:
        raise ValueError(f"dense: 'weight' must have shape (out_channels, {input.shape[-1] if input.ndim else '?'}) "
                         f"for 'input' of shape {input.shape} (in_channels last), but has shape {weight.shape}")
    out = _matmul_t(_reshape(input, (-1, input.shape[-1])), weight)
    if bias is not None:
        out = _add(out, bias)
    return _reshape(out, input.shape[:-1] + (weight.shape[0],))


# --- einsum ---------------------------------------------------------------------------------------
# Each operand's axes carry labels. Labels seen in one operand only and not in the output are summed
# away first; then operands are contracted pairwise, left to right, as one BatchMatMul each: shared
# labels still needed later (or in the output) are batch axes, shared labels needed nowhere else are
# contracted. Repeated labels within one operand (a diagonal, "ii->i") are taken with an identity mask.
# "..." stands for the same leading axes in every operand, broadcast together.

def _parse(equation, operands):
    if not isinstance(equation, str):
        raise TypeError(f"einsum: 'equation' must be a str, but got {type(equation).__name__}")
    eq = equation.replace(" ", "")
    inputs, arrow, output = eq.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"einsum: equation {equation!r} names {len(terms)} operand(s), but {len(operands)} were given")
    ell_ndim = 0
    for term, x in zip(terms, operands):
        letters = term.replace("...", "")
        if not all(c.isalpha() for c in letters) or term.count("...") > 1:
            raise ValueError(f"einsum: equation {equation!r} may hold only letters, ',', '->' and one '...' per term")
        if ("..." in term and x.ndim < len(letters)) or ("..." not in term and x.ndim != len(letters)):
            raise ValueError(f"einsum: term {term!r} does not match operand of shape {x.shape}")
        if "..." in term:
            ell_ndim = max(ell_ndim, x.ndim - len(letters))
    ell = [chr(0x3b1 + i) for i in range(ell_ndim)]  # labels for the '...' axes (Greek, never user letters)

    def expand(term, ndim):
        if "..." not in term:
            return list(term)
        head, tail = term.split("...")
        return list(head) + ell[ell_ndim - (ndim - len(head) - len(tail)):] + list(tail)

    labels = [expand(t, x.ndim) for t, x in zip(terms, operands)]
    if arrow:
        if not all(c.isalpha() for c in output.replace("...", "")):
            raise ValueError(f"einsum: output {output!r} may hold only letters and '...'")
        out = expand(output, len(output.replace("...", "")) + ell_ndim) if "..." in output else list(output)
        seen = set(c for ls in labels for c in ls)
        for c in out:
            if c not in seen or out.count(c) > 1:
                raise ValueError(f"einsum: output label {c!r} must appear once in the output and in some input")
    else:
        counts = {}
        for ls in labels:
            for c in ls:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, n in counts.items() if n == 1 and c not in ell)
    return labels, out


def _take_diagonals(x, labels):
    while len(set(labels)) < len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        i = labels.index(c)
        j = labels.index(c, i + 1)
        if x.shape[i] != x.shape[j]:
            raise ValueError(f"einsum: label {c!r} repeats over axes of sizes {x.shape[i]} and {x.shape[j]}")
        eye_shape = [1] * x.ndim
        eye_shape[i] = eye_shape[j] = x.shape[i]
        eye = Tensor(np.eye(x.shape[i]).reshape(eye_shape), x.dtype)
        x = prim("ReduceSum", keep_dims=False)(_mul(x, eye), (j,))
        labels = labels[:j] + labels[j + 1:]
    return x, labels


def _sum_labels(x, labels, drop):
    axes = tuple(i for i, c in enumerate(labels) if c in drop)
    if not axes:
        return x, labels
    return prim("ReduceSum", keep_dims=False)(x, axes), [c for c in labels if c not in drop]


def _contract(a, la, b, lb, keep):
    """Contracts two labelled operands; labels in `keep` survive (batch if shared)."""
    sizes = {}
    for x, ls in ((a, la), (b, lb)):
        for c, n in zip(ls, x.shape):
            if n != 1 and sizes.get(c, 1) not in (1, n):
                raise ValueError(f"einsum: label {c!r} has sizes {sizes[c]} and {n}")
            sizes[c] = max(sizes.get(c, 1), n)
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    left = [c for c in la if c not in lb]
    right = [c for c in lb if c not in la]

    def arrange(x, ls, order):
        x = _transpose(x, tuple(ls.index(c) for c in order)) if ls != order else x
        target = tuple(sizes[c] if c in batch or c in summed else x.shape[i] for i, c in enumerate(order))
        return _broadcast_to(x, target) if target != x.shape else x

    def size(cs):
        return int(np.prod([sizes[c] for c in cs])) if cs else 1

    a3 = _reshape(arrange(a, la, batch + left + summed), (size(batch), size(left), size(summed)))
    b3 = _reshape(arrange(b, lb, batch + summed + right), (size(batch), size(summed), size(right)))
    out = _reshape(_batch_matmul(a3, b3), tuple(sizes[c] for c in batch + left + right))
    return out, batch + left + right


def einsum(equation, *operands):
    """Einstein summation: einsum("bij,bjk->bik", x, y) is a batched matrix product."""
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum: at least one operand is required")
    for i, x in enumerate(operands):
        if not isinstance(x, Tensor):
            raise TypeError(f"einsum: operand {i} must be a Tensor, but got {type(x).__name__}")
    labels, out_labels = _parse(equation, operands)
    xs = []
    for i, (x, ls) in enumerate(zip(operands, labels)):
        x, ls = _take_diagonals(x, list(ls))
        elsewhere = set(out_labels).union(*[set(o) for j, o in enumerate(labels) if j != i])
        x, ls = _sum_labels(x, ls, set(ls) - elsewhere)
        xs.append((x, ls))
    x, ls = xs[0]
    for k in range(1, len(xs)):
        later = set(out_labels).union(*[set(l) for _, l in xs[k + 1:]])
        x, ls = _contract(x, ls, xs[k][0], xs[k][1], later)
    x, ls = _sum_labels(x, ls, set(ls) - set(out_labels))
    if ls != out_labels:
        x = _transpose(x, tuple(ls.index(c) for c in out_labels))
    return x


__all__ = ["dense", "einsum"]
