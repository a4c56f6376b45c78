"""MindSpore's functions of sparse tensors (``ops.coo_*``, ``ops.csr_*``, conversions between COOTensor,
CSRTensor and dense tensors), and the arithmetic behind the classes' methods.

Everything is a composition of ops on the parts (gather, scatter, segment sums, sorts), so it runs eagerly
and compiled and differentiates with respect to the values. Orders are made explicit:
- a coordinate is a row-major linear key (an Int64, compile-time strides), and sorting is stable by sorting
  key * N + position (the registry's sort is not stable);
- merging duplicate coordinates (coo_add, csr_add, coalesce) sorts the keys, numbers the runs of equal
  keys with a cumulative sum, and adds their values with a segment sum of static length; only the final
  selection of the surviving entries has a data-dependent length (a nonzero, which compiled code supports).
MindSpore's kernels assume sorted, valid inputs ("undefined otherwise"); these give the sorted result for
any input, which is the same on valid ones.
"""
import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.common.sparse._checks import check_dense_shape, check_index_tensor, check_instance, check_tensor
from sprout.common.sparse.coo_tensor import COOTensor
from sprout.common.sparse.csr_tensor import CSRTensor
from sprout.common.sparse.row_tensor import RowTensor
from sprout import _C

_ELEMENTWISE = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1",
                "floor", "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round",
                "sigmoid", "sin", "sinh", "softsign", "sqrt", "square", "tan", "tanh")

__all__ = ([f"coo_{name}" for name in _ELEMENTWISE] + [f"csr_{name}" for name in _ELEMENTWISE]
           + ["coo_add", "coo_concat", "csr_add", "csr_mul", "csr_div", "csr_mv", "csr_mm", "csr_reduce_sum",
              "csr_softmax", "csr_to_coo", "csr_to_dense", "dense_to_sparse_coo", "dense_to_sparse_csr",
              "coo2csr", "csr2coo", "csr_gather", "make_coo_tensor", "make_csr_tensor", "make_row_tensor",
              "make_row_tensor_inner", "make_sparse_tensor", "coo_tensor_get_indices", "coo_tensor_get_values",
              "coo_tensor_get_dense_shape", "csr_tensor_get_indptr", "csr_tensor_get_indices",
              "csr_tensor_get_values", "csr_tensor_get_dense_shape", "row_tensor_get_indices",
              "row_tensor_get_values", "row_tensor_get_dense_shape"])


# ---- index arithmetic ------------------------------------------------------------------------------------

def _strides(shape):
    return [int(np.prod(shape[d + 1:], dtype=np.int64)) for d in range(len(shape))]


def _linear_keys(indices, shape):
    """The row-major position of each coordinate (row of `indices`), Int64."""
    strides = Tensor(np.array(_strides(shape), np.int64))
    return (indices.astype(mstype.int64) * strides).sum(axis=1)


def _coordinates(keys, shape, dtype):
    """The (N, len(shape)) coordinates of row-major positions `keys`, of `dtype`."""
    columns = [(keys // stride) % extent for stride, extent in zip(_strides(shape), shape)]
    return ops.stack(columns, 1).astype(dtype)


def _stable_order(keys):
    """The permutation sorting Int64 `keys`, equal keys in their original order."""
    n = keys.shape[0]
    return ops.argsort(keys * n + ops.arange(n, dtype=mstype.int64))


def _rows_of_indptr(indptr, nnz):
    """The row of each of the `nnz` entries of a CSR matrix: a cumulative count of the row starts at or
    before each position (a row start past the last entry goes to a spare slot, cut off)."""
    rows = indptr.shape[0] - 1
    if nnz == 0 or rows <= 1:
        return ops.zeros((nnz,), mstype.int32)
    starts = ops.clamp(indptr[1:rows].astype(mstype.int32), 0, nnz)
    marks = ops.unsorted_segment_sum(ops.ones((rows - 1,), mstype.int32), starts, nnz + 1)
    return ops.cumsum(marks[:nnz], 0)


def _indptr_of_rows(rows_of_entries, rows, dtype):
    """The indptr (rows + 1,) of entries sorted by row."""
    nnz = rows_of_entries.shape[0]
    if nnz == 0:
        return ops.zeros((rows + 1,), dtype)
    counts = ops.unsorted_segment_sum(ops.ones((nnz,), mstype.int32), rows_of_entries.astype(mstype.int32), rows)
    return ops.concat((ops.zeros((1,), mstype.int32), ops.cumsum(counts, 0))).astype(dtype)


def _column(x, j):
    """Column j of a 2-d tensor (a gather rather than x[:, j], which compiled code cannot slice when the
    number of rows is only known at run time)."""
    return ops.gather(x, j, 1)


def _index_dtype(*tensors):
    return mstype.int64 if any(t.dtype == mstype.int64 for t in tensors) else mstype.int32


def _scatter_indices(indices):
    """Indices in a dtype the scatter and gather ops take (int16 widened)."""
    return indices if indices.dtype in (mstype.int32, mstype.int64) else indices.astype(mstype.int32)


def _merge(keys, values, thresh=None):
    """(keys, values) with the values of equal keys added, sorted by key. With `thresh`, a sum of two or more
    values whose magnitude is below it is dropped (coo_add's rule; single values always stay)."""
    n = keys.shape[0]
    if n == 0:
        return keys, values
    order = _stable_order(keys)
    keys, values = ops.gather(keys, order, 0), ops.gather(values, order, 0)
    starts = ops.concat((ops.ones((1,), mstype.bool_), keys[1:] != keys[:-1]))
    run = ops.cumsum(starts.astype(mstype.int32), 0) - 1
    sums = ops.unsorted_segment_sum(values, run, n)
    counts = ops.unsorted_segment_sum(ops.ones((n,), mstype.int32), run, n)
    run_keys = ops.tensor_scatter_update(ops.zeros((n,), mstype.int64), run.reshape(n, 1), keys)
    keep = counts > 0
    if thresh is not None:
        keep = ops.logical_and(keep, ops.logical_or(counts == 1, ops.abs(sums) >= thresh))
    kept = _column(ops.nonzero(keep), 0)
    return ops.gather(run_keys, kept, 0), ops.gather(sums, kept, 0)


def _promoted(a, b):
    dtype = _C.promote_types(a.dtype, b.dtype)
    return a.astype(dtype), b.astype(dtype)


# ---- elementwise functions of the values ----------------------------------------------------------------

def _coo_elementwise(name):
    def fn(x):
        check_instance(f"coo_{name}", "x", x, COOTensor)
        op = getattr(ops, name)  # looked up when called: sprout.ops is still loading when this module is
        return COOTensor._make(x.indices, op(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"coo_{name}"
    fn.__doc__ = (f"``coo_{name}(x)``: ops.{name} of a COOTensor's values; the result has the same indices and "
                  "shape.")
    return fn


def _csr_elementwise(name):
    def fn(x):
        check_instance(f"csr_{name}", "x", x, CSRTensor)
        op = getattr(ops, name)  # looked up when called: sprout.ops is still loading when this module is
        return CSRTensor._make(x.indptr, x.indices, op(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"csr_{name}"
    fn.__doc__ = (f"``csr_{name}(x)``: ops.{name} of a CSRTensor's values; the result has the same indptr, "
                  "indices and shape.")
    return fn


for _name in _ELEMENTWISE:
    globals()[f"coo_{_name}"] = _coo_elementwise(_name)
    globals()[f"csr_{_name}"] = _csr_elementwise(_name)


# ---- COOTensor -------------------------------------------------------------------------------------------

def coo_to_dense(x):
    """The dense tensor of COOTensor `x`; values at repeated coordinates are added (a Bool tensor is True
    where any of them is)."""
    check_instance("COOTensor.to_dense", "x", x, COOTensor)
    indices = _scatter_indices(x.indices)
    if x.dtype == mstype.bool_:
        counts = ops.tensor_scatter_add(ops.zeros(x.shape, mstype.int32), indices, x.values.astype(mstype.int32))
        return counts != 0
    return ops.tensor_scatter_add(ops.zeros(x.shape, x.dtype), indices, x.values)


def coo_to_csr(x):
    """The CSRTensor of 2-d COOTensor `x`: entries stably sorted by row, indptr of the indices' dtype."""
    check_instance("COOTensor.to_csr", "x", x, COOTensor)
    if x.ndim != 2:
        raise ValueError(f"COOTensor.to_csr: the COOTensor must be 2-d, but its shape is {x.shape}")
    rows, cols = _column(x.indices, 0), _column(x.indices, 1)
    order = _stable_order(rows.astype(mstype.int64))
    rows, cols, values = ops.gather(rows, order, 0), ops.gather(cols, order, 0), ops.gather(x.values, order, 0)
    return CSRTensor._make(_indptr_of_rows(rows, x.shape[0], x.indices.dtype), cols, values, x.shape)


def coo_coalesce(x):
    """COOTensor `x` with coordinates sorted row-major and the values at repeated ones added."""
    check_instance("COOTensor.coalesce", "x", x, COOTensor)
    keys, values = _merge(_linear_keys(x.indices, x.shape), x.values)
    return COOTensor._make(_coordinates(keys, x.shape, x.indices.dtype), values, x.shape)


def coo_add(x1, x2, thresh):
    """The sum of COOTensors `x1` and `x2`, sorted row-major. A coordinate both hold keeps its sum only if
    ``|sum| >= thresh``; the others keep their value (MindSpore's and TensorFlow's SparseAdd rule)."""
    api = "coo_add"
    check_instance(api, "x1", x1, COOTensor)
    check_instance(api, "x2", x2, COOTensor)
    check_tensor(api, "thresh", thresh)
    if thresh.ndim != 0:
        raise ValueError(f"{api}: 'thresh' must be a 0-d tensor, but got shape {tuple(thresh.shape)}")
    if x1.shape != x2.shape:
        raise ValueError(f"{api}: 'x1' and 'x2' must have the same shape, but got {x1.shape} and {x2.shape}")
    v1, v2 = _promoted(x1.values, x2.values)
    keys = ops.concat((_linear_keys(x1.indices, x1.shape), _linear_keys(x2.indices, x2.shape)))
    keys, values = _merge(keys, ops.concat((v1, v2)), thresh.astype(v1.dtype))
    dtype = _index_dtype(x1.indices, x2.indices)
    return COOTensor._make(_coordinates(keys, x1.shape, dtype), values, x1.shape)


def coo_concat(sp_input, concat_dim=0):
    """COOTensors joined along `concat_dim`, entries sorted row-major (stably, as TensorFlow's SparseConcat
    reorders them)."""
    api = "coo_concat"
    if not isinstance(sp_input, (list, tuple)) or not all(isinstance(x, COOTensor) for x in sp_input):
        raise TypeError(f"{api}: 'sp_input' must be a list or tuple of COOTensors, but got {sp_input!r}")
    if len(sp_input) < 2:
        raise ValueError(f"{api}: 'sp_input' must hold at least 2 COOTensors, but got {len(sp_input)}")
    ndim = sp_input[0].ndim
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, int) or not -ndim <= concat_dim < ndim:
        raise ValueError(f"{api}: 'concat_dim' must be an int in [{-ndim}, {ndim}), but got {concat_dim!r}")
    axis = concat_dim % ndim
    shapes = [x.shape for x in sp_input]
    for shape in shapes:
        if len(shape) != ndim or shape[:axis] + shape[axis + 1:] != shapes[0][:axis] + shapes[0][axis + 1:]:
            raise ValueError(f"{api}: the COOTensors' shapes must agree outside dimension {axis}, but got {shapes}")
    out_shape = list(shapes[0])
    out_shape[axis] = sum(shape[axis] for shape in shapes)
    dtype = _index_dtype(*(x.indices for x in sp_input))
    value_dtype = sp_input[0].dtype
    for x in sp_input[1:]:
        value_dtype = _C.promote_types(value_dtype, x.dtype)
    parts, offset = [], 0
    for x, shape in zip(sp_input, shapes):
        shift = np.zeros((1, ndim), mstype.dtype_to_nptype(dtype))
        shift[0, axis] = offset
        parts.append(x.indices.astype(dtype) + Tensor(shift))
        offset += shape[axis]
    indices = ops.concat(parts)
    values = ops.concat([x.values.astype(value_dtype) for x in sp_input])
    order = _stable_order(_linear_keys(indices, out_shape))
    return COOTensor._make(ops.gather(indices, order, 0), ops.gather(values, order, 0), tuple(out_shape))


def _check_same_shape(api, x, other):
    if tuple(other.shape) != tuple(x.shape):
        raise ValueError(f"{api}: the operands must have the same shape, but got {tuple(x.shape)} and "
                         f"{tuple(other.shape)}")


def coo_binary(op, x, other):
    """COOTensor `x` `op` `other` for the operators +, -, * and / (MindSpore's rules): with a dense Tensor,
    + and - give a dense Tensor, * and / a COOTensor of the same coordinates (the dense operand read there);
    + and - of two COOTensors are coo_add with threshold 0; * and / also take a number."""
    api = f"COOTensor.__{ {'+': 'add', '-': 'sub', '*': 'mul', '/': 'truediv'}[op]}__"
    if isinstance(other, COOTensor) and op in "+-":
        _check_same_shape(api, x, other)
        if op == "-":
            other = COOTensor._make(other.indices, -other.values, other.shape)
        return coo_add(x, other, Tensor(0, x.dtype))
    if isinstance(other, Tensor):
        _check_same_shape(api, x, other)
        indices = _scatter_indices(x.indices)
        if op == "+":
            return ops.tensor_scatter_add(other, indices, x.values.astype(_C.promote_types(x.dtype, other.dtype)))
        if op == "-":
            return ops.tensor_scatter_add(-other, indices, x.values.astype(_C.promote_types(x.dtype, other.dtype)))
        other = ops.gather_nd(other, indices)
    elif not (isinstance(other, (int, float)) and op in "*/"):
        raise TypeError(f"{api}: a COOTensor {op} {type(other).__name__} is not supported")
    values = x.values * other if op == "*" else x.values / other
    return COOTensor._make(x.indices, values, x.shape)


# ---- CSRTensor -------------------------------------------------------------------------------------------

def _check_csr(api, arg, x, ndim=None):
    check_instance(api, arg, x, CSRTensor)
    if ndim is not None and x.ndim != ndim:
        raise ValueError(f"{api}: '{arg}' must be a {ndim}-d CSRTensor, but its shape is {x.shape}")
    return x


def _csr_coordinates(x):
    """The (nnz, 2) (row, column) coordinates of a CSRTensor's entries."""
    rows = _rows_of_indptr(x.indptr, x.values.shape[0])
    return ops.stack((rows.astype(x.indices.dtype), x.indices), 1)


def csr_to_coo(tensor):
    """The COOTensor of 2-d CSRTensor `tensor` (indices of its column indices' dtype)."""
    _check_csr("csr_to_coo", "tensor", tensor, 2)
    if tensor.values.ndim != 1:
        raise ValueError(f"csr_to_coo: a COOTensor holds 1-d values, but the CSRTensor's values have shape "
                         f"{tuple(tensor.values.shape)}")
    return COOTensor._make(_csr_coordinates(tensor), tensor.values, tensor.shape)


def csr_to_dense(csr_tensor):
    """The dense tensor of `csr_tensor` (values at repeated coordinates added)."""
    _check_csr("csr_to_dense", "csr_tensor", csr_tensor)
    coordinates = _scatter_indices(_csr_coordinates(csr_tensor))
    return ops.tensor_scatter_add(ops.zeros(csr_tensor.shape, csr_tensor.dtype), coordinates, csr_tensor.values)


def _dense_factor(api, x, y):
    """`y` (a number or a Tensor broadcastable to x's shape) at each entry of CSRTensor `x`."""
    if isinstance(y, (bool, int, float)):
        return y
    check_tensor(api, "y", y)
    if y.ndim > x.ndim:
        raise ValueError(f"{api}: 'y' of shape {tuple(y.shape)} cannot broadcast to the CSRTensor's {x.shape}")
    if y.size == 1:
        return y.reshape(())
    dense = ops.broadcast_to(y, x.shape)
    return ops.gather_nd(dense, _scatter_indices(_csr_coordinates(x)))


def csr_mul(x, y):
    """CSRTensor `x` times `y` (a dense Tensor broadcastable to x's shape, or a number), at x's entries."""
    _check_csr("csr_mul", "x", x)
    return CSRTensor._make(x.indptr, x.indices, x.values * _dense_factor("csr_mul", x, y), x.shape)


def csr_div(x, y):
    """CSRTensor `x` divided by `y` (a dense Tensor broadcastable to x's shape, or a number), at x's entries."""
    _check_csr("csr_div", "x", x)
    return CSRTensor._make(x.indptr, x.indices, x.values / _dense_factor("csr_div", x, y), x.shape)


def _csr_times_dense(api, x, dense):
    """The dense (rows, k) product of 2-d CSRTensor `x` and a dense (cols, k) Tensor."""
    check_tensor(api, "dense", dense)
    if dense.ndim != 2 or dense.shape[0] != x.shape[1]:
        raise ValueError(f"{api}: the dense operand must be 2-d with {x.shape[1]} rows (the CSRTensor is "
                         f"{x.shape}), but got shape {tuple(dense.shape)}")
    rows, nnz = x.shape[0], x.values.shape[0]
    dtype = _C.promote_types(x.dtype, dense.dtype)
    if nnz == 0:
        return ops.zeros((rows, dense.shape[1]), dtype)
    products = x.values.astype(dtype).reshape(nnz, 1) * ops.gather(dense.astype(dtype), x.indices, 0)
    return ops.unsorted_segment_sum(products, _rows_of_indptr(x.indptr, nnz), rows)


def csr_mv(csr_tensor, dense):
    """The (rows, 1) product of 2-d CSRTensor `csr_tensor` and a dense (cols, 1) Tensor."""
    _check_csr("csr_mv", "csr_tensor", csr_tensor, 2)
    check_tensor("csr_mv", "dense", dense)
    if dense.ndim != 2 or dense.shape[1] != 1:
        raise ValueError(f"csr_mv: 'dense' must have shape ({csr_tensor.shape[1]}, 1), but got "
                         f"{tuple(dense.shape)}")
    return _csr_times_dense("csr_mv", csr_tensor, dense)


def csr_mm_dense(a, dense):
    """CSRTensor.mm with a dense matrix: the dense (rows, k) product."""
    _check_csr("CSRTensor.mm", "self", a, 2)
    return _csr_times_dense("CSRTensor.mm", a, dense)


def _pattern(x):
    """A Float32 dense matrix of ones where CSRTensor `x` stores an entry."""
    ones = CSRTensor._make(x.indptr, x.indices, ops.ones(x.values.shape, mstype.float32), x.shape)
    return ops.minimum(csr_to_dense(ones), 1.0)


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """The CSRTensor product op(a) @ op(b) of two 2-d CSRTensors, op a transpose (or adjoint, the same for
    real values) where asked. Its entries are the structural nonzeros, the positions some stored a[i, k]
    meets some stored b[k, j] (a product that cancels to 0 stays, as in sparse BLAS). Computed through
    dense matrices: meant for the modest sizes a CPU framework without sparse kernels serves."""
    api = "csr_mm"
    _check_csr(api, "a", a, 2)
    _check_csr(api, "b", b, 2)
    for name, flag in (("trans_a", trans_a), ("trans_b", trans_b), ("adjoint_a", adjoint_a),
                       ("adjoint_b", adjoint_b)):
        if not isinstance(flag, bool):
            raise TypeError(f"{api}: '{name}' must be a bool, but got {flag!r}")
    dense_a, dense_b, pattern_a, pattern_b = csr_to_dense(a), csr_to_dense(b), _pattern(a), _pattern(b)
    if trans_a or adjoint_a:
        dense_a, pattern_a = dense_a.T, pattern_a.T
    if trans_b or adjoint_b:
        dense_b, pattern_b = dense_b.T, pattern_b.T
    if dense_a.shape[1] != dense_b.shape[0]:
        raise ValueError(f"{api}: op(a) is {tuple(dense_a.shape)} and op(b) is {tuple(dense_b.shape)}; their inner "
                         "dimensions must agree")
    dense_a, dense_b = _promoted(dense_a, dense_b)
    product = ops.matmul(dense_a, dense_b)
    shape = tuple(product.shape)
    coordinates = ops.nonzero(ops.matmul(pattern_a, pattern_b) > 0).astype(a.indices.dtype)
    values = ops.gather_nd(product, _scatter_indices(coordinates))
    indptr = _indptr_of_rows(_column(coordinates, 0), shape[0], a.indptr.dtype)
    return CSRTensor._make(indptr, _column(coordinates, 1), values, shape)


def csr_reduce_sum(csr_tensor, axis):
    """The sum of `csr_tensor` over `axis` (1 or -1: the rows' sums, (rows, 1); 0: the columns', (1, cols)),
    of the values' dtype."""
    api = "csr_reduce_sum"
    _check_csr(api, "csr_tensor", csr_tensor)
    if isinstance(axis, bool) or not isinstance(axis, int) or axis not in (0, 1, -1, -2):
        raise ValueError(f"{api}: 'axis' must be 0 or 1 (or -2, -1), but got {axis!r}")
    axis %= 2  # the rows (1) or the columns (0) of the matrix
    x, values = csr_tensor, csr_tensor.values
    extent = x.shape[1 - axis]
    segments = _rows_of_indptr(x.indptr, values.shape[0]) if axis == 1 else x.indices.astype(mstype.int32)
    sums = ops.unsorted_segment_sum(values, segments, extent) if values.shape[0] else \
        ops.zeros((extent,) + tuple(values.shape[1:]), values.dtype)
    return ops.expand_dims(sums, axis)


def csr_softmax(logits, dtype):
    """The softmax of each row of 2-d CSRTensor `logits` over its stored entries (the others count as absent,
    not as 0), as a CSRTensor of the same structure with values of `dtype` (float32 or float64)."""
    api = "csr_softmax"
    _check_csr(api, "logits", logits, 2)
    if dtype not in (mstype.float32, mstype.float64):
        raise TypeError(f"{api}: 'dtype' must be mindspore.float32 or mindspore.float64, but got {dtype!r}")
    values, rows, nnz = logits.values.astype(dtype), logits.shape[0], logits.values.shape[0]
    if nnz == 0:
        return CSRTensor._make(logits.indptr, logits.indices, values, logits.shape)
    row = _rows_of_indptr(logits.indptr, nnz)
    # The row maximum only steadies exp; softmax does not depend on it, so it carries no gradient.
    peak = ops.gather(ops.stop_gradient(ops.unsorted_segment_max(values, row, rows)), row, 0)
    e = ops.exp(values - peak)
    total = ops.gather(ops.unsorted_segment_sum(e, row, rows), row, 0)
    return CSRTensor._make(logits.indptr, logits.indices, e / total, logits.shape)


def _coefficient(api, arg, c, x):
    """alpha or beta of csr_add at CSRTensor x's entries: a 1-element tensor as a scalar, a larger one
    broadcast to x's shape and read there."""
    check_tensor(api, arg, c)
    if c.size == 1:
        return c.reshape(())
    return ops.gather_nd(ops.broadcast_to(c, x.shape), _scatter_indices(_csr_coordinates(x)))


def csr_add(a, b, alpha, beta):
    """alpha * a + beta * b for 2-d CSRTensors of one shape: the union of their entries, sorted by row then
    column (an entry both hold is one entry, even when it sums to 0)."""
    api = "csr_add"
    _check_csr(api, "a", a, 2)
    _check_csr(api, "b", b, 2)
    if a.shape != b.shape:
        raise ValueError(f"{api}: 'a' and 'b' must have the same shape, but got {a.shape} and {b.shape}")
    va, vb = _promoted(a.values, b.values)
    va = va * _coefficient(api, "alpha", alpha, a).astype(va.dtype)
    vb = vb * _coefficient(api, "beta", beta, b).astype(vb.dtype)
    keys = ops.concat((_linear_keys(_csr_coordinates(a), a.shape), _linear_keys(_csr_coordinates(b), b.shape)))
    keys, values = _merge(keys, ops.concat((va, vb)))
    dtype = _index_dtype(a.indices, b.indices)
    coordinates = _coordinates(keys, a.shape, dtype)
    indptr = _indptr_of_rows(_column(coordinates, 0), a.shape[0], _index_dtype(a.indptr, b.indptr))
    return CSRTensor._make(indptr, _column(coordinates, 1), values, a.shape)


def csr_binary(op, x, other):
    """CSRTensor `x` + or - another CSRTensor (csr_add with alpha 1, beta +1 or -1)."""
    api = f"CSRTensor.__{'add' if op == '+' else 'sub'}__"
    if not isinstance(other, CSRTensor):
        raise TypeError(f"{api}: a CSRTensor {op} {type(other).__name__} is not supported (only CSRTensor)")
    if other.shape != x.shape:
        raise ValueError(f"{api}: the operands must have the same shape, but got {x.shape} and {other.shape}")
    return csr_add(x, other, Tensor(1, x.dtype), Tensor(1 if op == "+" else -1, x.dtype))


# ---- dense <-> sparse ------------------------------------------------------------------------------------

def _check_dense_2d(api, tensor):
    check_tensor(api, "tensor", tensor)
    if tensor.ndim != 2:
        raise ValueError(f"{api}: 'tensor' must be 2-d, but got shape {tuple(tensor.shape)}")


def dense_to_sparse_coo(tensor):
    """The nonzero elements of 2-d `tensor` as a COOTensor (Int32 indices, row-major order)."""
    _check_dense_2d("dense_to_sparse_coo", tensor)
    indices = ops.nonzero(tensor).astype(mstype.int32)
    return COOTensor._make(indices, ops.gather_nd(tensor, indices), tuple(tensor.shape))


def dense_to_sparse_csr(tensor):
    """The nonzero elements of 2-d `tensor` as a CSRTensor (Int32 indptr and indices)."""
    _check_dense_2d("dense_to_sparse_csr", tensor)
    coordinates = ops.nonzero(tensor).astype(mstype.int32)
    indptr = _indptr_of_rows(_column(coordinates, 0), tensor.shape[0], mstype.int32)
    return CSRTensor._make(indptr, _column(coordinates, 1), ops.gather_nd(tensor, coordinates), tuple(tensor.shape))


# ---- the index conversions and constructors MindSpore also exposes ---------------------------------------

def coo2csr(row_indices, height):
    """The indptr (height + 1,) of entries whose rows, sorted, are `row_indices` (of its dtype)."""
    check_index_tensor("coo2csr", "row_indices", row_indices, 1)
    if isinstance(height, bool) or not isinstance(height, int) or height <= 0:
        raise ValueError(f"coo2csr: 'height' must be a positive int, but got {height!r}")
    return _indptr_of_rows(row_indices, height, row_indices.dtype)


def csr2coo(indptr, nnz):
    """The row of each of the `nnz` entries described by `indptr` (of its dtype)."""
    check_index_tensor("csr2coo", "indptr", indptr, 1)
    if isinstance(nnz, bool) or not isinstance(nnz, int) or nnz < 0:
        raise ValueError(f"csr2coo: 'nnz' must be a non-negative int, but got {nnz!r}")
    return _rows_of_indptr(indptr, nnz).astype(indptr.dtype)


def csr_gather(indptr, indices, dense, sparse_shape):
    """The elements of `dense` at the entries of the CSR structure (indptr, indices) of `sparse_shape`."""
    api = "csr_gather"
    check_index_tensor(api, "indptr", indptr, 1)
    check_index_tensor(api, "indices", indices, 1)
    check_tensor(api, "dense", dense)
    shape = check_dense_shape(api, "sparse_shape", sparse_shape)
    if tuple(dense.shape[:2]) != shape[:2] or indptr.shape[0] != shape[0] + 1:
        raise ValueError(f"{api}: 'dense' {tuple(dense.shape)} and 'indptr' ({indptr.shape[0]},) must match "
                         f"'sparse_shape' {shape}")
    rows = _rows_of_indptr(indptr, indices.shape[0]).astype(indices.dtype)
    return ops.gather_nd(dense, _scatter_indices(ops.stack((rows, indices), 1)))


def make_coo_tensor(indices, values, dense_shape):
    return COOTensor(indices, values, dense_shape)


def make_sparse_tensor(indices, values, dense_shape):
    """MindSpore's deprecated constructor of a COOTensor."""
    return COOTensor(indices, values, dense_shape)


def make_csr_tensor(indptr, indices, values, dense_shape):
    return CSRTensor(indptr, indices, values, dense_shape)


def make_row_tensor(indices, values, dense_shape):
    return RowTensor(indices, values, dense_shape)


make_row_tensor_inner = make_row_tensor


def _getter(kind, cls, part, attribute):
    def fn(x):
        check_instance(f"{kind}_tensor_get_{part}", "x", x, cls)
        return getattr(x, attribute)
    fn.__name__ = fn.__qualname__ = f"{kind}_tensor_get_{part}"
    fn.__doc__ = f"The {part.replace('_', ' ')} of a {cls.__name__}."
    return fn


coo_tensor_get_indices = _getter("coo", COOTensor, "indices", "indices")
coo_tensor_get_values = _getter("coo", COOTensor, "values", "values")
coo_tensor_get_dense_shape = _getter("coo", COOTensor, "dense_shape", "shape")
csr_tensor_get_indptr = _getter("csr", CSRTensor, "indptr", "indptr")
csr_tensor_get_indices = _getter("csr", CSRTensor, "indices", "indices")
csr_tensor_get_values = _getter("csr", CSRTensor, "values", "values")
csr_tensor_get_dense_shape = _getter("csr", CSRTensor, "dense_shape", "shape")
row_tensor_get_indices = _getter("row", RowTensor, "indices", "indices")
row_tensor_get_values = _getter("row", RowTensor, "values", "values")
row_tensor_get_dense_shape = _getter("row", RowTensor, "dense_shape", "dense_shape")
