"""Dataset.split: datasets over disjoint parts of one dataset."""
import copy
import numbers

import numpy as np

from sprout.dataset import config
from sprout.dataset.samplers import RandomSampler, SequentialSampler, SubsetRandomSampler, SubsetSampler


def _sizes(sizes, total):
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise TypeError(f"split: 'sizes' must be a non-empty list of ints or of floats, but got {sizes!r}")
    if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in sizes):
        if any(s < 1 for s in sizes) or sum(sizes) != total:
            raise ValueError(f"split: sizes {list(sizes)} must be positive and add up to the dataset size {total}")
        return list(sizes)
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s < 1 for s in sizes) or abs(sum(sizes) - 1) > 1e-6:
            raise ValueError(f"split: fractions {list(sizes)} must each be in (0, 1) and add up to 1")
        counts = [int(np.floor(s * total)) for s in sizes]
        for i in range(total - sum(counts)):  # rows left by flooring go to the first parts
            counts[i % len(counts)] += 1
        if any(c == 0 for c in counts):
            raise ValueError(f"split: fractions {list(sizes)} of {total} rows leave a part empty")
        return counts
    raise TypeError(f"split: 'sizes' must be all ints or all floats, but got {sizes!r}")


def split(dataset, sizes, randomize):
    from sprout.dataset.sources import _SampledSource

    total = dataset.get_dataset_size()
    counts = _sizes(sizes, total)
    bounds = np.cumsum([0] + counts)
    if isinstance(dataset, _SampledSource) and isinstance(dataset.sampler, (SequentialSampler, RandomSampler)) \
            and not dataset.sampler.num_samples:
        order = np.arange(total)
        if randomize:
            np.random.Generator(np.random.PCG64(config.get_seed())).shuffle(order)
        parts = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            part = copy.copy(dataset)
            indices = sorted(order[lo:hi].tolist()) if not randomize else order[lo:hi].tolist()
            part.sampler = SubsetRandomSampler(indices) if randomize else SubsetSampler(indices)
            part._cap, part._size_cache = None, None
            parts.append(part)
        return parts
    if randomize:
        raise ValueError(f"split: randomize=True needs a random-access source without its own sampler or num_samples "
                         f"(a {type(dataset).__name__} here); pass randomize=False to split in order")
    return [dataset.skip(int(lo)).take(int(hi - lo)) for lo, hi in zip(bounds[:-1], bounds[1:])]
