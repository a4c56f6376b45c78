"""GatherElements and TensorScatterElements at sizes that split across threads (Note [Element indices by
rows] in array_layout.cc): every axis, an index smaller than the data, negative and duplicate indices,
each item size, and indices out of range found inside the parallel loop. MaskedSelect and NonZero,
compacted in chunks across threads (Note [Compacting in chunks] in array_index.cc)."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

RNG = np.random.default_rng(7)


def _index(data_shape, index_shape, axis, dtype=np.int64):
    n = data_shape[axis]
    return RNG.integers(-n, n, index_shape).astype(dtype)  # negatives count from the end


def _scatter_ref(x, axis, index, updates, add):
    """Row-major order, so with duplicate indices the last update wins (or all add, in that order)."""
    out = x.copy()
    for k in np.ndindex(index.shape):
        target = list(k)
        target[axis] = index[k] % x.shape[axis]
        if add:
            out[tuple(target)] += updates[k]
        else:
            out[tuple(target)] = updates[k]
    return out


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_gather_elements_matches_numpy_on_every_axis(axis, index_dtype):
    data = RNG.standard_normal((40, 30, 200)).astype(np.float32)
    index_shape = [35, 20, 150]
    index_shape[axis] = 90  # the axis may be longer than the data's; the others at most as long
    index = _index(data.shape, index_shape, axis, index_dtype)
    got = ops.gather_elements(ms.Tensor(data), axis, ms.Tensor(index)).asnumpy()
    sliced = data[tuple(slice(None) if d == axis % 3 else slice(0, s) for d, s in enumerate(index_shape))]
    np.testing.assert_array_equal(got, np.take_along_axis(sliced, index % data.shape[axis], axis))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.int32, np.float64])
def test_gather_elements_moves_every_item_size(dtype):
    data = (RNG.standard_normal((300, 257)) * 10).astype(dtype)
    index = _index(data.shape, (300, 400), 1)
    got = ops.gather_elements(ms.Tensor(data), 1, ms.Tensor(index)).asnumpy()
    np.testing.assert_array_equal(got, np.take_along_axis(data, index % 257, 1))


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("reduction", ["none", "add"])
def test_scatter_elements_keeps_index_order_with_duplicates(axis, reduction):
    # Few distinct targets: many updates land on one element, from rows and columns that different
    # threads would take if the split ignored the axis.
    x = RNG.standard_normal((64, 700)).astype(np.float64)
    index = RNG.integers(-3, 3, (60, 650)) if axis == 0 else RNG.integers(-700, 700, (60, 650)) % 5
    updates = RNG.standard_normal((60, 650))
    got = ops.tensor_scatter_elements(ms.Tensor(x), ms.Tensor(index), ms.Tensor(updates), axis, reduction).asnumpy()
    np.testing.assert_array_equal(got, _scatter_ref(x, axis, index, updates, reduction == "add"))


def test_scatter_elements_on_int32_bool_and_a_3d_middle_axis():
    x = RNG.integers(-100, 100, (20, 50, 60)).astype(np.int32)
    index = _index(x.shape, (20, 40, 60), 1, np.int32)
    updates = RNG.integers(-100, 100, (20, 40, 60)).astype(np.int32)
    got = ops.tensor_scatter_elements(ms.Tensor(x), ms.Tensor(index), ms.Tensor(updates), 1, "add").asnumpy()
    np.testing.assert_array_equal(got, _scatter_ref(x, 1, index, updates, True))
    flags = np.zeros((100, 500), np.bool_)
    index = _index(flags.shape, (100, 300), 1)
    got = ops.tensor_scatter_elements(ms.Tensor(flags), ms.Tensor(index), ms.Tensor(np.ones((100, 300), np.bool_)),
                                      1).asnumpy()
    np.testing.assert_array_equal(got, _scatter_ref(flags, 1, index, np.ones((100, 300), np.bool_), False))


def test_gather_elements_gradient_scatters_back():
    x = RNG.standard_normal((128, 512)).astype(np.float32)
    index = _index(x.shape, (128, 600), 1)
    weights = RNG.standard_normal((128, 600)).astype(np.float32)
    grad = ms.grad(lambda t: (ops.gather_elements(t, 1, ms.Tensor(index)) * ms.Tensor(weights)).sum())(ms.Tensor(x))
    want = _scatter_ref(np.zeros_like(x, np.float64), 1, index, weights.astype(np.float64), True)
    np.testing.assert_allclose(grad.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_indices_out_of_range_in_a_large_tensor_raise_naming_the_first():
    data = ms.Tensor(np.zeros((200, 300), np.float32))
    index = np.zeros((200, 300), np.int64)
    index[150, 7], index[190, 2] = 300, -301
    with pytest.raises(ValueError, match=r"GatherElements: index 300 in 'index' is out of range for an axis of size 300"):
        ops.gather_elements(data, 1, ms.Tensor(index))
    index = np.zeros((200, 300), np.int32)
    index[120, 9] = -201
    with pytest.raises(ValueError, match=r"TensorScatterElements: index -201 in 'indices' is out of range"):
        ops.tensor_scatter_elements(data, ms.Tensor(index), ms.Tensor(np.ones((200, 300), np.float32)), 0)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.float32, np.int64])
def test_masked_select_and_nonzero_compact_in_order(dtype):
    # Chunks that end in rejected elements (whose writes must not reach the next chunk's entries), chunks
    # with nothing kept, NaN (nonzero) and -0.0 (zero), a broadcast mask.
    x = (RNG.standard_normal((640, 333)) * 5).astype(dtype)
    mask = RNG.random((640, 333)) > 0.5
    mask[100:300] = False
    mask[:, -40:] = False
    got = ops.masked_select(ms.Tensor(x), ms.Tensor(mask)).asnumpy()
    np.testing.assert_array_equal(got, x[mask])
    row_mask = RNG.random(333) > 0.7
    got = ops.masked_select(ms.Tensor(x), ms.Tensor(row_mask)).asnumpy()
    np.testing.assert_array_equal(got, np.broadcast_to(x, x.shape)[np.broadcast_to(row_mask, x.shape)])
    values = np.where(mask, x, np.zeros_like(x))
    if dtype in (np.float16, np.float32):
        values[5, 7], values[6, 8] = np.nan, -0.0
    for shape in ((640, 333), (20, 32, 333), (640 * 333,)):
        got = ops.nonzero(ms.Tensor(values.reshape(shape))).asnumpy()
        np.testing.assert_array_equal(got, np.argwhere(values.reshape(shape)))


def test_searchsorted_places_nan_last_as_numpy_and_handles_large_rows():
    # Note [Searching sorted rows]: a binary search per value under an order with NaN after every number
    # (the comparison it replaces needed values x row booleans of memory).
    seq = np.array([1.0, 2.0, 2.0, 3.0, np.nan])
    values = np.array([2.0, np.nan, 0.5, 9.0, -np.inf, np.inf])
    for side in ("left", "right"):
        got = ops.searchsorted(ms.Tensor(seq), ms.Tensor(values), side=side).asnumpy()
        np.testing.assert_array_equal(got, np.searchsorted(seq, values, side))
    big = np.sort(RNG.standard_normal(200_000)).astype(np.float32)
    queries = RNG.standard_normal((300, 500)).astype(np.float32)
    got = ops.searchsorted(ms.Tensor(big), ms.Tensor(queries), out_int32=True)
    assert got.dtype == ms.int32
    np.testing.assert_array_equal(got.asnumpy(), np.searchsorted(big, queries))
