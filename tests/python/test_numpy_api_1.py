"""sprout.numpy (MindSpore's mindspore.numpy), part 1: array creation, array ops, logic ops and dtypes,
against NumPy on small inputs, with mindspore.numpy's dtype rules (Python ints give int32, floats float32),
bad input, gradients against finite differences and a few functions compiled (ms.jit)."""
import numpy as np
import pytest

import sprout as ms
import sprout.numpy as mnp
from finite_differences import check_grad

A = np.arange(6, dtype=np.float32).reshape(2, 3)
I = np.arange(6, dtype=np.int32).reshape(2, 3)
V = np.array([3., -1., 2., 5.], np.float32)


def t(x):
    return ms.Tensor(np.asarray(x))


def same(out, expected, dtype=None):
    """out (a Tensor, or a tuple/list of them) equals NumPy's expected values (and has `dtype`)."""
    if isinstance(expected, (tuple, list)):
        assert isinstance(out, (tuple, list)) and len(out) == len(expected)
        for o, e in zip(out, expected):
            same(o, e, dtype)
        return
    assert isinstance(out, ms.Tensor), type(out)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-6)
    assert out.shape == np.shape(expected), (out.shape, np.shape(expected))
    if dtype is not None:
        assert out.dtype == dtype, (out.dtype, dtype)


# name: (sprout call, NumPy reference, result dtype or None)
CREATION = {
    "array_int": (lambda: mnp.array([1, 2]), np.array([1, 2]), ms.int32),
    "array_float": (lambda: mnp.array([[1., 2.]], ndmin=3), np.array([[[1., 2.]]]), ms.float32),
    "asarray_dtype": (lambda: mnp.asarray([1, 2], 'float16'), np.array([1, 2]), ms.float16),
    "asfarray": (lambda: mnp.asfarray([1, 2], ms.int32), np.array([1., 2.]), ms.float32),
    "ones": (lambda: mnp.ones((2, 3), ms.int8), np.ones((2, 3)), ms.int8),
    "zeros": (lambda: mnp.zeros(3), np.zeros(3), ms.float32),
    "empty": (lambda: mnp.empty((2,)), np.zeros(2), ms.float32),
    "full_int": (lambda: mnp.full((2, 2), 3), np.full((2, 2), 3), ms.int32),
    "full_array": (lambda: mnp.full((2, 2), [1., 2.]), np.full((2, 2), [1., 2.]), ms.float32),
    "ones_like": (lambda: mnp.ones_like(t(I)), np.ones((2, 3)), ms.int32),
    "zeros_like_shape": (lambda: mnp.zeros_like(t(A), shape=(3,)), np.zeros(3), ms.float32),
    "full_like": (lambda: mnp.full_like(t(A), 7, ms.int32), np.full((2, 3), 7), ms.int32),
    "empty_like": (lambda: mnp.empty_like(t(A)), np.zeros((2, 3)), ms.float32),
    "arange_int": (lambda: mnp.arange(5), np.arange(5), ms.int32),
    "arange_neg": (lambda: mnp.arange(5, 0, -2), np.arange(5, 0, -2), ms.int32),
    "arange_float": (lambda: mnp.arange(0, 1, 0.25), np.arange(0, 1, 0.25), ms.float32),
    "arange_empty": (lambda: mnp.arange(3, 1), np.arange(3, 1), ms.int32),
    "linspace": (lambda: mnp.linspace(0, 1, 5), np.linspace(0, 1, 5), ms.float32),
    "linspace_no_end": (lambda: mnp.linspace(2, 3, 4, endpoint=False), np.linspace(2, 3, 4, endpoint=False), None),
    "linspace_int": (lambda: mnp.linspace(0, 10, 5, dtype=ms.int32), np.linspace(0, 10, 5).astype(np.int32),
                     ms.int32),
    "linspace_arrays": (lambda: mnp.linspace(t([0., 1.]), t([1., 3.]), 3, axis=1),
                        np.linspace([0., 1.], [1., 3.], 3, axis=1), None),
    "logspace": (lambda: mnp.logspace(0, 2, 3, base=2.0), np.logspace(0, 2, 3, base=2.0), ms.float32),
    "geomspace": (lambda: mnp.geomspace(1, 1000, 4), np.geomspace(1, 1000, 4), ms.float32),
    "geomspace_negative": (lambda: mnp.geomspace(-1, -16, 5), np.geomspace(-1, -16, 5), None),
    "eye": (lambda: mnp.eye(2, 3, 1), np.eye(2, 3, 1), ms.float32),
    "identity": (lambda: mnp.identity(3, ms.int32), np.identity(3), ms.int32),
    "tri": (lambda: mnp.tri(3, 4, -1), np.tri(3, 4, -1), ms.float32),
    "tril": (lambda: mnp.tril(t(A), -1), np.tril(A, -1), None),
    "triu_vector": (lambda: mnp.triu(t(V), 1), np.triu(V, 1), None),
    "tril_indices": (lambda: mnp.tril_indices(3, 1, 4), np.tril_indices(3, 1, 4), ms.int32),
    "triu_indices_from": (lambda: mnp.triu_indices_from(t(A), 1), np.triu_indices_from(A, 1), ms.int32),
    "tril_indices_from": (lambda: mnp.tril_indices_from(t(A)), np.tril_indices_from(A), ms.int32),
    "triu_indices": (lambda: mnp.triu_indices(3), np.triu_indices(3), ms.int32),
    "diag_indices": (lambda: mnp.diag_indices(3, 3), np.diag_indices(3, 3), ms.int32),
    "diag_vector": (lambda: mnp.diag(t(V), -1), np.diag(V, -1), None),
    "diag_matrix": (lambda: mnp.diag(t(A), 1), np.diag(A, 1), None),
    "diagflat": (lambda: mnp.diagflat(t(A[:, :2]), 1), np.diagflat(A[:, :2], 1), None),
    "diagonal": (lambda: mnp.diagonal(t(np.arange(24.).reshape(2, 3, 4)), 1, 2, 0),
                 np.diagonal(np.arange(24.).reshape(2, 3, 4), 1, 2, 0), None),
    "trace": (lambda: mnp.trace(t(A)), np.trace(A), ms.float32),
    "trace_int": (lambda: mnp.trace(t(I), -1), np.trace(I, -1), ms.int64),
    "vander": (lambda: mnp.vander(t(np.array([1, 2, 3], np.int32))), np.vander([1, 2, 3]), ms.int32),
    "vander_increasing": (lambda: mnp.vander(t(V), 3, True), np.vander(V, 3, True), None),
    "meshgrid_xy": (lambda: mnp.meshgrid(t([1, 2, 3]), t([4, 5])), np.meshgrid([1, 2, 3], [4, 5]), None),
    "meshgrid_ij_sparse": (lambda: mnp.meshgrid(t([1, 2, 3]), t([4, 5]), t([6]), indexing='ij', sparse=True),
                           np.meshgrid([1, 2, 3], [4, 5], [6], indexing='ij', sparse=True), None),
    "mgrid": (lambda: mnp.mgrid[0:3, 1:5:2], np.mgrid[0:3, 1:5:2], ms.int32),
    "mgrid_count": (lambda: mnp.mgrid[-1:1:5j], np.mgrid[-1:1:5j], ms.float32),
    "ogrid": (lambda: mnp.ogrid[0:3, 0:2], np.ogrid[0:3, 0:2], ms.int32),
    "indices": (lambda: mnp.indices((2, 3)), list(np.indices((2, 3))), ms.int32),
    "ix_": (lambda: mnp.ix_(t([0, 1]), t([2, 4, 5])), np.ix_([0, 1], [2, 4, 5]), None),
    "hamming": (lambda: mnp.hamming(5), np.hamming(5), ms.float32),
    "hanning": (lambda: mnp.hanning(6), np.hanning(6), ms.float32),
    "blackman": (lambda: mnp.blackman(5), np.blackman(5), ms.float32),
    "bartlett": (lambda: mnp.bartlett(6), np.bartlett(6), ms.float32),
    "histogram_bin_edges": (lambda: mnp.histogram_bin_edges(t(V), 4), np.histogram_bin_edges(V, 4), ms.float32),
    "histogram_bin_edges_range": (lambda: mnp.histogram_bin_edges(t(V), 3, (0, 6)),
                                  np.histogram_bin_edges(V, 3, (0, 6)), None),
    "histogram_bin_edges_flat": (lambda: mnp.histogram_bin_edges(t([2., 2.]), 2),
                                 np.histogram_bin_edges([2., 2.], 2), None),
    "copy": (lambda: mnp.copy(t(A)), A, ms.float32),
}

PADS = [((2, 1), {}), (((1, 0), (2, 1)), {"mode": "edge"}), (1, {"constant_values": ((1, 2), (3, 4))}),
        ((2, 3), {"mode": "reflect"}), ((2, 3), {"mode": "symmetric"}), ((2, 4), {"mode": "wrap"}),
        ((2, 1), {"mode": "reflect", "reflect_type": "odd"}), ((1, 2), {"mode": "maximum"}),
        ((1, 2), {"mode": "minimum", "stat_length": 2}), ((2, 1), {"mode": "mean", "stat_length": ((1, 2), (2, 1))}),
        ((1, 2), {"mode": "median"}), ((2, 3), {"mode": "linear_ramp", "end_values": (5, -4)})]


@pytest.mark.parametrize("name", CREATION)
def test_creation_matches_numpy(name):
    call, expected, dtype = CREATION[name]
    same(call(), expected, dtype)


@pytest.mark.parametrize("width,kwargs", PADS)
def test_pad_matches_numpy(width, kwargs):
    same(mnp.pad(t(A), width, **kwargs), np.pad(A, width, **kwargs), ms.float32)


def test_pad_keeps_integers_and_takes_a_function():
    same(mnp.pad(t(I), 1, mode="mean"), np.pad(I, 1, mode="mean"), ms.int32)

    def tens(vector, width, axis, kwargs):  # NumPy's example: write the pads in place, here a new vector
        before, after = width
        n = vector.shape[0]
        return mnp.concatenate((mnp.full((before,), kwargs["value"], vector.dtype), vector[before:n - after],
                                mnp.full((after,), kwargs["value"], vector.dtype)))

    def tens_np(vector, width, axis, kwargs):
        vector[:width[0]] = kwargs["value"]
        if width[1]:
            vector[-width[1]:] = kwargs["value"]

    same(mnp.pad(t(A), 1, tens, value=9), np.pad(A, 1, tens_np, value=9))


def test_random_creation_shapes_and_ranges():
    assert mnp.rand(2, 3).shape == (2, 3) and mnp.rand((2, 3)).dtype == ms.float32
    assert mnp.randn(4).shape == (4,)
    r = mnp.randint(1, 5, (100,))
    assert r.dtype == ms.int32 and 1 <= r.asnumpy().min() and r.asnumpy().max() < 5
    assert mnp.randint(3, shape=(2,)).asnumpy().max() < 3


def test_linspace_retstep_and_array_copies():
    samples, step = mnp.linspace(0, 1, 4, endpoint=False, retstep=True)
    same(samples, np.linspace(0, 1, 4, endpoint=False))
    np.testing.assert_allclose(step.asnumpy(), 0.25)
    x = t(A)
    y = mnp.array(x)
    y[0, 0] = 100
    assert x.asnumpy()[0, 0] == 0
    assert mnp.asarray(x) is x


ARRAY_OPS = {
    "transpose": (lambda: mnp.transpose(t(A)), A.T),
    "transpose_axes": (lambda: mnp.transpose(t(np.zeros((1, 2, 3))), (1, 0, 2)), np.zeros((2, 1, 3))),
    "expand_dims": (lambda: mnp.expand_dims(t(A), (0, 3)), np.expand_dims(A, (0, 3))),
    "squeeze": (lambda: mnp.squeeze(t(np.zeros((1, 2, 1))), -1), np.zeros((1, 2))),
    "rollaxis": (lambda: mnp.rollaxis(t(np.zeros((1, 2, 3))), 2), np.zeros((3, 1, 2))),
    "rollaxis_start": (lambda: mnp.rollaxis(t(np.zeros((1, 2, 3, 4))), 1, 4), np.zeros((1, 3, 4, 2))),
    "swapaxes": (lambda: mnp.swapaxes(t(A), 0, 1), A.T),
    "moveaxis": (lambda: mnp.moveaxis(t(np.arange(6.).reshape(1, 2, 3)), (0, 1), (2, 0)),
                 np.moveaxis(np.arange(6.).reshape(1, 2, 3), (0, 1), (2, 0))),
    "reshape": (lambda: mnp.reshape(t(A), (3, -1)), A.reshape(3, -1)),
    "ravel": (lambda: mnp.ravel(t(A)), A.ravel()),
    "concatenate": (lambda: mnp.concatenate((t(A), t(A)), 1), np.concatenate((A, A), 1)),
    "concatenate_none": (lambda: mnp.concatenate((t(A), t(V)), None), np.concatenate((A, V), None)),
    "concatenate_tensor": (lambda: mnp.concatenate(t(A)), np.concatenate(A)),
    "append": (lambda: mnp.append(t(A), t(A[:1]), 0), np.append(A, A[:1], 0)),
    "append_flat": (lambda: mnp.append(t(A), t(V)), np.append(A, V)),
    "stack": (lambda: mnp.stack((t(V), t(V)), -1), np.stack((V, V), -1)),
    "hstack": (lambda: mnp.hstack((t(V), t(V))), np.hstack((V, V))),
    "hstack_2d": (lambda: mnp.hstack((t(A), t(A))), np.hstack((A, A))),
    "vstack": (lambda: mnp.vstack((t(A[0]), t(A))), np.vstack((A[0], A))),
    "dstack": (lambda: mnp.dstack((t(V), t(V))), np.dstack((V, V))),
    "column_stack": (lambda: mnp.column_stack((t(V), t(V))), np.column_stack((V, V))),
    "atleast_1d": (lambda: mnp.atleast_1d(t(np.float32(1)), t(A)), np.atleast_1d(np.float32(1), A)),
    "atleast_2d": (lambda: mnp.atleast_2d(t(V)), np.atleast_2d(V)),
    "atleast_3d": (lambda: mnp.atleast_3d(t(A)), np.atleast_3d(A)),
    "broadcast_to": (lambda: mnp.broadcast_to(t(V), (2, 4)), np.broadcast_to(V, (2, 4))),
    "broadcast_arrays": (lambda: mnp.broadcast_arrays(t(V), t(V[:, None])), np.broadcast_arrays(V, V[:, None])),
    "tile": (lambda: mnp.tile(t(V), (2, 2)), np.tile(V, (2, 2))),
    "tile_short": (lambda: mnp.tile(t(A), 2), np.tile(A, 2)),
    "split": (lambda: mnp.split(t(np.arange(6.)), 3), np.split(np.arange(6.), 3)),
    "split_points": (lambda: mnp.split(t(A), [1, 5], 1), np.split(A, [1, 5], 1)),
    "array_split": (lambda: mnp.array_split(t(np.arange(7.)), 3), np.array_split(np.arange(7.), 3)),
    "vsplit": (lambda: mnp.vsplit(t(A), 2), np.vsplit(A, 2)),
    "hsplit": (lambda: mnp.hsplit(t(A), [1]), np.hsplit(A, [1])),
    "dsplit": (lambda: mnp.dsplit(t(np.arange(8.).reshape(2, 1, 4)), 2), np.dsplit(np.arange(8.).reshape(2, 1, 4), 2)),
    "flip": (lambda: mnp.flip(t(A)), np.flip(A)),
    "flip_axis": (lambda: mnp.flip(t(A), 1), np.flip(A, 1)),
    "flipud": (lambda: mnp.flipud(t(A)), np.flipud(A)),
    "fliplr": (lambda: mnp.fliplr(t(A)), np.fliplr(A)),
    "roll": (lambda: mnp.roll(t(A), 2), np.roll(A, 2)),
    "roll_axes": (lambda: mnp.roll(t(A), (1, -1), (0, 1)), np.roll(A, (1, -1), (0, 1))),
    "rot90": (lambda: mnp.rot90(t(A)), np.rot90(A)),
    "rot90_k": (lambda: mnp.rot90(t(np.arange(24.).reshape(2, 3, 4)), -1, (2, 0)),
                np.rot90(np.arange(24.).reshape(2, 3, 4), -1, (2, 0))),
    "rot90_2": (lambda: mnp.rot90(t(A), 2), np.rot90(A, 2)),
    "where": (lambda: mnp.where(t(A > 2), t(A), 1.5), np.where(A > 2, A, 1.5)),
    "where_nonzero": (lambda: mnp.where(t(A > 2)), np.where(A > 2)),
    "take": (lambda: mnp.take(t(A), t([0, 5, 7])), np.take(A, [0, 5, 7], mode='clip')),
    "take_axis": (lambda: mnp.take(t(A), t([[0, 2]]), 1), np.take(A, [[0, 2]], 1)),
    "take_wrap": (lambda: mnp.take(t(A), t([-1, 7]), mode='wrap'), np.take(A, [-1, 7], mode='wrap')),
    "take_raise": (lambda: mnp.take(t(A), t([-1, 2]), 1, mode='raise'), np.take(A, [-1, 2], 1)),
    "take_along_axis": (lambda: mnp.take_along_axis(t(A), t(np.array([[0], [-1]])), 1),
                        np.take_along_axis(A, np.array([[0], [-1]]), 1)),
    "take_along_axis_broadcast": (lambda: mnp.take_along_axis(t(A), t(np.array([[1, 0, 1]])), 0),
                                  np.take_along_axis(A, np.array([[1, 0, 1]]), 0)),
    "repeat": (lambda: mnp.repeat(t(A), 2), np.repeat(A, 2)),
    "repeat_each": (lambda: mnp.repeat(t(A), (1, 0, 2), 1), np.repeat(A, (1, 0, 2), 1)),
    "select": (lambda: mnp.select([t(A < 2), t(A > 3)], [t(A), t(A * 10)], 7),
               np.select([A < 2, A > 3], [A, A * 10], 7)),
    "choose": (lambda: mnp.choose(t(np.array([2, 3, 1, 0])), [t(np.arange(4.) + 10 * i) for i in range(4)]),
               np.choose([2, 3, 1, 0], [np.arange(4.) + 10 * i for i in range(4)])),
    "choose_wrap": (lambda: mnp.choose(t(np.array([4, -1])), [t(V[:2]), t(A[0, :2])], mode='wrap'),
                    np.choose([4, -1], [V[:2], A[0, :2]], mode='wrap')),
    "piecewise": (lambda: mnp.piecewise(t(V), [t(V < 0), t(V > 2)], [lambda x: -x, lambda x: x * 2, 7.]),
                  np.piecewise(V, [V < 0, V > 2], [lambda x: -x, lambda x: x * 2, 7.])),
    "unravel_index": (lambda: mnp.unravel_index(t(np.array([22, 41, 37])), (7, 6)),
                      np.unravel_index([22, 41, 37], (7, 6))),
    "unravel_index_f": (lambda: mnp.unravel_index(t(np.array([31, 41, 13])), (7, 6), 'F'),
                        np.unravel_index([31, 41, 13], (7, 6), order='F')),
    "argwhere": (lambda: mnp.argwhere(t(A > 2)), np.argwhere(A > 2)),
    "unique": (lambda: mnp.unique(t(np.array([[3, 1], [1, 2]]))), np.unique([[3, 1], [1, 2]])),
    "unique_inverse": (lambda: mnp.unique(t(np.array([3, 1, 1, 2])), return_inverse=True),
                       np.unique([3, 1, 1, 2], return_inverse=True)),
    "intersect1d": (lambda: mnp.intersect1d(t([1, 3, 4, 3]), t([3, 1, 2, 1]), return_indices=True),
                    np.intersect1d([1, 3, 4, 3], [3, 1, 2, 1], return_indices=True)),
    "apply_along_axis": (lambda: mnp.apply_along_axis(lambda v: v * v[0], 1, t(A)),
                         np.apply_along_axis(lambda v: v * v[0], 1, A)),
    "apply_along_axis_matrix": (lambda: mnp.apply_along_axis(mnp.diag, 0, t(A)), np.apply_along_axis(np.diag, 0, A)),
    "apply_over_axes": (lambda: mnp.apply_over_axes(lambda a, ax: a.sum(ax), t(A), [0, 1]),
                        np.apply_over_axes(np.sum, A, [0, 1])),
}


@pytest.mark.parametrize("name", ARRAY_OPS)
def test_array_op_matches_numpy(name):
    call, expected = ARRAY_OPS[name]
    same(call(), expected)


def test_array_op_dtypes_and_python_results():
    assert mnp.concatenate((t(I), t(A))).dtype == ms.float32  # promoted
    assert mnp.where(t(A > 2), 1, 2).dtype == ms.int32
    assert mnp.select([t(I > 2)], [t(I)], 7).dtype == ms.int32
    assert mnp.size(t(A)) == 6 and mnp.size(t(A), -1) == 3
    assert mnp.array_str(t(I)) == np.array_str(I)
    assert isinstance(mnp.split(t(V), 2), tuple) and isinstance(mnp.split(t(V), [1]), list)


LOGIC = {
    "equal": (lambda: mnp.equal(t(A), 2), np.equal(A, 2)),
    "not_equal": (lambda: mnp.not_equal(t(I), t(A)), np.not_equal(I, A)),
    "less": (lambda: mnp.less(t(A), t(V[:3])), np.less(A, V[:3])),
    "less_equal": (lambda: mnp.less_equal(t(A), 3), np.less_equal(A, 3)),
    "greater": (lambda: mnp.greater(t(I), 2.5), np.greater(I, 2.5)),
    "greater_equal": (lambda: mnp.greater_equal(t(A), t(A.T[:1].T)), np.greater_equal(A, A.T[:1].T)),
    "isfinite": (lambda: mnp.isfinite(t([1., np.inf, np.nan])), np.isfinite([1., np.inf, np.nan])),
    "isfinite_int": (lambda: mnp.isfinite(t(I)), np.isfinite(I)),
    "isnan": (lambda: mnp.isnan(t([1., np.inf, np.nan])), np.isnan([1., np.inf, np.nan])),
    "isinf": (lambda: mnp.isinf(t([1., np.inf, -np.inf])), np.isinf([1., np.inf, -np.inf])),
    "isposinf": (lambda: mnp.isposinf(t([1., np.inf, -np.inf])), np.isposinf([1., np.inf, -np.inf])),
    "isneginf": (lambda: mnp.isneginf(t([1., np.inf, -np.inf])), np.isneginf([1., np.inf, -np.inf])),
    "signbit": (lambda: mnp.signbit(t([1., -2.3, -0.0])), np.signbit([1., -2.3, -0.0])),
    "signbit_int": (lambda: mnp.signbit(t(I - 2)), np.signbit(I - 2)),
    "logical_and": (lambda: mnp.logical_and(t(I), t(I > 2)), np.logical_and(I, I > 2)),
    "logical_or": (lambda: mnp.logical_or(t(I), 0), np.logical_or(I, 0)),
    "logical_xor": (lambda: mnp.logical_xor(t([True, False]), t([True, True])), np.logical_xor([1, 0], [1, 1])),
    "logical_not": (lambda: mnp.logical_not(t(A)), np.logical_not(A)),
    "isclose": (lambda: mnp.isclose(t([1., 1.1, np.inf, np.nan]), t([1.000001, 1., np.inf, np.nan]), equal_nan=True),
                np.isclose([1., 1.1, np.inf, np.nan], [1.000001, 1., np.inf, np.nan], equal_nan=True)),
    "isclose_atol": (lambda: mnp.isclose(t(I), t(A + 0.5), atol=0.6), np.isclose(I, A + 0.5, atol=0.6)),
    "in1d": (lambda: mnp.in1d(t(I), t([0, 2])), np.isin(I, [0, 2]).ravel()),
    "in1d_invert": (lambda: mnp.in1d(t([0, 1, 5]), [0, 2], invert=True), np.isin([0, 1, 5], [0, 2], invert=True)),
    "isin": (lambda: mnp.isin(t(I), t([[0], [4]])), np.isin(I, [[0], [4]])),
    "sometrue": (lambda: mnp.sometrue(t(A > 4)), np.any(A > 4)),
    "sometrue_axis": (lambda: mnp.sometrue(t(I), 0, True), np.any(I, 0, keepdims=True)),
    "array_equal": (lambda: mnp.array_equal(t(A), t(A)), np.array_equal(A, A)),
    "array_equal_shape": (lambda: mnp.array_equal(t(A), t(V)), np.array_equal(A, V)),
    "array_equal_nan": (lambda: mnp.array_equal(t([1., np.nan]), t([1., np.nan]), equal_nan=True),
                        np.array_equal([1., np.nan], [1., np.nan], equal_nan=True)),
    "array_equiv": (lambda: mnp.array_equiv(t(A[0]), t(np.stack([A[0], A[0]]))),
                    np.array_equiv(A[0], np.stack([A[0], A[0]]))),
    "array_equiv_not": (lambda: mnp.array_equiv(t(A[0]), t(A)), np.array_equiv(A[0], A)),
    "setdiff1d": (lambda: mnp.setdiff1d(t([1, 2, 3, 2, 4, 1]), t([3, 4, 5, 6])),
                  np.setdiff1d([1, 2, 3, 2, 4, 1], [3, 4, 5, 6])),
}


@pytest.mark.parametrize("name", LOGIC)
def test_logic_op_matches_numpy(name):
    call, expected = LOGIC[name]
    out = call()
    same(out, expected)
    assert out.dtype == (ms.int64 if name == "setdiff1d" else ms.bool_)


def test_logic_dtype_argument_and_isscalar():
    assert mnp.equal(t(I), 2, dtype=ms.int32).dtype == ms.int32
    assert mnp.logical_not(t(I), dtype='float32').dtype == ms.float32
    assert [mnp.isscalar(v) for v in (1, 2.5, "s", np.float32(1), t(1), [1])] == [True] * 4 + [False] * 2


def test_dtypes_and_constants():
    assert mnp.int_ is ms.int32 and mnp.float_ is ms.float32 and mnp.bool_ is ms.bool_
    assert mnp.pi == np.pi and mnp.inf == mnp.PINF == np.inf and mnp.NINF == -np.inf and np.isnan(mnp.nan)
    assert set(mnp.numeric_types) <= set(dir(mnp))
    assert mnp.zeros(2, 'int16').dtype == ms.int16 and mnp.ones(2, float).dtype == ms.float32
    assert mnp.ones(2, np.float64).dtype == ms.float64


BAD = [
    (lambda: mnp.zeros((2, -1)), ValueError, "zeros: 'shape'"),
    (lambda: mnp.ones((2,), dtype="complex"), TypeError, "ones: 'dtype'"),
    (lambda: mnp.array("abc"), TypeError, "asarray: 'a'"),
    (lambda: mnp.arange(0, 5, 0), ValueError, "arange: 'step'"),
    (lambda: mnp.linspace(0, 1, -1), ValueError, "linspace: 'num'"),
    (lambda: mnp.eye(2.5), TypeError, "eye: 'N'"),
    (lambda: mnp.full((2,), [1, 2, 3]), ValueError, "full: 'fill_value'"),
    (lambda: mnp.diagonal(t(A), 0, 1, 1), ValueError, "diagonal: 'axis1' and 'axis2'"),
    (lambda: mnp.diag(t(np.zeros((1, 1, 1)))), ValueError, "diag: 'v'"),
    (lambda: mnp.pad(t(A), 1, mode="bogus"), ValueError, "pad: 'mode'"),
    (lambda: mnp.pad(t(A), ((1, 2, 3),)), ValueError, "pad: 'pad_width'"),
    (lambda: mnp.pad(t(A), -1), ValueError, "pad: 'pad_width'"),
    (lambda: mnp.ix_(t(A)), ValueError, "ix_"),
    (lambda: mnp.mgrid[0:2, 3], TypeError, "mgrid"),
    (lambda: mnp.randint(5, 2), ValueError, "randint: 'maxval'"),
    (lambda: mnp.reshape(t(A), (4, -1)), ValueError, "reshape"),
    (lambda: mnp.transpose(t(A), (0, 0)), ValueError, "transpose: 'axes'"),
    (lambda: mnp.squeeze(t(A), 0), ValueError, "squeeze"),
    (lambda: mnp.swapaxes(t(A), 0, 2), ValueError, "swapaxes: 'axis2'"),
    (lambda: mnp.concatenate((t(A), t(V))), ValueError, "concatenate"),
    (lambda: mnp.concatenate(5), TypeError, "concatenate: 'arrays'"),
    (lambda: mnp.stack((t(A), t(V))), ValueError, "stack"),
    (lambda: mnp.split(t(V), 3), ValueError, "split"),
    (lambda: mnp.split(t(V), 1.5), TypeError, "split: 'indices_or_sections'"),
    (lambda: mnp.dsplit(t(A), 2), ValueError, "dsplit: 'x'"),
    (lambda: mnp.broadcast_to(t(V), (3,)), ValueError, "broadcast_to"),
    (lambda: mnp.where(t(A > 1), t(A)), ValueError, "where"),
    (lambda: mnp.take(t(A), t([0.5])), TypeError, "take: 'indices'"),
    (lambda: mnp.take(t(A), t([9]), mode='raise'), IndexError, "take: index 9"),
    (lambda: mnp.take(t(A), t([1]), mode='bogus'), ValueError, "take: 'mode'"),
    (lambda: mnp.repeat(t(A), (1, 2), 1), ValueError, "repeat: 'repeats'"),
    (lambda: mnp.select([t(A > 1)], [t(A), t(A)]), ValueError, "select"),
    (lambda: mnp.piecewise(t(V), [t(V > 1)], [1, 2, 3]), ValueError, "piecewise: 'funclist'"),
    (lambda: mnp.roll(t(A), (1, 2), (0, 1, 1)), ValueError, "roll"),
    (lambda: mnp.rot90(t(A), 1, (0, 0)), ValueError, "rot90: 'axes'"),
    (lambda: mnp.moveaxis(t(A), (0, 1), 0), ValueError, "moveaxis"),
    (lambda: mnp.unravel_index(t([1]), (2, 2), 'K'), ValueError, "unravel_index: 'order'"),
    (lambda: mnp.apply_over_axes(lambda a, ax: a.sum(), t(A), 0), ValueError, "apply_over_axes"),
    (lambda: mnp.equal(t(A), t(V)), ValueError, "equal: shapes"),
    (lambda: mnp.isclose(t(A), t(A), rtol="x"), TypeError, "isclose: 'rtol'"),
    (lambda: mnp.sometrue(t(A), 2), ValueError, "sometrue: 'axis'"),
    (lambda: mnp.isin(t(A), t(A), invert=1), TypeError, "isin: 'invert'"),
    (lambda: mnp.equal(t(A), 1, dtype="bogus"), TypeError, "equal: 'dtype'"),
]


@pytest.mark.parametrize("call,error,message", BAD)
def test_bad_input_is_refused_naming_the_function(call, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        call()


GRADIENTS = {
    "linspace": (lambda a, b: mnp.linspace(a, b, 4, dtype=ms.float64), [np.array([0.5, 1.0]), np.array([2.0, -1.0])]),
    "geomspace": (lambda a, b: mnp.geomspace(a, b, 4, dtype=ms.float64), [np.array([0.5]), np.array([3.0])]),
    "pad_reflect": (lambda x: mnp.pad(x, ((1, 2), (2, 1)), mode="reflect", reflect_type="odd"), [A.astype(np.float64)]),
    "pad_linear_ramp": (lambda x: mnp.pad(x, 2, mode="linear_ramp", end_values=1.0), [A.astype(np.float64)]),
    "pad_mean": (lambda x: mnp.pad(x, 1, mode="mean", stat_length=2), [A.astype(np.float64)]),
    "vander": (lambda x: mnp.vander(x, 4), [V.astype(np.float64)]),
    "trace": (lambda x: mnp.trace(x, 1), [A.astype(np.float64)]),
    "take_along_axis": (lambda x: mnp.take_along_axis(x, t(np.array([[0, 0], [2, 1]])), 1), [A.astype(np.float64)]),
    "choose": (lambda x, y: mnp.choose(t(np.array([[0, 1, 1], [1, 0, 0]])), [x, y]),
               [A.astype(np.float64), A.astype(np.float64) * 2]),
    "select": (lambda x: mnp.select([x > 2, x < 1], [x * x, -x], 3.0), [A.astype(np.float64) + 0.25]),
    "rot90_repeat": (lambda x: mnp.repeat(mnp.rot90(x, 3), (2, 0, 1), 0), [A.astype(np.float64)]),
}


@pytest.mark.parametrize("name", GRADIENTS)
def test_gradients_match_finite_differences(name):
    fn, inputs = GRADIENTS[name]
    check_grad(fn, *inputs)


def test_compiled_matches_eager():
    def body(x, idx):
        padded = mnp.pad(x, 1, mode="symmetric")
        parts = mnp.split(padded, 2, axis=0)
        joined = mnp.concatenate(parts, axis=1) + mnp.tri(2, 10)
        picked = mnp.take(joined, idx, axis=1, mode='wrap')
        return (mnp.where(mnp.isclose(picked, 2.0), mnp.full_like(picked, -1.0), picked)
                + mnp.trace(mnp.diag(mnp.linspace(0, 1, 2)))), mnp.logical_and(picked > 1, mnp.isin(picked, x))

    x, idx = t(A), t(np.array([0, 9, 11, -1], np.int32))
    for compiled, eager in zip(ms.jit(body)(x, idx), body(x, idx)):
        np.testing.assert_array_equal(compiled.asnumpy(), eager.asnumpy())

    def grid(x):
        a, b = mnp.meshgrid(mnp.arange(3), mnp.arange(2))
        return mnp.stack([a, b]) * x + mnp.eye(2, 3), mnp.unravel_index(mnp.ravel(a), (2, 2))[1]

    x = t(np.array([[1., 0., 2.]], np.float32))
    for compiled, eager in zip(ms.jit(grid)(x), grid(x)):
        np.testing.assert_array_equal(compiled.asnumpy(), eager.asnumpy())


def test_graph_mode_refuses_what_needs_values():
    @ms.jit
    def raising(x):
        return mnp.take(x, t([0]), mode='raise')

    with pytest.raises(ValueError, match="take: mode='raise'"):
        raising(t(A))
