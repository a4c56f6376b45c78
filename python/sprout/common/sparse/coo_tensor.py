"""COOTensor (``mindspore.COOTensor``) and the legacy SparseTensor: nonzero values at given coordinates,
``dense[indices[i]] = values[i]``.

A COOTensor holds two Tensors and a shape tuple; everything it computes is a composition of ops
(``ops.coo_*`` in sprout/ops/function/sparse_func.py), so it runs eagerly or inside compiled code (built
and used within one graph) and differentiates with respect to its values. Duplicate coordinates are kept,
not coalesced (to_dense adds them; ``coalesce`` merges them), as MindSpore's are.
"""
from sprout.common import dtype as mstype
from sprout.common.sparse._base import StoredValues
from sprout.common.sparse._checks import check_dense_shape, check_index_tensor, check_instance, check_tensor
from sprout.common.sparse._format import sparse_repr


def _ops():
    from sprout.ops.function import sparse_func  # imported when used: sparse_func imports this module
    return sparse_func


class COOTensor(StoredValues):
    """``COOTensor(indices=None, values=None, shape=None, coo_tensor=None)``: `indices` (N, 2) int16/int32/int64,
    `values` (N,), `shape` a 2-tuple of positive ints; or a copy of `coo_tensor`."""

    _api = "COOTensor"
    _ndim = 2  # MindSpore's COOTensor is 2-d; SparseTensor takes any rank

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            check_instance(self._api, "coo_tensor", coo_tensor, COOTensor)
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        api = self._api
        check_index_tensor(api, "indices", indices, 2)
        check_tensor(api, "values", values)
        if values.ndim != 1:
            raise ValueError(f"{api}: 'values' must be a 1-dimensional tensor, but got shape {tuple(values.shape)}")
        shape = check_dense_shape(api, "shape", shape, self._ndim)
        if indices.shape[0] != values.shape[0]:
            raise ValueError(f"{api}: 'indices' and 'values' must have as many rows, but got indices.shape[0] = "
                             f"{indices.shape[0]} and values.shape[0] = {values.shape[0]}")
        if indices.shape[1] != len(shape):
            raise ValueError(f"{api}: 'indices' must have one column per dimension of 'shape' {shape}, but got "
                             f"indices.shape[1] = {indices.shape[1]}")
        self._indices, self._values, self._shape = indices, values, shape

    @classmethod
    def _make(cls, indices, values, shape):
        """A COOTensor of parts already known to be valid (results of ops)."""
        out = object.__new__(cls)
        out._indices, out._values, out._shape = indices, values, tuple(shape)
        return out

    @property
    def indices(self):
        """The (N, ndim) coordinates of the values."""
        return self._indices

    def to_tuple(self):
        """(indices, values, shape)."""
        return self._indices, self._values, self._shape

    def to_dense(self):
        """The dense Tensor; values at repeated coordinates are added."""
        return _ops().coo_to_dense(self)

    def to_csr(self):
        """The CSRTensor of the same matrix: entries ordered by row (stably), indptr of the indices' dtype."""
        return _ops().coo_to_csr(self)

    def coalesce(self):
        """A copy with coordinates sorted row-major and the values at repeated coordinates added."""
        return _ops().coo_coalesce(self)

    def astype(self, dtype):
        """A copy with values cast to `dtype` (a dtype, a NumPy dtype or a name)."""
        dtype = mstype._dtype_arg(f"{type(self).__name__}.astype", "dtype", dtype)
        return COOTensor._make(self._indices, self._values.astype(dtype), self._shape)

    def abs(self):
        return _ops().coo_abs(self)

    def add(self, other, thresh):
        """The sum with COOTensor `other`; sums at shared coordinates smaller than `thresh` in magnitude are
        dropped (ops.coo_add)."""
        return _ops().coo_add(self, other, thresh)

    def __neg__(self):
        return COOTensor._make(self._indices, -self._values, self._shape)

    def __add__(self, other):
        return _ops().coo_binary("+", self, other)

    def __sub__(self, other):
        return _ops().coo_binary("-", self, other)

    def __mul__(self, other):
        return _ops().coo_binary("*", self, other)

    def __truediv__(self, other):
        return _ops().coo_binary("/", self, other)

    def __repr__(self):
        return sparse_repr("COOTensor", self._shape, self.dtype, (("indices", self._indices), ("values", self._values)))

    __str__ = __repr__


class SparseTensor(COOTensor):
    """``SparseTensor(indices, values, shape)``: MindSpore's deprecated name for a COOTensor of any rank."""

    _api = "SparseTensor"
    _ndim = None

    def __init__(self, indices, values, shape):
        super().__init__(indices, values, shape)


__all__ = ["COOTensor", "SparseTensor"]
