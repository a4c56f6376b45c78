"""What every sparse tensor class exposes of its stored values and dense shape."""


class StoredValues:
    """Properties over `_values` (the stored values, one row per stored entry) and `_shape` (the dense
    shape, a tuple), shared by COOTensor, CSRTensor and RowTensor."""

    @property
    def values(self):
        """The stored values."""
        return self._values

    @property
    def shape(self):
        """The dense shape, a tuple."""
        return self._shape

    @property
    def dtype(self):
        """The values' dtype."""
        return self._values.dtype

    @property
    def size(self):
        """The number of stored values."""
        return self._values.shape[0]

    @property
    def itemsize(self):
        """The bytes of one value."""
        return self._values.itemsize

    @property
    def ndim(self):
        """The number of dimensions of the dense tensor."""
        return len(self._shape)
