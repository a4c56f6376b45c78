"""The global random seed: ``ms.set_seed(s)`` makes initializers and random ops reproducible."""
import numpy as np

_seed = None
_rng = np.random.default_rng()


def set_seed(seed):
    global _seed, _rng
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"set_seed: 'seed' must be a non-negative int, but got {seed!r}")
    _seed = seed
    _rng = np.random.default_rng(seed)
    from sprout.dataset import config as dataset_config  # as MindSpore: the global seed seeds the pipelines too
    dataset_config.set_seed(seed)


def get_seed():
    return _seed


def _global_rng():
    """The generator Python-side random initializers draw from."""
    return _rng
