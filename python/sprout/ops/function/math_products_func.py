"""Products and distances: bmm, addmm/baddbmm, outer/inner, kron, cross, tensor_dot, trace, diag, cdist,
dist, pairwise_distance and cosine_similarity. MindSpore 2.x names and arguments; compositions of registry primitives, so
they differentiate (and compile) through those primitives' rules."""
import numbers

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor, reshape, stack, transpose
from sprout.ops.function.array_search_func import diagonal
from sprout.ops.function.array_view_func import broadcast_to, narrow, unbind
from sprout.ops.function.math_func import matmul
from sprout.ops.function.math_reduce_func import _vector_norm
from sprout.ops.function.nn_func import _check_float_arg

_mul, _add, _sub, _sqrt = prim("Mul"), prim("Add"), prim("Sub"), prim("Sqrt")


def _scaled(x, factor):
    """x * factor, skipping the multiply for 1 (the common default)."""
    return x if isinstance(factor, numbers.Number) and factor == 1 else _mul(x, factor)


def _rank(api, arg, x, ranks):
    x = _tensor(x, api, arg)
    if x.ndim not in ranks:
        expected = " or ".join(f"{r}-d" for r in ranks)
        raise ValueError(f"{api}: '{arg}' must be {expected}, but got shape {x.shape}")
    return x


def bmm(input_x, mat2):
    """Batched matrix product of (..., n, m) and (..., m, p) tensors of the same batch shape."""
    a, b = _tensor(input_x, "bmm", "input_x"), _tensor(mat2, "bmm", "mat2")
    if a.ndim < 3 or a.ndim != b.ndim or a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"bmm: 'input_x' and 'mat2' must be batches of matrices (rank >= 3) with the same batch "
                         f"shape, but got shapes {a.shape} and {b.shape}")
    return matmul(a, b)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta * input + alpha * (mat1 @ mat2), `input` broadcast to the product's shape."""
    product = matmul(_rank("addmm", "mat1", mat1, (2,)), _rank("addmm", "mat2", mat2, (2,)))
    return _add(_scaled(_tensor(input, "addmm", "input"), beta), _scaled(product, alpha))


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """beta * input + alpha * bmm(batch1, batch2)."""
    return _add(_scaled(_tensor(input, "baddbmm", "input"), beta), _scaled(bmm(batch1, batch2), alpha))


def outer(input, vec2):
    """The outer product of two 1-d tensors: out[i, j] = input[i] * vec2[j]."""
    a, b = _rank("outer", "input", input, (1,)), _rank("outer", "vec2", vec2, (1,))
    return _mul(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def inner(input, other):
    """Sums of products over the last axis of each (a 0-d operand scales the other)."""
    a, b = _tensor(input, "inner", "input"), _tensor(other, "inner", "other")
    if a.ndim == 0 or b.ndim == 0:
        return _mul(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"inner: the last dimensions of 'input' and 'other' must match, but got shapes {a.shape} "
                         f"and {b.shape}")
    out = matmul(reshape(a, (-1, a.shape[-1])), transpose(reshape(b, (-1, b.shape[-1])), (1, 0)))
    return reshape(out, a.shape[:-1] + b.shape[:-1])


def kron(input, other):
    """The Kronecker product: blocks input[i] * other, tiled (the lower rank padded with leading 1s)."""
    a, b = _tensor(input, "kron", "input"), _tensor(other, "kron", "other")
    rank = max(a.ndim, b.ndim)
    a = reshape(a, (1,) * (rank - a.ndim) + a.shape)
    b = reshape(b, (1,) * (rank - b.ndim) + b.shape)
    # (a0, 1, a1, 1, ...) * (1, b0, 1, b1, ...) -> (a0, b0, a1, b1, ...) -> (a0 b0, a1 b1, ...)
    spread_a = reshape(a, tuple(d for n in a.shape for d in (n, 1)))
    spread_b = reshape(b, tuple(d for n in b.shape for d in (1, n)))
    return reshape(_mul(spread_a, spread_b), tuple(m * n for m, n in zip(a.shape, b.shape)))


def cross(input, other, dim=None):
    """The cross product of 3-vectors along `dim` (the first axis of size 3 when None)."""
    a, b = _tensor(input, "cross", "input"), _tensor(other, "cross", "other")
    if a.shape != b.shape:
        shape = _broadcast_shape(a.shape, b.shape)
        a, b = broadcast_to(a, shape), broadcast_to(b, shape)
    if dim is None:
        dim = next((i for i, n in enumerate(a.shape) if n == 3), None)
        if dim is None:
            raise ValueError(f"cross: 'input' needs an axis of size 3, but got shape {a.shape}")
    dim = _int(dim, "cross", "dim")
    if not -a.ndim <= dim < a.ndim or a.shape[dim] != 3:
        raise ValueError(f"cross: axis 'dim' {dim} of 'input' must exist and have size 3, but got shape {a.shape}")
    ax, ay, az = unbind(a, dim)
    bx, by, bz = unbind(b, dim)
    return stack([_sub(_mul(ay, bz), _mul(az, by)), _sub(_mul(az, bx), _mul(ax, bz)),
                  _sub(_mul(ax, by), _mul(ay, bx))], dim)


def _broadcast_shape(s, t):
    rank = max(len(s), len(t))
    s, t = (1,) * (rank - len(s)) + tuple(s), (1,) * (rank - len(t)) + tuple(t)
    out = []
    for m, n in zip(s, t):
        if m != n and 1 not in (m, n):
            raise ValueError(f"cross: shapes {s} and {t} do not broadcast")
        out.append(max(m, n) if 0 not in (m, n) else 0)
    return tuple(out)


def tensor_dot(x1, x2, axes):
    """Sums of products over axes of x1 and x2 paired by `axes`: an int k pairs x1's last k axes with x2's
    first k; a pair of lists pairs them one to one. The free axes of x1 come first, then x2's."""
    a, b = _tensor(x1, "tensor_dot", "x1"), _tensor(x2, "tensor_dot", "x2")
    if isinstance(axes, int) and not isinstance(axes, bool):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f"tensor_dot: 'axes' {axes} must be in [0, {min(a.ndim, b.ndim)}] for shapes "
                             f"{a.shape} and {b.shape}")
        axes_a, axes_b = list(range(a.ndim - axes, a.ndim)), list(range(axes))
    elif isinstance(axes, (tuple, list)) and len(axes) == 2:
        axes_a, axes_b = ([axes_i] if isinstance(axes_i, int) else list(axes_i) for axes_i in axes)
        axes_a = [_int(v, "tensor_dot", "axes") % max(a.ndim, 1) for v in axes_a]
        axes_b = [_int(v, "tensor_dot", "axes") % max(b.ndim, 1) for v in axes_b]
    else:
        raise TypeError(f"tensor_dot: 'axes' must be an int or a pair of axis lists, but got {axes!r}")
    if len(axes_a) != len(axes_b) or any(a.shape[i] != b.shape[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError(f"tensor_dot: the paired axes {axes_a} of {a.shape} and {axes_b} of {b.shape} must match")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [j for j in range(b.ndim) if j not in axes_b]
    k = 1
    for i in axes_a:
        k *= a.shape[i]
    left = reshape(transpose(a, free_a + axes_a), (-1, k))
    right = reshape(transpose(b, axes_b + free_b), (k, -1))
    return reshape(matmul(left, right), tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b))


def trace(input):
    """The sum of a 2-d tensor's main diagonal."""
    x = _rank("trace", "input", input, (2,))
    # The diagonal gathered, not the square times an identity: n elements read, not n^2 (1024 x 1024:
    # 0.19 -> 0.02 ms).
    return prim("ReduceSum", keep_dims=False)(diagonal(x), ())


def diag(input):
    """A tensor with `input` on its diagonal: rank k in, rank 2k out, out[i..., i...] = input[i...]."""
    x = _tensor(input, "diag", "input")
    if x.ndim == 0:
        raise ValueError("diag: 'input' must have at least one dimension, but got a 0-d tensor")
    n = x.size
    # Each value followed by n zeros, flattened: value i lands at i (n + 1), the diagonal of an n x n
    # matrix. (x times an identity put inf * 0 = NaN beside an infinite value, and read n^2 elements.)
    rows = prim("Pad", paddings=((0, 0), (0, n)))(reshape(x, (n, 1)))
    return reshape(narrow(reshape(rows, (n * (n + 1),)), 0, 0, n * n), x.shape + x.shape)


def cdist(x1, x2, p=2.0):
    """p-norm distances between the rows of x1 (B, P, M) and x2 (B, R, M) (or unbatched (P, M), (R, M))."""
    a, b = _rank("cdist", "x1", x1, (2, 3)), _rank("cdist", "x2", x2, (2, 3))
    if a.ndim != b.ndim or a.shape[-1] != b.shape[-1] or a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"cdist: 'x1' and 'x2' must be (B, P, M) and (B, R, M) or (P, M) and (R, M), but got shapes "
                         f"{a.shape} and {b.shape}")
    if a.dtype not in mstype.float_type:
        raise TypeError(f"cdist: 'x1' must be a floating-point tensor, but got {a.dtype}")
    if not isinstance(p, numbers.Real) or isinstance(p, bool) or p < 0:
        raise ValueError(f"cdist: 'p' must be a number >= 0, but got {p!r}")
    return prim("Cdist", p=float(p))(a, b)  # Note [Distances by tiles]


def _p_norm(api, diff, p, axes, keep):
    """The p-norm (p >= 0, inf included) of diff over `axes`, as ops.norm takes vector norms."""
    if not isinstance(p, numbers.Real) or isinstance(p, bool) or p < 0:
        raise ValueError(f"{api}: 'p' must be a number >= 0, but got {p!r}")
    return _vector_norm(diff, p, axes, keep)


def dist(input, other, p=2):
    """The p-norm of input - other over all elements (they broadcast)."""
    return _p_norm("dist", _sub(_tensor(input, "dist", "input"), _tensor(other, "dist", "other")), p, (), False)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last axis (rows of x1 against rows of x2)."""
    a, b = _tensor(x1, "pairwise_distance", "x1"), _tensor(x2, "pairwise_distance", "x2")
    diff = _add(_sub(a, b), Tensor(_check_float_arg("pairwise_distance", "eps", eps), a.dtype))
    return _p_norm("pairwise_distance", diff, p, (-1,), keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """sum(x1 * x2) / max(||x1|| ||x2||, eps) along `dim` (x1 and x2 broadcast)."""
    a, b = _tensor(x1, "cosine_similarity", "x1"), _tensor(x2, "cosine_similarity", "x2")
    dim = _int(dim, "cosine_similarity", "dim")
    reduce = prim("ReduceSum", keep_dims=False)
    dot = reduce(_mul(a, b), (dim,))
    norms = _sqrt(_mul(reduce(prim("Square")(a), (dim,)), reduce(prim("Square")(b), (dim,))))
    eps = _check_float_arg("cosine_similarity", "eps", eps)
    return prim("Div")(dot, prim("Maximum")(norms, Tensor(eps, norms.dtype)))


__all__ = ["bmm", "addmm", "baddbmm", "outer", "inner", "kron", "cross", "tensor_dot", "trace", "diag", "cdist", "dist",
           "pairwise_distance", "cosine_similarity"]
TENSOR_METHODS = ["bmm", "addmm", "baddbmm", "outer", "inner", "kron", "cross", "trace", "diag"]
