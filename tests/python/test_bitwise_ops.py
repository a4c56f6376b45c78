"""Bit operations, shifts, gcd and lcm (src/ops/math_bitwise.cc) against NumPy for every integer dtype, the
shift counts outside the bit width as MindSpore 2.10 gives them, promotion, bad dtypes, Tensor methods,
graph mode and gradients. The op-test harness (op_records/math_bitwise.py) covers the broadcast shapes."""
import numpy as np
import pytest

import sprout as ms
from sprout import _C, ops

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8]

BINARY = {
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "bitwise_left_shift": np.left_shift, "bitwise_right_shift": np.right_shift, "gcd": np.gcd, "lcm": np.lcm,
}
PRIMITIVES = {"bitwise_and": "BitwiseAnd", "bitwise_or": "BitwiseOr", "bitwise_xor": "BitwiseXor",
              "bitwise_left_shift": "LeftShift", "bitwise_right_shift": "RightShift", "gcd": "Gcd", "lcm": "Lcm"}


def operands(name, dtype, shape_x=(3, 4), shape_y=(4,), seed=0):
    """x over the dtype's range (with its extremes), y a count within the bit width for the shifts."""
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, size=shape_x, endpoint=True).astype(dtype)
    x.reshape(-1)[:2] = info.min, info.max
    if "shift" in name:
        y = rng.integers(0, info.bits, size=shape_y).astype(dtype)
    else:
        y = rng.integers(info.min, info.max, size=shape_y, endpoint=True).astype(dtype)
        y.reshape(-1)[0] = 0
    return x, y


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_match_numpy_with_broadcasting(name, dtype):
    x, y = operands(name, dtype)
    with np.errstate(over="ignore"):
        want = BINARY[name](x, y)
    got = getattr(ops, name)(ms.Tensor(x), ms.Tensor(y))
    assert got.dtype == ms.Tensor(x).dtype
    np.testing.assert_array_equal(got.asnumpy(), want)
    # The same through the primitive and the Tensor method, on a transposed (strided) x.
    xt = ms.Tensor(np.ascontiguousarray(x.T)).transpose(1, 0)
    np.testing.assert_array_equal(getattr(ops, PRIMITIVES[name])()(xt, ms.Tensor(y)).asnumpy(), want)
    np.testing.assert_array_equal(getattr(xt, name)(ms.Tensor(y)).asnumpy(), want)


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_bitwise_ops_take_bool(name):
    x = np.array([[True, False, True, False]])
    y = np.array([[True], [False]])
    got = getattr(ops, name)(ms.Tensor(x), ms.Tensor(y))
    assert got.dtype == ms.bool_
    np.testing.assert_array_equal(got.asnumpy(), BINARY[name](x, y))


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: d.__name__)
def test_invert_and_bitwise_not_match_numpy(dtype):
    x, _ = operands("invert", dtype)
    np.testing.assert_array_equal(ops.invert(ms.Tensor(x)).asnumpy(), np.invert(x))
    np.testing.assert_array_equal(ops.Invert()(ms.Tensor(x)).asnumpy(), np.invert(x))
    np.testing.assert_array_equal(ms.Tensor(x).invert().asnumpy(), np.invert(x))
    np.testing.assert_array_equal(ms.Tensor(x).bitwise_not().asnumpy(), np.invert(x))
    got = ms.Tensor(np.array([True, False])).bitwise_not()
    assert got.dtype == ms.bool_ and got.asnumpy().tolist() == [False, True]


# MindSpore 2.10's CPU results (Note [Shift counts]): x = 3 shifted by each count.
COUNTS = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100, -1, -2, -31, -33, -64, -65]
MINDSPORE_SHIFTS = {
    np.int8: ([3, 6, -128, 0, 0, 0, 0, 0, 0, 3, 6, 0, 0, 3, 6, 48, 0, 0, 6, 0, 3, 0],
              [3, 1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 3, 1, 0, 0, 0, 1, 0, 3, 0]),
    np.int32: ([3, 6, 384, 768, 1536, 98304, 196608, 393216, -2**31, 3, 6, 768, -2**31, 3, 6, 48, -2**31, -2**30, 6,
                -2**31, 3, -2**31],
               [3, 1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 3, 1, 0, 0, 0, 1, 0, 3, 0]),
    np.int64: ([3, 6, 384, 768, 1536, 98304, 196608, 393216, 3 << 31, 3 << 32, 3 << 33, 3 << 40, -2**63, 3, 6, 3 << 36,
                -2**63, -2**62, 3 << 33, 3 << 31, 3, -2**63],
               [3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 3, 0]),
}


@pytest.mark.parametrize("dtype", list(MINDSPORE_SHIFTS), ids=lambda d: d.__name__)
def test_out_of_range_shift_counts_give_mindspores_results(dtype):
    left, right = MINDSPORE_SHIFTS[dtype]
    x, n = ms.Tensor(np.full(len(COUNTS), 3, dtype)), ms.Tensor(np.array(COUNTS, dtype))
    assert ops.bitwise_left_shift(x, n).asnumpy().tolist() == left
    assert ops.bitwise_right_shift(x, n).asnumpy().tolist() == right


def ms_shift(x, n, left, dtype):
    """MindSpore's (C's, on x86) shift: the count modulo the width of C's promoted type, then narrowed."""
    bits = max(np.iinfo(dtype).bits, 32)
    c = int(n) % bits
    if not left:
        return np.array(int(x) >> c).astype(dtype)
    return np.array((int(x) << c) & ((1 << bits) - 1)).astype(np.uint64).astype(dtype)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: d.__name__)
def test_every_shift_count_follows_the_promoted_width(dtype):
    info = np.iinfo(dtype)
    counts = np.array([c for c in range(-70, 101) if info.min <= c <= info.max] + ([200, 255] if info.min == 0 else []),
                      dtype)
    for value in {3, info.max, info.min, -3 if info.min < 0 else 128}:
        x = np.full(counts.shape, value, dtype)
        for left, fn in ((True, ops.bitwise_left_shift), (False, ops.bitwise_right_shift)):
            want = [ms_shift(value, c, left, dtype) for c in counts]
            assert fn(ms.Tensor(x), ms.Tensor(counts)).asnumpy().tolist() == [int(w) for w in want], (value, left)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64], ids=lambda d: d.__name__)
def test_gcd_and_lcm_edges_match_numpy(dtype):
    info = np.iinfo(dtype)
    a = np.array([0, 0, -12, 12, -12, 7, info.min, info.min, info.min, info.min, info.max, 11, -100], dtype)
    b = np.array([0, 5, 18, -18, -18, 0, 0, 1, 6, info.min, info.max - 1, 12, 7], dtype)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(ops.gcd(ms.Tensor(a), ms.Tensor(b)).asnumpy(), np.gcd(a, b))
        np.testing.assert_array_equal(ops.lcm(ms.Tensor(a), ms.Tensor(b)).asnumpy(), np.lcm(a, b))


def test_inputs_promote_and_python_ints_take_the_tensors_dtype():
    i32 = ms.Tensor(np.array([6, 3], np.int32))
    assert ops.bitwise_and(i32, ms.Tensor(np.array([4, 1], np.int64))).dtype == ms.int64
    assert ops.bitwise_or(ms.Tensor(np.array([6], np.int8)), ms.Tensor(np.array([4], np.uint8))).dtype == ms.int16
    assert ops.bitwise_and(i32, ms.Tensor(np.array([True, False]))).asnumpy().tolist() == [0, 0]
    assert ops.gcd(i32, ms.Tensor(np.array([4, 9], np.int64))).dtype == ms.int64
    got = ops.bitwise_and(i32, 5)
    assert got.dtype == ms.int32 and got.asnumpy().tolist() == [4, 1]
    assert ops.bitwise_left_shift(3, i32).asnumpy().tolist() == [192, 24]
    got = ops.bitwise_xor(ms.Tensor(np.array([True, False])), True)
    assert got.dtype == ms.bool_ and got.asnumpy().tolist() == [False, True]


@pytest.mark.parametrize("name", sorted(BINARY))
def test_float_and_bool_inputs_are_type_errors_naming_the_op(name):
    op = PRIMITIVES[name]
    with pytest.raises(TypeError, match=rf"{op}: '\w+' must have dtype in \[.*Int8.*\], but got Float32"):
        getattr(ops, name)(ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.ones(2, np.int32)))
    with pytest.raises(TypeError, match=rf"{op}: .* but got Float32"):
        getattr(ops, name)(ms.Tensor(np.ones(2, np.int32)), 1.5)
    if name not in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        with pytest.raises(TypeError, match=rf"{op}: '\w+' must have dtype in \[Int8, .*\], but got Bool"):
            getattr(ops, name)(ms.Tensor([True]), ms.Tensor([False]))
    with pytest.raises(TypeError, match=r"Invert: 'x' must have dtype in \[Int8, .*\], but got Float32"):
        ops.invert(ms.Tensor([1.0]))


def test_graph_mode_matches_eager():
    x, y = operands("gcd", np.int32, (2, 3), (3,), seed=1)
    n = np.array([1, 5, 31], np.int32)

    def f(x, y, n):
        return (ops.bitwise_and(x, y), x.bitwise_or(y), ops.bitwise_xor(x, y), ops.bitwise_left_shift(x, n),
                ops.bitwise_right_shift(x, n), ops.gcd(x, y), ops.lcm(x, y), ops.invert(x), x.bitwise_not())

    args = (ms.Tensor(x), ms.Tensor(y), ms.Tensor(n))
    for g, e in zip(ms.jit(f)(*args), f(*args)):
        np.testing.assert_array_equal(g.asnumpy(), e.asnumpy())


def test_bitwise_ops_pass_no_gradient_and_the_others_raise():
    x, y = ms.Tensor(np.array([6, 3], np.int32)), ms.Tensor(np.array([4, 1], np.int32))
    for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
        prim = _C.Primitive(op)
        out = prim(x, y)
        assert all(g is None for g in _C.run_bprop(prim, [x, y], [out], [out]))
    for op, inputs in [("LeftShift", [x, y]), ("RightShift", [x, y]), ("Gcd", [x, y]), ("Lcm", [x, y]),
                       ("Invert", [x])]:
        prim = _C.Primitive(op)
        out = prim(*inputs)
        with pytest.raises(RuntimeError, match=f"grad: {op} has no gradient"):
            _C.run_bprop(prim, inputs, [out], [out])


def test_a_float_function_through_integer_bit_ops_differentiates_in_both_modes():
    # A mask computed with bit operations is a constant of the gradient (d/dx x * mask = mask).
    def f(x):
        mask = ops.bitwise_and(ops.gcd((x * 10).astype(ms.int32), ms.Tensor(4, ms.int32)), ms.Tensor(2, ms.int32))
        return (x * mask.astype(ms.float32)).sum()

    x = ms.Tensor(np.array([0.1, 0.2, 0.6], np.float32))
    want = [0.0, 2.0, 2.0]  # gcd(1, 4) & 2, gcd(2, 4) & 2, gcd(6, 4) & 2
    np.testing.assert_array_equal(ms.grad(f)(x).asnumpy(), want)
    np.testing.assert_array_equal(ms.jit(ms.grad(f))(x).asnumpy(), want)


def test_mindir_export_round_trips(tmp_path):
    # MindSpore 2.10 loads this file and gives the same values; Sprout loads MindSpore's (checked by hand:
    # the ops and their inputs are spelled as there, src/io/mindir_ops.cc).
    class Net(ms.nn.Cell):
        def construct(self, x, y, n):
            return (ops.BitwiseAnd()(x, y) + ops.BitwiseOr()(x, y) + ops.BitwiseXor()(x, y) + ops.LeftShift()(x, n)
                    + ops.RightShift()(x, n) + ops.Gcd()(x, y) + ops.Lcm()(x, y) + ops.Invert()(x))

    args = (ms.Tensor(np.array([[6, 3, -12]], np.int32)), ms.Tensor(np.array([4, 1, 18], np.int32)),
            ms.Tensor(np.array([1, 2, 3], np.int32)))
    ms.export(Net(), *args, file_name=str(tmp_path / "bitwise"))
    loaded = ms.nn.GraphCell(ms.load(str(tmp_path / "bitwise.mindir")))
    assert loaded(*args).asnumpy().tolist() == [[34, 18, -65]]  # MindSpore 2.10's result for this network


@pytest.mark.parametrize("compiled", [False, True])
def test_operators_are_bitwise_and_invert_is_logical_not(compiled):
    """&, | and ^ as MindSpore's Tensor operators (bitwise; logical on Bool), ~ logical not for every dtype."""
    a, b = np.array([5, 3, -8], np.int32), np.array([1, 6, 3], np.int32)
    m = np.array([True, False, True])

    def f(a, b, m):
        return a & b, a | b, a ^ b, ~a, ~m, m & ~m, m | m, 3 | a, a ^ 1

    fn = ms.jit(f) if compiled else f
    got = [t.asnumpy() for t in fn(ms.Tensor(a), ms.Tensor(b), ms.Tensor(m))]
    want = [a & b, a | b, a ^ b, a == 0, ~m, m & ~m, m | m, 3 | a, a ^ 1]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype
