"""MindSpore 2.10's functional loops as Primitive classes: ``ops.ForiLoop``, ``ops.WhileLoop``, ``ops.Scan``.

Eagerly they are Python loops. While compiling, the loop is unrolled: each call of loop_func is staged as
if the compiled code made it (functional_composites.call_function), which needs the trip count known when
compiling: ForiLoop's bounds as ints (or eager tensors), WhileLoop's condition a Python bool at every step,
Scan's xs a tuple or list. A bound or a condition that depends on tensor values raises a TypeError saying to
write a Python ``while`` loop in the compiled function instead, which the compiler makes a graph loop.
"""
import numbers

from sprout._frontend import is_building_graph
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.composite.functional_composites import call_function, is_function
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["ForiLoop", "WhileLoop", "Scan"]


def _check_function(api, arg, fn):
    if not is_function(fn) or isinstance(fn, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a function, but got {type(fn).__name__}")


def _is_graph_value(x):
    from sprout._frontend.graph_tensor import GraphTensor
    return isinstance(x, GraphTensor)


def _bound(api, arg, value):
    """A loop bound as an int: an int, or a one-element integer tensor known now."""
    if isinstance(value, Tensor):
        if _is_graph_value(value):
            raise TypeError(f"{api}: '{arg}' depends on tensor values computed in the compiled code, so the loop "
                            f"cannot be unrolled; write a Python while loop in the compiled function instead (the "
                            f"compiler makes it a graph loop)")
        if value.size != 1 or value.dtype not in mstype.int_type + mstype.uint_type:
            raise TypeError(f"{api}: '{arg}' must be an int or a one-element integer Tensor, but got a Tensor of "
                            f"shape {value.shape} and dtype {value.dtype}")
        return int(value.asnumpy().reshape(()))
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{arg}' must be an int or a Tensor, but got {type(value).__name__}")
    return int(value)


class ForiLoop(Primitive):
    """``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``: ``for i in range(lower, upper): val =
    loop_func(i, val)``; returns val. Compiled, the loop is unrolled (the bounds must be known then)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        lower, upper = _bound("ForiLoop", "lower", lower), _bound("ForiLoop", "upper", upper)
        _check_function("ForiLoop", "loop_func", loop_func)
        if not isinstance(unroll, bool):
            raise TypeError(f"ForiLoop: 'unroll' must be a bool, but got {type(unroll).__name__}")
        val = init_val
        for i in range(lower, upper):
            val = call_function(loop_func, i, val)
        return val


class WhileLoop(Primitive):
    """``WhileLoop()(cond_func, loop_func, init_val)``: ``while cond_func(val): val = loop_func(val)``;
    returns val. Compiled, the loop is unrolled: cond_func must give a Python bool at every step."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, cond_func, loop_func, init_val):
        _check_function("WhileLoop", "cond_func", cond_func)
        _check_function("WhileLoop", "loop_func", loop_func)
        val = init_val
        while True:
            go = call_function(cond_func, val)
            if is_building_graph() and _is_graph_value(go):
                raise TypeError("WhileLoop: while compiling, cond_func's result depends on tensor values, so the "
                                "loop cannot be unrolled; write a Python while loop in the compiled function "
                                "instead (the compiler makes it a graph loop)")
            if not bool(go):
                return val
            val = call_function(loop_func, val)


class Scan(Primitive):
    """``Scan()(loop_func, init, xs, length=None, unroll=True)``: ``carry, y = loop_func(carry, x)`` for each x
    of xs (or `length` times with x None when xs is None); returns (carry, [y ...])."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, loop_func, init, xs, length=None, unroll=True):
        _check_function("Scan", "loop_func", loop_func)
        if xs is not None and not isinstance(xs, (tuple, list)):
            raise TypeError(f"Scan: 'xs' must be a tuple, a list or None, but got {type(xs).__name__}")
        if length is not None and (isinstance(length, bool) or not isinstance(length, int)):
            raise TypeError(f"Scan: 'length' must be an int or None, but got {type(length).__name__}")
        if not isinstance(unroll, bool):
            raise TypeError(f"Scan: 'unroll' must be a bool, but got {type(unroll).__name__}")
        if xs is None:
            if length is None:
                raise TypeError("Scan: 'length' must be an int when 'xs' is None, but got None")
            xs = [None] * length
        carry, ys = init, []
        for x in xs:
            out = call_function(loop_func, carry, x)
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise ValueError(f"Scan: loop_func must return a pair (carry, y), but returned "
                                 f"{type(out).__name__}{'' if not isinstance(out, (tuple, list)) else f' of {len(out)}'}")
            carry, y = out
            ys.append(y)
        return carry, ys
