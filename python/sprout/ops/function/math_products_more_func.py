"""More products, MindSpore 2.x names and arguments: dot (NumPy's, of tensors of rank >= 2), vecdot, mv, mm,
ger, addmv, addr and addbmm. Compositions of MatMul/BatchMatMul and elementwise primitives, so they
differentiate and compile through those primitives' rules."""
from sprout.common import dtype as mstype
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _int, _tensor, reshape, transpose
from sprout.ops.function.math_func import matmul
from sprout.ops.function.math_products_func import _rank, _scaled

_add, _mul = prim("Add"), prim("Mul")


def _float(api, arg, x):
    if x.dtype not in mstype.float_type:
        raise TypeError(f"{api}: '{arg}' must be a floating-point tensor, but got {x.dtype}")
    return x


def dot(input, other):
    """NumPy's dot of floating-point tensors of rank >= 2: sums of products over input's last axis and other's
    second-to-last; the result's shape is input.shape[:-1] + other.shape[:-2] + other.shape[-1:]."""
    a, b = _tensor(input, "dot", "input"), _tensor(other, "dot", "other")
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"dot: 'input' and 'other' must have rank >= 2, but got shapes {a.shape} and {b.shape}")
    _float("dot", "input", a), _float("dot", "other", b)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"dot: input.shape[-1] must equal other.shape[-2], but got shapes {a.shape} and {b.shape}")
    # other's contracted axis to the front: (k, rest) with rest = other's other axes in order.
    perm = [b.ndim - 2] + [i for i in range(b.ndim) if i != b.ndim - 2]
    right = reshape(transpose(b, perm), (b.shape[-2], -1))
    out = matmul(reshape(a, (-1, a.shape[-1])), right)
    return reshape(out, a.shape[:-1] + b.shape[:-2] + b.shape[-1:])


def vecdot(x, y, *, axis=-1):
    """sum(x * y) along `axis`, x and y broadcast (real tensors: no conjugate to take)."""
    a, b = _tensor(x, "vecdot", "x"), _tensor(y, "vecdot", "y")
    product = _mul(a, b)
    axis = _int(axis, "vecdot", "axis")
    if not -product.ndim <= axis < product.ndim:
        raise ValueError(f"vecdot: 'axis' must be in [{-product.ndim}, {product.ndim}) for the broadcast shape "
                         f"{product.shape}, but got {axis}")
    return prim("ReduceSum", keep_dims=False)(product, (axis,))


def mv(mat, vec):
    """The product of the matrix `mat` (N, M) and the vector `vec` (M,): shape (N,)."""
    m, v = _rank("mv", "mat", mat, (2,)), _rank("mv", "vec", vec, (1,))
    if m.shape[1] != v.shape[0]:
        raise ValueError(f"mv: 'mat' {m.shape} and 'vec' {v.shape} do not match (mat.shape[1] != vec.shape[0])")
    return reshape(matmul(m, reshape(v, (-1, 1))), (m.shape[0],))


def mm(input, mat2):
    """The product of the matrices `input` (n, m) and `mat2` (m, p), without broadcasting."""
    a, b = _rank("mm", "input", input, (2,)), _rank("mm", "mat2", mat2, (2,))
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"mm: 'input' {a.shape} and 'mat2' {b.shape} do not match (input.shape[1] != "
                         f"mat2.shape[0])")
    return matmul(a, b)


def ger(input, vec2):
    """The outer product of two floating-point 1-d tensors: out[i, j] = input[i] * vec2[j]."""
    a = _float("ger", "input", _rank("ger", "input", input, (1,)))
    b = _float("ger", "vec2", _rank("ger", "vec2", vec2, (1,)))
    return _mul(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """beta * input + alpha * (mat @ vec), `input` broadcast to (N,)."""
    return _add(_scaled(_tensor(input, "addmv", "input"), beta), _scaled(mv(mat, vec), alpha))


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """beta * x + alpha * outer(vec1, vec2), `x` broadcast to (N, M)."""
    a, b = _rank("addr", "vec1", vec1, (1,)), _rank("addr", "vec2", vec2, (1,))
    return _add(_scaled(_tensor(x, "addr", "x"), beta), _scaled(_mul(reshape(a, (-1, 1)), reshape(b, (1, -1))), alpha))


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * sum_i(batch1[i] @ batch2[i]) for batch1 (C, W, T) and batch2 (C, T, H)."""
    a, b = _rank("addbmm", "batch1", batch1, (3,)), _rank("addbmm", "batch2", batch2, (3,))
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"addbmm: 'batch1' (C, W, T) and 'batch2' (C, T, H) must match in C and T, but got shapes "
                         f"{a.shape} and {b.shape}")
    # The sum over the batch is one product: (W, C T) @ (C T, H).
    left = reshape(transpose(a, (1, 0, 2)), (a.shape[1], -1))
    right = reshape(b, (-1, b.shape[2]))
    return _add(_scaled(_tensor(input, "addbmm", "input"), beta), _scaled(matmul(left, right), alpha))


__all__ = ["dot", "vecdot", "mv", "mm", "ger", "addmv", "addr", "addbmm"]
# Tensor.dot is MindSpore's 1-d dot product, a different function: not attached.
TENSOR_METHODS = ["mm", "ger", "addmv", "addr", "addbmm"]
