import os

import pytest

import sprout.dataset as ds


@pytest.fixture(autouse=True)
def _fresh_config():
    """Every test starts with no seed and MindSpore's defaults, and leaves them so."""
    saved = dict(ds.config._state)
    yield
    ds.config._state.clear()
    ds.config._state.update(saved)


def thread_count():
    """Threads of this process, C++ ones included (threading.active_count() sees only Python's)."""
    return len(os.listdir("/proc/self/task"))
