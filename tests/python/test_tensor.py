"""Tensor construction, metadata, NumPy/DLPack interop, views, printing and bad input."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops


@pytest.mark.parametrize("np_dtype, ms_dtype", [
    (np.bool_, ms.bool_), (np.int8, ms.int8), (np.int16, ms.int16), (np.int32, ms.int32),
    (np.int64, ms.int64), (np.uint8, ms.uint8), (np.float16, ms.float16), (np.float32, ms.float32),
    (np.float64, ms.float64)])
def test_numpy_arrays_keep_their_dtype_and_values(np_dtype, ms_dtype):
    a = (np.arange(12).reshape(3, 4) % 5).astype(np_dtype)
    t = ms.Tensor(a)
    assert t.dtype == ms_dtype
    assert t.shape == (3, 4) and t.ndim == 2 and t.dim() == 2 and t.size == 12
    assert t.itemsize == a.itemsize and t.nbytes == a.nbytes and t.strides == a.strides
    np.testing.assert_array_equal(t.asnumpy(), a)


def test_python_data_gets_mindspore_default_dtypes():
    assert ms.Tensor(1).dtype == ms.int64
    assert ms.Tensor(1.5).dtype == ms.float32
    assert ms.Tensor(True).dtype == ms.bool_
    assert ms.Tensor([1, 2, 3]).dtype == ms.int64
    assert ms.Tensor([[1.0, 2], [3, 4]]).dtype == ms.float32
    assert ms.Tensor((1, 2.5)).shape == (2,)
    assert ms.Tensor(2, ms.float32).item() == 2.0
    assert ms.Tensor([1.7, -1.7], ms.int32).tolist() == [1, -1]


def test_dtype_argument_and_shape_init():
    t = ms.Tensor(shape=(2, 3), dtype=ms.float16, init="ones")
    assert t.dtype == ms.float16 and t.asnumpy().sum() == 6
    z = ms.Tensor(shape=4, dtype=ms.int32)
    assert z.tolist() == [0, 0, 0, 0]
    b = ms.Tensor([1.0, 2.0], dtype=ms.bfloat16)
    assert b.dtype == ms.bfloat16 and b.asnumpy().dtype == np.float32
    np.testing.assert_array_equal(b.asnumpy(), [1.0, 2.0])


def test_tensor_from_tensor_copies():
    a = ms.Tensor([1.0, 2.0])
    b = ms.Tensor(a)
    b[0] = 5.0
    assert a.tolist() == [1.0, 2.0]
    assert ms.Tensor(a, ms.int64).dtype == ms.int64


def test_constructor_copies_but_from_numpy_shares():
    a = np.arange(4, dtype=np.float32)
    copied, shared = ms.Tensor(a), ms.from_numpy(a)
    a[0] = 42
    assert copied.item(0) == 0 and shared.item(0) == 42


def test_asnumpy_is_zero_copy():
    t = ms.Tensor(np.zeros((2, 2), np.float32))
    view = t.asnumpy()
    view[1, 1] = 3
    assert t.asnumpy()[1, 1] == 3
    assert np.asarray(t).ctypes.data == t._data_ptr()


def test_asnumpy_of_views_follows_strides():
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    t = ms.Tensor(a)
    np.testing.assert_array_equal(t.transpose(2, 0, 1).asnumpy(), a.transpose(2, 0, 1))
    np.testing.assert_array_equal(t[:, ::-1, 1::2].asnumpy(), a[:, ::-1, 1::2])


def test_dlpack_round_trip_shares_memory():
    t = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t.__dlpack_device__() == (1, 0)
    a = np.from_dlpack(t)
    np.testing.assert_array_equal(a, t.asnumpy())
    t[0, 0] = -1  # NumPy marks DLPack imports read-only; write through the tensor
    assert a[0, 0] == -1
    back = ms.from_dlpack(a)
    assert back.shape == (2, 3) and back.item(0) == -1
    u = ms.from_dlpack(t)  # Sprout to Sprout
    assert u._data_ptr() == t._data_ptr()
    assert ms.from_dlpack(np.arange(3.0)).tolist() == [0.0, 1.0, 2.0]


def test_views_share_storage():
    t = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    for v in (t.reshape(4, 3), t.transpose(), t[1], t[:, 1:3], t.T, t.view(12)):
        assert v._shares_memory(t)
    t.reshape(12)[0] = 100
    assert t.item(0) == 100


def test_basic_indexing_matches_numpy():
    a = np.arange(60).reshape(3, 4, 5)
    t = ms.Tensor(a)
    for index in [1, -1, (1, 2), (slice(None), 2), (Ellipsis, 1), (None, 1), (slice(1, None, 2), Ellipsis, None),
                  (slice(None, None, -1),), (0, slice(3, 0, -2), 4)]:
        np.testing.assert_array_equal(t[index].asnumpy(), a[index], err_msg=str(index))


def test_setitem_writes_in_place_with_broadcast():
    a = np.zeros((3, 4), np.float32)
    t = ms.Tensor(a)
    alias = t[0]
    t[0] = 7
    t[1:, ::2] = ms.Tensor([1.0, 2.0])
    a[0] = 7
    a[1:, ::2] = [1.0, 2.0]
    np.testing.assert_array_equal(t.asnumpy(), a)
    assert alias.tolist() == [7, 7, 7, 7]


def test_index_errors():
    t = ms.Tensor(np.zeros((2, 3)))
    with pytest.raises(IndexError, match="out of bounds"):
        t[2]
    with pytest.raises(IndexError, match="too many indices"):
        t[0, 0, 0]
    with pytest.raises(TypeError, match="basic indexing"):
        t["a"]


def test_scalar_methods():
    t = ms.Tensor([[1.5, 2.5]])
    assert t.item(1) == 2.5
    assert len(t) == 1
    assert t.tolist() == [[1.5, 2.5]]
    assert float(ms.Tensor(2.0)) == 2.0 and int(ms.Tensor(3)) == 3
    assert bool(ms.Tensor([1])) and not bool(ms.Tensor(0.0))
    assert list(range(10))[ms.Tensor(3)] == 3
    with pytest.raises(ValueError, match="ambiguous"):
        bool(ms.Tensor([1, 2]))
    with pytest.raises(ValueError, match="one element"):
        t.item()
    with pytest.raises(TypeError):
        len(ms.Tensor(1.0))
    assert [x.item() for x in ms.Tensor([4, 5])] == [4, 5]


def test_astype_set_dtype_copy():
    t = ms.Tensor([1.7, -2.2])
    i = t.astype(ms.int32)
    assert i.dtype == ms.int32 and i.tolist() == [1, -2]
    c = t.copy()
    assert not c._shares_memory(t)
    same = t.astype(ms.float32, copy=False)
    assert same._shares_memory(t)
    assert t.set_dtype(ms.float64) is t and t.dtype == ms.float64


def test_vector_casts_truncate_saturate_and_round_as_the_scalar_definition():
    # simd_cast.h: float -> int truncates toward zero, saturates at the limits and sends NaN to 0, in whole
    # vectors and their tails; int64 -> float32 rounds once (through double only below 2^53); int32, bytes and
    # bools widen exactly.
    rng = np.random.default_rng(0)
    edges32 = [np.nan, np.inf, -np.inf, 3e9, -3e9, 2147483520.0, 2.1474836e9, -2147483648.0, 0.5, -0.5, -0.0, 9.3e18,
               -9.3e18]
    f32 = np.concatenate([rng.standard_normal(1003).astype(np.float32) * 1e3, np.array(edges32, np.float32)])
    f64 = np.concatenate([rng.standard_normal(1003) * 1e12, [np.nan, np.inf, -np.inf, 9.3e18, -9.3e18, 0.5, -0.5]])

    def saturated(x, to):
        info = np.iinfo(to)
        return np.array([0 if np.isnan(v) else info.max if v >= info.max else info.min if v <= info.min
                         else int(v) for v in x.astype(np.float64)], to)
    for x, to, dtype in ((f32, np.int32, ms.int32), (f32, np.int64, ms.int64), (f64, np.int64, ms.int64)):
        np.testing.assert_array_equal(ms.Tensor(x).astype(dtype).asnumpy(), saturated(x, to))
    i64 = np.concatenate([rng.integers(-2**62, 2**62, 1003), [2**53 + 1, -(2**53) - 1, 2**63 - 1, -2**63, 1000]])
    np.testing.assert_array_equal(ms.Tensor(i64).astype(ms.float32).asnumpy(), i64.astype(np.float32))
    np.testing.assert_array_equal(ms.Tensor(i64).astype(ms.float64).asnumpy(), i64.astype(np.float64))
    i32 = rng.integers(-2**31, 2**31, 1003).astype(np.int32)
    np.testing.assert_array_equal(ms.Tensor(i32).astype(ms.float32).asnumpy(), i32.astype(np.float32))
    np.testing.assert_array_equal(ms.Tensor(i32).astype(ms.float64).asnumpy(), i32.astype(np.float64))
    u8, flags = rng.integers(0, 256, 1003).astype(np.uint8), rng.random(1003) > 0.5
    np.testing.assert_array_equal(ms.Tensor(u8).astype(ms.float32).asnumpy(), u8.astype(np.float32))
    np.testing.assert_array_equal(ms.Tensor(flags).astype(ms.float32).asnumpy(), flags.astype(np.float32))
    np.testing.assert_array_equal(ms.Tensor(i32).astype(ms.int64).asnumpy(), i32.astype(np.int64))  # sign-extended
    for small in (u8, flags):
        for dtype, np_dtype in ((ms.int32, np.int32), (ms.int64, np.int64)):
            np.testing.assert_array_equal(ms.Tensor(small).astype(dtype).asnumpy(), small.astype(np_dtype))


def test_astype_takes_numpy_dtypes_and_dtype_names():
    t = ms.Tensor([1.7, -2.2])
    assert t.astype("float64").dtype == ms.float64 and t.astype("Int32").tolist() == [1, -2]  # MindSpore's names
    assert t.astype("bool").dtype == ms.bool_ and t.astype("half").dtype == ms.float16
    assert t.astype(np.int16).dtype == ms.int16 and t.astype(np.dtype("uint8")).dtype == ms.uint8
    assert ops.sum(t, dtype=np.float64).dtype == ms.float64 and ops.sum(t, dtype="int32").tolist() == -1

    @ms.jit
    def truncated(x):
        return x.astype("int32") + 1

    assert truncated(t).tolist() == [2, -1]  # graph mode takes the names too
    with pytest.raises(TypeError, match=r"Tensor.astype: 'dtype' must be a mindspore dtype or its name .* 'float33'"):
        t.astype("float33")
    with pytest.raises(TypeError, match="Tensor.astype: 'dtype' must be a dtype sprout supports, but got NumPy "
                                        "dtype complex64"):
        t.astype(np.complex64)
    with pytest.raises(TypeError, match="Tensor.astype: 'dtype' must be a mindspore dtype .* but got NoneType"):
        t.astype(None)
    with pytest.raises(TypeError, match="sum: 'dtype' must be a mindspore dtype .* but got int 3"):
        ops.sum(t, dtype=3)


def test_setitem_of_none_names_the_value():
    t = ms.Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(TypeError, match="Tensor.__setitem__: 'value' must be a Tensor, .* but got None"):
        t[0] = None
    t[0] = 1.0  # still the C++ assignment for everything else
    assert t.tolist() == [[1, 1, 1], [0, 0, 0]]


def test_from_numpy_copies_a_read_only_array():
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    t = ms.from_numpy(a)
    t[0] = 100.0
    assert t.tolist() == [100, 1, 2, 3] and a.tolist() == [0, 1, 2, 3]
    b = np.arange(4, dtype=np.float32)  # a writable array is still shared
    ms.from_numpy(b)[0] = 100.0
    assert b[0] == 100.0


def test_repr_and_str_follow_mindspore():
    assert repr(ms.Tensor([1, 2, 3])) == "Tensor(shape=[3], dtype=Int64, value= [1, 2, 3])"
    assert repr(ms.Tensor(2.0)) == "Tensor(shape=[], dtype=Float32, value= 2)"  # %g, as MindSpore prints scalars
    assert repr(ms.Tensor(10.198039)) == "Tensor(shape=[], dtype=Float32, value= 10.198)"
    assert repr(ms.Tensor(np.zeros((2, 0), np.float32))) == "Tensor(shape=[2, 0], dtype=Float32, value=\n)"
    assert repr(ms.Tensor(np.zeros(0, np.int32))) == "Tensor(shape=[0], dtype=Int32, value= )"
    assert repr(ms.Tensor([[1.0, 2.0]])).startswith("Tensor(shape=[1, 2], dtype=Float32, value=\n[[ 1.00000000e+00,")
    assert str(ms.Tensor([[1.0, 2.0]])) == "[[1. 2.]]"
    assert str(ms.float32) == "Float32" and repr(ms.int64) == "Int64" and ms.bool is ms.bool_


@pytest.mark.parametrize("bad, error, match", [
    (np.array([object()]), TypeError, "must hold numbers"),
    ([[1, 2], [3]], ValueError, "rectangular"),
    ("abc", TypeError, "input_data"),
    ({"a": 1}, TypeError, "input_data"),
    (np.array([1 + 2j]), TypeError, "must hold numbers"),
])
def test_bad_input_data(bad, error, match):
    with pytest.raises(error, match=match):
        ms.Tensor(bad)


def test_bad_shape_and_dtype():
    with pytest.raises(ValueError, match="shape"):
        ms.Tensor(shape=(2, -1), dtype=ms.float32)
    with pytest.raises(TypeError, match="dtype"):
        ms.Tensor([1.0], dtype=np.float32)
    with pytest.raises(ValueError, match="not both"):
        ms.Tensor([1.0], shape=(1,))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        ms.from_numpy([1, 2])


def test_parameter_and_parameter_tuple():
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
    assert isinstance(p, ms.Tensor) and p.name == "w" and p.requires_grad
    assert str(p) == "Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)"
    q = p + 1
    assert type(q) is ms.Tensor and q.tolist() == [2.0, 3.0]
    p.set_data(ms.Tensor([5.0, 6.0]))
    assert p.tolist() == [5.0, 6.0]
    with pytest.raises(ValueError, match="shape"):
        p.set_data(ms.Tensor([1.0]))
    pt = ms.ParameterTuple([p, ms.Parameter(np.zeros(2, np.float32), name="b", requires_grad=False)])
    assert [x.name for x in pt] == ["w", "b"]
    assert [x.name for x in pt.clone("copy")] == ["copy.w", "copy.b"]
    with pytest.raises(TypeError, match="Parameter"):
        ms.ParameterTuple([ms.Tensor([1.0])])
    with pytest.raises(TypeError, match="name"):
        ms.Parameter(ms.Tensor([1.0]), name=3)


@pytest.mark.parametrize("threads", [1, 2])
def test_large_broadcast_and_strided_views_copy_exactly(threads):
    # One long row each (a broadcast scalar, a stepped slice): the copy splits the row across threads.
    old = ms.get_context("runtime_num_threads")
    ms.set_context(runtime_num_threads=threads)
    try:
        scalar = ms.ops.broadcast_to(ms.Tensor(2.5, ms.float32), (3, 100_000))
        np.testing.assert_array_equal(scalar.contiguous().asnumpy(), np.full((3, 100_000), 2.5, np.float32))
        base = np.arange(600_001, dtype=np.float64)
        np.testing.assert_array_equal(ms.Tensor(base)[::3].contiguous().asnumpy(), base[::3])
        row = np.arange(7, dtype=np.int16)
        np.testing.assert_array_equal(ms.ops.broadcast_to(ms.Tensor(row), (50_000, 7)).contiguous().asnumpy(),
                                      np.broadcast_to(row, (50_000, 7)))
    finally:
        ms.set_context(runtime_num_threads=old)


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.int32, np.float64])
def test_transposing_copies_match_numpy(dtype):
    # Last two axes swapped (tiled copy; 32-bit elements by 16 x 16 shuffles): tile-sized, ragged edges,
    # batches of matrices, a flipped view, and a broadcast row; plus a permutation that is not a transpose
    # of the last two.
    rng = np.random.default_rng(1)
    cases = [((64, 96), (1, 0)), ((33, 70), (1, 0)), ((3, 45, 129), (0, 2, 1)), ((5, 40, 6, 50), (0, 3, 1, 2)),
             ((2, 3, 40, 41), (1, 0, 3, 2)), ((40, 50, 3), (2, 1, 0))]
    for shape, perm in cases:
        x = (rng.standard_normal(shape) * 50).astype(dtype)
        got = ms.Tensor(x).permute(*perm).contiguous().asnumpy()
        np.testing.assert_array_equal(got, x.transpose(perm))
    x = (rng.standard_normal((48, 64)) * 50).astype(dtype)
    np.testing.assert_array_equal(ms.Tensor(x)[:, ::-1].T.contiguous().asnumpy(), x[:, ::-1].T)
    row = ms.ops.broadcast_to(ms.Tensor(x[:1]), (40, 64))  # source stride 0 along the swapped axis
    np.testing.assert_array_equal(row.T.contiguous().asnumpy(), np.broadcast_to(x[:1], (40, 64)).T)


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32, np.float64])
def test_row_copies_just_past_their_source_match_numpy(dtype):
    """Rows whose destination lies a few bytes past the source modulo 4 KiB are copied back to front
    (Note [Copies just past their source]): every shift, row lengths around the vector groups, and a
    roll, whose two pieces are such copies."""
    rng = np.random.default_rng(4)
    for cols in (64, 300, 1024, 1031):
        a = (rng.standard_normal((16, cols)) * 50).astype(dtype)
        for k in (1, 3, 7, 15, 17, 64, cols - 1):
            out = ms.Tensor(np.zeros_like(a))
            out[:, k:] = ms.Tensor(a)[:, :cols - k]
            want = np.zeros_like(a)
            want[:, k:] = a[:, :cols - k]
            np.testing.assert_array_equal(out.asnumpy(), want)
        np.testing.assert_array_equal(ms.ops.roll(ms.Tensor(a), 3, 1).asnumpy(), np.roll(a, 3, 1))
    # Blocks of 4 MiB and more start on 2 MiB boundaries, so these rows are 4 and 12 bytes past theirs.
    big = rng.standard_normal((1024, 1024)).astype(np.float32)
    for k in (1, 3):
        np.testing.assert_array_equal(ms.ops.roll(ms.Tensor(big), k, 1).asnumpy(), np.roll(big, k, 1))


def test_transposing_copies_move_float32_bits():
    """The shuffles move bits: NaN payloads and negative zeros come through unchanged."""
    bits = np.random.default_rng(2).integers(0, 2**32, (70, 45), dtype=np.uint64).astype(np.uint32)
    bits[::7, ::5] = 0x7FC00001  # a quiet NaN with a payload
    bits[3::9, 1::4] = 0x80000000  # -0.0
    x = bits.view(np.float32)
    got = ms.Tensor(x).T.contiguous().asnumpy()
    np.testing.assert_array_equal(got.view(np.uint32), bits.T)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_elementwise_ops_on_transposed_views(dtype):
    """A transposed operand is copied in tiles before the op, binary or unary (elementwise.cc,
    gathers_along_rows): the results are those of the op on the views, broadcasting included."""
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((300, 200)) * 10).astype(dtype)
    b = (rng.standard_normal((200, 300)) * 10).astype(dtype)
    row = (rng.standard_normal(300) * 10).astype(dtype)
    ta, tb, trow = ms.Tensor(a), ms.Tensor(b), ms.Tensor(row)
    np.testing.assert_array_equal((ta.T + tb).asnumpy(), a.T + b)
    np.testing.assert_array_equal((tb * ta.T).asnumpy(), b * a.T)
    np.testing.assert_array_equal((ta.T - ta.T).asnumpy(), np.zeros_like(b))
    np.testing.assert_array_equal((ta.T + trow).asnumpy(), a.T + row)
    np.testing.assert_array_equal(ms.ops.maximum(ta.T, tb).asnumpy(), np.maximum(a.T, b))
    column = ms.ops.broadcast_to(ms.Tensor(b[:, :1]), b.shape)  # stride 0 along the last axis: read in place
    np.testing.assert_array_equal((ta.T + column).asnumpy(), a.T + b[:, :1])
    x3 = (rng.standard_normal((4, 60, 70)) * 10).astype(dtype)  # a batch of transposed matrices
    t3 = ms.Tensor(x3).transpose(0, 2, 1) if hasattr(ms.Tensor, "transpose") else ms.Tensor(x3).permute(0, 2, 1)
    np.testing.assert_array_equal((t3 * 2).asnumpy(), x3.transpose(0, 2, 1) * 2)
    np.testing.assert_array_equal((-ta.T).asnumpy(), -a.T)  # unary ops copy them first too
    if dtype != np.int32:
        np.testing.assert_allclose(ms.ops.exp(ta.T / 10).asnumpy(), np.exp(a.T / 10), rtol=1e-6)
        np.testing.assert_allclose(ms.ops.exp(ta.T).asnumpy(), np.exp(a.T), rtol=1e-6)


def test_activation_gradients_read_a_broadcast_gradient():
    x = np.random.default_rng(0).standard_normal((300, 700)).astype(np.float32)
    dy = ms.ops.broadcast_to(ms.Tensor(0.5, ms.float32), x.shape)
    np.testing.assert_allclose(ms.ops.ReluGrad()(dy, ms.Tensor(x)).asnumpy(), 0.5 * (x > 0))


@pytest.mark.parametrize("axis", [1, (1, 2), 2])
def test_reductions_over_middle_axes_of_a_contiguous_tensor(axis):
    x = np.random.default_rng(1).standard_normal((3, 4, 5, 67)).astype(np.float32)
    t = ms.Tensor(x)
    np.testing.assert_allclose(ops.mean(t, axis).asnumpy(), x.mean(axis), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(t.max(axis=axis).asnumpy(), x.max(axis))
    n = np.arange(3 * 4 * 5 * 67, dtype=np.int64).reshape(3, 4, 5, 67)
    np.testing.assert_array_equal(ms.Tensor(n).sum(axis).asnumpy(), n.sum(axis))


def test_storage_offset_counts_elements_from_the_storage_start():
    x = ms.Tensor([1.0, 2.0, 3.0, 4.0, 5.0])
    assert x.storage_offset() == 0 and x[2:].storage_offset() == 2
    assert ms.Tensor([[1, 2], [3, 4]])[1].storage_offset() == 2


def test_view_as_another_dtype_reads_the_same_bytes():
    a = ms.Tensor(np.array([[1, 2], [3, 4]]), dtype=ms.int64)
    halves = a.view(ms.int32)  # MindSpore 2.10's documented values
    assert halves.dtype == ms.int32 and halves.asnumpy().tolist() == [[1, 0, 2, 0], [3, 0, 4, 0]]
    halves[0, 0] = 9
    assert a.asnumpy()[0, 0] == 9  # the memory is shared
    assert ms.Tensor(np.ones((2, 3), np.float32)).view(ms.int16).shape == (2, 6)
    with pytest.raises(ValueError, match="Tensor.view: the last axis of shape \\(3,\\) in Int8"):
        ms.Tensor(np.zeros(3, np.int8)).view(ms.int16)


def test_reused_tensor_objects_start_fresh():
    # Dead Tensor objects are parked and reused (nb::pooled): a weak reference must die with its tensor
    # and stay dead when the object is reused, and a reused object holds only its new value.
    import weakref
    died = []
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    ref = weakref.ref(x, died.append)
    del x
    assert ref() is None and len(died) == 1
    results = [ops.add(ms.Tensor(np.full(2, i, np.float32)), 1.0) for i in range(300)]
    assert ref() is None
    for i, r in enumerate(results):
        np.testing.assert_array_equal(r.asnumpy(), np.full(2, i + 1, np.float32))
    y = ops.mul(results[0], 2.0)
    assert weakref.ref(y)() is y
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")  # a Python subclass: never pooled
    assert isinstance(p, ms.Tensor) and p.name == "w"
