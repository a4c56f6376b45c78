"""RowTensor (``mindspore.RowTensor``): some rows of a dense tensor, ``dense[indices[i], ...] = values[i, ...]``.
MindSpore uses it for the gradient of a gathered table (only the rows read get a gradient); it is a holder of
its three parts, with no arithmetic of its own."""
from sprout.common.sparse._base import StoredValues
from sprout.common.sparse._checks import check_dense_shape, check_index_tensor, check_instance, check_tensor
from sprout.common.sparse._format import sparse_repr


class RowTensor(StoredValues):
    """``RowTensor(indices=None, values=None, shape=None, row_tensor=None)``: `indices` (d0,) integers, `values`
    (d0, d1, ...), `shape` (l0, d1, ...); or a copy of `row_tensor`."""

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        api = "RowTensor"
        if row_tensor is not None:
            check_instance(api, "row_tensor", row_tensor, RowTensor)
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        check_index_tensor(api, "indices", indices, 1)
        check_tensor(api, "values", values)
        shape = check_dense_shape(api, "shape", shape)
        if values.ndim != len(shape) or tuple(values.shape[1:]) != shape[1:]:
            raise ValueError(f"{api}: 'values' must have shape (len(indices), *shape[1:]) = "
                             f"({indices.shape[0]}, {', '.join(map(str, shape[1:]))}), but got {tuple(values.shape)}")
        if values.shape[0] != indices.shape[0]:
            raise ValueError(f"{api}: 'values' must have one row per index ({indices.shape[0]}), but got "
                             f"{values.shape[0]}")
        self._indices, self._values, self._shape = indices, values, shape

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._shape

    def __repr__(self):
        return sparse_repr("RowTensor", self._shape, self.dtype, (("indices", self._indices), ("values", self._values)))

    __str__ = __repr__


__all__ = ["RowTensor"]
