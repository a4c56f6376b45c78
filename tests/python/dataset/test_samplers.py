from collections import Counter

import numpy as np
import pytest

import sprout.dataset as ds


def indices(sampler, n=10, **kw):
    d = ds.NumpySlicesDataset({"i": np.arange(n), "label": np.arange(n) % 3}, sampler=sampler, **kw)
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def test_sequential():
    assert indices(ds.SequentialSampler()) == list(range(10))
    assert indices(ds.SequentialSampler(start_index=3, num_samples=4)) == [3, 4, 5, 6]


def test_random_without_and_with_replacement():
    ds.config.set_seed(5)
    got = indices(ds.RandomSampler())
    assert sorted(got) == list(range(10)) and got != list(range(10))
    assert len(indices(ds.RandomSampler(num_samples=4))) == 4
    with_replacement = indices(ds.RandomSampler(replacement=True, num_samples=30))
    assert len(with_replacement) == 30 and set(with_replacement) <= set(range(10))


def test_distributed():
    got = [indices(ds.DistributedSampler(3, k, shuffle=False)) for k in range(3)]
    assert got == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]


def test_subset_and_subset_random():
    assert indices(ds.SubsetSampler([7, 2, 2])) == [7, 2, 2]
    got = indices(ds.SubsetRandomSampler([1, 4, 8, 9]))
    assert sorted(got) == [1, 4, 8, 9]
    assert indices([5, 1]) == [5, 1]  # a plain list of indices is a SubsetSampler
    with pytest.raises(ValueError, match=r"SubsetSampler: indices\[0\] = 12 is out of range for a dataset of 10 rows"):
        indices(ds.SubsetSampler([12]))


def test_weighted_random_follows_the_weights():
    ds.config.set_seed(0)
    got = Counter(indices(ds.WeightedRandomSampler([0, 1, 3] + [0] * 7, num_samples=4000)))
    assert set(got) == {1, 2} and 2.5 < got[2] / got[1] < 3.5
    assert sorted(indices(ds.WeightedRandomSampler([1] * 5, num_samples=5, replacement=False))) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="WeightedRandomSampler: weights\\[1\\] = -1 is negative"):
        indices(ds.WeightedRandomSampler([1, -1]))


def test_pk_sampler_takes_k_rows_per_class():
    got = indices(ds.PKSampler(2), n=9)
    labels = [i % 3 for i in got]
    assert len(got) == 6 and labels == [0, 0, 1, 1, 2, 2]


def test_user_defined_sampler():
    class Evens(ds.Sampler):
        def __iter__(self):
            return iter(range(0, 10, 2))

    assert indices(Evens()) == [0, 2, 4, 6, 8]


def test_sampler_arguments_are_checked():
    with pytest.raises(ValueError, match=r"DistributedSampler: 'shard_id' must be in \[0, 2\), but got 2"):
        ds.DistributedSampler(2, 2)
    with pytest.raises(TypeError, match="SequentialSampler: 'num_samples' must be an int"):
        ds.SequentialSampler(num_samples="3")
    with pytest.raises(TypeError, match="'sampler' must be a Sampler or a sequence"):
        ds.NumpySlicesDataset(np.arange(3), sampler=3)
