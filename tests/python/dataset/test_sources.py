import numpy as np
import pytest

import sprout as ms
import sprout.dataset as ds


def rows(dataset, **kw):
    return [tuple(np.asarray(c).tolist() for c in r) for r in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1, **kw)]


class RandomAccess:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i, i * i]), np.float32(i / 2)

    def __len__(self):
        return self.n


def test_generator_random_access_in_order_without_shuffle():
    d = ds.GeneratorDataset(RandomAccess(5), ["a", "b"], shuffle=False)
    assert d.get_dataset_size() == 5
    assert rows(d) == [([i, i * i], i / 2) for i in range(5)]


def test_generator_random_access_shuffles_by_default_and_keeps_every_row():
    d = ds.GeneratorDataset(RandomAccess(30), ["a", "b"])
    got = [r[0][0] for r in rows(d)]
    assert sorted(got) == list(range(30)) and got != list(range(30))


def test_generator_function_is_called_each_epoch():
    calls = []

    def gen():
        calls.append(1)
        for i in range(3):
            yield (np.array(i),)

    d = ds.GeneratorDataset(gen, ["x"])
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it] == [0, 1, 2]
    assert [int(r[0]) for r in it] == [0, 1, 2]
    assert len(calls) == 2


def test_iterable_source_and_num_samples():
    class Iterable:
        def __iter__(self):
            return iter([(np.array(i),) for i in range(10)])

    d = ds.GeneratorDataset(Iterable(), ["x"], num_samples=4)
    assert [r[0] for r in rows(d)] == [0, 1, 2, 3]
    # A list has __getitem__ and __len__: it is random-access, hence shuffled unless told otherwise.
    d = ds.GeneratorDataset([(np.array(i),) for i in range(10)], ["x"], num_samples=4, shuffle=False)
    assert [r[0] for r in rows(d)] == [0, 1, 2, 3]


def test_python_scalars_and_tensors_become_columns():
    def gen():
        yield 1, 2.5, True, ms.Tensor(np.ones((2,), np.float32))

    (a, b, c, t), = ds.GeneratorDataset(gen, ["a", "b", "c", "t"]).create_tuple_iterator(output_numpy=True)
    assert a.dtype == np.int64 and b.dtype == np.float64 and c.dtype == np.bool_
    assert t.dtype == np.float32 and t.tolist() == [1, 1]


def test_column_types_cast():
    d = ds.GeneratorDataset(RandomAccess(2), ["a", "b"], column_types=[ms.float32, np.float64], shuffle=False)
    a, b = next(d.create_tuple_iterator(output_numpy=True))
    assert a.dtype == np.float32 and b.dtype == np.float64


def test_wrong_number_of_columns_names_the_row():
    def gen():
        yield np.array(1), np.array(2)
        yield (np.array(3),)

    with pytest.raises(RuntimeError, match=r"expected 2 columns, but got 1[\s\S]*GeneratorDataset.*row 1"):
        rows(ds.GeneratorDataset(gen, ["a", "b"]))


def test_value_without_tensor_form_is_a_type_error():
    with pytest.raises(TypeError, match=r"GeneratorDataset: column 0 holds a dict .* no tensor form"):
        rows(ds.GeneratorDataset(lambda: iter([({"a": 1},)]), ["s"]))


def test_text_columns_are_numpy_str_arrays_and_batch():
    def gen():
        yield "héllo", b"raw", np.array(["a", "bc"])
        yield "x", b"y", np.array(["d", "e"])

    d = ds.GeneratorDataset(gen, ["s", "b", "arr"])
    (s, b, arr), _ = list(d.create_tuple_iterator(output_numpy=False))
    assert s.dtype.kind == "U" and s.shape == () and str(s) == "héllo"
    assert str(b) == "raw" and arr.tolist() == ["a", "bc"]
    (s, b, arr), = list(d.batch(2).create_tuple_iterator())
    assert s.tolist() == ["héllo", "x"] and arr.shape == (2, 2)


def test_bad_arguments():
    with pytest.raises(ValueError, match="column_names' is required"):
        ds.GeneratorDataset(RandomAccess(2))
    with pytest.raises(TypeError, match="'source' must be"):
        ds.GeneratorDataset(42, ["x"])
    with pytest.raises(ValueError, match="need a random-access source"):
        ds.GeneratorDataset(lambda: iter([]), ["x"], shuffle=True)
    with pytest.raises(ValueError, match="'sampler' and 'shuffle'"):
        ds.GeneratorDataset(RandomAccess(2), ["a", "b"], sampler=ds.SequentialSampler(), shuffle=True)
    with pytest.raises(ValueError, match="given together"):
        ds.GeneratorDataset(RandomAccess(2), ["a", "b"], num_shards=2)


def test_numpy_slices_list_tuple_dict():
    assert rows(ds.NumpySlicesDataset([1, 2, 3], ["c"], shuffle=False)) == [(1,), (2,), (3,)]
    d = ds.NumpySlicesDataset((np.arange(6).reshape(3, 2), np.array([7, 8, 9])), shuffle=False)
    assert d.get_col_names() == ["column_0", "column_1"]
    assert rows(d) == [([0, 1], 7), ([2, 3], 8), ([4, 5], 9)]
    d = ds.NumpySlicesDataset({"x": np.arange(3.0), "y": [1, 0, 1]}, shuffle=False)
    assert d.get_col_names() == ["x", "y"]
    assert rows(d)[1] == (1.0, 0)


def test_numpy_slices_errors():
    with pytest.raises(ValueError, match="column 'column_1' has 2 rows but column 'column_0' has 3"):
        ds.NumpySlicesDataset((np.zeros(3), np.zeros(2))).get_dataset_size()
    with pytest.raises(TypeError, match="column 'x' has NumPy dtype object; expected numbers .* or text"):
        ds.NumpySlicesDataset({"x": np.array([{}, {}], dtype=object)})
    with pytest.raises(ValueError, match="2 columns of data but 1 column_names"):
        ds.NumpySlicesDataset((np.zeros(3), np.zeros(3)), ["a"])


def test_numpy_slices_of_text_give_str_arrays_and_shuffle_with_their_rows():
    text = ["happy", "birthday", "to", "you"]
    assert rows(ds.NumpySlicesDataset(text, ["text"], shuffle=False)) == [(t,) for t in text]
    pairs = rows(ds.NumpySlicesDataset({"t": text, "n": [0, 1, 2, 3]}, shuffle=True))
    assert sorted(pairs) == sorted((t, n) for n, t in enumerate(text)) and all(text[n] == t for t, n in pairs)
    tokens = rows(ds.NumpySlicesDataset([["a", "b"], ["c", "d"]], ["t"], shuffle=False).batch(2))
    assert tokens == [([["a", "b"], ["c", "d"]],)]


def test_numpy_slices_does_not_alias_the_source():
    data = np.arange(4)

    def bump(x):
        x += 100  # writes into its input
        return x

    d = ds.NumpySlicesDataset(data, ["x"], shuffle=False).map(bump)
    assert [r[0] for r in rows(d)] == [100, 101, 102, 103]
    assert [r[0] for r in rows(d)] == [100, 101, 102, 103]
    assert data.tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("n,shards", [(10, 3), (12, 4), (5, 5), (7, 2)])
def test_sharding_covers_every_row_exactly_once(n, shards, shuffle):
    ds.config.set_seed(3)
    seen = []
    for shard in range(shards):
        d = ds.NumpySlicesDataset(np.arange(n), ["x"], num_shards=shards, shard_id=shard, shuffle=shuffle)
        got = [r[0] for r in rows(d)]
        assert len(got) == d.get_dataset_size() == -(-n // shards)
        seen += got
    # Shards are equal in size: the last ones wrap around to the start, as MindSpore pads them.
    assert set(seen) == set(range(n)) and len(seen) == shards * -(-n // shards)
    if n % shards == 0:
        assert sorted(seen) == list(range(n))
