import os

# Keep tests deterministic and light on a 2-core machine running pytest-xdist workers.
os.environ.setdefault("SPROUT_NUM_THREADS", "1")

from hypothesis import settings  # noqa: E402

settings.register_profile("sprout", deadline=None, max_examples=60, derandomize=True)
settings.load_profile("sprout")
