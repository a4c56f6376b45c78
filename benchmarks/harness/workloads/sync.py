"""Waiting for asynchronous frameworks, so a step's time includes its work.

Sprout, NumPy and PyTorch (CPU) compute before an op returns. JAX and
MindSpore's PyNative mode queue ops and return at once: a step must wait
for its last result, as a user reading the value would.
"""


def jax_synced(fn):
    def step():
        return fn().block_until_ready()
    return step


def mindspore_synced(fn):
    # The executor's sync is what Tensor.asnumpy() waits on; calling it
    # directly avoids asnumpy's extra work. It is private API, so fall back
    # to asnumpy() if it ever moves.
    try:
        from mindspore.common.api import _pynative_executor
        wait = _pynative_executor.sync
    except ImportError:
        wait = None

    def step():
        r = fn()
        if wait is not None:
            wait()
        else:
            r.asnumpy()
        return r
    return step
