"""unsorted_segment_max / min / prod: the maximum, minimum and product of the slices of `x` that share a
segment id, next to the registry's UnsortedSegmentSum. MindSpore 2.x names and arguments.

Each is one scatter with a combining rule (tensor_scatter_max/min/mul, which reduce repeated indices
correctly and have gradients) into a tensor holding the reduction's identity: MindSpore's values for empty
segments are the dtype's lowest finite value (max), its highest (min) and 1 (prod). Ids outside
[0, num_segments) are dropped, as TensorFlow's and MindSpore's GPU kernels do (MindSpore's CPU kernel
raises for ids past the end, which would need the ids' values on the host and could not compile): they are
sent to a spare row that is cut off.
"""
import numpy as np

from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import _narrow, cast, reshape
from sprout.ops.function.array_scatter_views_func import tensor_scatter_max, tensor_scatter_min, tensor_scatter_mul

_select, _less, _greater_equal, _logical_or = prim("Select"), prim("Less"), prim("GreaterEqual"), prim("LogicalOr")


# The largest finite value of each floating dtype (NumPy has no bfloat16: 2^128 (1 - 2^-8)).
_FLOAT_MAX = {mstype.float16: 65504.0, mstype.bfloat16: 3.3895313892515355e38,
              mstype.float32: float(np.finfo(np.float32).max), mstype.float64: float(np.finfo(np.float64).max)}


def _identity(dtype, reduction):
    """The value of an empty segment."""
    if reduction == "prod":
        return 1
    if dtype in _FLOAT_MAX:
        return -_FLOAT_MAX[dtype] if reduction == "max" else _FLOAT_MAX[dtype]
    info = np.iinfo(mstype.dtype_to_nptype(dtype))
    return int(info.min if reduction == "max" else info.max)


def _num_segments(api, num_segments):
    if isinstance(num_segments, Tensor) and type(num_segments) is Tensor:  # eager 0-d tensor: its value
        if num_segments.ndim != 0 or num_segments.dtype not in mstype.int_type:
            raise TypeError(f"{api}: a Tensor 'num_segments' must be a 0-d integer tensor, but got shape "
                            f"{num_segments.shape} and dtype {num_segments.dtype}")
        num_segments = int(num_segments.asnumpy())
    if isinstance(num_segments, bool) or not isinstance(num_segments, (int, np.integer)):
        raise TypeError(f"{api}: 'num_segments' must be an int (or an eager 0-d integer Tensor), but got "
                        f"{type(num_segments).__name__}")
    if num_segments <= 0:
        raise ValueError(f"{api}: 'num_segments' must be positive, but got {num_segments}")
    return int(num_segments)


def _segment_reduce(api, reduction, x, segment_ids, num_segments):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: 'x' must be a Tensor, but got {type(x).__name__}")
    if not isinstance(segment_ids, Tensor):
        raise TypeError(f"{api}: 'segment_ids' must be a Tensor, but got {type(segment_ids).__name__}")
    if segment_ids.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"{api}: 'segment_ids' must be an int32 or int64 tensor, but got {segment_ids.dtype}")
    if x.dtype == mstype.bool_:
        raise TypeError(f"{api}: 'x' must be a numeric tensor, but got {x.dtype}")
    k = segment_ids.ndim
    if k == 0 or x.shape[:k] != segment_ids.shape:
        raise ValueError(f"{api}: the shape of 'segment_ids' must be a non-empty prefix of x's shape {x.shape}, "
                         f"but got {segment_ids.shape}")
    num = _num_segments(api, num_segments)
    inner = x.shape[k:]
    n = int(np.prod(segment_ids.shape, dtype=np.int64))
    ids = reshape(cast(segment_ids, mstype.int64), (n, 1))
    outside = _logical_or(_less(ids, Tensor(0, mstype.int64)), _greater_equal(ids, Tensor(num, mstype.int64)))
    ids = _select(outside, prim("Fill")(mstype.int64, (n, 1), num), ids)  # to the spare row
    init = prim("Fill")(x.dtype, (num + 1,) + inner, _identity(x.dtype, reduction))
    scatter = {"max": tensor_scatter_max, "min": tensor_scatter_min, "prod": tensor_scatter_mul}[reduction]
    out = scatter(init, ids, reshape(x, (n,) + inner))
    return _narrow(out, 0, 0, num)


def unsorted_segment_max(x, segment_ids, num_segments):
    """The elementwise maximum of the slices x[j...] with segment_ids[j...] == i, for i < num_segments;
    shape (num_segments,) + x.shape[segment_ids.ndim:]. Empty segments hold the dtype's lowest value."""
    return _segment_reduce("unsorted_segment_max", "max", x, segment_ids, num_segments)


def unsorted_segment_min(x, segment_ids, num_segments):
    """The elementwise minimum of the slices sharing a segment id; empty segments hold the dtype's highest
    value."""
    return _segment_reduce("unsorted_segment_min", "min", x, segment_ids, num_segments)


def unsorted_segment_prod(x, segment_ids, num_segments):
    """The elementwise product of the slices sharing a segment id; empty segments hold 1."""
    return _segment_reduce("unsorted_segment_prod", "prod", x, segment_ids, num_segments)


__all__ = ["unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod"]
TENSOR_METHODS = list(__all__)
