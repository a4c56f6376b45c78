"""Reductions that return an index and a value at once (``ops.ArgMaxWithValue``, ``ops.ArgMinWithValue``)."""
from sprout.ops.function import math_reduce_func as _reduce
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["ArgMaxWithValue", "ArgMinWithValue"]


def _check_reduce_attrs(name, axis, keep_dims):
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f"{name}: 'axis' must be an int, but got {axis!r}")
    if not isinstance(keep_dims, bool):
        raise TypeError(f"{name}: 'keep_dims' must be a bool, but got {keep_dims!r}")


class ArgMaxWithValue(Primitive):
    """``ArgMaxWithValue(axis=0, keep_dims=False)(x)``: (index, value) of the maximum along ``axis``."""

    @prim_attr_register
    def __init__(self, axis=0, keep_dims=False):
        _check_reduce_attrs("ArgMaxWithValue", axis, keep_dims)
        self.init_prim_io_names(["x"], ["index", "values"])

    def __call__(self, x):
        values, index = _reduce.max(x, self.axis, self.keep_dims)
        return index, values


class ArgMinWithValue(Primitive):
    """``ArgMinWithValue(axis=0, keep_dims=False)(x)``: (index, value) of the minimum along ``axis``."""

    @prim_attr_register
    def __init__(self, axis=0, keep_dims=False):
        _check_reduce_attrs("ArgMinWithValue", axis, keep_dims)
        self.init_prim_io_names(["x"], ["index", "values"])

    def __call__(self, x):
        values, index = _reduce.min(x, self.axis, self.keep_dims)
        return index, values
