"""mint's products and the matrix functions of its top level (addmm ... vdot, cdist, triangular_solve), the
convolution mint keeps at its top level (conv2d, conv_tbc), and SyncBatchNorm's statistics pieces
(batch_norm_stats, batch_norm_gather_stats_with_counts, batch_norm_elemt)."""
import numpy as np

from sprout import ops
from sprout.common.tensor_inplace import _write
from sprout.mint._checks import check_number, tensor
from sprout.ops import addbmm, addmm, addmv, einsum, inverse, matmul, outer, trace  # noqa: F401 (same arguments)
from sprout.ops.function.math_linalg_solvers_func import triangular_solve as _triangular_solve
from sprout.ops.function.math_products_func import baddbmm as _baddbmm

__all__ = ["addbmm", "addmm", "addmv", "addr_", "baddbmm", "batch_norm_elemt",
           "batch_norm_gather_stats_with_counts", "batch_norm_stats", "bmm", "cdist", "conv2d", "conv_tbc",
           "cross", "dot", "einsum", "inverse", "matmul", "mm", "mv", "outer", "trace", "triangular_solve",
           "vdot"]


def _rank(api, arg, x, ndim):
    x = tensor(x, api, arg)
    if x.ndim != ndim:
        raise ValueError(f"{api}: '{arg}' must be {ndim}-d, but got shape {x.shape}")
    return x


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * bmm(batch1, batch2)."""
    return _baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """In place: input = beta * input + alpha * outer(vec1, vec2); returns input."""
    x = tensor(input, "mint.addr_")
    check_number(beta, "mint.addr_", "beta")
    check_number(alpha, "mint.addr_", "alpha")
    value = ops.addr(x, _rank("mint.addr_", "vec1", vec1, 1), _rank("mint.addr_", "vec2", vec2, 1),
                     beta=beta, alpha=alpha)
    return _write("mint.addr_", x, value)


def bmm(input, mat2):
    """Batched matrix product of (b, n, m) and (b, m, p) tensors."""
    a, b = _rank("mint.bmm", "input", input, 3), _rank("mint.bmm", "mat2", mat2, 3)
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"mint.bmm: 'input' (b, n, m) and 'mat2' (b, m, p) do not match: {a.shape} and {b.shape}")
    return ops.matmul(a, b)


def mm(input, mat2):
    """The product of an (n, m) and an (m, p) matrix."""
    a, b = _rank("mint.mm", "input", input, 2), _rank("mint.mm", "mat2", mat2, 2)
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"mint.mm: 'input' {a.shape} and 'mat2' {b.shape} cannot be multiplied")
    return ops.matmul(a, b)


def mv(input, vec):
    """The product of an (n, m) matrix and an m-vector."""
    a, v = _rank("mint.mv", "input", input, 2), _rank("mint.mv", "vec", vec, 1)
    if a.shape[1] != v.shape[0]:
        raise ValueError(f"mint.mv: 'input' {a.shape} and 'vec' {v.shape} cannot be multiplied")
    return ops.matmul(a, v)


def dot(input, other):
    """The inner product of two 1-d tensors of one length and dtype (0-d)."""
    a, b = _rank("mint.dot", "input", input, 1), _rank("mint.dot", "other", other, 1)
    if a.shape != b.shape:
        raise ValueError(f"mint.dot: 'input' and 'other' must have the same length, but got {a.shape} and {b.shape}")
    if a.dtype != b.dtype:
        raise TypeError(f"mint.dot: 'input' and 'other' must have the same dtype, but got {a.dtype} and {b.dtype}")
    return ops.sum(ops.mul(a, b))


def vdot(input, other):
    """The inner product of two 1-d tensors, the first conjugated (real tensors: mint.dot)."""
    return dot(input, other)


def cross(input, other, dim=None):
    """The 3-d cross product along `dim` (the first dimension of size 3 when None)."""
    a, b = tensor(input, "mint.cross"), tensor(other, "mint.cross", "other")
    if dim is None:
        sizes = np.broadcast_shapes(a.shape, b.shape)
        dim = next((d for d, n in enumerate(sizes) if n == 3), None)
        if dim is None:
            raise ValueError(f"mint.cross: no dimension of size 3 in shape {sizes}")
    return ops.cross(a, b, dim)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distances between the rows of x1 (..., P, M) and of x2 (..., R, M): (..., P, R)."""
    if compute_mode not in ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                            "donot_use_mm_for_euclid_dist"):
        raise ValueError(f"mint.cdist: 'compute_mode' must be 'use_mm_for_euclid_dist_if_necessary', "
                         f"'use_mm_for_euclid_dist' or 'donot_use_mm_for_euclid_dist', but got {compute_mode!r}")
    return ops.cdist(tensor(x1, "mint.cdist", "x1"), tensor(x2, "mint.cdist", "x2"), float(p))


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """(X, A) with op(A) X = b, A upper (or lower) triangular; op(A) = A^T with `transpose`."""
    return _triangular_solve(b, A, upper, transpose, unitriangular)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """PyTorch's 2-d convolution; `padding` an int, a pair, 'valid' or 'same'."""
    from sprout.mint.nn.functional import conv2d as _conv2d
    return _conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv_tbc(input, weight, bias, pad=0):
    """A 1-d convolution of (time, batch, channels) input with (kernel width, in channels, out channels) weights,
    `pad` zeros at both ends of time."""
    x = _rank("mint.conv_tbc", "input", input, 3)
    w = _rank("mint.conv_tbc", "weight", weight, 3)
    b = _rank("mint.conv_tbc", "bias", bias, 1)
    if w.shape[1] != x.shape[2] or b.shape[0] != w.shape[2]:
        raise ValueError(f"mint.conv_tbc: 'input' (T, B, C_in), 'weight' (K, C_in, C_out) and 'bias' (C_out,) do "
                         f"not match: {x.shape}, {w.shape}, {b.shape}")
    from sprout.mint.nn.functional import conv1d
    out = conv1d(ops.transpose(x, (1, 2, 0)), ops.transpose(w, (2, 1, 0)), b, padding=pad)
    return ops.transpose(out, (2, 0, 1))


# ---- SyncBatchNorm's pieces: per-channel statistics over every dimension but 1 -----------------------

def _channel_axes(x):
    return (0,) + tuple(range(2, x.ndim))


def batch_norm_stats(input, eps):
    """(mean, invstd) per channel (dimension 1) of input, invstd = 1 / sqrt(biased variance + eps)."""
    x = tensor(input, "mint.batch_norm_stats")
    if x.ndim < 2:
        raise ValueError(f"mint.batch_norm_stats: 'input' must be (N, C, ...), but got shape {x.shape}")
    axes = _channel_axes(x)
    mean = ops.mean(x, axes)
    var = ops.mean(ops.square(ops.sub(x, ops.reshape(mean, (1, -1) + (1,) * (x.ndim - 2)))), axes)
    return mean, ops.rsqrt(ops.add(var, check_number(eps, "mint.batch_norm_stats", "eps")))


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """(input - mean) * invstd * weight + bias, per channel (dimension 1)."""
    x = tensor(input, "mint.batch_norm_elemt")
    if mean is None or invstd is None:
        raise TypeError("mint.batch_norm_elemt: 'mean' and 'invstd' must be given")
    shape = (1, -1) + (1,) * (x.ndim - 2)
    out = ops.mul(ops.sub(x, ops.reshape(mean, shape)), ops.reshape(invstd, shape))
    if weight is not None:
        out = ops.mul(out, ops.reshape(weight, shape))
    if bias is not None:
        out = ops.add(out, ops.reshape(bias, shape))
    return out


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None, running_var=None, momentum=0.1,
                                        eps=1e-05, counts=None):
    """The global (mean, invstd) from each device's (mean, invstd) rows and element counts; running_mean and
    running_var (when given) updated in place with `momentum`, the variance unbiased."""
    api = "mint.batch_norm_gather_stats_with_counts"
    mean, invstd = _rank(api, "mean", mean, 2), _rank(api, "invstd", invstd, 2)
    if counts is None:
        raise TypeError(f"{api}: 'counts' must be given")
    counts = ops.cast(ops.reshape(tensor(counts, api, "counts"), (-1, 1)), mean.dtype)
    total = ops.sum(counts)
    global_mean = ops.div(ops.sum(ops.mul(mean, counts), 0), total)
    var_each = ops.sub(ops.reciprocal(ops.square(invstd)), eps)
    # Each device's sum of squared deviations from the global mean: n * (var + (mean - global mean)^2).
    squares = ops.mul(counts, ops.add(var_each, ops.square(ops.sub(mean, global_mean))))
    global_var = ops.div(ops.sum(squares, 0), total)
    if running_mean is not None:
        _write(api, running_mean, ops.add(ops.mul(running_mean, 1 - momentum), ops.mul(global_mean, momentum)))
    if running_var is not None:
        unbiased = ops.mul(global_var, ops.div(total, ops.sub(total, 1)))
        _write(api, running_var, ops.add(ops.mul(running_var, 1 - momentum), ops.mul(unbiased, momentum)))
    return global_mean, ops.rsqrt(ops.add(global_var, eps))
