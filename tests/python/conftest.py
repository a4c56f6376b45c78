import os

# Keep tests deterministic and light on a 2-core machine running pytest-xdist workers.
os.environ.setdefault("SPROUT_NUM_THREADS", "1")

from hypothesis import settings  # noqa: E402

settings.register_profile("sprout", deadline=None, max_examples=60, derandomize=True)
settings.load_profile("sprout")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _restore_execution_mode():
    """A test that switches to GRAPH_MODE (the examples do) must not change the mode of the next one."""
    import sprout as ms
    mode = ms.get_context("mode")
    yield
    ms.set_context(mode=mode)
