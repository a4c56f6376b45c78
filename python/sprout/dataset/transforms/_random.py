"""Randomness of Sprout's Python transforms (Note [Seeds in the pipeline] in src/data/rng.h).

Inside ``map``, the engine hands every row a seed that depends only on the pipeline seed, the epoch
and the row's position; ``row_seed`` makes it the seed of this thread's generator for the duration
of the row, so random transforms give the same result whatever worker runs them. The generator is
made only when a transform asks for it, so deterministic transforms pay nothing. Used eagerly
(outside a pipeline), transforms draw from a generator seeded by ``dataset.config``, started anew by
every ``config.set_seed``: set_seed(s) then the same eager calls give the same results.
"""
import contextlib
import threading

import numpy as np

from sprout.dataset import config

_local = threading.local()


@contextlib.contextmanager
def row_seed(seed):
    saved = (getattr(_local, "seed", None), getattr(_local, "rng", None))
    _local.seed, _local.rng = seed, None
    try:
        yield
    finally:
        _local.seed, _local.rng = saved


def rng():
    """The generator random transforms draw from on this thread."""
    generator = getattr(_local, "rng", None)
    seed = getattr(_local, "seed", None)
    if seed is None and getattr(_local, "seed_calls", None) != config._state["seed_calls"]:
        generator = None  # eager use after a set_seed: start from the new seed
    if generator is None:
        if seed is None:
            seed, _local.seed_calls = config.get_seed(), config._state["seed_calls"]
        generator = np.random.Generator(np.random.PCG64(seed))
        _local.rng = generator
    return generator
