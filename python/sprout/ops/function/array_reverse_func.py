"""reverse (MindSpore's older name of flip, for a list of axes) and reverse_sequence (each batch entry's
first seq_lengths[b] elements along seq_dim reversed, the rest kept). MindSpore 2.x names and arguments.

reverse_sequence is one GatherElements with an index computed from the lengths, so it has gradients and
compiles; lengths are clamped to [0, x.shape[seq_dim]] (MindSpore's kernels require them in range; 0 and 1
leave the entry as it is).
"""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _axis, _ints, cast, reshape

_select, _less, _sub, _minimum, _maximum = prim("Select"), prim("Less"), prim("Sub"), prim("Minimum"), prim("Maximum")


def reverse(x, axis):
    """`x` with the order of its elements reversed along each axis in `axis` (an int or a list/tuple of ints)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"reverse: 'x' must be a Tensor, but got {type(x).__name__}")
    axes = tuple(_axis("reverse", "axis", a, x.ndim) for a in _ints(axis, "reverse", "axis"))
    if len(set(axes)) != len(axes):
        raise ValueError(f"reverse: 'axis' must not repeat an axis, but got {axis}")
    return prim("ReverseV2", axis=axes)(x)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """For each b along `batch_dim`, the first seq_lengths[b] elements of `x` along `seq_dim` reversed."""
    api = "reverse_sequence"
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: 'x' must be a Tensor, but got {type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"{api}: 'x' must have at least 2 dimensions, but got shape {x.shape}")
    seq_dim, batch_dim = _axis(api, "seq_dim", seq_dim, x.ndim), _axis(api, "batch_dim", batch_dim, x.ndim)
    if seq_dim == batch_dim:
        raise ValueError(f"{api}: 'seq_dim' and 'batch_dim' must differ, but both are {seq_dim}")
    if not isinstance(seq_lengths, Tensor):
        raise TypeError(f"{api}: 'seq_lengths' must be a Tensor, but got {type(seq_lengths).__name__}")
    if seq_lengths.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'seq_lengths' must be an int32 or int64 tensor, but got {seq_lengths.dtype}")
    if seq_lengths.shape != (x.shape[batch_dim],):
        raise ValueError(f"{api}: 'seq_lengths' must have shape ({x.shape[batch_dim]},) (x.shape[batch_dim]), "
                         f"but got {seq_lengths.shape}")
    steps = x.shape[seq_dim]
    shape_i, shape_b = [1] * x.ndim, [1] * x.ndim
    shape_i[seq_dim], shape_b[batch_dim] = steps, x.shape[batch_dim]
    i = reshape(prim("Range")(0, steps, 1, mstype.int64), tuple(shape_i))
    length = cast(seq_lengths, mstype.int64)
    length = _maximum(_minimum(length, Tensor(steps, mstype.int64)), Tensor(0, mstype.int64))
    length = reshape(length, tuple(shape_b))
    # Position i takes element length - 1 - i while i < length, else stays.
    index = _select(_less(i, length), _sub(_sub(length, Tensor(1, mstype.int64)), i), i)  # Select broadcasts
    index = prim("BroadcastTo", shape=x.shape)(index) if index.shape != x.shape else index
    return prim("GatherElements")(x, index, seq_dim)


__all__ = ["reverse", "reverse_sequence"]
TENSOR_METHODS = ["reverse"]  # Tensor.reverse_sequence defaults seq_dim to 0: tensor_methods_wave2
