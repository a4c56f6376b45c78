"""MindSpore 1.x-era array functions that 2.x still has (most deprecated after 2.9, still met in model code):
gather_d, inplace_index_add, is_nonzero, ravel, deepcopy, dyn_shape, eps and print_.

Each is a composition of existing ops, so it compiles unchanged; is_nonzero gives a Python bool eagerly and a
Bool 0-d tensor while compiling (a graph has no values to turn into a bool).
"""
import numbers

import numpy as np

from sprout import _C
from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import gather_elements, unsorted_segment_sum
from sprout.ops.function.array_view_func import moveaxis

__all__ = ["gather_d", "inplace_index_add", "is_nonzero", "ravel", "deepcopy", "dyn_shape", "eps", "print_"]
TENSOR_METHODS = ["ravel", "is_nonzero"]


def _check_tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def gather_d(x, dim, index):
    """output[i][j] = x[index[i][j]][j] (dim 0) or x[i][index[i][j]] (dim 1) ...: ops.gather_elements."""
    return gather_elements(_check_tensor("gather_d", "x", x), dim, index)


def inplace_index_add(var, indices, updates, axis):
    """var[..., indices[i], ...] += updates[..., i, ...] along `axis`, written into `var` (a Parameter or a
    Tensor) in place; repeated indices accumulate. Returns var's new value."""
    api = "inplace_index_add"
    var = _check_tensor(api, "var", var)
    updates = _check_tensor(api, "updates", updates)
    indices = _check_tensor(api, "indices", indices)
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"{api}: 'axis' must be an int, but got {type(axis).__name__}")
    if not -var.ndim <= axis < max(var.ndim, 1):
        raise ValueError(f"{api}: 'axis' must be in [{-var.ndim}, {var.ndim}), but got {axis}")
    axis = int(axis) % var.ndim
    if indices.dtype not in (mstype.int32, mstype.int64) or indices.ndim != 1:
        raise TypeError(f"{api}: 'indices' must be a 1-d int32 or int64 tensor, but got {indices.dtype} of shape "
                        f"{indices.shape}")
    expected = var.shape[:axis] + (indices.shape[0],) + var.shape[axis + 1:]
    if tuple(updates.shape) != tuple(expected):
        raise ValueError(f"{api}: 'updates' must have shape {expected} ('var' {var.shape} with the number of "
                         f"indices along axis {axis}), but got {updates.shape}")
    if updates.dtype != var.dtype:
        raise TypeError(f"{api}: 'updates' must have the dtype of 'var' ({var.dtype}), but got {updates.dtype}")
    # Slices moved to the front, summed per index into var's positions, moved back.
    sums = unsorted_segment_sum(moveaxis(updates, axis, 0), indices, var.shape[axis])
    written = prim("Assign")(var, var + moveaxis(sums, 0, axis))
    return written if is_building_graph() else _C.detach(var)


def is_nonzero(input):
    """Whether the one element of `input` is neither 0 nor False: a Python bool (a Bool 0-d tensor while
    compiling)."""
    x = _check_tensor("is_nonzero", "input", input)
    if x.size != 1:
        raise ValueError(f"is_nonzero: 'input' must hold exactly one element, but got shape {x.shape} ({x.size} "
                         f"elements)")
    flag = prim("NotEqual")(x.reshape(()), Tensor(0, x.dtype))
    return flag if is_building_graph() else bool(flag.asnumpy())


def ravel(input):
    """The elements of `input` as a 1-d tensor, in row-major order (a 0-d tensor gives shape (1,))."""
    x = _check_tensor("ravel", "input", input)
    return prim("Reshape")(x, (x.size,))


def deepcopy(input_x):
    """A copy of `input_x` with memory of its own."""
    x = _check_tensor("deepcopy", "input_x", input_x)
    return prim("Identity")(x) if is_building_graph() else x.copy()


def dyn_shape(input_x):
    """The shape of `input_x` as a 1-d Int64 tensor (a constant: shapes are known when compiling)."""
    x = _check_tensor("dyn_shape", "input_x", input_x)
    return Tensor(np.array(x.shape, dtype=np.int64))


def eps(x):
    """A tensor of x's shape and dtype filled with the dtype's machine epsilon (float16, float32, float64)."""
    x = _check_tensor("eps", "x", x)
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"eps: 'x' must be a float16, float32 or float64 tensor, but got {x.dtype}")
    value = float(np.finfo(mstype.dtype_to_nptype(x.dtype)).eps)
    return prim("Fill")(x.dtype, tuple(x.shape), value)


def print_(*input_x):
    """Prints its arguments one per line, tensors as their repr (``ops.Print``); in program order in compiled
    code too. Returns 0, which is to be ignored."""
    from sprout.ops.operations import Print
    return Print()(*input_x)
