"""CSRTensor (``mindspore.CSRTensor``): a matrix in compressed sparse row form. Row r's entries are
positions indptr[r] .. indptr[r + 1] - 1 of `indices` (their columns) and `values`. `values` may have
trailing dimensions: a (N, d1, ...) values tensor gives a (rows, cols, d1, ...) tensor.

Like COOTensor, a composition of ops (``ops.csr_*`` in sprout/ops/function/sparse_func.py): eager or
compiled, differentiable with respect to the values.
"""
from sprout.common import dtype as mstype
from sprout.common.sparse._base import StoredValues
from sprout.common.sparse._checks import check_dense_shape, check_index_tensor, check_instance, check_tensor
from sprout.common.sparse._format import sparse_repr


def _ops():
    from sprout.ops.function import sparse_func  # imported when used: sparse_func imports this module
    return sparse_func


class CSRTensor(StoredValues):
    """``CSRTensor(indptr=None, indices=None, values=None, shape=None, csr_tensor=None)``: `indptr` (rows + 1,)
    and `indices` (N,) int16/int32/int64, `values` (N, ...), `shape` (rows, cols, ...) positive ints with
    shape[2:] == values.shape[1:]; or a copy of `csr_tensor`."""

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        api = "CSRTensor"
        if csr_tensor is not None:
            check_instance(api, "csr_tensor", csr_tensor, CSRTensor)
            indptr, indices, values, shape = (csr_tensor.indptr, csr_tensor.indices, csr_tensor.values,
                                              csr_tensor.shape)
        check_index_tensor(api, "indptr", indptr, 1)
        check_index_tensor(api, "indices", indices, 1)
        check_tensor(api, "values", values)
        shape = check_dense_shape(api, "shape", shape)
        if len(shape) < 2:
            raise ValueError(f"{api}: 'shape' must have at least 2 elements (rows, columns), but got {shape}")
        if values.ndim != len(shape) - 1:
            raise ValueError(f"{api}: 'values' must have len(shape) - 1 = {len(shape) - 1} dimensions, but got "
                             f"shape {tuple(values.shape)}")
        if tuple(values.shape[1:]) != shape[2:]:
            raise ValueError(f"{api}: shape[2:] must equal values.shape[1:], but got {shape[2:]} and "
                             f"{tuple(values.shape[1:])}")
        if indptr.shape[0] != shape[0] + 1:
            raise ValueError(f"{api}: 'indptr' must have shape[0] + 1 = {shape[0] + 1} elements, but got "
                             f"{indptr.shape[0]}")
        if indices.shape[0] != values.shape[0]:
            raise ValueError(f"{api}: 'indices' and 'values' must have as many elements, but got "
                             f"{indices.shape[0]} and {values.shape[0]}")
        if values.shape[0] > shape[0] * shape[1]:
            raise ValueError(f"{api}: a {shape[0]} x {shape[1]} matrix cannot hold {values.shape[0]} values")
        self._indptr, self._indices, self._values, self._shape = indptr, indices, values, shape

    @classmethod
    def _make(cls, indptr, indices, values, shape):
        """A CSRTensor of parts already known to be valid (results of ops)."""
        out = object.__new__(cls)
        out._indptr, out._indices, out._values, out._shape = indptr, indices, values, tuple(shape)
        return out

    @property
    def indptr(self):
        """Where each row's entries start in `indices` and `values` (and where the last one ends)."""
        return self._indptr

    @property
    def indices(self):
        """The column of each value."""
        return self._indices

    def to_tuple(self):
        """(indptr, indices, values, shape)."""
        return self._indptr, self._indices, self._values, self._shape

    def to_dense(self):
        return _ops().csr_to_dense(self)

    def to_coo(self):
        return _ops().csr_to_coo(self)

    def astype(self, dtype):
        """A copy with values cast to `dtype` (a dtype, a NumPy dtype or a name)."""
        dtype = mstype._dtype_arg("CSRTensor.astype", "dtype", dtype)
        return CSRTensor._make(self._indptr, self._indices, self._values.astype(dtype), self._shape)

    def abs(self):
        return _ops().csr_abs(self)

    def add(self, b, alpha, beta):
        """alpha * self + beta * b (ops.csr_add)."""
        return _ops().csr_add(self, b, alpha, beta)

    def mv(self, dense_vector):
        """self @ dense_vector, a (cols, 1) Tensor: the (rows, 1) product."""
        return _ops().csr_mv(self, dense_vector)

    def mm(self, matrix):
        """self @ matrix: a dense (rows, k) Tensor for a dense (cols, k) matrix, a CSRTensor for a CSRTensor."""
        if isinstance(matrix, CSRTensor):
            return _ops().csr_mm(self, matrix)
        return _ops().csr_mm_dense(self, matrix)

    def sum(self, axis):
        """The sum over `axis`, keeping it: (rows, 1) for axis 1 or -1, (1, cols) for axis 0."""
        return _ops().csr_reduce_sum(self, axis)

    def __neg__(self):
        return CSRTensor._make(self._indptr, self._indices, -self._values, self._shape)

    def __add__(self, other):
        return _ops().csr_binary("+", self, other)

    def __sub__(self, other):
        return _ops().csr_binary("-", self, other)

    def __mul__(self, other):
        return _ops().csr_mul(self, other)

    def __truediv__(self, other):
        return _ops().csr_div(self, other)

    def __repr__(self):
        return sparse_repr("CSRTensor", self._shape, self.dtype,
                           (("indptr", self._indptr), ("indices", self._indices), ("values", self._values)))

    __str__ = __repr__


__all__ = ["CSRTensor"]
