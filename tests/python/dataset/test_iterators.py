import numpy as np
import pytest

import sprout as ms
import sprout.dataset as ds


def numbers(n=4):
    return ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.float32), "y": np.arange(n)}, shuffle=False)


def test_plain_iteration_gives_tensors():
    rows = list(numbers())
    assert len(rows) == 4 and isinstance(rows[0][0], ms.Tensor)
    assert rows[2][0].asnumpy().item() == 2.0


def test_dict_iterator_and_output_numpy():
    row = next(numbers().create_dict_iterator(output_numpy=True))
    assert set(row) == {"x", "y"} and isinstance(row["x"], np.ndarray)


def test_tuple_iterator_columns():
    it = numbers().create_tuple_iterator(columns=["y"], output_numpy=True)
    assert it.get_col_names() == ["y"] and [int(r[0]) for r in it] == [0, 1, 2, 3]


def test_num_epochs_bounds_the_loops_over_one_iterator():
    it = numbers(2).create_tuple_iterator(num_epochs=3, output_numpy=True)
    epochs = [[int(r[1]) for r in it] for _ in range(4)]
    assert epochs == [[0, 1], [0, 1], [0, 1], []]


def test_epochs_of_a_random_pipeline_differ_but_repeat_per_seed():
    ds.config.set_seed(1)

    def run():
        d = ds.NumpySlicesDataset(np.arange(20), ["x"])
        it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
        return [[int(r[0]) for r in it] for _ in range(2)]

    a = run()
    assert a == run() and a[0] != a[1] and sorted(a[0]) == sorted(a[1]) == list(range(20))


def test_rows_share_memory_with_the_engine():
    d = numbers().batch(4)
    (x, _), = d.create_tuple_iterator(output_numpy=True)
    assert not x.flags.owndata  # a view of the engine's batch buffer, not a copy


def test_bad_iterator_arguments():
    with pytest.raises(ValueError, match="num_epochs' must be -1 or >= 1"):
        numbers().create_tuple_iterator(num_epochs=0)
    with pytest.raises(TypeError, match="output_numpy' must be a bool"):
        numbers().create_dict_iterator(output_numpy=1)
