"""The registry as seen from Python: generated Primitive classes, attrs, infer, user-defined ops."""
import numpy as np
import pytest

import sprout as ms
from sprout import _C, ops
from sprout.ops import PrimitiveWithInfer, prim_attr_register


def test_every_registry_op_is_a_primitive_class():
    names = [r["name"] for r in _C.op_records()]
    assert len(names) >= 25
    for name in names:
        cls = getattr(ops, name)
        assert issubclass(cls, ops.Primitive)
        assert cls.__doc__ and name in repr(cls())


def test_attributes_construction_and_access():
    mm = ops.MatMul(transpose_b=True)
    assert mm.transpose_b is True and mm.transpose_a is False
    assert mm.attrs["transpose_b"] is True
    assert mm.input_names == ["x", "y"] and mm.output_names == ["output"]
    assert ops.MatMul(True).transpose_a is True
    mm.add_prim_attr("transpose_b", False)
    a = ms.Tensor(np.ones((2, 3), np.float32))
    b = ms.Tensor(np.ones((3, 4), np.float32))
    assert mm(a, b).shape == (2, 4)  # the C++ primitive saw the change
    mm.add_prim_attr("note", "free-form attributes are kept too")
    assert mm.note.startswith("free-form")


def test_constructor_errors():
    with pytest.raises(TypeError, match="unexpected keyword argument 'transpose_c'"):
        ops.MatMul(transpose_c=True)
    with pytest.raises(TypeError, match="MatMul: attribute 'transpose_a' expects bool, but got int 1"):
        ops.MatMul(transpose_a=1)
    with pytest.raises(TypeError, match="takes 2 positional"):
        ops.MatMul(True, True, True)
    with pytest.raises(AttributeError):
        ops.Add().no_such_attr


def test_call_time_arguments():
    x = ms.Tensor(np.arange(6.0).reshape(2, 3))
    assert ops.Reshape()(x, (3, 2)).shape == (3, 2)
    assert ops.Transpose()(x, (1, 0)).shape == (3, 2)
    assert ops.Cast()(x, ms.int32).dtype == ms.int32
    assert ops.ReduceSum(keep_dims=True)(x, 1).shape == (2, 1)
    assert ops.ReduceSum()(x).shape == ()
    with pytest.raises(TypeError, match="Reshape: expects 1 tensor input and up to 1 more"):
        ops.Reshape()(x, (3, 2), 5)
    with pytest.raises(TypeError, match="Add: expects 2 tensor inputs, but got 1 arguments"):
        _C.Primitive("Add")(x)  # the stack fast path takes exactly the op's inputs; the rest are checked
    with pytest.raises(TypeError, match="Reshape: takes its inputs and call-time attributes by position"):
        _C.Primitive("Reshape")(x, shape=(3, 2))
    # Python scalars as operands through the fast path, as through the operators
    np.testing.assert_array_equal(_C.Primitive("Add")(x, 1).asnumpy(), np.arange(6.0).reshape(2, 3) + 1)


def test_infer_from_python_uses_the_registry_function():
    assert ops.Add().infer_shape((2, 1, 3), (4, 1)) == (2, 4, 3)
    assert ops.Equal().infer_dtype(ms.float32, ms.float32) == ms.bool_
    assert ops.MatMul(transpose_a=True).infer_shape((3, 2), (3, 5)) == (2, 5)
    with pytest.raises(ValueError, match="cannot broadcast"):
        ops.Add().infer_shape((2, 3), (4,))


def test_seed_softmax_style_user_primitive_with_compute():
    class MySoftmax(PrimitiveWithInfer):
        """The seed's Softmax definition, with a NumPy compute function."""

        @prim_attr_register
        def __init__(self, axis=-1):
            self.init_prim_io_names(inputs=["x"], outputs=["output"])
            if isinstance(axis, int):
                self.add_prim_attr("axis", (axis,))

        def infer_shape(self, x_shape):
            return x_shape

        def infer_dtype(self, x_dtype):
            return x_dtype

        def compute(self, x):
            e = np.exp(x - x.max(axis=self.axis, keepdims=True))
            return e / e.sum(axis=self.axis, keepdims=True)

    op = MySoftmax()
    assert op.axis == (-1,) and op.init_attrs == {"axis": -1}
    out = op(ms.Tensor([[1.0, 2.0, 3.0]]))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy().sum(), 1.0, rtol=1e-6)


def test_user_primitive_named_like_a_builtin_runs_the_kernel():
    class Add(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            pass

        def infer_shape(self, x, y):
            return np.broadcast_shapes(x, y)

        def infer_dtype(self, x, y):
            return x

    assert Add()(ms.Tensor([1.0]), ms.Tensor([2.0])).tolist() == [3.0]


def test_user_primitive_checks_its_own_inference():
    class Wrong(PrimitiveWithInfer):
        @prim_attr_register
        def __init__(self):
            pass

        def infer_shape(self, x):
            return (99,)

        def compute(self, x):
            return x

    with pytest.raises(ValueError, match="infer_shape returned"):
        Wrong()(ms.Tensor([1.0]))


def test_custom_pyfunc():
    square = ops.Custom(lambda x: x * x, out_shape=lambda s: s, out_dtype=lambda t: t, func_type="pyfunc")
    out = square(ms.Tensor([1.0, 2.0, 3.0]))
    assert out.tolist() == [1.0, 4.0, 9.0] and out.dtype == ms.float32
    fixed = ops.Custom(lambda x: x.sum(keepdims=True), out_shape=(1,), out_dtype=ms.float64)
    assert fixed(ms.Tensor([1.0, 2.0])).dtype == ms.float64
    with pytest.raises(ValueError, match="out_shape says"):
        ops.Custom(lambda x: x, out_shape=(5,), out_dtype=ms.float32)(ms.Tensor([1.0]))
    with pytest.raises(ValueError, match="func_type"):
        ops.Custom(lambda x: x, (1,), ms.float32, func_type="aot")
    with pytest.raises(TypeError, match="callable"):
        ops.Custom(3, (1,), ms.float32)


def test_functional_api_and_tensor_methods():
    x = ms.Tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(ops.cast(x, ms.int64).asnumpy(), np.arange(6).reshape(2, 3))
    assert ops.reshape(x, (3, -1)).shape == (3, 2)
    assert ops.transpose(x, (1, 0)).shape == (3, 2) and ops.permute(x, (1, 0)).shape == (3, 2)
    assert x.reshape(3, 2).shape == (3, 2) and x.reshape((6,)).shape == (6,)
    assert x.transpose().shape == (3, 2) and x.permute(1, 0).shape == (3, 2)
    assert x.exp().shape == (2, 3) and x.add(1).tolist()[0][0] == 1.0
    with pytest.raises(TypeError, match="cast: 'dtype'"):
        ops.cast(x, "float32")
    with pytest.raises(ValueError, match="Transpose: 'perm' must be a permutation"):
        ops.transpose(x, (0, 0))
    with pytest.raises(ValueError, match="Reshape: cannot reshape a tensor of 6 elements"):
        x.reshape(4, 2)


def test_ops_whose_attributes_set_the_output_count_always_give_tuples():
    """Split/SplitV return a tuple even of one tensor, as MindSpore's do, in both modes."""
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))

    def parts(t):
        return ops.Split(axis=0, output_num=1)(t), ops.SplitV((3,), 1, 1)(t), ops.Split(axis=1, output_num=3)(t)

    for result in (parts(x), ms.jit(parts)(x)):
        one, one_v, three = result
        for tup, n in ((one, 1), (one_v, 1), (three, 3)):
            assert isinstance(tup, tuple) and len(tup) == n
        np.testing.assert_array_equal(one[0].asnumpy(), x.asnumpy())
        np.testing.assert_array_equal(three[2].asnumpy(), x.asnumpy()[:, 2:])
