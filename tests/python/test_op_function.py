"""Functional ops made by op_function (ops.add, ops.exp, ...): C++ callables that must behave like the
Python functions they replaced, in calls, errors, introspection, pickling, methods and graph mode."""
import copy
import functools
import inspect
import pickle
import weakref

import numpy as np
import pytest

import sprout as ms
from sprout import _C, ops
from sprout.ops.function._prims import op_function, prim


def _t(values):
    return ms.Tensor(np.asarray(values, np.float32))


def test_positional_keyword_and_mixed_calls():
    x, y = _t([1.0, 2.0]), _t([0.5, 0.25])
    for out in (ops.add(x, y), ops.add(input=x, other=y), ops.add(x, other=y), ops.add(other=y, input=x)):
        np.testing.assert_array_equal(out.asnumpy(), [1.5, 2.25])
    np.testing.assert_array_equal(ops.sub(x, 1).asnumpy(), [0.0, 1.0])  # a Python scalar operand
    np.testing.assert_array_equal(ops.pow(x, exponent=2.0).asnumpy(), [1.0, 4.0])
    np.testing.assert_allclose(ops.lerp(x, y, 0.5).asnumpy(), [0.75, 1.125])  # three inputs
    assert ops.floor_mod(x=_t([5.0]), y=_t([3.0])).asnumpy()[0] == 2.0  # MindSpore 1.x parameter names
    np.testing.assert_array_equal(ops.add([1.0, 2.0], x).asnumpy(), [2.0, 4.0])  # array-likes convert
    assert ops.add(np.array([1, 2], np.int32), x).dtype == ms.float32
    assert ops.exp(0.0).asnumpy() == 1.0 and ops.exp(0.0).dtype == ms.float32  # a lone Python scalar


def test_bad_calls_are_type_errors_naming_the_function():
    x = _t([1.0])
    with pytest.raises(TypeError, match=r"add\(\) takes 2 positional arguments but 3 were given"):
        ops.add(x, x, x)
    with pytest.raises(TypeError, match=r"add\(\) missing required argument 'other'"):
        ops.add(x)
    with pytest.raises(TypeError, match=r"exp\(\) missing required argument 'input'"):
        ops.exp()
    with pytest.raises(TypeError, match=r"add\(\) got an unexpected keyword argument 'y'"):
        ops.add(x, y=x)
    with pytest.raises(TypeError, match=r"add\(\) got multiple values for argument 'input'"):
        ops.add(x, input=x)
    with pytest.raises(TypeError, match="Add: input 'y' must be a Tensor, .*but got str 'a string'"):
        ops.add(x, "a string")
    with pytest.raises(TypeError, match="Exp: input 'x' must be a Tensor, .*but got NoneType None"):
        ops.exp(None)
    with pytest.raises(ValueError, match="broadcast"):
        ops.add(_t([1.0, 2.0]), _t([1.0, 2.0, 3.0]))


def test_introspection_sees_a_function():
    assert ops.add.__name__ == "add" and ops.add.__qualname__ == "add"
    assert ops.add.__module__ == "sprout.ops.function.math_func"
    assert "broadcasting" in ops.add.__doc__ and "broadcasting" in inspect.getdoc(ops.add)
    assert str(inspect.signature(ops.add)) == "(input, other)"
    assert str(inspect.signature(ops.exp)) == "(input)"
    assert repr(ops.exp) == "<op function exp>"
    assert callable(ops.add) and isinstance(ops.add, _C.OpFunction)
    ops.exp.note = "attributes can be set, as on a function"
    assert ops.exp.note.startswith("attributes")
    del ops.exp.note


def test_weak_references_and_caches_keyed_by_function():
    ref = weakref.ref(ops.add)
    assert ref() is ops.add
    cache = weakref.WeakKeyDictionary({ops.exp: "exp"})
    assert cache[ops.exp] == "exp"
    assert functools.partial(ops.sub, other=_t([1.0]))(_t([3.0])).asnumpy()[0] == 2.0


def test_pickle_and_copy_keep_the_function():
    assert pickle.loads(pickle.dumps(ops.add)) is ops.add
    assert copy.deepcopy(ops.exp) is ops.exp and copy.copy(ops.exp) is ops.exp
    assert pickle.loads(pickle.dumps([ops.mul, ops.sqrt])) == [ops.mul, ops.sqrt]


def test_tensor_methods_bind_the_tensor_first():
    x, y = _t([1.0, 4.0]), _t([2.0, 2.0])
    np.testing.assert_allclose(x.exp().asnumpy(), np.exp([1.0, 4.0]), rtol=1e-6)
    np.testing.assert_array_equal(x.sub(y).asnumpy(), [-1.0, 2.0])
    np.testing.assert_array_equal(x.sub(other=y).asnumpy(), [-1.0, 2.0])
    bound = x.sqrt  # a bound method, as with a def
    np.testing.assert_array_equal(bound().asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(ms.Tensor.add(x, y).asnumpy(), [3.0, 6.0])
    with pytest.raises(TypeError, match=r"add\(\) takes 2 positional arguments but 3 were given"):
        x.add(y, y)


def test_gradients_and_graph_mode_go_through_op_functions():
    x = _t([0.5, 1.5])
    grad = ms.grad(lambda v: ops.mul(ops.exp(v), v).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), np.exp([0.5, 1.5]) * (1 + np.array([0.5, 1.5])), rtol=1e-6)

    @ms.jit
    def f(a, b):
        return ops.sub(ops.add(a, b), other=ops.mul(a, b))

    np.testing.assert_allclose(f(x, _t([2.0, 3.0])).asnumpy(), [1.5, 0.0])


def test_op_function_checks_what_it_wraps():
    with pytest.raises(TypeError, match="OpFunction: expects a sprout._C.Primitive, but got builtin_function_or_method"):
        _C.op_function(len, ["x"])
    with pytest.raises(ValueError, match="the primitive Add must take exactly its 2 tensor inputs"):
        _C.op_function(prim("Add"), ["input"])
    with pytest.raises(ValueError, match="the primitive AddN must take exactly"):
        _C.op_function(prim("AddN"), ["x"])
    with pytest.raises(ValueError, match="'signature' must look like 'name\\(a, b\\)'"):
        op_function("Add", "add(input, other=1)")


def test_other_keywords_go_to_the_python_function():
    """ops.div is the Div primitive, and MindSpore's rounding_mode keyword too (ops.divide's rounding)."""
    x, y = ms.Tensor(np.array([7, -7], np.int32)), ms.Tensor(np.array([2, 2], np.int32))
    assert isinstance(ops.div, _C.OpFunction)
    np.testing.assert_array_equal(ops.div(x, y).asnumpy(), [3.5, -3.5])
    np.testing.assert_array_equal(ops.div(x, y, rounding_mode="floor").asnumpy(), [3, -4])
    np.testing.assert_array_equal(x.div(y, rounding_mode="trunc").asnumpy(), [3, -3])
    np.testing.assert_array_equal(ms.jit(lambda a, b: ops.div(a, b, rounding_mode="floor"))(x, y).asnumpy(), [3, -4])
    with pytest.raises(TypeError, match="div\\(\\) got an unexpected keyword argument 'mode'"):
        ops.div(x, y, mode="floor")
    with pytest.raises(ValueError, match="'rounding_mode' must be None, 'floor' or 'trunc', but got 'round'"):
        ops.div(x, y, rounding_mode="round")
