"""Primitives over sparse coordinates (``ops.SparseToDense``, ``ops.SparseTensorDenseMatmul``,
``ops.SparseTensorDenseAdd``): a sparse tensor given as its parts (indices (n, ndim), values (n,), its
dense shape), computed with scatters, gathers and segment sums, so they differentiate with respect to the
values and the dense operand and run compiled."""
from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.common.sparse._checks import check_dense_shape, check_tensor
from sprout.ops.function_primitives._attr_checks import check_bool
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["SparseToDense", "SparseTensorDenseMatmul", "SparseTensorDenseAdd"]


def _check_coordinates(api, indices, values, shape):
    """(indices as Int32/Int64, shape as a tuple), after checking the parts agree."""
    check_tensor(api, "indices", indices)
    check_tensor(api, "values", values)
    if indices.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'indices' must be an int32 or int64 tensor, but got {indices.dtype}")
    if isinstance(shape, Tensor):
        if type(shape) is not Tensor:  # a graph tensor has no value while compiling
            raise TypeError(f"{api}: a Tensor 'sparse_shape' must be a constant; pass a tuple of ints")
        shape = tuple(int(d) for d in shape.asnumpy().reshape(-1))
    shape = check_dense_shape(api, "sparse_shape", shape)
    if indices.ndim != 2 or indices.shape[1] != len(shape):
        raise ValueError(f"{api}: 'indices' must have shape (n, {len(shape)}) for a sparse_shape of {shape}, but "
                         f"got {tuple(indices.shape)}")
    if values.ndim != 1 or values.shape[0] != indices.shape[0]:
        raise ValueError(f"{api}: 'values' must have shape ({indices.shape[0]},), one per row of 'indices', but got "
                         f"{tuple(values.shape)}")
    return indices, shape


class SparseToDense(Primitive):
    """``SparseToDense()(indices, values, sparse_shape)``: a dense tensor of `sparse_shape`, 0 except
    ``out[indices[i]] = values[i]`` (a repeated coordinate keeps one of its values, as MindSpore's kernel)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["indices", "values", "dense_shape"], ["output"])

    def __call__(self, indices, values, sparse_shape):
        indices, shape = _check_coordinates("SparseToDense", indices, values, sparse_shape)
        return ops.tensor_scatter_update(ops.zeros(shape, values.dtype), indices, values)


class SparseTensorDenseMatmul(Primitive):
    """``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values, sparse_shape, dense)``:
    op(S) @ op(dense) for the 2-d sparse matrix S, op a transpose where asked."""

    @prim_attr_register
    def __init__(self, adjoint_st=False, adjoint_dt=False):
        check_bool("SparseTensorDenseMatmul", "adjoint_st", adjoint_st)
        check_bool("SparseTensorDenseMatmul", "adjoint_dt", adjoint_dt)
        self.init_prim_io_names(["indices", "values", "sparse_shape", "dense"], ["output"])

    def __call__(self, indices, values, sparse_shape, dense):
        return sparse_dense_matmul("SparseTensorDenseMatmul", indices, values, sparse_shape, dense,
                                   self.adjoint_st, self.adjoint_dt)


def sparse_dense_matmul(api, indices, values, sparse_shape, dense, adjoint_st, adjoint_dt):
    indices, shape = _check_coordinates(api, indices, values, sparse_shape)
    if len(shape) != 2:
        raise ValueError(f"{api}: the sparse matrix must be 2-d, but sparse_shape is {shape}")
    check_tensor(api, "dense", dense)
    if dense.dtype != values.dtype:
        raise TypeError(f"{api}: 'dense' must have the dtype of 'values' ({values.dtype}), but got {dense.dtype}")
    rows, cols = indices[:, 0], indices[:, 1]
    if adjoint_st:
        rows, cols, shape = cols, rows, (shape[1], shape[0])
    if dense.ndim != 2:
        raise ValueError(f"{api}: 'dense' must be 2-d, but got shape {tuple(dense.shape)}")
    if adjoint_dt:
        dense = dense.T
    if dense.shape[0] != shape[1]:
        raise ValueError(f"{api}: op(sparse) is {shape} and op(dense) is {tuple(dense.shape)}; their inner "
                         "dimensions must agree")
    n = values.shape[0]
    if n == 0:
        return ops.zeros((shape[0], dense.shape[1]), values.dtype)
    products = values.reshape(n, 1) * ops.gather(dense, cols, 0)
    return ops.unsorted_segment_sum(products, rows, shape[0])


class SparseTensorDenseAdd(Primitive):
    """``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: the dense sum of the sparse tensor
    (x1_indices, x1_values, x1_shape) and the dense `x2` of that shape."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x1_indices", "x1_values", "x1_shape", "x2"], ["y"])

    def __call__(self, x1_indices, x1_values, x1_shape, x2):
        api = "SparseTensorDenseAdd"
        indices, shape = _check_coordinates(api, x1_indices, x1_values, x1_shape)
        check_tensor(api, "x2", x2)
        if tuple(x2.shape) != shape:
            raise ValueError(f"{api}: 'x2' must have the sparse tensor's shape {shape}, but got {tuple(x2.shape)}")
        if x2.dtype != x1_values.dtype:
            raise TypeError(f"{api}: 'x2' must have the dtype of 'x1_values' ({x1_values.dtype}), but got {x2.dtype}")
        return ops.tensor_scatter_add(x2, indices, x1_values)
