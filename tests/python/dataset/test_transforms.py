"""dataset.transforms against NumPy, eagerly and inside map."""
import numpy as np
import pytest

import sprout as ms
import sprout.dataset as ds
from sprout.dataset import transforms as T


def through_map(op, *arrays, **kw):
    names = [f"c{i}" for i in range(len(arrays))]
    d = ds.NumpySlicesDataset(tuple(a[None] for a in arrays), names, shuffle=False).map(op, input_columns=names, **kw)
    return next(d.create_tuple_iterator(output_numpy=True))


def test_type_cast():
    x = np.array([1.7, -2.2])
    assert T.TypeCast(ms.int32)(x).dtype == np.int32
    np.testing.assert_array_equal(T.TypeCast(np.float16)(x), x.astype(np.float16))
    assert through_map(T.TypeCast(ms.float32), x)[0].dtype == np.float32
    with pytest.raises(TypeError, match="TypeCast: NumPy has no bfloat16"):
        T.TypeCast(ms.bfloat16)


def test_one_hot_and_smoothing():
    np.testing.assert_array_equal(T.OneHot(4)(np.array(2)), [0, 0, 1, 0])
    np.testing.assert_allclose(T.OneHot(4, smoothing_rate=0.2)(np.array([1])), [0.05, 0.85, 0.05, 0.05])
    assert T.OneHot(4)(np.array([[1], [2]])).shape == (2, 4)  # a trailing axis of 1 dropped, as MindSpore
    with pytest.raises(ValueError, match=r"OneHot: class index 5 is outside \[0, 4\)"):
        T.OneHot(4)(np.array([5]))
    with pytest.raises(TypeError, match="OneHot: expected integer class indices"):
        T.OneHot(4)(np.array([1.0]))


def test_fill_duplicate_concatenate():
    np.testing.assert_array_equal(T.Fill(7)(np.zeros((2, 2), np.int32)), np.full((2, 2), 7, np.int32))
    a, b = T.Duplicate()(np.arange(3))
    assert a.tolist() == b.tolist() == [0, 1, 2] and a is not b
    out = T.Concatenate(prepend=np.array([9]), append=np.array([8]))(np.array([1, 2]), np.array([3]))
    assert out.tolist() == [9, 1, 2, 3, 8]
    d = ds.NumpySlicesDataset({"x": np.arange(6).reshape(2, 3)}, shuffle=False)
    d = d.map(T.Duplicate(), input_columns="x", output_columns=["x", "y"])
    assert d.get_col_names() == ["x", "y"]
    assert [r[1].tolist() for r in d.create_tuple_iterator(output_numpy=True)] == [[0, 1, 2], [3, 4, 5]]


def test_mask_slice_pad_end():
    x = np.array([1, 5, 3, 5])
    np.testing.assert_array_equal(T.Mask(T.Relational.EQ, 5)(x), x == 5)
    np.testing.assert_array_equal(T.Mask(T.Relational.GT, 2, ms.int32)(x), (x > 2).astype(np.int32))
    m = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(T.Slice(slice(0, 2), [0, 3])(m), m[0:2, [0, 3]])
    np.testing.assert_array_equal(T.Slice(1)(m), m[1])
    np.testing.assert_array_equal(T.PadEnd([3, 6], -1)(m[:2]), np.pad(m[:2], ((0, 1), (0, 2)), constant_values=-1))
    with pytest.raises(ValueError, match="Slice: 3 indices for an array of 2 dimensions"):
        T.Slice(0, 0, 0)(m)


def test_compose_and_random_containers_are_deterministic_in_pipelines():
    double, inc = (lambda x: x * 2), (lambda x: x + 1)
    assert T.Compose([double, inc])(np.array(3)) == 7

    def run(workers):
        ds.config.set_seed(11)
        d = ds.NumpySlicesDataset(np.arange(40), ["x"], shuffle=False)
        ops = [T.RandomApply([double], prob=0.5), T.RandomChoice([inc, double]), T.RandomOrder([inc, double])]
        d = d.map(ops, num_parallel_workers=workers)
        return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]

    one = run(1)
    assert one == run(3)
    assert len(set(v - 2 * i for i, v in enumerate(one))) > 1  # the random choices differ from row to row
    with pytest.raises(TypeError, match=r"RandomChoice: transforms\[1\] must be callable"):
        T.RandomChoice([inc, 3])
