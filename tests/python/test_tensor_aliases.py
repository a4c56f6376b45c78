"""MindSpore 2.x Tensor methods that are names for existing ops (sprout/common/tensor_aliases.py)."""
import numpy as np
import pytest

import sprout as ms

X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2


def test_dtype_casts():
    t = ms.Tensor(X)
    for method, dtype, np_dtype in (("float", ms.float32, np.float32), ("double", ms.float64, np.float64),
                                    ("half", ms.float16, np.float16), ("int", ms.int32, np.int32),
                                    ("long", ms.int64, np.int64), ("short", ms.int16, np.int16),
                                    ("bool", ms.bool_, np.bool_)):
        got = getattr(t, method)()
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.asnumpy(), X.astype(np_dtype))
    assert t.float() is t  # already float32: no copy
    assert t.type_as(ms.Tensor([1])).dtype == ms.int64


def test_comparisons_and_arithmetic_by_name():
    t, other = ms.Tensor(X), ms.Tensor(np.ones((2, 3), np.float32))
    for method, ref in (("eq", np.equal), ("ne", np.not_equal), ("lt", np.less), ("le", np.less_equal),
                        ("gt", np.greater), ("ge", np.greater_equal), ("greater", np.greater), ("less", np.less),
                        ("subtract", np.subtract), ("multiply", np.multiply), ("divide", np.divide),
                        ("true_divide", np.divide)):
        np.testing.assert_array_equal(getattr(t, method)(other).asnumpy(), ref(X, 1.0), err_msg=method)
    np.testing.assert_array_equal(t.negative().asnumpy(), -X)
    assert float(t.amax().asnumpy()) == 3.0 and float(t.amin().asnumpy()) == -2.0


def test_shape_helpers():
    t = ms.Tensor(X)
    assert t.flatten().shape == (6,) and t.ravel().shape == (6,)
    assert ms.Tensor(np.zeros((2, 3, 4))).flatten(start_dim=1).shape == (2, 12)
    assert t.expand_as(ms.Tensor(np.zeros((4, 2, 3)))).shape == (4, 2, 3) and t.expand((5, 2, 3)).shape == (5, 2, 3)
    assert t.view_as(ms.Tensor(np.zeros((3, 2)))).shape == (3, 2) and t.reshape_as(ms.Tensor(np.zeros(6))).shape == (6,)
    np.testing.assert_array_equal(t.t().asnumpy(), X.T)
    with pytest.raises(ValueError, match="Tensor.t: the tensor must have at most 2 dimensions"):
        ms.Tensor(np.zeros((1, 2, 3))).t()
    np.testing.assert_array_equal(t.repeat(2).asnumpy(), np.repeat(X, 2))  # NumPy's repeat, as MindSpore's
    np.testing.assert_array_equal(t.repeat(2, axis=0).asnumpy(), np.repeat(X, 2, axis=0))
    np.testing.assert_array_equal(t.where(t > 0, 9.0).asnumpy(), np.where(X > 0, X, 9.0))
    index, src = np.array([[2], [0]]), np.array([[7.0], [8.0]], np.float32)
    want = X.copy()
    want[0, 2], want[1, 0] = 7.0, 8.0
    np.testing.assert_array_equal(t.scatter(1, ms.Tensor(index), ms.Tensor(src)).asnumpy(), want)
    np.testing.assert_array_equal(ms.ops.scatter(t, 1, ms.Tensor(index), ms.Tensor(src)).asnumpy(), want)


def test_constructors_and_queries():
    t = ms.Tensor(X)
    assert t.new_zeros((2, 2)).dtype == ms.float32 and t.new_ones(3, ms.int32).dtype == ms.int32
    np.testing.assert_array_equal(t.new_ones((2,)).asnumpy(), [1.0, 1.0])
    assert (t.nelement(), t.ndimension()) == (6, 2)
    np.testing.assert_array_equal(t.numpy(), X)
    assert t.init_data() is t
    shared = np.zeros(3, np.float32)
    view = ms.Tensor.from_numpy(shared)
    shared[1] = 5.0
    assert view.asnumpy()[1] == 5.0  # no copy
