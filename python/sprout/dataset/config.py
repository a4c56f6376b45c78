"""Pipeline-wide settings, as ``mindspore.dataset.config``: seed, default worker count, prefetch depth."""
import os

# MindSpore's default seed (std::mt19937's). A fixed default keeps runs reproducible and, more
# importantly, makes the shards of a distributed job split one permutation: every process draws
# the same shuffle without being told to.
DEFAULT_SEED = 5489

_state = {
    "seed": DEFAULT_SEED,
    "seed_calls": 0,  # how many times set_seed ran: eager transforms restart their generator after each
    "num_parallel_workers": min(8, os.cpu_count() or 1),
    "prefetch_size": 16,
}


def _check_positive_int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")


def set_seed(seed):
    """Seeds every random sampler, shuffle and random transform of pipelines built afterwards.

    For a given seed a pipeline gives the same rows in the same order on every run, whatever the
    number of workers; each epoch draws anew. The default is DEFAULT_SEED.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise ValueError(f"config.set_seed: 'seed' must be an int in [0, 2**32), but got {seed!r}")
    _state["seed"] = seed
    _state["seed_calls"] += 1


def get_seed():
    return _state["seed"]


def set_num_parallel_workers(num):
    _check_positive_int("config.set_num_parallel_workers", "num", num)
    _state["num_parallel_workers"] = num


def get_num_parallel_workers():
    return _state["num_parallel_workers"]


def set_prefetch_size(size):
    _check_positive_int("config.set_prefetch_size", "size", size)
    _state["prefetch_size"] = size


def get_prefetch_size():
    return _state["prefetch_size"]


def _pipeline_seed():
    return _state["seed"]
