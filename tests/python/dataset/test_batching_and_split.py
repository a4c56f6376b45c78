"""per_batch_map, pad_info, padded_batch and split."""
import numpy as np
import pytest

import sprout.dataset as ds


def ragged(n=5):
    def gen():
        for i in range(n):
            yield np.arange(i + 1, dtype=np.int32), np.array(i)

    return ds.GeneratorDataset(gen, ["seq", "label"])


def batches(d):
    return list(d.create_tuple_iterator(output_numpy=True, num_epochs=1))


def test_padded_batch_pads_every_column_to_the_longest_row():
    (seq, label), (seq2, _) = batches(ragged(4).padded_batch(2))
    np.testing.assert_array_equal(seq, [[0, 0], [0, 1]])
    np.testing.assert_array_equal(seq2, [[0, 1, 2, 0], [0, 1, 2, 3]])
    assert label.tolist() == [0, 1]


def test_pad_info_shapes_and_values():
    (seq, _), = batches(ragged(3).batch(3, pad_info={"seq": ([5], -1)}))
    np.testing.assert_array_equal(seq, [[0, -1, -1, -1, -1], [0, 1, -1, -1, -1], [0, 1, 2, -1, -1]])
    (seq, _), = batches(ragged(3).batch(3, pad_info={"seq": (None, 7)}))
    assert seq.shape == (3, 3) and seq[0].tolist() == [0, 7, 7]
    with pytest.raises(ValueError, match=r"pad_info pads column 'seq' axis 0 to 2, but a row of the batch has 3"):
        batches(ragged(3).batch(3, pad_info={"seq": ([2], 0)}))
    with pytest.raises(ValueError, match=r"column 'nope' does not exist"):
        batches(ragged(3).batch(3, pad_info={"nope": (None, 0)}))


def test_per_batch_map_sees_lists_and_batch_info():
    seen = []

    def add_batch_number(seq, label, info):
        seen.append((info.get_batch_num(), info.get_epoch_num(), len(seq)))
        return [np.int64(len(s)) for s in seq], [l + 100 * info.get_batch_num() for l in label]

    d = ragged(5).batch(2, per_batch_map=add_batch_number, input_columns=["seq", "label"],
                        output_columns=["length", "label"], num_parallel_workers=2)
    got = batches(d)
    assert d.get_col_names() == ["length", "label"]
    assert [b[0].tolist() for b in got] == [[1, 2], [3, 4], [5]]
    assert [b[1].tolist() for b in got] == [[0, 1], [102, 103], [204]]
    assert sorted(seen) == [(0, 0, 2), (1, 0, 2), (2, 0, 1)]


def test_per_batch_map_errors_name_the_batch():
    def bad(label, info):
        raise ArithmeticError("nope")

    with pytest.raises(ArithmeticError) as info:
        batches(ragged(4).batch(2, per_batch_map=bad, input_columns=["label"]))
    assert "per_batch_map) on batch 0" in "\n".join(info.value.__notes__)
    with pytest.raises(ValueError, match="need a per_batch_map"):
        ragged().batch(2, input_columns=["label"])


def test_split_by_sizes_and_fractions_covers_every_row_once():
    d = ds.NumpySlicesDataset(np.arange(10), ["x"], shuffle=False)
    parts = d.split([7, 3], randomize=False)
    assert [[int(r[0]) for r in p.create_tuple_iterator(output_numpy=True)] for p in parts] == [list(range(7)), [7, 8, 9]]
    parts = d.split([0.5, 0.3, 0.2])
    rows = [sorted(int(r[0]) for r in p.create_tuple_iterator(output_numpy=True, num_epochs=1)) for p in parts]
    assert [len(r) for r in rows] == [5, 3, 2] and sorted(sum(rows, [])) == list(range(10))
    assert [p.get_dataset_size() for p in parts] == [5, 3, 2]


def test_split_of_a_pipeline_without_randomize_and_errors():
    d = ds.NumpySlicesDataset(np.arange(6), ["x"], shuffle=False).map(lambda x: x * 2)
    a, b = d.split([4, 2], randomize=False)
    assert [int(r[0]) for r in b.create_tuple_iterator(output_numpy=True)] == [8, 10]
    with pytest.raises(ValueError, match="randomize=True needs a random-access source"):
        d.split([4, 2])
    with pytest.raises(ValueError, match=r"sizes \[4, 1\] must be positive and add up to the dataset size 6"):
        d.split([4, 1], randomize=False)
    with pytest.raises(ValueError, match="fractions"):
        d.split([0.9, 0.3], randomize=False)
