"""Indexing primitives carried out by functional ops: gathers, scatters, index updates, searches and
segment reductions (``ops.GatherD()``, ``ops.ScatterNdAdd()``, ``ops.UnsortedSegmentMax()`` ...).

The scatters MindSpore documents as updating their first input (ScatterNdAdd, ScatterUpdate, IndexAdd,
InplaceIndexAdd) write it in place, a plain Tensor as well as a Parameter, as MindSpore's do; the Inplace*
ones whose MindSpore 2.x primitives return a new tensor (InplaceAdd, InplaceSub, InplaceUpdateV2) do too.
"""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops import function as F
from sprout.ops.function import array_index_more_func as _index
from sprout.ops.function.array_scatter_inplace_func import _assign
from sprout.ops.function_primitives._attr_checks import check_bool, check_int, check_int_tuple
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["GatherD", "GatherV2", "IndexAdd", "InplaceIndexAdd", "IndexFill", "IndexPut", "InplaceAdd",
           "InplaceSub", "InplaceUpdateV2", "MaskedScatter", "ScatterNdAdd", "ScatterNdUpdate", "ScatterUpdate",
           "TensorScatterAdd", "Bucketize", "UnravelIndex", "UnsortedSegmentMax",
           "UnsortedSegmentMin", "UnsortedSegmentProd", "EmbeddingLookup"]


def _tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


class GatherD(Primitive):
    """``GatherD()(x, dim, index)``: out[i][j] = x[index[i][j]][j] for dim 0 (and likewise for other dims)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "dim", "index"], ["output"])

    def __call__(self, x, dim, index):
        return F.gather_elements(x, dim, index)


class GatherV2(Primitive):
    """``GatherV2()(params, indices, axis, batch_dims=0)``: MindSpore's deprecated name of Gather."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["params", "indices", "axis"], ["output"])

    def __call__(self, input_params, input_indices, axis, batch_dims=0):
        return F.gather(input_params, input_indices, axis, batch_dims)


def _written_in_place(x, out):
    """x holding out: F.index_add writes a Parameter itself (and returns it); other tensors are written here."""
    return out if out is x else _assign(x, out)


class IndexAdd(Primitive):
    """``IndexAdd(axis, use_lock=True, check_index_bound=True)(x, indices, y)``: y's slices along `axis`
    added into x at `indices`, in place; returns x."""

    @prim_attr_register
    def __init__(self, axis, use_lock=True, check_index_bound=True):
        check_int("IndexAdd", "axis", axis)
        check_bool("IndexAdd", "use_lock", use_lock)
        check_bool("IndexAdd", "check_index_bound", check_index_bound)
        self.init_prim_io_names(["input_x", "indices", "input_y"], ["output"])

    def __call__(self, x, indices, y):
        x = _tensor("IndexAdd", "x", x)
        return _written_in_place(x, F.index_add(x, indices, y, self.axis))


class InplaceIndexAdd(Primitive):
    """``InplaceIndexAdd(axis)(var, indices, updates)``: updates' slices along `axis` added into var at
    `indices`, in place; returns var."""

    @prim_attr_register
    def __init__(self, axis):
        check_int("InplaceIndexAdd", "axis", axis)
        self.init_prim_io_names(["var", "indices", "updates"], ["var"])

    def __call__(self, var, indices, updates):
        var = _tensor("InplaceIndexAdd", "var", var)
        return _written_in_place(var, F.index_add(var, indices, updates, self.axis))


class IndexFill(Primitive):
    """``IndexFill()(x, dim, index, value)``: x with `value` written into its slices along `dim` at `index`."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "dim", "index", "value"], ["y"])

    def __call__(self, x, dim, index, value):
        if isinstance(dim, Tensor):
            dim = int(dim.asnumpy())  # an axis: a compile-time value
        return F.index_fill(x, dim, index, value)


class IndexPut(Primitive):
    """``IndexPut(accumulate=0)(x1, x2, indices)``: x1 with x2 written (accumulate=1: added) at the
    positions the tuple of 1-d index tensors selects; a new tensor."""

    @prim_attr_register
    def __init__(self, accumulate=0):
        if isinstance(accumulate, bool) or accumulate not in (0, 1):
            raise ValueError(f"IndexPut: 'accumulate' must be 0 or 1, but got {accumulate!r}")
        self.init_prim_io_names(["x1", "x2", "indices"], ["y"])

    def __call__(self, x1, x2, indices):
        x1 = _tensor("IndexPut", "x1", x1)
        if not isinstance(indices, (tuple, list)) or not all(isinstance(i, Tensor) for i in indices):
            raise TypeError(f"IndexPut: 'indices' must be a tuple or list of Tensors, but got {indices!r}")
        return x1.index_put(tuple(indices), _tensor("IndexPut", "x2", x2), bool(self.accumulate))


class _InplaceRows(Primitive):
    _function = None

    @prim_attr_register
    def __init__(self, indices):
        self.add_prim_attr("indices", check_int_tuple(type(self).__name__, "indices", indices))
        self.init_prim_io_names(["x", "v"], ["y"])

    def __call__(self, x, input_v):
        return type(self)._function(x, input_v, self.indices)


class InplaceAdd(_InplaceRows):
    """``InplaceAdd(indices)(x, v)``: x with v's rows added to rows `indices`; a new tensor."""
    _function = staticmethod(F.inplace_add)


class InplaceSub(_InplaceRows):
    """``InplaceSub(indices)(x, v)``: x with v's rows subtracted from rows `indices`; a new tensor."""
    _function = staticmethod(F.inplace_sub)


class InplaceUpdateV2(Primitive):
    """``InplaceUpdateV2()(x, indices, v)``: x with rows `indices` (an int or tuple) replaced by v's rows."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "indices", "v"], ["y"])

    def __call__(self, x, indices, v):
        return F.inplace_update(x, v, check_int_tuple("InplaceUpdateV2", "indices", indices))


class MaskedScatter(Primitive):
    """``MaskedScatter()(x, mask, source)``: x with the positions where mask is True filled, in order, by
    source's first elements; a new tensor."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "mask", "updates"], ["y"])

    def __call__(self, input, mask, source):
        return _tensor("MaskedScatter", "input", input).masked_scatter(mask, source)


class ScatterNdAdd(Primitive):
    """``ScatterNdAdd(use_locking=False)(input_x, indices, updates)``: updates added into input_x at the
    N-d `indices`, in place; returns input_x."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        check_bool("ScatterNdAdd", "use_locking", use_locking)
        self.init_prim_io_names(["input_x", "indices", "updates"], ["y"])

    def __call__(self, input_x, indices, updates):
        return F.scatter_nd_add(input_x, indices, updates, self.use_locking)


class ScatterNdUpdate(Primitive):
    """``ScatterNdUpdate(use_locking=True)(input_x, indices, updates)``: updates written into input_x at the
    N-d `indices`, in place; returns input_x."""

    @prim_attr_register
    def __init__(self, use_locking=True):
        check_bool("ScatterNdUpdate", "use_locking", use_locking)
        self.init_prim_io_names(["input_x", "indices", "updates"], ["y"])

    def __call__(self, input_x, indices, updates):
        return F.scatter_nd_update(input_x, indices, updates)


class ScatterUpdate(Primitive):
    """``ScatterUpdate(use_locking=True)(input_x, indices, updates)``: updates written into input_x's rows
    `indices` (along axis 0), in place; returns input_x."""

    @prim_attr_register
    def __init__(self, use_locking=True):
        check_bool("ScatterUpdate", "use_locking", use_locking)
        self.init_prim_io_names(["input_x", "indices", "updates"], ["y"])

    def __call__(self, input_x, indices, updates):
        return F.scatter_update(input_x, indices, updates)


class TensorScatterAdd(Primitive):
    """``TensorScatterAdd()(input_x, indices, updates)``: input_x with updates added at the N-d indices; a
    new tensor."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input_x", "indices", "updates"], ["y"])

    def __call__(self, input_x, indices, updates):
        return F.tensor_scatter_add(input_x, indices, updates)


class Bucketize(Primitive):
    """``Bucketize(boundaries)(input)``: for each element, the number of boundaries <= it (Int32)."""

    @prim_attr_register
    def __init__(self, boundaries):
        if not isinstance(boundaries, (tuple, list)) or not all(
                isinstance(b, (int, float)) and not isinstance(b, bool) for b in boundaries):
            raise TypeError(f"Bucketize: 'boundaries' must be a list of floats, but got {boundaries!r}")
        if list(boundaries) != sorted(boundaries):
            raise ValueError(f"Bucketize: 'boundaries' must be sorted in increasing order, but got {boundaries!r}")
        self.init_prim_io_names(["input"], ["output"])

    def __call__(self, input):
        # MindSpore's buckets are right-closed on the left: x == boundary goes above it (right=True).
        return F.cast(F.bucketize(input, list(self.boundaries), right=True), mstype.int32)


class UnravelIndex(Primitive):
    """``UnravelIndex()(indices, dims)``: the coordinates in an array of shape `dims` of flat `indices`, one
    row per dimension (shape (len(dims),) + indices.shape)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["indices", "dims"], ["y"])

    def __call__(self, indices, dims):
        return _index.unravel_index(indices, dims)


class _UnsortedSegment(Primitive):
    _function = None

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "segment_ids", "num_segments"], ["y"])

    def __call__(self, input_x, segment_ids, num_segments):
        if isinstance(num_segments, Tensor):
            num_segments = int(num_segments.asnumpy())  # the output's length: a compile-time value
        return type(self)._function(input_x, segment_ids, num_segments)


class UnsortedSegmentMax(_UnsortedSegment):
    """``UnsortedSegmentMax()(x, segment_ids, num_segments)``: per segment, the maximum of x's slices (the
    dtype's lowest value for an empty segment)."""
    _function = staticmethod(F.unsorted_segment_max)


class UnsortedSegmentMin(_UnsortedSegment):
    """``UnsortedSegmentMin()(x, segment_ids, num_segments)``: per segment, the minimum of x's slices (the
    dtype's highest value for an empty segment)."""
    _function = staticmethod(F.unsorted_segment_min)


class UnsortedSegmentProd(_UnsortedSegment):
    """``UnsortedSegmentProd()(x, segment_ids, num_segments)``: per segment, the product of x's slices (1 for
    an empty segment)."""
    _function = staticmethod(F.unsorted_segment_prod)


class EmbeddingLookup(Primitive):
    """``EmbeddingLookup()(params, indices, offset)``: rows indices - offset of the 2-d params; rows out of
    range come out as zeros."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["params", "indices", "offset"], ["output"])

    def __call__(self, input_params, input_indices, offset):
        return _index.embedding_lookup(input_params, input_indices, offset)
