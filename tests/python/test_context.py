"""set_context / get_context / set_seed, including the seed's ``context.set_context`` spelling."""
import pytest

import sprout as ms
from sprout import _C, context


def test_modes_and_defaults():
    assert ms.GRAPH_MODE == 0 and ms.PYNATIVE_MODE == 1
    assert ms.get_context("device_target") == "CPU"
    old = ms.get_context("mode")
    try:
        context.set_context(mode=context.GRAPH_MODE)
        assert ms.get_context("mode") == ms.GRAPH_MODE
        ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
        assert context.get_context("mode") == ms.PYNATIVE_MODE
    finally:
        ms.set_context(mode=old)


def test_thread_count_reaches_the_runtime():
    old = ms.get_context("runtime_num_threads")
    try:
        ms.set_context(runtime_num_threads=2)
        assert _C.get_num_threads() == 2
    finally:
        ms.set_context(runtime_num_threads=old)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"mode": 3}, ValueError, "'mode' must be"),
    ({"device_target": "GPU"}, ValueError, "'device_target' must be one of"),
    ({"device_target": 1}, TypeError, "'device_target' must be a str"),
    ({"runtime_num_threads": 0}, ValueError, "positive int"),
    ({"no_such_key": 1}, ValueError, "unknown key 'no_such_key'"),
    ({"save_graphs": 7}, ValueError, "save_graphs"),
])
def test_bad_values_are_rejected_and_nothing_changes(kwargs, error, match):
    before = dict(context._context)
    with pytest.raises(error, match=match):
        ms.set_context(**{"device_id": 1, "runtime_num_threads": 2, **kwargs})
    assert context._context == before
    assert _C.get_num_threads() == before["runtime_num_threads"]


def test_get_context_unknown_key():
    with pytest.raises(ValueError, match="unknown key"):
        ms.get_context("nope")


def test_seed():
    ms.set_seed(7)
    assert ms.get_seed() == 7
    with pytest.raises(ValueError, match="seed"):
        ms.set_seed(-1)


def test_dtype_module():
    from sprout.common import dtype as mstype
    import numpy as np
    assert ms.dtype.float32 is ms.float32 and mstype.dtype_to_nptype(ms.int8) is np.int8
    assert mstype.pytype_to_dtype(float) == ms.float32 and mstype.pytype_to_dtype(bool) == ms.bool_
    assert ms.half == ms.float16 and ms.double == ms.float64
    with pytest.raises(TypeError, match="no Sprout equivalent"):
        mstype.nptype_to_dtype(np.complex64)
