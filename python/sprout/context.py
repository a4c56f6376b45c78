"""Global settings: ``ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU", ...)``.

Every key is validated: an unknown key, or a value of the wrong type or range, raises an error that
names the key. Settings that reach the C++ runtime (thread count) are applied at once.
"""
import os

from sprout import _C

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_DEVICE_TARGETS = ("CPU",)


def _check_mode(value):
    if value not in (GRAPH_MODE, PYNATIVE_MODE) or isinstance(value, bool):
        raise ValueError(f"set_context: 'mode' must be ms.GRAPH_MODE (0) or ms.PYNATIVE_MODE (1), but got {value!r}")
    return value


def _check_device(value):
    if not isinstance(value, str):
        raise TypeError(f"set_context: 'device_target' must be a str, but got {type(value).__name__}")
    if value not in _DEVICE_TARGETS:
        raise ValueError(f"set_context: 'device_target' must be one of {_DEVICE_TARGETS} on this build, but got {value!r}")
    return value


def _check_threads(value):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"set_context: 'runtime_num_threads' must be a positive int, but got {value!r}")
    return value


def _check_bool(key):
    def check(value):
        if not isinstance(value, bool):
            raise TypeError(f"set_context: '{key}' must be a bool, but got {type(value).__name__}")
        return value
    return check


def _check_int(key, low=0):
    def check(value):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ValueError(f"set_context: '{key}' must be an int >= {low}, but got {value!r}")
        return value
    return check


def _check_str(key):
    def check(value):
        if not isinstance(value, str):
            raise TypeError(f"set_context: '{key}' must be a str, but got {type(value).__name__}")
        return value
    return check


def _check_choice(key, choices):
    def check(value):
        if value not in choices:
            raise ValueError(f"set_context: '{key}' must be one of {choices}, but got {value!r}")
        return value
    return check


def _check_save_graphs(value):
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1, 2, 3)):
        return int(value)
    raise ValueError(f"set_context: 'save_graphs' must be a bool or an int in [0, 3], but got {value!r}")


# key -> validator (returns the stored value); the set of keys a user may pass.
_VALIDATORS = {
    "mode": _check_mode,
    "device_target": _check_device,
    "device_id": _check_int("device_id"),
    "runtime_num_threads": _check_threads,
    "save_graphs": _check_save_graphs,
    "save_graphs_path": _check_str("save_graphs_path"),
    "max_call_depth": _check_int("max_call_depth", 1),
    "pynative_synchronize": _check_bool("pynative_synchronize"),
    "deterministic": _check_choice("deterministic", ("ON", "OFF")),
    "jit_level": _check_choice("jit_level", ("O0", "O1", "O2")),
}

# Keys whose value must reach the C++ runtime, applied once every key of a call has been validated.
_APPLY = {"runtime_num_threads": _C.set_num_threads}

_context = {
    "mode": PYNATIVE_MODE,
    "device_target": "CPU",
    "device_id": 0,
    "runtime_num_threads": _C.get_num_threads(),
    "save_graphs": 0,
    "save_graphs_path": ".",
    "max_call_depth": 1000,
    "pynative_synchronize": False,
    "deterministic": "OFF",
    "jit_level": "O1",
}


def set_context(**kwargs):
    """Sets one or more context keys; see the module docstring for validation."""
    checked = {}
    for key, value in kwargs.items():
        if key not in _VALIDATORS:
            raise ValueError(f"set_context: unknown key '{key}'; valid keys: {', '.join(sorted(_VALIDATORS))}")
        checked[key] = _VALIDATORS[key](value)
    for key, value in checked.items():
        if key in _APPLY:
            _APPLY[key](value)
    _context.update(checked)


def get_context(attr_key):
    """The current value of a context key."""
    if attr_key not in _context:
        raise ValueError(f"get_context: unknown key '{attr_key}'; valid keys: {', '.join(sorted(_context))}")
    return _context[attr_key]


if "SPROUT_MODE" in os.environ:  # lets a test run whole suites in either mode
    set_context(mode=GRAPH_MODE if os.environ["SPROUT_MODE"].upper() == "GRAPH" else PYNATIVE_MODE)

# MindSpore also has these under mindspore.context.
from sprout.parallel_context import (ParallelMode, get_auto_parallel_context,  # noqa: E402,F401
                                     reset_auto_parallel_context, set_auto_parallel_context)
