import numpy as np
import pytest

import sprout.dataset as ds


def numbers(n=10, **kw):
    return ds.NumpySlicesDataset({"x": np.arange(n), "y": np.arange(n) * 10}, shuffle=False, **kw)


def col(dataset, k=0):
    return [np.asarray(r[k]).tolist() for r in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_map_in_place_and_chained_operations():
    d = numbers(4).map([lambda x: x + 1, lambda x: x * 2], input_columns="x", num_parallel_workers=2)
    assert d.get_col_names() == ["x", "y"]
    assert col(d) == [2, 4, 6, 8] and col(d, 1) == [0, 10, 20, 30]


def test_map_defaults_to_the_first_column():
    assert col(numbers(3).map(lambda x: -x)) == [0, -1, -2]


def test_map_to_more_columns_puts_outputs_first():
    d = numbers(3).map(lambda y: (y, y + 1), input_columns=["y"], output_columns=["a", "b"])
    assert d.get_col_names() == ["a", "b", "x"]
    assert col(d, 1) == [1, 11, 21] and col(d, 2) == [0, 1, 2]


def test_map_rename_one_column():
    d = numbers(2).map(lambda x: x, input_columns="x", output_columns="z")
    assert d.get_col_names() == ["z", "y"]


def test_map_errors():
    with pytest.raises(ValueError, match=r"map: column 'nope' does not exist; the dataset has columns \['x', 'y'\]"):
        numbers().map(lambda x: x, input_columns="nope").get_col_names()
    with pytest.raises(TypeError, match=r"operations\[0\] must be callable"):
        numbers().map(3)
    with pytest.raises(ValueError, match="output column 'y' would appear twice"):
        numbers().map(lambda x: x, input_columns="x", output_columns="y").get_col_names()
    d = numbers().map(lambda x: (x, x), input_columns="x")
    with pytest.raises(RuntimeError, match="map: expected 1 columns, but got 2"):
        col(d)


def test_batch_stacks_and_drops_remainder():
    d = numbers(10).batch(4)
    assert d.get_dataset_size() == 3 and d.get_batch_size() == 4
    assert col(d) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    d = numbers(10).batch(4, drop_remainder=True)
    assert d.get_dataset_size() == 2 and len(col(d)) == 2


def test_batch_of_mismatched_shapes_names_the_column():
    def gen():
        yield (np.zeros(2),)
        yield (np.zeros(3),)

    d = ds.GeneratorDataset(gen, ["v"]).batch(2)
    with pytest.raises(ValueError, match=r"batch \(batch 0\): column 'v' has shape \(3,\) in row 1 of the batch but \(2,\) in row 0"):
        col(d)


def test_shuffle_is_a_permutation_reproducible_per_seed():
    ds.config.set_seed(7)
    a = col(numbers(50).shuffle(10))
    b = col(numbers(50).shuffle(10))
    ds.config.set_seed(8)
    c = col(numbers(50).shuffle(10))
    assert a == b != c and sorted(a) == list(range(50)) and a != list(range(50))


def test_repeat_take_skip():
    assert col(numbers(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert numbers(3).repeat(2).get_dataset_size() == 6
    assert col(numbers(10).skip(3).take(4)) == [3, 4, 5, 6]
    assert numbers(10).skip(3).take(4).get_dataset_size() == 4
    assert col(numbers(5).take(-1)) == list(range(5))
    assert numbers(5).skip(9).get_dataset_size() == 0
    with pytest.raises(ValueError, match="repeat: 'count' must be -1"):
        numbers().repeat(0)
    with pytest.raises(TypeError, match="take: 'count' must be an int"):
        numbers().take(1.5)


def test_project_and_rename():
    d = numbers(3).project(["y", "x"])
    assert d.get_col_names() == ["y", "x"] and col(d) == [0, 10, 20]
    d = numbers(3).rename(["x"], ["a"])
    assert d.get_col_names() == ["a", "y"]
    with pytest.raises(ValueError, match="rename: column 'y' would appear twice"):
        numbers().rename("x", "y").get_col_names()


def test_zip_and_concat():
    z = numbers(3).zip(ds.NumpySlicesDataset({"w": np.arange(5.0)}, shuffle=False))
    assert z.get_col_names() == ["x", "y", "w"] and z.get_dataset_size() == 3
    assert col(z, 2) == [0.0, 1.0, 2.0]
    c = numbers(2) + numbers(3)
    assert c.get_dataset_size() == 5 and col(c) == [0, 1, 0, 1, 2]
    assert col(numbers(1).concat([numbers(1), numbers(1)])) == [0, 0, 0]
    assert ds.zip((numbers(2), numbers(3).rename(["x", "y"], ["a", "b"]))).get_col_names() == ["x", "y", "a", "b"]
    with pytest.raises(ValueError, match="zip: column 'x' appears in more than one dataset"):
        numbers().zip(numbers()).get_col_names()
    with pytest.raises(ValueError, match="concat: dataset 1 has columns"):
        (numbers() + numbers().project("x")).get_col_names()


def test_filter():
    d = numbers(10).filter(lambda x: x % 3 == 0, input_columns=["x"], num_parallel_workers=2)
    assert col(d) == [0, 3, 6, 9] and col(d, 1) == [0, 30, 60, 90]
    assert d.get_dataset_size() == 4
    assert col(numbers(4).filter(lambda x, y: y > 10)) == [2, 3]


def test_output_shapes_and_types():
    d = numbers(4).map(lambda x: np.full((2, 3), x, np.float32), input_columns="x").batch(2)
    assert d.output_shapes() == [[2, 2, 3], [2]]
    assert d.output_types() == [np.float32, np.int64]


def test_operations_reject_bad_arguments():
    with pytest.raises(ValueError, match="batch: 'batch_size' must be >= 1"):
        numbers().batch(0)
    with pytest.raises(ValueError, match="shuffle: 'buffer_size' must be >= 2"):
        numbers().shuffle(1)
    with pytest.raises(ValueError, match="map: 'num_parallel_workers' must be >= 1"):
        numbers().map(abs, num_parallel_workers=0)
    with pytest.raises(TypeError, match="zip: datasets\\[1\\] must be a Dataset"):
        numbers().zip([3])
