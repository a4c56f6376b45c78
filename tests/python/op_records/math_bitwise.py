"""Records of the bit operations, Gcd and Lcm (src/ops/math_bitwise.cc). No gradient check: BitwiseAnd/Or/Xor
give none and the others raise (test_bitwise_ops.py checks both, and the shift counts outside the bit width)."""
import numpy as np

import sprout as ms
from sprout import ops
from op_records.record import INT_DTYPES, OpRecord

BROADCAST = [((2, 3), (2, 3)), ((4, 1, 3), (5, 1)), ((), (3,)), ((0, 3), (3,)), ((2, 3), ()), ((7, 33), (7, 33))]


def _bad(op, call, dtypes):
    return [(lambda: call(ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.ones(3, np.int32))), TypeError,
             rf"{op}: '\w+' must have dtype in \[{dtypes}\], but got Float32"),
            (lambda: call(ms.Tensor(np.ones((2, 3), np.int32)), ms.Tensor(np.ones(4, np.int32))), ValueError,
             rf"{op}: shapes \(2, 3\) and \(4,\) cannot broadcast")]


def _shift_sample(rng, shapes, dtype):
    """Values in the dtype's range and counts within its bit width (the counts outside it are
    MindSpore's, tested in test_bitwise_ops.py)."""
    np_dtype = ms.dtype_to_nptype(dtype)
    info = np.iinfo(np_dtype)
    x = rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, size=shapes[0]).astype(np_dtype)
    return [x, rng.integers(0, info.bits, size=shapes[1]).astype(np_dtype)]


def _gcd_sample(rng, shapes, dtype):
    np_dtype = ms.dtype_to_nptype(dtype)
    low = 0 if dtype == ms.uint8 else -12
    return [rng.integers(low, 13, size=s).astype(np_dtype) for s in shapes]


_INTS = "Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64"
_BITWISE = (ms.bool_,) + INT_DTYPES

RECORDS = [
    OpRecord("BitwiseAnd", ops.bitwise_and, np.bitwise_and, BROADCAST, _BITWISE, -100, 100, exact=True,
             bad=_bad("BitwiseAnd", ops.bitwise_and, "Bool, " + _INTS)),
    OpRecord("BitwiseOr", ops.bitwise_or, np.bitwise_or, BROADCAST, _BITWISE, -100, 100, exact=True,
             bad=_bad("BitwiseOr", ops.bitwise_or, "Bool, " + _INTS)),
    OpRecord("BitwiseXor", ops.bitwise_xor, np.bitwise_xor, BROADCAST, _BITWISE, -100, 100, exact=True,
             bad=_bad("BitwiseXor", ops.bitwise_xor, "Bool, " + _INTS)),
    OpRecord("LeftShift", ops.bitwise_left_shift, np.left_shift, BROADCAST, INT_DTYPES, exact=True,
             sampler=_shift_sample, bad=_bad("LeftShift", ops.bitwise_left_shift, _INTS)),
    OpRecord("RightShift", ops.bitwise_right_shift, np.right_shift, BROADCAST, INT_DTYPES, exact=True,
             sampler=_shift_sample, bad=_bad("RightShift", ops.bitwise_right_shift, _INTS)),
    OpRecord("Gcd", ops.gcd, np.gcd, BROADCAST, INT_DTYPES, exact=True, sampler=_gcd_sample,
             bad=_bad("Gcd", ops.gcd, _INTS)),
    OpRecord("Lcm", ops.lcm, np.lcm, BROADCAST, INT_DTYPES, exact=True, sampler=_gcd_sample,
             bad=_bad("Lcm", ops.lcm, _INTS)),
    OpRecord("Invert", ops.invert, np.invert, [((2, 3),), ((),), ((0, 4),), ((7, 33),)], INT_DTYPES, -100, 100,
             exact=True, bad=[(lambda: ops.invert(ms.Tensor([True])), TypeError,
                               rf"Invert: 'x' must have dtype in \[{_INTS}\], but got Bool")]),
]
