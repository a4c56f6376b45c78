"""Pipeline-wide settings, as ``mindspore.dataset.config``: seed, default worker count, prefetch depth, and
MindSpore's other settings, kept and returned (most have nothing to act on in Sprout: see each docstring)."""
import enum
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


# --- MindSpore's other settings ------------------------------------------------------------------------
# Kept and returned as MindSpore does, checked as it checks them. Sprout's engine runs on threads, has
# no watchdog, no shared memory, no autotuner, no NUMA binding, no video decoding and no dataset
# callbacks, so unless a docstring says otherwise a setting below has no effect on its pipelines.

_INT32_MAX = 2**31 - 1


class ErrorSamplesMode(enum.IntEnum):
    """How a map treats a row its operations fail on: raise (RETURN), replace it (REPLACE) or skip it (SKIP)."""

    RETURN = 0
    REPLACE = 1
    SKIP = 2


_state.update({
    "callback_timeout": 60, "debug_mode": False, "debug_hook_list": None, "enable_watchdog": True,
    "error_samples_mode": ErrorSamplesMode.RETURN, "multiprocessing_start_method": "fork",
    "multiprocessing_timeout_interval": 300, "video_backend": "CPU", "auto_num_workers": False,
    "auto_offload": False, "autotune_interval": 0, "enable_autotune": False, "autotune_filepath_prefix": None,
    "enable_shared_mem": True, "fast_recovery": True, "iterator_mode": {"do_copy": False, "parallel_convert": False},
    "monitor_sampling_interval": 1000, "numa_enable": False, "dynamic_shape": False, "sending_batches": 0,
})


def _check_bool(api, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"config.{api}: '{name}' must be a bool, but got {type(value).__name__} {value!r}")


def _check_int_in(api, name, value, low, high=_INT32_MAX):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"config.{api}: '{name}' must be an int, but got {type(value).__name__} {value!r}")
    if not low <= value <= high:
        raise ValueError(f"config.{api}: '{name}' must be in [{low}, {high}], but got {value}")


def _check_choice(api, name, value, allowed):
    if not isinstance(value, str):
        raise TypeError(f"config.{api}: '{name}' must be a str, but got {type(value).__name__} {value!r}")
    if value not in allowed:
        raise ValueError(f"config.{api}: '{name}' must be one of {list(allowed)}, but got {value!r}")


def set_callback_timeout(timeout):
    """Seconds a WaitedDSCallback waits for its training step (kept; Sprout has no dataset callbacks)."""
    _check_int_in("set_callback_timeout", "timeout", timeout, 1)
    _state["callback_timeout"] = timeout


def get_callback_timeout():
    return _state["callback_timeout"]


def set_debug_mode(debug_mode_flag, debug_hook_list=None):
    """MindSpore's synchronous single-thread debug run of pipelines, with debug hooks around map's transforms.
    Kept and returned; Sprout's pipelines are deterministic for a seed whatever their worker count, and map
    runs no hooks, so the flag has no effect."""
    _check_bool("set_debug_mode", "debug_mode_flag", debug_mode_flag)
    if debug_hook_list is not None and not isinstance(debug_hook_list, list):
        raise TypeError(f"config.set_debug_mode: 'debug_hook_list' must be a list, but got "
                        f"{type(debug_hook_list).__name__}")
    _state["debug_mode"], _state["debug_hook_list"] = debug_mode_flag, debug_hook_list


def get_debug_mode():
    return _state["debug_mode"]


def set_enable_watchdog(enable):
    """MindSpore's watchdog thread ending hung worker processes (kept; Sprout's workers are threads)."""
    _check_bool("set_enable_watchdog", "enable", enable)
    _state["enable_watchdog"] = enable


def get_enable_watchdog():
    return _state["enable_watchdog"]


def set_error_samples_mode(error_samples_mode):
    """How map treats rows its operations fail on (kept; Sprout's map always raises: ErrorSamplesMode.RETURN)."""
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError("config.set_error_samples_mode: 'error_samples_mode' must be an ErrorSamplesMode, but got "
                        f"{type(error_samples_mode).__name__} {error_samples_mode!r}")
    _state["error_samples_mode"] = error_samples_mode


def get_error_samples_mode():
    return _state["error_samples_mode"]


def set_multiprocessing_start_method(start_method="fork"):
    """How MindSpore starts worker processes: 'fork' or 'spawn' (kept; Sprout's workers are threads)."""
    _check_choice("set_multiprocessing_start_method", "start_method", start_method, ("fork", "spawn"))
    _state["multiprocessing_start_method"] = start_method


def get_multiprocessing_start_method():
    return _state["multiprocessing_start_method"]


def set_multiprocessing_timeout_interval(interval):
    """Seconds between MindSpore's warnings while the main thread waits for data (kept; no effect)."""
    _check_int_in("set_multiprocessing_timeout_interval", "interval", interval, 1)
    _state["multiprocessing_timeout_interval"] = interval


def get_multiprocessing_timeout_interval():
    return _state["multiprocessing_timeout_interval"]


def set_video_backend(backend):
    """Where videos are decoded: 'CPU' or 'Ascend' (kept; Sprout decodes no video)."""
    _check_choice("set_video_backend", "backend", backend, ("CPU", "Ascend"))
    _state["video_backend"] = backend


def get_video_backend():
    return _state["video_backend"]


def set_auto_num_workers(enable):
    """MindSpore's choice of worker counts from the batch size and the cores (kept; no effect)."""
    _check_bool("set_auto_num_workers", "enable", enable)
    _state["auto_num_workers"] = enable


def get_auto_num_workers():
    return _state["auto_num_workers"]


def set_auto_offload(offload):
    """Moving map's trailing transforms to the device (kept; no effect)."""
    _check_bool("set_auto_offload", "offload", offload)
    _state["auto_offload"] = offload


def get_auto_offload():
    return _state["auto_offload"]


def set_enable_autotune(enable, filepath_prefix=None):
    """MindSpore's tuning of worker counts and queue sizes while running (kept; no effect)."""
    _check_bool("set_enable_autotune", "enable", enable)
    if filepath_prefix is not None and not isinstance(filepath_prefix, str):
        raise TypeError("config.set_enable_autotune: 'filepath_prefix' must be a str, but got "
                        f"{type(filepath_prefix).__name__}")
    _state["enable_autotune"], _state["autotune_filepath_prefix"] = enable, filepath_prefix


def get_enable_autotune():
    return _state["enable_autotune"]


def set_autotune_interval(interval):
    """Steps between two autotune passes, 0 for once per epoch (kept; no effect)."""
    _check_int_in("set_autotune_interval", "interval", interval, 0)
    _state["autotune_interval"] = interval


def get_autotune_interval():
    return _state["autotune_interval"]


def set_enable_shared_mem(enable):
    """Shared memory between worker processes (kept; Sprout's workers are threads and share memory anyway)."""
    _check_bool("set_enable_shared_mem", "enable", enable)
    _state["enable_shared_mem"] = enable


def get_enable_shared_mem():
    return _state["enable_shared_mem"]


def set_fast_recovery(fast_recovery):
    """Resuming a pipeline after failover without replaying its transforms (kept; no effect)."""
    _check_bool("set_fast_recovery", "fast_recovery", fast_recovery)
    _state["fast_recovery"] = fast_recovery


def get_fast_recovery():
    return _state["fast_recovery"]


def set_iterator_mode(do_copy=False, parallel_convert=False):
    """How iterators hand over tensors (kept; Sprout's iterators always give tensors that own their data)."""
    _check_bool("set_iterator_mode", "do_copy", do_copy)
    _check_bool("set_iterator_mode", "parallel_convert", parallel_convert)
    _state["iterator_mode"] = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode():
    return dict(_state["iterator_mode"])


def set_monitor_sampling_interval(interval):
    """Milliseconds between the profiler's samples of the pipeline (kept; no effect)."""
    _check_int_in("set_monitor_sampling_interval", "interval", interval, 1)
    _state["monitor_sampling_interval"] = interval


def get_monitor_sampling_interval():
    return _state["monitor_sampling_interval"]


def set_numa_enable(numa_enable):
    """Binding workers to NUMA nodes (kept; no effect)."""
    _check_bool("set_numa_enable", "numa_enable", numa_enable)
    _state["numa_enable"] = numa_enable


def get_numa_enable():
    return _state["numa_enable"]


def set_dynamic_shape(is_dynamic):
    """Whether the dataset's shapes vary between batches (kept; Sprout's graphs compile per shape anyway)."""
    _check_bool("set_dynamic_shape", "is_dynamic", is_dynamic)
    _state["dynamic_shape"] = is_dynamic


def get_dynamic_shape():
    return _state["dynamic_shape"]


def set_sending_batches(batch_num):
    """Batches sent to the device in sink mode before waiting (kept; no effect: Sprout does not sink data)."""
    _check_int_in("set_sending_batches", "batch_num", batch_num, 0)
    _state["sending_batches"] = batch_num
