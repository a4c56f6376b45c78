"""Tensor indexing with NumPy's rules, and the gradient checks of the array ops whose index, mask or
multiple outputs the op-record harness cannot sample (it perturbs every input and expects one output)."""
import numpy as np
import pytest

import sprout as ms
from sprout import _C, ops

A = np.arange(60, dtype=np.float64).reshape(3, 4, 5)

GET_INDICES = [
    ([0, 2],), (slice(None), [3, 0, -1]), (0, [1, 2], [4, 0]), ([0, 1], slice(None), [1, 2]), (A > 17,),
    (Ellipsis, [1, -1]), (np.array([True, False, True]),), (slice(None), A[0] > 3), ([[0], [2]], [0, 3]),
    (None, [1], 0), (1, slice(1, None, 2), [0, 0, 4]), ([],), (np.array([2, 0]), Ellipsis, 1),
    ([-1], [-4], [-5]), (slice(None, None, -1), [1]),
]


@pytest.mark.parametrize("index", GET_INDICES, ids=range(len(GET_INDICES)))
def test_getitem_matches_numpy(index):
    got = ms.Tensor(A)[index].asnumpy()
    np.testing.assert_array_equal(got, A[index])


def test_getitem_with_tensor_indices():
    x = ms.Tensor(A)
    np.testing.assert_array_equal(x[ms.Tensor([2, 0], ms.int32)].asnumpy(), A[[2, 0]])
    np.testing.assert_array_equal(x[x > 30].asnumpy(), A[A > 30])
    np.testing.assert_array_equal(x[:, ms.Tensor([[1, 2]])].asnumpy(), A[:, [[1, 2]]])


def test_basic_indexing_still_gives_views():
    x = ms.Tensor(A.copy())
    v = x[1, :, ::2]
    v[0, 0] = -1.0
    assert x.asnumpy()[1, 0, 0] == -1.0


def test_bad_indices_raise():
    x = ms.Tensor(A)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[[0, 3]]
    with pytest.raises(IndexError, match="could not be broadcast together"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="boolean index of shape \\(2,\\) does not match"):
        x[np.array([True, False])]
    with pytest.raises(IndexError, match="must be of integer or bool dtype"):
        x[ms.Tensor([0.0])]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, [0], 0]
    with pytest.raises(TypeError, match="an index must be"):
        x["a"]


SET_CASES = [
    ((A > 30,), 0.0), ((slice(None), [0, 2]), np.ones(5)), (([2, 0], 1, [0, 4]), -5.0),
    ((1, [1, 3]), np.arange(10.0).reshape(2, 5)), ((slice(None), slice(None), [1, 0]), np.array([7.0, 8.0])),
    ((Ellipsis, np.array([True, False, True, False, False])), -1.0), (([1, 1],), 3.0),
]


@pytest.mark.parametrize("index,value", SET_CASES, ids=range(len(SET_CASES)))
def test_setitem_matches_numpy_in_place(index, value):
    x = ms.Tensor(A.copy())
    alias = x[:]  # a view of the same memory sees the write: setitem is in place
    expected = A.copy()
    expected[index] = value
    x[index] = ms.Tensor(value) if isinstance(value, np.ndarray) else value
    np.testing.assert_array_equal(x.asnumpy(), expected)
    np.testing.assert_array_equal(alias.asnumpy(), expected)


def test_setitem_casts_and_checks():
    x = ms.Tensor(np.zeros((2, 3), np.int32))
    x[x == 0] = 2.7
    np.testing.assert_array_equal(x.asnumpy(), np.full((2, 3), 2, np.int32))
    with pytest.raises(IndexError, match="out of bounds"):
        x[[5]] = 1
    with pytest.raises(ValueError, match="cannot broadcast"):
        x[[0, 1]] = ms.Tensor(np.ones(4, np.int32))


# ---- gradient checks the record harness cannot express --------------------------------------------

def _check_grad(prim, inputs, wrt, rng, eps=1e-6):
    """Compares _C.run_bprop with central differences of sum(outputs * douts) for the inputs in `wrt`."""
    def run(values):
        out = prim(*[ms.Tensor(v.asnumpy().copy()) for v in values])  # fresh copies: ScatterAdd works in place
        return list(out) if isinstance(out, tuple) else [out]

    outs = run(inputs)
    douts = [rng.standard_normal(o.shape) for o in outs]
    grads = _C.run_bprop(prim, inputs, outs, [ms.Tensor(d, o.dtype) for d, o in zip(douts, outs)])
    assert len(grads) == len(inputs)
    for i in wrt:
        base = inputs[i].asnumpy()
        numeric = np.zeros_like(base).reshape(-1)
        for k in range(numeric.size):
            total = []
            for sign in (1, -1):
                shifted = base.copy().reshape(-1)
                shifted[k] += sign * eps
                values = list(inputs)
                values[i] = ms.Tensor(shifted.reshape(base.shape))
                total.append(sum(float((o.asnumpy() * d).sum()) for o, d in zip(run(values), douts)))
            numeric[k] = (total[0] - total[1]) / (2 * eps)
        assert grads[i] is not None, f"{prim}: no gradient for input {i}"
        np.testing.assert_allclose(grads[i].asnumpy(), numeric.reshape(base.shape), rtol=1e-6, atol=1e-7,
                                   err_msg=f"{prim} input {i}")


def _f(*shape, rng):
    return ms.Tensor(rng.standard_normal(shape))


GRAD_CASES = {
    "Select": (lambda r: (_C.Primitive("Select"), [ms.Tensor(r.random((2, 3)) > 0.5), _f(2, 3, rng=r), _f(3, rng=r)]),
               [1, 2]),
    "MaskedFill": (lambda r: (_C.Primitive("MaskedFill"), [_f(2, 3, rng=r), ms.Tensor(r.random(3) > 0.5), _f(rng=r)]),
                   [0, 2]),
    "MaskedSelect": (lambda r: (_C.Primitive("MaskedSelect"), [_f(3, 1, rng=r), ms.Tensor([[True, False], [True, True],
                                                                                          [False, False]])]), [0]),
    "Gather": (lambda r: (_C.Primitive("Gather", {"axis": 1}), [_f(2, 3, 4, rng=r), ms.Tensor([[2, 0], [2, -1]])]), [0]),
    "GatherNd": (lambda r: (_C.Primitive("GatherNd"), [_f(3, 4, rng=r), ms.Tensor([[1, 0], [2, 3], [1, 0]])]), [0]),
    "ScatterNd": (lambda r: (_C.Primitive("ScatterNd", {"shape": (4, 2)}), [ms.Tensor([[1], [3], [1]]), _f(3, 2, rng=r)]),
                  [1]),
    "TensorScatterUpdate": (lambda r: (_C.Primitive("TensorScatterUpdate"),
                                       [_f(4, 2, rng=r), ms.Tensor([[2], [0]]), _f(2, 2, rng=r)]), [0, 2]),
    "UnsortedSegmentSum": (lambda r: (_C.Primitive("UnsortedSegmentSum", {"num_segments": 3}),
                                      [_f(4, 2, rng=r), ms.Tensor([0, 2, 0, 1])]), [0]),
    "OneHot": (lambda r: (_C.Primitive("OneHot", {"depth": 3, "axis": 0}),
                          [ms.Tensor([0, 2, 5]), _f(rng=r), _f(rng=r)]), [1, 2]),
    "Split": (lambda r: (_C.Primitive("Split", {"axis": 1, "output_num": 2}), [_f(3, 4, rng=r)]), [0]),
    "SplitV": (lambda r: (_C.Primitive("SplitV", {"size_splits": (1, -1), "split_dim": 0, "num_split": 2}),
                          [_f(3, 2, rng=r)]), [0]),
    "Sort": (lambda r: (_C.Primitive("Sort", {"axis": 0, "descending": True}), [_f(4, 3, rng=r)]), [0]),
    "TopK": (lambda r: (_C.Primitive("TopK", {"k": 2}), [_f(3, 5, rng=r)]), [0]),
    "GatherElements": (lambda r: (_C.Primitive("GatherElements", {"dim": 1}),
                                  [_f(3, 4, rng=r), ms.Tensor([[2, 0], [1, -1], [0, 0]])]), [0]),
    "TensorScatterElements-add": (lambda r: (_C.Primitive("TensorScatterElements", {"axis": 1, "reduction": "add"}),
                                             [_f(3, 4, rng=r), ms.Tensor([[2, 2], [1, 0], [3, 3]]), _f(3, 2, rng=r)]),
                                  [0, 2]),
    "TensorScatterElements-none": (lambda r: (_C.Primitive("TensorScatterElements", {"axis": 0}),
                                              [_f(3, 2, rng=r), ms.Tensor([[2, 0]]), _f(1, 2, rng=r)]), [0, 2]),
    "Meshgrid": (lambda r: (_C.Primitive("Meshgrid", {"indexing": "xy"}), [_f(3, rng=r), _f(2, rng=r), _f(4, rng=r)]),
                 [0, 1, 2]),
    "ScatterAdd": (lambda r: (_C.Primitive("ScatterAdd"), [_f(3, 2, rng=r), ms.Tensor([2, 0, 2]), _f(3, 2, rng=r)]),
                   [0, 2]),
    "Select-broadcast-cond": (lambda r: (_C.Primitive("Select"), [ms.Tensor([True, False]), _f(2, 2, rng=r),
                                                                  _f(2, 2, rng=r)]), [1, 2]),
}


@pytest.mark.parametrize("name", list(GRAD_CASES))
def test_bprop_rule_matches_finite_differences(name):
    rng = np.random.default_rng(3)
    make, wrt = GRAD_CASES[name]
    prim, inputs = make(rng)
    _check_grad(prim, inputs, wrt, rng)


def test_stop_gradient_blocks_the_gradient():
    x = ms.Tensor(np.ones((2, 3)))
    prim = _C.Primitive("StopGradient")
    (g,) = _C.run_bprop(prim, [x], [prim(x)], [ms.Tensor(np.ones((2, 3)))])
    np.testing.assert_array_equal(g.asnumpy(), np.zeros((2, 3)))


def test_scatter_add_updates_its_input_in_place():
    x = ms.Tensor(np.zeros((3, 2)))
    out = ops.scatter_add(x, ms.Tensor([1, 1]), ms.Tensor(np.ones((2, 2))))
    np.testing.assert_array_equal(x.asnumpy(), [[0, 0], [2, 2], [0, 0]])
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy())


def _random_index(rng, shape):
    """A random mix of ints, slices, None, Ellipsis, integer lists/arrays and bool masks valid for `shape`."""
    items, dim = [], 0
    use_ellipsis = rng.random() < 0.2
    while dim < len(shape) and rng.random() < 0.8:
        n = shape[dim]
        kind = rng.integers(0, 6)
        if kind == 0:
            items.append(int(rng.integers(-n, n)))
        elif kind == 1:
            items.append(slice(int(rng.integers(-n, n + 1)), int(rng.integers(-n, n + 1)),
                               int(rng.choice([-2, -1, 1, 2]))))
        elif kind == 2:
            items.append(None)
            continue
        elif kind == 3:
            items.append(rng.integers(-n, n, size=int(rng.integers(0, 4))).tolist())
        elif kind == 4:
            items.append(rng.integers(-n, n, size=(2, 1)))
        else:
            items.append(rng.random(n) < 0.5)
        dim += 1
    if use_ellipsis:
        items.insert(int(rng.integers(0, len(items) + 1)), Ellipsis)
    return tuple(items)


def test_random_indices_match_numpy():
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(400):
        index = _random_index(rng, A.shape)
        try:
            expected = A[index]
        except IndexError:  # NumPy rejects it (index arrays that do not broadcast): so must we
            with pytest.raises(IndexError):
                ms.Tensor(A)[index]
            continue
        np.testing.assert_array_equal(ms.Tensor(A)[index].asnumpy(), expected, err_msg=str(index))
        target, x = A.copy(), ms.Tensor(A.copy())
        value = rng.standard_normal(expected.shape)
        target[index] = value
        x[index] = ms.Tensor(value)
        np.testing.assert_array_equal(x.asnumpy(), target, err_msg=f"setitem {index}")
        checked += 1
    assert checked > 300


def test_a_bare_none_index_adds_an_axis():
    x = ms.Tensor(np.arange(6.0).reshape(2, 3))
    assert x[None].shape == (1, 2, 3)
    np.testing.assert_array_equal(x[None].asnumpy(), np.arange(6.0).reshape(1, 2, 3))
    x[None] = 5.0  # the whole tensor, as NumPy's a[None] = 5
    np.testing.assert_array_equal(x.asnumpy(), np.full((2, 3), 5.0))
