"""Array ops: layout and dtype (cast, reshape ...), joining and splitting, creation, indexing, scans.

MindSpore 2.x names and arguments. Each function is a thin call of a registry primitive (or a few), so
eager mode, graph mode and autodiff see the same ops.
"""
import builtins
import numbers

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

_cast, _reshape, _transpose = prim("Cast"), prim("Reshape"), prim("Transpose")


def cast(input, dtype):
    """`input` converted to `dtype`."""
    if not isinstance(dtype, mstype.Type):
        raise TypeError(f"cast: 'dtype' must be a sprout dtype such as ms.float32, but got {dtype!r}")
    return _cast(input, dtype)


def _sequence(value, api, arg):
    """A shape or permutation as a tuple; the primitive checks the entries. What is not a sequence is
    refused here, naming the op, rather than by tuple()'s "'int' object is not iterable"."""
    if isinstance(value, tuple):
        return value
    try:
        return tuple(value)
    except TypeError:
        raise TypeError(f"{api}: '{arg}' must be a tuple or list of ints, but got {type(value).__name__}") from None


def reshape(input, shape):
    """Same elements in `shape` (one entry may be -1); a view when the layout allows."""
    return _reshape(input, _sequence(shape, "reshape", "shape"))


def transpose(input, input_perm):
    """Permutes the axes as `input_perm` says; a view."""
    return _transpose(input, _sequence(input_perm, "transpose", "input_perm"))


def permute(input, dims):
    """Same as transpose (MindSpore 2.x name)."""
    return _transpose(input, _sequence(dims, "permute", "dims"))


# ---- helpers --------------------------------------------------------------------------------------

def _tensor(x, api, arg):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (numbers.Number, list, tuple, np.ndarray)):
        return Tensor(x)
    raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")


def _int(x, api, arg):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{api}: '{arg}' must be an int, but got {x!r}")
    return int(x)


def _ints(x, api, arg):
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return (int(x),)
    if isinstance(x, (tuple, list)) and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in x):
        return tuple(int(v) for v in x)
    raise TypeError(f"{api}: '{arg}' must be an int or a tuple of ints, but got {x!r}")


def _axis(api, arg, axis, ndim):
    """`axis` checked against a rank-`ndim` tensor and made non-negative (a 0-d tensor takes 0 and -1, as
    PyTorch's ops do)."""
    axis = _int(axis, api, arg)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{api}: '{arg}' must be in [{-max(ndim, 1)}, {max(ndim, 1)}) for a "
                         f"{ndim}-d input, but got {axis}")
    return axis % max(ndim, 1)


def _tensors(seq, api, arg):
    if isinstance(seq, Tensor) or not isinstance(seq, (tuple, list)):
        raise TypeError(f"{api}: '{arg}' must be a tuple or list of Tensors, but got {type(seq).__name__}")
    return tuple(_tensor(t, api, arg) for t in seq)


# ---- shape ----------------------------------------------------------------------------------------

def expand_dims(input_x, axis):
    """Inserts an axis of size 1 at `axis`; a view."""
    return prim("ExpandDims")(input_x, _int(axis, "expand_dims", "axis"))


def unsqueeze(input, dim):
    """Inserts an axis of size 1 at `dim`; a view."""
    return prim("ExpandDims")(input, _int(dim, "unsqueeze", "dim"))


def squeeze(input, axis=None):
    """Removes axes of size 1: those in `axis`, or all of them when None; a view."""
    axes = () if axis is None else _ints(axis, "squeeze", "axis")
    return prim("Squeeze", axis=axes)(input)


def flatten(input, order='C', *, start_dim=1, end_dim=-1):
    """Merges the axes start_dim..end_dim into one (row-major); a view when the layout allows."""
    if order != 'C':
        raise ValueError(f"flatten: 'order' must be 'C', but got {order!r}")
    x = _tensor(input, "flatten", "input")
    if x.ndim == 0:
        return reshape(x, (1,))
    start = _int(start_dim, "flatten", "start_dim")
    end = _int(end_dim, "flatten", "end_dim")
    start, end = start + x.ndim if start < 0 else start, end + x.ndim if end < 0 else end
    if not (0 <= start <= end < x.ndim):
        raise ValueError(f"flatten: 'start_dim' {start_dim} and 'end_dim' {end_dim} must pick a range of the "
                         f"{x.ndim} axes of 'input' with start_dim <= end_dim")
    merged = 1
    for d in x.shape[start:end + 1]:
        merged *= d
    return reshape(x, x.shape[:start] + (merged,) + x.shape[end + 1:])


def tile(input, multiples):
    """Repeats `input` multiples[i] times along axis i; `multiples` shorter than the rank pads with 1s."""
    x = _tensor(input, "tile", "input")
    reps = _ints(multiples, "tile", "multiples")
    reps = (1,) * builtins.max(0, x.ndim - len(reps)) + reps
    return prim("Tile")(x, reps)


def flip(input, dims):
    """Reverses the order of elements along `dims`; a view."""
    return prim("ReverseV2", axis=_ints(dims, "flip", "dims"))(input)


# ---- join and split -------------------------------------------------------------------------------

def concat(tensors, axis=0):
    """Joins `tensors` along an existing axis."""
    return prim("Concat", axis=_int(axis, "concat", "axis"))(_tensors(tensors, "concat", "tensors"))


cat = concat


def stack(tensors, axis=0):
    """Joins same-shape `tensors` along a new axis."""
    return prim("Stack", axis=_int(axis, "stack", "axis"))(_tensors(tensors, "stack", "tensors"))


def split(tensor, split_size_or_sections, axis=0):
    """Splits into parts of `split_size_or_sections` elements (the last may be smaller), or of the listed sizes."""
    x = _tensor(tensor, "split", "tensor")
    if x.ndim == 0:
        raise ValueError("split: cannot split a 0-d tensor")
    axis = _axis("split", "axis", axis, x.ndim)
    size = x.shape[axis]
    if isinstance(split_size_or_sections, (int, np.integer)) and not isinstance(split_size_or_sections, bool):
        step = int(split_size_or_sections)
        if step <= 0:
            raise ValueError(f"split: 'split_size_or_sections' must be positive, but got {step}")
        sizes = [step] * (size // step) + ([size % step] if size % step else [])
    else:
        sizes = list(_ints(split_size_or_sections, "split", "split_size_or_sections"))
    if not sizes:
        return (x,)
    if len(sizes) > 1 and all(s == sizes[0] for s in sizes) and sizes[0] * len(sizes) == size:
        return prim("Split", axis=axis, output_num=len(sizes))(x)
    return prim("SplitV", size_splits=tuple(sizes), split_dim=axis, num_split=len(sizes))(x)


def chunk(input, chunks, axis=0):
    """Splits into `chunks` parts of ceil(size / chunks) elements (fewer parts if they run out)."""
    x = _tensor(input, "chunk", "input")
    chunks = _int(chunks, "chunk", "chunks")
    if chunks <= 0:
        raise ValueError(f"chunk: 'chunks' must be positive, but got {chunks}")
    if x.ndim == 0:
        raise ValueError("chunk: cannot split a 0-d tensor")
    size = x.shape[_axis("chunk", "axis", axis, x.ndim)]
    return split(x, builtins.max(1, -(-size // chunks)), axis)


# ---- creation -------------------------------------------------------------------------------------

def _shape(shape, api):
    if isinstance(shape, Tensor):
        shape = tuple(int(v) for v in shape.asnumpy().reshape(-1))
    return _ints(shape, api, "shape")


def ones(shape, dtype=None):
    """A tensor of ones (Float32 unless `dtype` says otherwise)."""
    return prim("Ones")(_shape(shape, "ones"), dtype or mstype.float32)


def zeros(size, dtype=None):
    """A tensor of zeros (Float32 unless `dtype` says otherwise)."""
    return prim("Zeros")(_shape(size, "zeros"), dtype or mstype.float32)


def ones_like(input, *, dtype=None):
    """Ones with the shape of `input` and its dtype (or `dtype`)."""
    out = prim("OnesLike")(_tensor(input, "ones_like", "input"))
    return out if dtype is None else cast(out, dtype)


def zeros_like(input, *, dtype=None):
    """Zeros with the shape of `input` and its dtype (or `dtype`)."""
    out = prim("ZerosLike")(_tensor(input, "zeros_like", "input"))
    return out if dtype is None else cast(out, dtype)


def _fill_value(x, api, arg):
    """A fill value (a number, bool included, or a one-element Tensor) as the float Fill takes."""
    if isinstance(x, Tensor):
        if x.size != 1:
            raise ValueError(f"{api}: '{arg}' must be a number or a one-element Tensor, but got a Tensor of shape "
                             f"{x.shape}")
        x = x.item()
    if not isinstance(x, (numbers.Real, np.bool_)):
        raise TypeError(f"{api}: '{arg}' must be a number or a one-element Tensor, but got {type(x).__name__}")
    return float(x)


def fill(type, shape, value):
    """A tensor of `shape` and dtype `type` whose elements all equal `value`."""
    return prim("Fill")(type, _shape(shape, "fill"), _fill_value(value, "fill", "value"))


def full(size, fill_value, *, dtype=None):
    """A tensor of `size` filled with `fill_value`; the dtype follows the value unless given."""
    if dtype is None:
        dtype = (mstype.bool_ if isinstance(fill_value, bool) else
                 mstype.int64 if isinstance(fill_value, (int, np.integer)) else mstype.float32)
    return prim("Fill")(dtype, _shape(size, "full"), _fill_value(fill_value, "full", "fill_value"))


def full_like(input, fill_value, *, dtype=None):
    """A tensor like `input` filled with `fill_value`."""
    x = _tensor(input, "full_like", "input")
    return prim("Fill")(dtype or x.dtype, x.shape, _fill_value(fill_value, "full_like", "fill_value"))


def eye(n, m=None, dtype=None):
    """An n x m matrix (n x n when m is None) with ones on the diagonal."""
    n = _int(n, "eye", "n")
    return prim("Eye")(n, n if m is None else _int(m, "eye", "m"), dtype or mstype.float32)


def _number(x, api, arg):
    if isinstance(x, Tensor):
        x = x.item()
    if isinstance(x, bool) or not isinstance(x, (numbers.Real, np.number)):
        raise TypeError(f"{api}: '{arg}' must be a number, but got {x!r}")
    return x


def arange(start=0, end=None, step=1, *, dtype=None):
    """Values from `start` up to (not including) `end` in steps of `step` (one argument: 0 up to it)."""
    if end is None:
        start, end = 0, start
    start, end, step = (_number(v, "arange", a) for v, a in ((start, "start"), (end, "end"), (step, "step")))
    if dtype is None:
        dtype = mstype.int64 if all(isinstance(v, (int, np.integer)) for v in (start, end, step)) else mstype.float32
    return prim("Range")(float(start), float(end), float(step), dtype)


def range(start, end, step):
    """Values from `start` up to (not including) `end` in steps of `step`; dtype from the arguments."""
    return arange(start, end, step)


def linspace(start, end, steps):
    """`steps` evenly spaced values from `start` to `end`, both included."""
    start_t = start if isinstance(start, Tensor) else Tensor(float(_number(start, "linspace", "start")), mstype.float32)
    end_t = end if isinstance(end, Tensor) else Tensor(float(_number(end, "linspace", "end")), start_t.dtype)
    return prim("LinSpace")(start_t, end_t, _int(steps, "linspace", "steps"))


def tril(input, diagonal=0):
    """The lower triangle of the last two axes (on and below `diagonal`); the rest is zero."""
    return prim("Tril", diagonal=_int(diagonal, "tril", "diagonal"))(input)


def triu(input, diagonal=0):
    """The upper triangle of the last two axes (on and above `diagonal`); the rest is zero."""
    return prim("Triu", diagonal=_int(diagonal, "triu", "diagonal"))(input)


# ---- select and index -----------------------------------------------------------------------------

def select(cond, input=None, other=None, *, x=None, y=None):
    """input where `cond` is True, else other (broadcasting; Python numbers take the other operand's dtype).
    MindSpore 2.x names the operands input and other; x and y are its 1.x names."""
    x = input if x is None else x
    y = other if y is None else y
    if x is None or y is None:
        raise TypeError("select: both 'input' and 'other' must be given")
    cond = _tensor(cond, "select", "cond")
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        x, y = _tensor(x, "select", "x"), _tensor(y, "select", "y")
    if not isinstance(x, Tensor):
        x = Tensor(x, y.dtype)
    if not isinstance(y, Tensor):
        y = Tensor(y, x.dtype)
    if x.dtype != y.dtype:
        common = _C.promote_types(x.dtype, y.dtype)
        x, y = cast(x, common), cast(y, common)
    return prim("Select")(cond, x, y)


def where(condition, x, y):
    """x where `condition` is True, else y, elementwise with broadcasting."""
    return select(condition, x, y)


def gather(input_params, input_indices, axis, batch_dims=0):
    """Slices of `input_params` along `axis` at `input_indices`. With batch_dims b, the first b axes of both
    are batch axes and each batch gathers with its own indices: the output is params.shape[:axis] +
    indices.shape[b:] + params.shape[axis + 1:]."""
    indices = _tensor(input_indices, "gather", "input_indices")
    axis = _int(axis, "gather", "axis")
    batch_dims = _int(batch_dims, "gather", "batch_dims")
    if batch_dims == 0:
        return prim("Gather")(input_params, indices, axis)
    return _batched_gather(_tensor(input_params, "gather", "input_params"), indices, axis, batch_dims)


def _batched_gather(params, indices, axis, b):
    """gather with batch axes: the batches and the gathered axis merged into one axis, whose indices are
    offset by batch, then one plain Gather and a transpose to MindSpore's output order."""
    if b < 0:
        b += indices.ndim
    axis = axis + params.ndim if axis < 0 else axis
    if not 0 < b <= builtins.min(indices.ndim, axis) or params.shape[:b] != indices.shape[:b]:
        raise ValueError(f"gather: 'batch_dims' {b} needs that many leading axes of equal size in 'input_params' "
                         f"{params.shape} and 'input_indices' {indices.shape}, before 'axis' {axis}")
    batch, n = params.shape[:b], params.shape[axis]
    middle, rest, picked = params.shape[b:axis], params.shape[axis + 1:], indices.shape[b:]
    n_batch = int(np.prod(batch))
    # (batch, n, middle, rest) flattened to (n_batch * n, middle, rest)
    to_front = tuple(builtins.range(b)) + (axis,) + tuple(i for i in builtins.range(b, params.ndim) if i != axis)
    moved = transpose(params, to_front).reshape((n_batch * n,) + middle + rest)
    indices = prim("Select")(prim("Less")(indices, Tensor(0, indices.dtype)), indices + n, indices)
    offsets = Tensor(np.arange(n_batch).reshape((n_batch,) + (1,) * len(picked)) * n, indices.dtype)
    flat = prim("Gather")(moved, indices.reshape((n_batch,) + picked) + offsets, 0)  # (batch, picked, middle, rest)
    out = flat.reshape(batch + picked + middle + rest)
    order = (list(builtins.range(b)) + [b + len(picked) + i for i in builtins.range(len(middle))] +
             [b + i for i in builtins.range(len(picked))] + list(builtins.range(b + len(picked) + len(middle), out.ndim)))
    return transpose(out, tuple(order))


def index_select(input, axis, index):
    """The slices of `input` along `axis` at the 1-d `index`."""
    index = _tensor(index, "index_select", "index")
    if index.ndim != 1:
        raise ValueError(f"index_select: 'index' must be 1-d, but got shape {index.shape}")
    return prim("Gather")(input, index, _int(axis, "index_select", "axis"))


def gather_nd(input_x, indices):
    """Slices of `input_x` at the coordinates in the last axis of `indices`."""
    return prim("GatherNd")(input_x, _tensor(indices, "gather_nd", "indices"))


def scatter_nd(indices, updates, shape):
    """Zeros of `shape` with `updates` added at `indices`."""
    return prim("ScatterNd")(_tensor(indices, "scatter_nd", "indices"), updates, _shape(shape, "scatter_nd"))


def tensor_scatter_update(input_x, indices, updates):
    """A copy of `input_x` with the slices at `indices` replaced by `updates`."""
    return prim("TensorScatterUpdate")(input_x, _tensor(indices, "tensor_scatter_update", "indices"), updates)


def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sums of the slices of `input_x` that share a segment id."""
    return prim("UnsortedSegmentSum")(input_x, _tensor(segment_ids, "unsorted_segment_sum", "segment_ids"),
                                      _int(num_segments, "unsorted_segment_sum", "num_segments"))


def masked_fill(input_x, mask, value):
    """`input_x` with `value` where `mask` is True."""
    x = _tensor(input_x, "masked_fill", "input_x")
    if not isinstance(value, Tensor):
        value = Tensor(_number(value, "masked_fill", "value"), x.dtype)
    return prim("MaskedFill")(x, mask, value)


def masked_select(input, mask):
    """The elements of `input` where `mask` is True, as a 1-d tensor."""
    return prim("MaskedSelect")(input, mask)


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """One-hot encoding of `indices` with `depth` classes along `axis`; Python numbers for the values give
    Int64 (ints, the default 1 and 0) or Float32 (a float among them), as MindSpore does."""
    plain = [v for v in (on_value, off_value) if not isinstance(v, Tensor)]
    number_dtype = mstype.float32 if any(isinstance(v, float) for v in plain) else mstype.int64
    on = on_value if isinstance(on_value, Tensor) else Tensor(on_value, number_dtype)
    off = off_value if isinstance(off_value, Tensor) else Tensor(off_value, on.dtype)
    return prim("OneHot", axis=_int(axis, "one_hot", "axis"))(_tensor(indices, "one_hot", "indices"), on, off,
                                                               _int(depth, "one_hot", "depth"))


# ---- arg and scans --------------------------------------------------------------------------------

def _arg(op, api, input, axis, keepdims, index_dtype=mstype.int64):
    x = _tensor(input, api, "input")
    if axis is None:
        out = prim(op, axis=0, output_type=index_dtype)(reshape(x, (-1,)))
        return reshape(out, (1,) * x.ndim) if keepdims else out
    axis = _int(axis, api, "axis")
    out = prim(op, axis=axis, output_type=index_dtype)(x)
    return expand_dims(out, axis) if keepdims and x.ndim > 0 else out


def argmax(input, dim=None, keepdim=False):
    """Index of the largest element (over the flattened input when `dim` is None); Int64."""
    return _arg("Argmax", "argmax", input, dim, keepdim)


def argmin(input, axis=None, keepdims=False):
    """Index of the smallest element (over the flattened input when `axis` is None); Int32, as MindSpore's
    argmin gives it (its argmax gives Int64)."""
    return _arg("Argmin", "argmin", input, axis, keepdims, mstype.int32)


def cumsum(x, axis, dtype=None):
    """Running sum along `axis`; `dtype` casts the input first."""
    x = _tensor(x, "cumsum", "x")
    if dtype is not None:
        x = cast(x, dtype)
    return prim("CumSum")(x, _int(axis, "cumsum", "axis"))


def cumprod(input, dim, dtype=None):
    """Running product along `dim`; `dtype` casts the input first."""
    x = _tensor(input, "cumprod", "input")
    if dtype is not None:
        x = cast(x, dtype)
    return prim("CumProd")(x, _int(dim, "cumprod", "dim"))


# ---- ordering -------------------------------------------------------------------------------------

def sort(input_x, axis=-1, descending=False):
    """(values, indices) of `input_x` sorted along `axis`; indices are Int32."""
    return prim("Sort", axis=_int(axis, "sort", "axis"), descending=bool(descending))(input_x)


def argsort(input, axis=-1, descending=False):
    """The Int32 indices that sort `input` along `axis`."""
    return sort(input, axis, descending)[1]


def topk(input, k, dim=None, largest=True, sorted=True):
    """(values, indices) of the k largest (or smallest) elements along `dim` (the last axis by default)."""
    x = _tensor(input, "topk", "input")
    k = _int(k, "topk", "k")
    if x.ndim == 0:
        raise ValueError("topk: 'input' must have rank >= 1, but got a 0-d tensor")
    dim = x.ndim - 1 if dim is None else _axis("topk", "dim", dim, x.ndim)
    if not largest:
        values, indices = sort(x, dim, False)
        if not 0 <= k <= x.shape[dim]:
            raise ValueError(f"topk: 'k' must be in [0, {x.shape[dim]}], but got {k}")
        begin, size = [0] * x.ndim, list(x.shape)
        size[dim] = k
        return prim("Slice")(values, tuple(begin), tuple(size)), prim("Slice")(indices, tuple(begin), tuple(size))
    if dim == x.ndim - 1:
        return prim("TopK", sorted=bool(sorted))(x, k)
    perm = list(builtins.range(x.ndim))
    perm[dim], perm[-1] = perm[-1], perm[dim]
    values, indices = prim("TopK", sorted=bool(sorted))(transpose(x, perm), k)
    return transpose(values, perm), transpose(indices, perm)


def unique(input):
    """(sorted distinct values, position of each element's value among them); any shape, flattened."""
    x = _tensor(input, "unique", "input")
    output, idx = prim("Unique")(reshape(x, (-1,)))
    return output, reshape(idx, x.shape)


# ---- element indexing, roll, grids, padding, slicing ----------------------------------------------

def gather_elements(input, dim, index):
    """out[i][j] = input[index[i][j]][j] for dim 0, and likewise for other dims."""
    return prim("GatherElements")(input, _tensor(index, "gather_elements", "index"), _int(dim, "gather_elements", "dim"))


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """A copy of `input_x` with each update written ('none') or added ('add') at its index along `axis`."""
    return prim("TensorScatterElements", axis=_int(axis, "tensor_scatter_elements", "axis"), reduction=reduction)(
        input_x, _tensor(indices, "tensor_scatter_elements", "indices"), updates)


def roll(input, shifts, dims=None):
    """Shifts elements along `dims`, wrapping around (over the flattened tensor when `dims` is None)."""
    shifts = _ints(shifts, "roll", "shifts")
    dims = () if dims is None else _ints(dims, "roll", "dims")
    return prim("Roll", shift=shifts, axis=dims)(input)


def meshgrid(*inputs, indexing='xy'):
    """Coordinate grids from 1-d tensors ('xy': Cartesian, 'ij': matrix indexing)."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    return prim("Meshgrid", indexing=indexing)(_tensors(inputs, "meshgrid", "inputs"))


def _narrow(x, axis, start, count):
    """Elements [start, start + count) of x along `axis` (checked by the caller); a view."""
    begin, size = [0] * x.ndim, list(x.shape)
    begin[axis], size[axis] = start, count
    return prim("Slice")(x, tuple(begin), tuple(size))


def _shift(x, axis, by, fill):
    """x moved `by` positions along `axis` (non-negative), `fill` entering at the front: the step of the
    doubling scans (logcumsumexp, cummax) and of CTC's recursion."""
    padding = (0, 0) * (x.ndim - 1 - axis) + (by, 0)  # pad's pairs start from the last axis
    return _narrow(pad(x, padding, value=fill), axis, 0, x.shape[axis])


def pad(input_x, padding, mode='constant', value=None):
    """Pads `input_x`; `padding` pairs start from the last axis: (left, right, top, bottom ...). mode
    'constant' fills with `value` (0 by default); 'reflect' mirrors about the edge, 'replicate' repeats the
    edge, 'circular' wraps around (those three pad the last 1-3 axes)."""
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError(f"pad: 'mode' must be 'constant', 'reflect', 'replicate' or 'circular', but got {mode!r}")
    x = _tensor(input_x, "pad", "input_x")
    padding = _ints(padding, "pad", "padding")
    if len(padding) % 2 or len(padding) // 2 > x.ndim:
        raise ValueError(f"pad: 'padding' must hold (before, after) pairs for at most {x.ndim} axes, "
                         f"but got {padding}")
    pairs = [(0, 0)] * (x.ndim - len(padding) // 2) + [
        (padding[2 * i], padding[2 * i + 1]) for i in reversed(builtins.range(len(padding) // 2))]
    flat = tuple(v for pair in pairs for v in pair)
    if mode != "constant":
        if value is not None:
            raise ValueError(f"pad: 'value' applies to mode='constant' only, but got value={value!r} with {mode!r}")
        if builtins.any(p < 0 for p in padding):
            raise ValueError(f"pad: mode={mode!r} needs non-negative 'padding', but got {padding}")
        for n, (before, after) in zip(x.shape, pairs):  # PyTorch's limits: replicate needs one element only
            limit = n - 1 if mode == "reflect" else n if mode == "circular" else (before + after if n else 0)
            if (before or after) and (before > limit or after > limit or n == 0):
                raise ValueError(f"pad: mode={mode!r} pads an axis of size {n} by at most {limit} on each side, "
                                 f"but got ({before}, {after})")
        if not builtins.any(flat):
            return x
        return prim("PadEdges", paddings=flat, mode=mode)(x)  # Note [Padding from the edges]
    fill = 0.0 if value is None else _fill_value(value, "pad", "value")
    if fill == 0 or builtins.any(p < 0 for p in flat):
        return prim("Pad", paddings=flat)(x)  # which names a negative padding
    # Blocks of the value joined on, an axis at a time: a copy of x per padded axis, where Pad, a mask
    # and a Select took five passes (max_pool2d pads with -inf: 229 -> 39 ms at ResNet-18's first pooling).
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            block = lambda n: prim("Fill")(x.dtype, x.shape[:axis] + (n,) + x.shape[axis + 1:], fill)  # noqa: E731
            x = prim("Concat", axis=axis)(([block(before)] if before else []) + [x] + ([block(after)] if after else []))
    return x


def slice(input_x, begin, size):
    """The block of `input_x` starting at `begin` of extent `size` (-1: to the end); a view."""
    return prim("Slice")(input_x, _ints(begin, "slice", "begin"), _ints(size, "slice", "size"))


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    """input_x[begin:end:strides] per entry, with bit masks for omitted bounds, '...', new axes and indexing."""
    return prim("StridedSlice", begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)(
        input_x, _ints(begin, "strided_slice", "begin"), _ints(end, "strided_slice", "end"),
        _ints(strides, "strided_slice", "strides"))


def scatter_add(input_x, indices, updates):
    """Adds `updates` into the rows of `input_x` at `indices`, in place; returns `input_x`."""
    return prim("ScatterAdd")(input_x, _tensor(indices, "scatter_add", "indices"), updates)


# ---- graph plumbing -------------------------------------------------------------------------------

def depend(value, expr):
    """`value`, computed after `expr` in graph mode."""
    return prim("Depend")(value, expr)


def stop_gradient(value):
    """`value`, with no gradient flowing back through it: a Tensor, or each Tensor in a tuple or list; other
    values (Python numbers) come back as they are, as MindSpore's."""
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    if not isinstance(value, Tensor):
        return value
    return prim("StopGradient")(value)


__all__ = ["cast", "reshape", "transpose", "permute",
           "expand_dims", "unsqueeze", "squeeze", "flatten", "tile", "flip",
           "concat", "cat", "stack", "split", "chunk",
           "ones", "zeros", "ones_like", "zeros_like", "fill", "full", "full_like", "eye", "arange", "range",
           "linspace", "tril", "triu",
           "select", "where", "gather", "index_select", "gather_nd", "scatter_nd", "tensor_scatter_update",
           "unsorted_segment_sum", "masked_fill", "masked_select", "one_hot",
           "argmax", "argmin", "cumsum", "cumprod", "depend", "stop_gradient",
           "sort", "argsort", "topk", "unique", "gather_elements", "tensor_scatter_elements", "roll", "meshgrid",
           "pad", "slice", "strided_slice", "scatter_add"]

# Also Tensor methods (x.squeeze(), x.argmax() ...): same name, the tensor as first argument.
TENSOR_METHODS = ["expand_dims", "unsqueeze", "squeeze", "tile", "flip", "split", "chunk",
                  "tril", "triu", "gather", "index_select", "masked_fill", "masked_select", "argmax", "argmin",
                  "cumsum", "cumprod", "sort", "argsort", "topk", "gather_elements", "roll"]
