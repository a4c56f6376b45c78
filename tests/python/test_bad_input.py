"""Inputs that once crashed the process or came back wrong (found by fuzzing the public API): each now
raises a ValueError naming the op and what was wrong."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops
from sprout._frontend.source import GraphSyntaxError


@pytest.mark.parametrize("call, op", [
    (lambda: ops.zeros((2 ** 62,)), "Zeros"),
    (lambda: ops.zeros((2 ** 32, 2 ** 32)), "Zeros"),  # the byte count wrapped around to 0
    (lambda: ops.tile(Tensor(np.ones((2, 3), np.float32)), (2 ** 31, 2 ** 31)), "Tile"),
    (lambda: ops.eye(2 ** 62), "Eye"),
    (lambda: ops.randperm(2 ** 62), "Randperm"),
    (lambda: ops.histc(Tensor(np.ones((2, 3), np.float32)), bins=2 ** 62), "UnsortedSegmentSum"),
])
def test_outputs_too_large_to_address_are_refused(call, op):
    with pytest.raises(ValueError, match=rf"{op}: an output of shape \(.*\) and dtype \w+ would take more memory "
                                         r"than a process can address"):
        call()


def test_outputs_too_large_to_allocate_name_the_op():
    with pytest.raises(RuntimeError, match=r"Zeros: cannot allocate an output of shape \(17592186044416,\) and dtype "
                                           r"Float32 \(70368744177664 bytes\)"):
        ops.zeros((2 ** 44,))


def test_zero_sized_outputs_of_huge_shapes_are_fine():
    assert ops.zeros((2 ** 62, 0, 2 ** 62)).shape == (2 ** 62, 0, 2 ** 62)


@pytest.mark.parametrize("call, message", [
    (lambda: ops.zeros((2 ** 63,)), "Zeros: attribute 'shape' must fit in a 64-bit integer, but got 9223372036854775808"),
    (lambda: ops.rand(2, 3, seed=2 ** 64), "UniformReal: attribute 'seed' must fit in a 64-bit integer"),
])
def test_int_attributes_beyond_int64_are_value_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_python_ints_outside_the_tensor_dtype_are_refused_not_wrapped():
    a = Tensor(np.array([0, 1, 2], np.int32))
    with pytest.raises(ValueError, match=r"Add: the Python int 1099511627776 does not fit in Int32, the dtype of the "
                                         r"tensors it goes with; cast them to a wider dtype first"):
        a + 2 ** 40
    with pytest.raises(ValueError, match="Equal: the Python int 1099511627776 does not fit in Int32"):
        a == 2 ** 40
    with pytest.raises(ValueError, match="the Python int -1 does not fit in UInt8"):
        Tensor(np.array([7, 250], np.uint8)) / -1
    # Within range, the int takes the tensor's dtype (MindSpore's and NumPy 2's rule).
    np.testing.assert_array_equal((Tensor(np.array([1, 2], np.int8)) * -3).asnumpy(), np.array([-3, -6], np.int8))
    assert (a + (2 ** 31 - 1)).dtype == ms.int32
    np.testing.assert_allclose((a / 2 ** 20).asnumpy(), np.array([0, 1, 2]) / 2 ** 20)


def test_an_error_message_names_a_non_ascii_character_whole():
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError, match="Einsum: 'equation' 'é,é->' may hold only letters, ',', '...' and '->', "
                                        "but has 'é'$"):
        ops.einsum("é,é->", x, x)


def unroll_forever(x):
    for _ in range(10 ** 9):
        x = x + 1
    return x


def test_compiled_for_loops_have_the_while_loops_bound():
    with pytest.raises(GraphSyntaxError, match=r"test_bad_input.py:\d+: a for loop is unrolled while compiling and "
                                               r"may run at most 10000 iterations"):
        ms.jit(unroll_forever)(Tensor(np.ones(3, np.float32)))


def unroll_to_the_limit(x):
    for _ in range(10000):
        x = x + 1
    return x


def test_a_for_loop_at_the_bound_compiles():
    # 10000 copies of the body: fusion and CSE look at each node a bounded number of times (they were
    # quadratic in a chain's length; this took 6.5 s to compile).
    np.testing.assert_array_equal(ms.jit(unroll_to_the_limit)(Tensor(np.zeros(3, np.float32))).asnumpy(),
                                  np.full(3, 10000, np.float32))


def test_clamp_with_a_nan_bound_gives_nan_as_in_pytorch():
    x = Tensor(np.array([1.0, 5.0, np.nan], np.float32))
    assert np.isnan(ops.clamp(x, float("nan"), 2.0).asnumpy()).all()
    assert np.isnan(ops.clamp(x, 0.0, float("nan")).asnumpy()).all()
    np.testing.assert_array_equal(ops.clamp(x, 2.0, 3.0).asnumpy(), [2.0, 3.0, np.nan])


def test_index_fill_takes_negative_positions_and_refuses_out_of_range_ones():
    x = Tensor(np.zeros((3, 2), np.float32))
    np.testing.assert_array_equal(ops.index_fill(x, 0, Tensor(np.array([-1], np.int32)), 5.0).asnumpy(),
                                  [[0, 0], [0, 0], [5, 5]])
    with pytest.raises(IndexError, match="index_fill: 'index' holds 3, out of range for axis 0 of size 3"):
        ops.index_fill(x, 0, Tensor(np.array([0, 3], np.int32)), 5.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_clamp_by_numbers_keeps_nan_and_applies_max_last(dtype):
    # The bounds-as-numbers loop (math_nary.cc): NaN in x stays NaN, infinities clamp, and with lo > hi
    # every value is hi (max applied last, as PyTorch).
    x = np.concatenate([np.array([np.nan, np.inf, -np.inf, -0.0, 0.25], dtype),
                        np.random.default_rng(0).uniform(-3, 3, 100003).astype(dtype)])
    np.testing.assert_array_equal(ops.clamp(ms.Tensor(x), -1.0, 1.5).asnumpy(), np.clip(x, -1.0, 1.5))
    np.testing.assert_array_equal(ops.clamp(ms.Tensor(x[1:]), 2.0, 1.0).asnumpy(), np.full(x.size - 1, 1.0, dtype))
