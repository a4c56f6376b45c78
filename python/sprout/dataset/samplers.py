"""Samplers (``mindspore.dataset`` names): which rows of a random-access source an epoch reads.

A sampler here is a description; ``_build(seed, ...)`` makes the engine's sampler (src/data/sampler.h),
which computes each epoch's indices in C++ from the pipeline seed and the epoch number.
"""
import numbers

import numpy as np

from sprout import _C

_E = _C.dataset


def _check_int(api, name, value, low=None, allow_none=False):
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__} {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{api}: '{name}' must be >= {low}, but got {value}")


class Sampler:
    """Base of the samplers. A subclass that only defines ``__iter__`` (yielding row indices) is a
    user-defined sampler: its indices are read once per iterator."""

    def __init__(self, num_samples=None):
        _check_int(type(self).__name__, "num_samples", num_samples, low=0, allow_none=True)
        self.num_samples = num_samples

    def _n(self):
        return self.num_samples or 0

    def _build(self, seed, labels=None):
        indices = [int(i) for i in self.__iter__()]
        return _E.subset_sampler(indices, False, self._n(), seed)

    def get_num_samples(self):
        return self.num_samples

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__}: a user-defined Sampler must define __iter__")


class SequentialSampler(Sampler):
    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        _check_int("SequentialSampler", "start_index", start_index, low=0, allow_none=True)
        self.start_index = start_index or 0

    def _build(self, seed, labels=None):
        return _E.sequential_sampler(self.start_index, self._n())


class RandomSampler(Sampler):
    def __init__(self, replacement=False, num_samples=None):
        super().__init__(num_samples)
        if not isinstance(replacement, bool):
            raise TypeError(f"RandomSampler: 'replacement' must be a bool, but got {replacement!r}")
        self.replacement = replacement

    def _build(self, seed, labels=None):
        return _E.random_sampler(self.replacement, self._n(), seed)


class DistributedSampler(Sampler):
    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        super().__init__(num_samples)
        _check_int("DistributedSampler", "num_shards", num_shards, low=1)
        _check_int("DistributedSampler", "shard_id", shard_id, low=0)
        if shard_id >= num_shards:
            raise ValueError(f"DistributedSampler: 'shard_id' must be in [0, {num_shards}), but got {shard_id}")
        self.num_shards, self.shard_id, self.shuffle = num_shards, shard_id, bool(shuffle)
        self.offset = max(offset, 0)

    def _build(self, seed, labels=None):
        return _E.distributed_sampler(self.num_shards, self.shard_id, self.shuffle, self._n(), self.offset, seed)


class SubsetSampler(Sampler):
    """The rows at ``indices``, in that order."""

    _shuffle = False

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        api = type(self).__name__
        if isinstance(indices, (str, bytes)) or not hasattr(indices, "__iter__"):
            raise TypeError(f"{api}: 'indices' must be a sequence of ints, but got {type(indices).__name__}")
        self.indices = [int(i) for i in indices]

    def _build(self, seed, labels=None):
        return _E.subset_sampler(self.indices, self._shuffle, self._n(), seed)


class SubsetRandomSampler(SubsetSampler):
    """The rows at ``indices``, in a new random order each epoch."""

    _shuffle = True


class WeightedRandomSampler(Sampler):
    def __init__(self, weights, num_samples=None, replacement=True):
        super().__init__(num_samples)
        self.weights = [float(w) for w in weights]
        self.replacement = bool(replacement)

    def _build(self, seed, labels=None):
        return _E.weighted_random_sampler(self.weights, self._n(), self.replacement, seed)


class PKSampler(Sampler):
    """``num_val`` rows of each class in turn; the class of a row is its ``class_column`` value."""

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label", num_samples=None):
        super().__init__(num_samples)
        _check_int("PKSampler", "num_val", num_val, low=1)
        if num_class is not None:
            raise ValueError("PKSampler: 'num_class' is not supported (MindSpore does not support it either)")
        self.num_val, self.shuffle, self.class_column = num_val, bool(shuffle), class_column

    def _build(self, seed, labels=None):
        if labels is None:
            raise ValueError(f"PKSampler: the source has no column '{self.class_column}' to read classes from")
        labels = np.asarray(labels).reshape(len(labels), -1)[:, 0].astype(np.int64).tolist()
        return _E.pk_sampler(labels, self.num_val, self.shuffle, self._n(), seed)


def resolve_sampler(api, sampler, shuffle, num_samples, num_shards, shard_id):
    """The sampler a source uses, from its (sampler, shuffle, num_samples, num_shards, shard_id)
    arguments, with MindSpore's rules: an explicit sampler excludes shuffle and sharding; sharding
    gives a DistributedSampler; otherwise shuffle (default True) picks RandomSampler."""
    _check_int(api, "num_samples", num_samples, low=0, allow_none=True)
    if (num_shards is None) != (shard_id is None):
        raise ValueError(f"{api}: 'num_shards' and 'shard_id' must be given together, "
                         f"but got num_shards={num_shards!r}, shard_id={shard_id!r}")
    if sampler is not None:
        if shuffle is not None:
            raise ValueError(f"{api}: 'sampler' and 'shuffle' cannot both be given")
        if num_shards is not None:
            raise ValueError(f"{api}: 'sampler' and 'num_shards'/'shard_id' cannot both be given")
        if isinstance(sampler, Sampler):
            return sampler
        if hasattr(sampler, "__iter__"):
            return SubsetSampler(sampler, num_samples)
        raise TypeError(f"{api}: 'sampler' must be a Sampler or a sequence of row indices, "
                        f"but got {type(sampler).__name__}")
    shuffle = True if shuffle is None else shuffle
    if not isinstance(shuffle, bool):
        raise TypeError(f"{api}: 'shuffle' must be a bool, but got {shuffle!r}")
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=shuffle, num_samples=num_samples)
    return RandomSampler(num_samples=num_samples) if shuffle else SequentialSampler(num_samples=num_samples)
