"""In-place parameter updates: assign, assign_add, assign_sub (MindSpore 2.x names).

The optimizer update primitives (ops.ApplyMomentum, ops.Adam, ...) have no functional form in
MindSpore; they are used as Primitive classes.
"""
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim

__all__ = ["assign", "assign_add", "assign_sub"]


def _check_variable(api, variable):
    if not isinstance(variable, Tensor):
        raise TypeError(f"{api}: 'variable' must be a Tensor or Parameter, but got {type(variable).__name__}")
    return variable


def assign(variable, value):
    """Writes `value` (broadcast, converted to `variable`'s dtype) into `variable` in place; returns it."""
    return prim("Assign")(_check_variable("assign", variable), value)


def assign_add(variable, value):
    """Adds `value` (broadcast, converted to `variable`'s dtype) to `variable` in place; returns it."""
    return prim("AssignAdd")(_check_variable("assign_add", variable), value)


def assign_sub(variable, value):
    """Subtracts `value` (broadcast, converted to `variable`'s dtype) from `variable` in place; returns it."""
    return prim("AssignSub")(_check_variable("assign_sub", variable), value)
