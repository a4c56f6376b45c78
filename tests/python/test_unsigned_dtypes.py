"""UInt16, UInt32 and UInt64 tensors: NumPy conversion both ways, arithmetic that wraps around as NumPy's,
MindSpore's promotion rules for them (they mix only with themselves and Bool), reductions, casts,
comparisons, indexing, checkpoints, MindIR type ids, printing and graph mode."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

UNSIGNED = [(ms.uint16, np.uint16), (ms.uint32, np.uint32), (ms.uint64, np.uint64)]
IDS = ["uint16", "uint32", "uint64"]


def full_range(np_type, shape, seed=0):
    """Values over the whole range of the dtype, its extremes included."""
    info = np.iinfo(np_type)
    values = np.random.RandomState(seed).randint(0, 2**31, size=shape, dtype=np.int64).astype(np_type)
    values = values * np_type(info.max // 2**31 + 1) + values  # spread over the range, wrapping as it may
    flat = values.reshape(-1)
    flat[:3] = [0, info.max, info.max // 2 + 1]
    return values


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_names_and_numpy_types(ms_type, np_type):
    assert str(ms_type) == {np.uint16: "UInt16", np.uint32: "UInt32", np.uint64: "UInt64"}[np_type]
    assert ms.dtype_to_nptype(ms_type) is np_type
    assert ms.common.dtype.nptype_to_dtype(np_type) is ms_type
    assert ms.common.dtype.dtype_to_pytype(ms_type) is int
    assert ms_type in ms.common.dtype.uint_type and ms_type in ms.common.dtype.number_type
    assert ms.Tensor(np.zeros(2, np.float32)).astype(np.dtype(np_type).name).dtype == ms_type
    assert itemsize(ms_type) == np.dtype(np_type).itemsize


def itemsize(t):
    return ms.Tensor(np.zeros(1), t).itemsize


def test_mindspore_aliases():
    assert ms.ushort is ms.uint16 and ms.uintc is ms.uint32 and ms.uintp is ms.uint64


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_numpy_round_trip_keeps_dtype_and_extreme_values(ms_type, np_type):
    a = full_range(np_type, (3, 4))
    t = ms.Tensor(a)
    assert t.dtype == ms_type and t.shape == (3, 4)
    back = t.asnumpy()
    assert back.dtype == np_type
    np.testing.assert_array_equal(back, a)
    assert t.tolist() == a.tolist()
    shared = ms.from_numpy(a)
    a[0, 0] = 7
    assert shared.asnumpy()[0, 0] == 7  # from_numpy shares memory
    assert ms.Tensor([1, 2, 3], ms_type).asnumpy().dtype == np_type
    assert ms.Tensor(np.array([-1]), ms_type).asnumpy()[0] == np.iinfo(np_type).max  # int64 -1 wraps
    assert t[0, 1].item() == int(a[0, 1]) and isinstance(t[0, 1].item(), int)


def test_largest_uint64_survives_every_conversion():
    top = np.array([2**64 - 1, 2**63 + 5], np.uint64)
    t = ms.Tensor(top)
    assert t.asnumpy().tolist() == [2**64 - 1, 2**63 + 5]
    assert t.max().item() == 2**64 - 1 and t.min().item() == 2**63 + 5  # compared unsigned, not as int64
    assert (t > ms.Tensor(np.array([1, 1], np.uint64))).asnumpy().tolist() == [True, True]


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_arithmetic_wraps_around_as_numpy(ms_type, np_type):
    a, b = full_range(np_type, (4, 5), seed=1), full_range(np_type, (4, 5), seed=2)
    x, y = ms.Tensor(a), ms.Tensor(b)
    with np.errstate(over="ignore"):
        for got, want in [(x + y, a + b), (x - y, a - b), (x * y, a * b), (-x, np.negative(a)),
                          (ops.square(x), a * a), (ops.maximum(x, y), np.maximum(a, b)),
                          (ops.minimum(x, y), np.minimum(a, b)), (x + y[0], a + b[0])]:
            assert got.dtype == ms_type
            np.testing.assert_array_equal(got.asnumpy(), want)
    nonzero = np.where(b == 0, np_type(3), b)
    np.testing.assert_array_equal((x // ms.Tensor(nonzero)).asnumpy(), a // nonzero)
    np.testing.assert_array_equal(ops.pow(ms.Tensor(np.array([3, 2], np_type)), ms.Tensor(np.array([4, 20], np_type))).asnumpy(),
                                  np.array([3, 2], np_type) ** np.array([4, 20], np_type))
    assert (x / y).dtype == ms.float32  # true division of integers gives Float32, as MindSpore's


def test_uint16_products_wrap_without_overflowing_int():
    a = np.array([65535, 40000, 300], np.uint16)
    x = ms.Tensor(a)
    np.testing.assert_array_equal((x * x).asnumpy(), a * a)
    np.testing.assert_array_equal(ops.cumprod(x, 0).asnumpy(), np.cumprod(a, dtype=np.uint16))


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_bool_and_python_ints_join_them(ms_type, np_type):
    x = ms.Tensor(np.array([1, 5], np_type))
    assert (x + ms.Tensor(np.array([True, False]))).dtype == ms_type  # MindSpore's one mix: with Bool
    assert (x * True).asnumpy().tolist() == [1, 5]
    y = x + 2  # a Python int takes the tensor's dtype, as with every integer tensor
    assert y.dtype == ms_type and y.asnumpy().tolist() == [3, 7]
    assert (x == 5).asnumpy().tolist() == [False, True]
    with pytest.raises(ValueError, match="does not fit"):
        x + (-1)


@pytest.mark.parametrize("other", [ms.int8, ms.int32, ms.int64, ms.uint8, ms.float16, ms.float32, ms.float64])
def test_mixing_with_other_dtypes_is_a_type_error_naming_the_op(other):
    x = ms.Tensor(np.array([1, 2], np.uint32))
    y = ms.Tensor(np.array([1, 2]), other)
    with pytest.raises(TypeError, match=r"Add: implicit conversion between UInt32 and \w+ is not supported"):
        x + y
    with pytest.raises(TypeError, match="Sub: implicit conversion"):
        ops.sub(y, x)


def test_different_unsigned_widths_do_not_mix_nor_a_python_float():
    with pytest.raises(TypeError, match="UInt16 and UInt32"):
        ms.Tensor(np.array([1], np.uint16)) * ms.Tensor(np.array([1], np.uint32))
    with pytest.raises(TypeError, match="implicit conversion between UInt64 and Float32"):
        ms.Tensor(np.array([1], np.uint64)) + 1.5
    assert ms.common.dtype.Type.UInt16 is ms.uint16
    from sprout import _C
    assert not _C.can_promote(ms.uint32, ms.int64) and _C.can_promote(ms.uint32, ms.bool_)
    with pytest.raises(TypeError):
        _C.promote_types(ms.uint32, ms.int64)


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_comparisons(ms_type, np_type):
    a, b = full_range(np_type, (6,), seed=3), full_range(np_type, (6,), seed=4)
    b[1] = a[1]
    x, y = ms.Tensor(a), ms.Tensor(b)
    for got, want in [(x < y, a < b), (x <= y, a <= b), (x > y, a > b), (x >= y, a >= b), (x == y, a == b),
                      (x != y, a != b)]:
        assert got.dtype == ms.bool_
        np.testing.assert_array_equal(got.asnumpy(), want)


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_reductions(ms_type, np_type):
    a = full_range(np_type, (3, 4), seed=5)
    x = ms.Tensor(a)
    with np.errstate(over="ignore"):
        for got, want in [(x.sum(), a.sum(dtype=np_type)), (x.sum(axis=1), a.sum(axis=1, dtype=np_type)),
                          (x.max(), a.max()), (x.min(axis=0), a.min(axis=0)),
                          (x.prod(axis=1), a.prod(axis=1, dtype=np_type))]:
            assert got.dtype == ms_type
            np.testing.assert_array_equal(got.asnumpy(), want)
    np.testing.assert_array_equal(x.argmax(1).asnumpy(), a.argmax(axis=1))
    np.testing.assert_array_equal(ops.argmin(x, 0).asnumpy(), a.argmin(axis=0))
    np.testing.assert_array_equal(ops.cumsum(x, 1).asnumpy(), np.cumsum(a, axis=1, dtype=np_type))


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_casts(ms_type, np_type):
    a = full_range(np_type, (8,), seed=6)
    x = ms.Tensor(a)
    for target, np_target in [(ms.int64, np.int64), (ms.int8, np.int8), (ms.uint8, np.uint8), (ms.float64, np.float64),
                              (ms.float32, np.float32), (ms.uint64, np.uint64), (ms.uint16, np.uint16)]:
        got = x.astype(target)
        assert got.dtype == target
        np.testing.assert_array_equal(got.asnumpy(), a.astype(np_target))
    assert x.astype(ms.bool_).asnumpy().tolist() == (a != 0).tolist()
    floats = ms.Tensor(np.array([2.9, 0.2, 7.0, 1e30, -3.5, np.nan], np.float32))
    # Truncation toward zero; beyond the range, as Sprout casts to every integer dtype, the nearest end
    # (MindSpore's CPU leaves those to C++'s undefined conversion); NaN gives 0.
    top = np.iinfo(np_type).max
    assert floats.astype(ms_type).asnumpy().tolist() == [2, 0, 7, top, 0, 0]
    np.testing.assert_array_equal(ms.Tensor(np.array([-1, 300], np.int32)).astype(ms_type).asnumpy(),
                                  np.array([-1, 300], np.int32).astype(np_type))


@pytest.mark.parametrize("ms_type,np_type", UNSIGNED, ids=IDS)
def test_indexing_and_array_ops(ms_type, np_type):
    a = full_range(np_type, (3, 4), seed=7)
    x = ms.Tensor(a)
    np.testing.assert_array_equal(x[1].asnumpy(), a[1])
    np.testing.assert_array_equal(x[:, 1:3].asnumpy(), a[:, 1:3])
    np.testing.assert_array_equal(x[ms.Tensor([2, 0])].asnumpy(), a[[2, 0]])
    np.testing.assert_array_equal(x[x > ms.Tensor(a[0, 0])].asnumpy(), a[a > a[0, 0]])
    np.testing.assert_array_equal(x.T.asnumpy(), a.T)
    np.testing.assert_array_equal(ops.concat((x, x), 0).asnumpy(), np.concatenate((a, a)))
    np.testing.assert_array_equal(ops.stack((x, x)).asnumpy(), np.stack((a, a)))
    np.testing.assert_array_equal(ops.gather(x, ms.Tensor([1, 3]), 1).asnumpy(), a[:, [1, 3]])
    np.testing.assert_array_equal(ops.tile(x, (2, 1)).asnumpy(), np.tile(a, (2, 1)))
    np.testing.assert_array_equal(ops.where(x > ms.Tensor(a[0, 0]), x, x[0, 0]).asnumpy(),
                                  np.where(a > a[0, 0], a, a[0, 0]))
    np.testing.assert_array_equal(ops.sort(x, axis=1)[0].asnumpy(), np.sort(a, axis=1))
    np.testing.assert_array_equal(ops.topk(x, 2)[0].asnumpy(), -np.sort(-a.astype(np.float64), axis=1)[:, :2])
    y = x.copy()
    y[0, 1] = 9
    y[1] = ms.Tensor(np.array(np.iinfo(np_type).max, np_type))
    want = a.copy()
    want[0, 1] = 9
    want[1] = np.iinfo(np_type).max
    assert y.dtype == ms_type
    np.testing.assert_array_equal(y.asnumpy(), want)
    np.testing.assert_array_equal(ops.zeros((2,), ms_type).asnumpy(), np.zeros(2, np_type))
    np.testing.assert_array_equal(ops.ones_like(x).asnumpy(), np.ones_like(a))


def test_printing_as_mindspore():
    x = ms.Tensor(np.array([[1, 65535], [7, 3]], np.uint16))
    assert repr(x) == "Tensor(shape=[2, 2], dtype=UInt16, value=\n[[    1, 65535],\n [    7,     3]])"
    assert str(x) == "[[    1 65535]\n [    7     3]]"
    assert "dtype=UInt64" in repr(ms.Tensor(np.array([2**64 - 1], np.uint64)))
    assert "18446744073709551615" in repr(ms.Tensor(np.array([2**64 - 1], np.uint64)))


def test_checkpoint_round_trip(tmp_path):
    path = str(tmp_path / "unsigned.ckpt")
    values = {"u16": np.array([0, 65535], np.uint16), "u32": np.array([[1, 2**32 - 1]], np.uint32),
              "u64": np.array([2**64 - 1, 3], np.uint64)}
    ms.save_checkpoint([{"name": k, "data": ms.Tensor(v)} for k, v in values.items()], path)
    loaded = ms.load_checkpoint(path)
    for k, v in values.items():
        assert loaded[k].dtype == ms.Tensor(v).dtype
        np.testing.assert_array_equal(loaded[k].asnumpy(), v)


def test_graph_mode_matches_eager():
    @ms.jit
    def f(x, y, flag):
        return (x * y + flag).sum(axis=1), x > y, ops.cumsum(x, 1)

    a = full_range(np.uint32, (2, 3), seed=8)
    b = full_range(np.uint32, (2, 3), seed=9)
    x, y, flag = ms.Tensor(a), ms.Tensor(b), ms.Tensor(np.array([True, False, True]))
    got = f(x, y, flag)
    want = ((x * y + flag).sum(axis=1), x > y, ops.cumsum(x, 1))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())

    @ms.jit
    def mixed(x, y):
        return x + y

    with pytest.raises(TypeError, match="Add: implicit conversion between UInt32 and Int32"):
        mixed(x, ms.Tensor(np.array([1, 2, 3], np.int32)))


def test_mindir_round_trip_keeps_unsigned_inputs(tmp_path):
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return x * y + x

    path = str(tmp_path / "unsigned")
    x = ms.Tensor(np.array([[3, 65535]], np.uint32))
    ms.export(Net(), x, x, file_name=path, file_format="MINDIR")
    net = ms.nn.GraphCell(ms.load(path + ".mindir"))
    got = net(x, x)
    assert got.dtype == ms.uint32
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got.asnumpy(), x.asnumpy() * x.asnumpy() + x.asnumpy())


def test_float_only_ops_refuse_them():
    x = ms.Tensor(np.array([1, 2], np.uint32))
    with pytest.raises(TypeError):
        ops.relu6(x)
