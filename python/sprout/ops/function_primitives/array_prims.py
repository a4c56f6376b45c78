"""Array primitives carried out by functional ops: shapes and dtypes (``ops.Shape()``, ``ops.Rank()`` ...),
joining and splitting (``ops.Pack``, ``ops.Unstack``), conversions (``ops.TupleToArray``), fills and views.

MindSpore's older names (Pack, Unpack, GatherV2, Expand, TensorAdd ...) are kept as the classes it still
exports; each calls the function its documentation points to.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops import function as F
from sprout.ops.function_primitives._attr_checks import check_bool, check_int
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["Shape", "TensorShape", "Rank", "Size", "DType", "TensorToTuple", "TupleToArray", "ScalarToTensor",
           "ScalarToArray", "Expand", "FillV2", "IdentityN", "InvertPermutation", "Pack", "Unpack", "Unstack",
           "TransposeView", "TransposeExtView", "SelectView", "UniqueConsecutive", "ReverseSequence",
           "Diag", "DiagPart", "FillDiagonal", "TrilIndices", "TriuIndices", "LogSpace"]


def _tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def shape_argument(api, arg, shape):
    """A shape given as a tuple/list of ints or a 1-d integer Tensor (whose values fix the output's shape,
    so they are read: an eager tensor, or a constant when compiling)."""
    if isinstance(shape, Tensor):
        if shape.dtype not in (mstype.int32, mstype.int64) or shape.ndim > 1:
            raise TypeError(f"{api}: '{arg}' must be a 1-d int32 or int64 Tensor, but got {shape.dtype} of "
                            f"shape {shape.shape}")
        return tuple(int(v) for v in np.atleast_1d(shape.asnumpy()))
    if isinstance(shape, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in shape):
        return tuple(shape)
    raise TypeError(f"{api}: '{arg}' must be a tuple of ints or a 1-d int Tensor, but got {shape!r}")


def int_argument(api, arg, value):
    """An int given as a Python int or a 0-d (or one-element) integer Tensor, read (it fixes a shape)."""
    if isinstance(value, Tensor):
        if value.dtype not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64) or value.size != 1:
            raise TypeError(f"{api}: '{arg}' must be an int or a one-element int Tensor, but got {value.dtype} "
                            f"of shape {value.shape}")
        return int(value.asnumpy().reshape(()))
    return check_int(api, arg, value)


class Shape(Primitive):
    """``Shape()(x)``: x's shape as a tuple of ints."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x"], ["output"])

    def __call__(self, input_x):
        return tuple(_tensor("Shape", "input_x", input_x).shape)


class TensorShape(Primitive):
    """``TensorShape()(x)``: x's shape as a 1-d Int64 Tensor."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input_x"], ["output"])

    def __call__(self, input_x):
        return Tensor(np.array(_tensor("TensorShape", "input_x", input_x).shape, np.int64))


class Rank(Primitive):
    """``Rank()(x)``: the number of x's dimensions, an int."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        return _tensor("Rank", "input_x", input_x).ndim


class Size(Primitive):
    """``Size()(x)``: the number of x's elements, an int."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        return _tensor("Size", "input_x", input_x).size


class DType(Primitive):
    """``DType()(x)``: x's dtype."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        return _tensor("DType", "input_x", input_x).dtype


class TensorToTuple(Primitive):
    """``TensorToTuple()(x)``: the elements of a 1-d Tensor as a tuple of Python numbers."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_tensor):
        x = _tensor("TensorToTuple", "input_tensor", input_tensor)
        if x.ndim != 1:
            raise ValueError(f"TensorToTuple: 'input_tensor' must be 1-d, but got shape {x.shape}")
        return tuple(x.asnumpy().tolist())


class TupleToArray(Primitive):
    """``TupleToArray()(t)``: a tuple of numbers of one type as a 1-d Tensor: Int32 for ints (as MindSpore's
    primitive gives), Float32 for floats."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        if not isinstance(input_x, (tuple, list)) or not input_x or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in input_x):
            raise TypeError(f"TupleToArray: 'input_x' must be a non-empty tuple of numbers, but got {input_x!r}")
        kinds = {isinstance(v, int) for v in input_x}
        if len(kinds) != 1:
            raise TypeError(f"TupleToArray: all elements of 'input_x' must have the same type, but got {input_x!r}")
        return Tensor(list(input_x), mstype.int32 if kinds == {True} else mstype.float32)


class ScalarToTensor(Primitive):
    """``ScalarToTensor()(x, dtype=ms.float32)``: a 0-d Tensor holding the number x."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input_scalar", "dtype"], ["output_data"])

    def __call__(self, input_x, dtype=mstype.float32):
        return F.scalar_to_tensor(input_x, dtype)


class ScalarToArray(ScalarToTensor):
    """``ScalarToArray()(x)``: MindSpore's deprecated name of ScalarToTensor (a Float32 0-d Tensor)."""


class Expand(Primitive):
    """``Expand()(x, shape)``: x broadcast to `shape` (MindSpore's deprecated BroadcastTo)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "shape"], ["y"])

    def __call__(self, x, shape):
        return F.broadcast_to(_tensor("Expand", "x", x), shape_argument("Expand", "shape", shape))


class FillV2(Primitive):
    """``FillV2()(shape, value)``: a Tensor of `shape` filled with the 0-d Tensor `value` (its dtype)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["shape", "value"], ["y"])

    def __call__(self, shape, value):
        shape = shape_argument("FillV2", "shape", shape)
        value = _tensor("FillV2", "value", value)
        if value.size != 1:
            raise ValueError(f"FillV2: 'value' must hold one element, but got shape {value.shape}")
        # Zeros plus the value: a fresh tensor, differentiable with respect to the value.
        return F.zeros(shape, value.dtype) + F.reshape(value, ())


class IdentityN(Primitive):
    """``IdentityN()(xs)``: the tuple or list of Tensors xs, as a tuple."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        if not isinstance(x, (tuple, list)) or not all(isinstance(t, Tensor) for t in x):
            raise TypeError(f"IdentityN: 'x' must be a tuple or list of Tensors, but got {x!r}")
        return tuple(x)


class InvertPermutation(Primitive):
    """``InvertPermutation()(perm)``: the inverse of a permutation of 0..n-1 given as a tuple of ints."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input_x):
        if not isinstance(input_x, (tuple, list)) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in input_x):
            raise TypeError(f"InvertPermutation: 'input_x' must be a tuple of ints, but got {input_x!r}")
        if sorted(input_x) != list(range(len(input_x))):
            raise ValueError(f"InvertPermutation: 'input_x' must be a permutation of 0..{len(input_x) - 1}, "
                             f"but got {tuple(input_x)}")
        inverse = [0] * len(input_x)
        for i, v in enumerate(input_x):
            inverse[v] = i
        return tuple(inverse)


class Pack(Primitive):
    """``Pack(axis=0)(xs)``: MindSpore's deprecated name of Stack."""

    @prim_attr_register
    def __init__(self, axis=0):
        check_int(type(self).__name__, "axis", axis)

    def __call__(self, x):
        return F.stack(x, self.axis)


class Unstack(Primitive):
    """``Unstack(axis=0, num=None)(x)``: the slices of x along `axis`, as a tuple (`num` is recorded only:
    MindSpore's ignores a value other than the axis's length too)."""

    @prim_attr_register
    def __init__(self, axis=0, num=None):
        api = type(self).__name__
        check_int(api, "axis", axis)
        if num is not None:
            check_int(api, "num", num, minimum=1)

    def __call__(self, input_x):
        api = type(self).__name__
        return F.unbind(_tensor(api, "input_x", input_x), self.axis)


class Unpack(Unstack):
    """``Unpack(axis=0)(x)``: MindSpore's deprecated name of Unstack."""

    @prim_attr_register
    def __init__(self, axis=0):
        check_int("Unpack", "axis", axis)


class TransposeView(Primitive):
    """``TransposeView()(x, perm)``: x with its axes permuted (a view)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input, input_perm):
        return F.transpose(input, input_perm)


class TransposeExtView(Primitive):
    """``TransposeExtView()(x, dim0, dim1)``: x with two axes swapped (a view)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input, dim0, dim1):
        return F.swapaxes(input, dim0, dim1)


class SelectView(Primitive):
    """``SelectView()(x, index, dim)``: the slice of x at `index` along `dim`, without that axis (MindSpore's
    argument order: index before dim)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, input, index, dim):
        x = _tensor("SelectView", "input", input)
        check_int("SelectView", "dim", dim)
        check_int("SelectView", "index", index)
        if not -x.ndim <= dim < x.ndim:
            raise ValueError(f"SelectView: 'dim' must be in [{-x.ndim}, {x.ndim}), but got {dim}")
        dim %= x.ndim
        length = x.shape[dim]
        if not -length <= index < length:
            raise ValueError(f"SelectView: 'index' must be in [{-length}, {length}) for axis {dim}, but got {index}")
        return F.squeeze(F.narrow(x, dim, index % length, 1), dim)


class UniqueConsecutive(Primitive):
    """``UniqueConsecutive(return_inverse=False, return_counts=False, dim=None)(x)``: (output, idx, counts).

    MindSpore's primitive always returns three tensors, placeholders for the ones not asked for; here they
    are the real inverse indices and counts whatever the flags (the flags are kept as attributes)."""

    @prim_attr_register
    def __init__(self, return_inverse=False, return_counts=False, dim=None):
        check_bool("UniqueConsecutive", "return_inverse", return_inverse)
        check_bool("UniqueConsecutive", "return_counts", return_counts)
        if dim is not None:
            check_int("UniqueConsecutive", "dim", dim)

    def __call__(self, x):
        return F.unique_consecutive(x, True, True, self.dim)


class ReverseSequence(Primitive):
    """``ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``: the first seq_lengths[b] entries along
    `seq_dim` of each batch row b reversed."""

    @prim_attr_register
    def __init__(self, seq_dim, batch_dim=0):
        check_int("ReverseSequence", "seq_dim", seq_dim)
        check_int("ReverseSequence", "batch_dim", batch_dim)
        self.init_prim_io_names(["x", "seq_lengths"], ["y"])

    def __call__(self, x, seq_lengths):
        return F.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class Diag(Primitive):
    """``Diag()(x)``: the tensor of rank 2k with x (rank k) on its diagonal."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, input):
        return F.diag(input)


class DiagPart(Primitive):
    """``DiagPart()(x)``: of a tensor of rank 2k and shape s + s, the rank-k tensor of its x[i..., i...]."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, input_x):
        x = _tensor("DiagPart", "input_x", input_x)
        half = x.ndim // 2
        if x.ndim == 0 or x.ndim % 2 or x.shape[:half] != x.shape[half:]:
            raise ValueError(f"DiagPart: 'input_x' must have an even rank 2k and shape s + s, but got {x.shape}")
        n = int(np.prod(x.shape[:half]))
        return F.reshape(F.diagonal(F.reshape(x, (n, n))), x.shape[:half])


class FillDiagonal(Primitive):
    """``FillDiagonal(fill_value, wrap=False)(x)``: x (rank >= 2, all sizes equal beyond 2-d) with its main
    diagonal set to fill_value; with `wrap`, a tall matrix's diagonal restarts every n+1 rows."""

    @prim_attr_register
    def __init__(self, fill_value, wrap=False):
        if isinstance(fill_value, bool) or not isinstance(fill_value, (int, float)):
            raise TypeError(f"FillDiagonal: 'fill_value' must be a float, but got {fill_value!r}")
        check_bool("FillDiagonal", "wrap", wrap)
        self.init_prim_io_names(["input_x"], ["y"])

    def __call__(self, input_x):
        return _tensor("FillDiagonal", "input_x", input_x).fill_diagonal(self.fill_value, self.wrap)


class _TriangleIndices(Primitive):
    _function = None

    @prim_attr_register
    def __init__(self, row, col, offset=0, dtype=mstype.int32):
        api = type(self).__name__
        check_int(api, "row", row, minimum=0)
        check_int(api, "col", col, minimum=0)
        check_int(api, "offset", offset)
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"{api}: 'dtype' must be mindspore.int32 or mindspore.int64, but got {dtype!r}")

    def __call__(self):
        return type(self)._function(self.row, self.col, self.offset, dtype=self.dtype)


class TrilIndices(_TriangleIndices):
    """``TrilIndices(row, col, offset=0, dtype=ms.int32)()``: the 2 x N coordinates of a row x col
    matrix's lower triangle (diagonals up to `offset`), row by row."""
    _function = staticmethod(F.tril_indices)


class TriuIndices(_TriangleIndices):
    """``TriuIndices(row, col, offset=0, dtype=ms.int32)()``: the 2 x N coordinates of a row x col
    matrix's upper triangle (diagonals from `offset`), row by row."""
    _function = staticmethod(F.triu_indices)


class LogSpace(Primitive):
    """``LogSpace(steps=10, base=10, dtype=ms.float32)(start, end)``: `steps` numbers from base**start to
    base**end, evenly spaced in the exponent."""

    @prim_attr_register
    def __init__(self, steps=10, base=10, dtype=mstype.float32):
        check_int("LogSpace", "steps", steps, minimum=0)
        check_int("LogSpace", "base", base, minimum=0)
        if dtype not in (mstype.float16, mstype.float32, mstype.float64):
            raise TypeError(f"LogSpace: 'dtype' must be mindspore.float16, float32 or float64, but got {dtype!r}")
        self.init_prim_io_names(["start", "end"], ["y"])

    def __call__(self, start, end):
        for arg, value in (("start", start), ("end", end)):
            if not isinstance(value, Tensor) or value.ndim != 0:
                raise TypeError(f"LogSpace: '{arg}' must be a 0-d Tensor, but got {value!r}")
        return F.logspace(start, end, self.steps, self.base, dtype=self.dtype)
