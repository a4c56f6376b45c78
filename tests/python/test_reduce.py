"""Reductions against NumPy over every axis combination, both layouts, dtypes and bad input."""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sprout as ms
from sprout import ops


def all_axis_sets(ndim):
    for r in range(ndim + 1):
        yield from itertools.combinations(range(ndim), r)


@pytest.mark.parametrize("keep", [False, True])
def test_every_axis_set_of_a_4d_tensor(keep):
    a = np.random.default_rng(0).standard_normal((2, 3, 4, 5))
    t = ms.Tensor(a)
    for axes in all_axis_sets(4):
        np_axes = axes if axes else None
        for op, ref in [(ops.ReduceSum, np.sum), (ops.ReduceMean, np.mean), (ops.ReduceMax, np.max),
                        (ops.ReduceMin, np.min)]:
            out = op(keep_dims=keep)(t, axes)
            np.testing.assert_allclose(out.asnumpy(), ref(a, axis=np_axes, keepdims=keep), rtol=1e-12,
                                       err_msg=f"{op.__name__} axes={axes}")


@given(st.data())
def test_reductions_of_views(data):
    a = data.draw(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=9),
                             elements=st.floats(-10, 10, width=32)))
    t = ms.Tensor(a).T  # a non-contiguous layout
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    np.testing.assert_allclose(t.sum(axis=axis).asnumpy(), a.T.sum(axis=axis), rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(t.max(axis=axis, keepdims=True).asnumpy(), a.T.max(axis=axis, keepdims=True))


@pytest.mark.parametrize("dtype", [ms.int8, ms.int32, ms.int64, ms.uint8, ms.float16, ms.bfloat16, ms.float64])
def test_dtypes(dtype):
    a = np.arange(24).reshape(4, 6) % 7
    t = ms.Tensor(a, dtype)
    assert t.sum(axis=0).dtype == (ms.int64 if dtype in (ms.int8, ms.int32, ms.uint8) else dtype)  # MindSpore's
    assert ops.ReduceSum()(t, 0).dtype == dtype  # the kernels keep every dtype
    np.testing.assert_array_equal(t.sum(axis=1).asnumpy().astype(np.int64), a.sum(axis=1))
    np.testing.assert_array_equal(t.max(axis=0).asnumpy().astype(np.int64), a.max(axis=0))
    np.testing.assert_array_equal(t.min().asnumpy().astype(np.int64), a.min())


def test_bool_sum_counts_and_mean_truncates_integers():
    t = ms.Tensor([[True, False, True], [True, True, True]])
    s = t.sum(axis=1)
    assert s.dtype == ms.int64 and s.tolist() == [2, 3]
    with pytest.raises(TypeError, match="ReduceMean: 'x' must be a floating-point tensor"):
        t.mean()  # MindSpore refuses a bool mean too
    assert ms.Tensor([1, 2]).mean().item() == 1  # an integer mean: MindSpore's, truncated, in the input's dtype


def test_long_rows_split_across_threads():
    a = np.random.default_rng(2).standard_normal(1_000_003).astype(np.float32)
    ms.set_context(runtime_num_threads=2)
    try:
        t = ms.Tensor(a)
        np.testing.assert_allclose(t.sum().item(), a.astype(np.float64).sum(), rtol=1e-5)
        assert t.max().item() == a.max()
        b = a[:1_000_000].reshape(1000, 1000)
        np.testing.assert_allclose(ms.Tensor(b).sum(axis=0).asnumpy(), b.sum(axis=0), rtol=1e-4, atol=1e-4)
    finally:
        ms.set_context(runtime_num_threads=1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_reductions_over_every_block_width(dtype):
    # Reducing the outer axis keeps each block of columns in registers down all the rows (blocks of four
    # vectors, then one vector, then scalars): widths around each boundary, NaN in one column only.
    rng = np.random.default_rng(5)
    for cols in (1, 7, 16, 63, 64, 65, 129, 300):
        a = rng.standard_normal((37, cols)).astype(dtype)
        a[11, cols // 2] = np.nan
        t = ms.Tensor(a)
        rtol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(t.sum(axis=0).asnumpy(), a.sum(axis=0), rtol=rtol, atol=rtol)
        np.testing.assert_array_equal(t.max(axis=0).asnumpy(), a.max(axis=0))
        np.testing.assert_array_equal(t.min(axis=0).asnumpy(), a.min(axis=0))
        assert np.isnan(t.max(axis=0).asnumpy()[cols // 2]) and np.isnan(t.sum(axis=0).asnumpy()[cols // 2])


def test_functional_forms():
    a = np.arange(6.0).reshape(2, 3)
    t = ms.Tensor(a)
    np.testing.assert_array_equal(ops.sum(t, 1, keepdim=True).asnumpy(), a.sum(1, keepdims=True))
    np.testing.assert_array_equal(ops.mean(t, axis=(0, 1)).asnumpy(), a.mean())
    np.testing.assert_array_equal(ops.amax(t, 0).asnumpy(), a.max(0))
    np.testing.assert_array_equal(ops.amin(t).asnumpy(), a.min())
    assert ops.sum(ms.Tensor([1, 2]), dtype=ms.float32).dtype == ms.float32


def test_nan_and_empty():
    t = ms.Tensor([1.0, float("nan"), 2.0])
    assert np.isnan(t.max().item()) and np.isnan(t.min().item()) and np.isnan(t.sum().item())
    e = ms.Tensor(np.zeros((0, 3), np.float32))
    assert e.sum(axis=0).tolist() == [0.0, 0.0, 0.0]
    assert e.sum(axis=1).shape == (0,)
    assert np.isnan(e.mean(axis=0).asnumpy()).all()
    with pytest.raises(ValueError, match="ReduceMax: cannot reduce over axis 0 of size 0"):
        e.max(axis=0)


def test_bad_axes():
    t = ms.Tensor(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"ReduceSum: 'axis' must be in \[-2, 1\].*got 2"):
        t.sum(axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        t.sum(axis=(0, -2))
    with pytest.raises(TypeError, match="axis"):
        ops.sum(t, "0")


def _scan_reference(x, axis, exclusive, reverse, product):
    r = np.flip(x.astype(np.float64), axis) if reverse else x.astype(np.float64)
    r = np.cumprod(r, axis) if product else np.cumsum(r, axis)
    if exclusive:
        r = np.roll(r, 1, axis)
        first = [slice(None)] * x.ndim
        first[axis] = 0
        r[tuple(first)] = 1 if product else 0
    return np.flip(r, axis) if reverse else r


@pytest.mark.parametrize("shape, axis", [((262144,), 0), ((5003,), 0), ((513,), 0), ((100,), 0), ((19, 1000), 1),
                                         ((8, 600), 1), ((3, 777), -1), ((64, 64), 0), ((4, 5, 600), 2),
                                         ((10, 1024), 1), ((3, 3, 512), -1)])
@pytest.mark.parametrize("exclusive, reverse", [(False, False), (True, False), (False, True), (True, True)])
def test_cumsum_and_cumprod_on_long_runs_match_numpy(shape, axis, exclusive, reverse):
    """Note [Scans along contiguous runs]: rows scanned eight at a time, long runs (and rows a multiple of
    1 KiB long) in chunks combined in a second pass; every variant against float64 NumPy, integers
    exactly."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(np.float32)
    got = ops.CumSum(exclusive=exclusive, reverse=reverse)(ms.Tensor(x), axis).asnumpy()
    np.testing.assert_allclose(got, _scan_reference(x, axis, exclusive, reverse, False), rtol=1e-4, atol=2e-3)
    p = (1 + 1e-3 * rng.standard_normal(shape)).astype(np.float32)
    got = ops.CumProd(exclusive=exclusive, reverse=reverse)(ms.Tensor(p), axis).asnumpy()
    np.testing.assert_allclose(got, _scan_reference(p, axis, exclusive, reverse, True), rtol=1e-4)
    i = rng.integers(-5, 5, shape).astype(np.int32)
    got = ops.CumSum(exclusive=exclusive, reverse=reverse)(ms.Tensor(i), axis).asnumpy()
    np.testing.assert_array_equal(got, _scan_reference(i, axis, exclusive, reverse, False).astype(np.int64))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_argmax_argmin_of_long_rows_match_numpy(dtype):
    """Rows of 32 or more: the extremum by a vector reduction, then its first position; NumPy's rules for
    ties (the first), NaN (the first NaN wins) and signed zeros (equal: the first)."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((37, 1000)).astype(dtype)
    x[3, 100] = x[3, 700] = 50  # a tie: the first
    x[5, 40] = x[5, 900] = np.nan  # NaN: the first NaN
    x[6] = 0.0
    x[6, 10] = -0.0  # zeros only: index 0
    x[7, :] = -1.0
    x[7, 500], x[7, 20] = -0.0, 0.0  # +0 and -0 equal: the first of them
    x[8, -1] = np.inf
    x[9, 0] = -np.inf
    t = ms.Tensor(x)
    np.testing.assert_array_equal(ops.argmax(t, -1).asnumpy(), np.argmax(x, -1))
    np.testing.assert_array_equal(ops.argmin(t, -1).asnumpy(), np.argmin(x, -1))
