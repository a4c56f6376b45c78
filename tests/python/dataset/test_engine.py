"""The engine seen from Python: determinism across worker counts, errors, stopping, interrupts."""
import _thread
import gc
import signal
import threading
import time
import traceback

import numpy as np
import pytest

import sprout.dataset as ds
from sprout.dataset.transforms._random import rng

from conftest import thread_count


def wait_for_threads(limit, timeout=5.0):
    deadline = time.monotonic() + timeout
    while thread_count() > limit and time.monotonic() < deadline:
        time.sleep(0.01)
    return thread_count()


def noisy(x):
    """A random per-row transform: its draws come from the row's seed, whatever thread runs it."""
    time.sleep(rng().uniform(0, 0.002))  # finish out of order
    return x + rng().integers(0, 1000)


@pytest.mark.parametrize("pipeline", ["map_shuffle_batch", "generator_source"])
def test_same_seed_same_rows_whatever_the_worker_count(pipeline):
    def run(workers):
        ds.config.set_seed(1234)
        if pipeline == "map_shuffle_batch":
            d = ds.NumpySlicesDataset(np.arange(64), ["x"], num_parallel_workers=workers)
            d = d.map(noisy, num_parallel_workers=workers).shuffle(16).batch(8)
        else:
            class Source:
                def __getitem__(self, i):
                    time.sleep(0.0005 * (i % 3))
                    return np.array(i)

                def __len__(self):
                    return 40

            d = ds.GeneratorDataset(Source(), ["x"], num_parallel_workers=workers).map(noisy, num_parallel_workers=workers)
        it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
        return [[r[0].tolist() for r in it] for _ in range(2)]

    one = run(1)
    assert run(2) == one and run(4) == one
    assert one[0] != one[1]  # a new epoch draws anew


def test_exception_in_map_is_the_original_with_where_it_happened():
    def explode(x):
        if x == 5:
            raise ZeroDivisionError("row five")
        return x

    d = ds.NumpySlicesDataset(np.arange(20), ["x"], shuffle=False).map(explode, num_parallel_workers=3)
    seen = []
    with pytest.raises(ZeroDivisionError, match="row five") as info:
        for row in d.create_tuple_iterator(output_numpy=True):
            seen.append(int(row[0]))
    assert seen == [0, 1, 2, 3, 4]  # rows before the failing one arrive, in order
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "map(operations=[test_exception_in_map_is_the_original_with_where_it_happened.<locals>.explode]" in notes
    assert "on row 5 of epoch 0" in notes
    frames = [f.name for f in traceback.extract_tb(info.value.__traceback__)]
    assert "explode" in frames  # the traceback reaches into the user's function


def test_exception_in_generator_and_getitem():
    def gen():
        yield (np.array(0),)
        raise KeyError("gone")

    with pytest.raises(KeyError) as info:
        list(ds.GeneratorDataset(gen, ["x"]))
    assert "GeneratorDataset(source=test_exception_in_generator_and_getitem.<locals>.gen) producing row 1" in \
        "\n".join(info.value.__notes__)

    class Bad:
        def __getitem__(self, i):
            raise IndexError(f"no row {i}")

        def __len__(self):
            return 3

    with pytest.raises(IndexError, match="no row 0") as info:
        list(ds.GeneratorDataset(Bad(), ["x"], shuffle=False, num_parallel_workers=2))
    assert "reading row 0" in "\n".join(info.value.__notes__)


def test_exception_in_filter_predicate():
    d = ds.NumpySlicesDataset(np.arange(5), ["x"], shuffle=False).filter(lambda x: 1 // (int(x) - 3) > 0)
    with pytest.raises(ZeroDivisionError) as info:
        list(d)
    assert "filter(predicate=" in "\n".join(info.value.__notes__)


def test_an_error_stops_every_thread():
    base = thread_count()

    def fail(x):
        raise ValueError("boom")

    for _ in range(3):
        with pytest.raises(ValueError, match="boom"):
            list(ds.NumpySlicesDataset(np.arange(100), ["x"]).map(fail, num_parallel_workers=4))
    gc.collect()
    assert wait_for_threads(base) <= base


def test_dropping_an_iterator_mid_epoch_stops_its_threads():
    base = thread_count()

    def slow(x):
        time.sleep(0.01)
        return x

    d = ds.NumpySlicesDataset(np.arange(1000), ["x"]).map(slow, num_parallel_workers=4).repeat()
    for _ in range(3):
        it = d.create_tuple_iterator(output_numpy=True)
        for _ in range(5):
            next(it)
        assert thread_count() > base
        start = time.monotonic()
        del it
        assert time.monotonic() - start < 2.0
    assert wait_for_threads(base) <= base


def test_stop_and_exhaustion_release_threads():
    base = thread_count()
    it = ds.NumpySlicesDataset(np.arange(10), ["x"]).map(abs, num_parallel_workers=3).create_tuple_iterator(num_epochs=1)
    assert len(list(it)) == 10
    assert wait_for_threads(base) <= base
    it = ds.NumpySlicesDataset(np.arange(10), ["x"]).create_tuple_iterator()
    next(it)
    it.stop()
    assert wait_for_threads(base) <= base
    with pytest.raises(StopIteration):
        next(it)


def test_keyboard_interrupt_while_waiting_for_rows():
    base = thread_count()

    def slow_gen():
        for i in range(1000):
            time.sleep(0.05)
            yield (np.array(i),)

    d = ds.GeneratorDataset(slow_gen, ["x"]).map(lambda x: x, num_parallel_workers=2)
    # Python's own Ctrl-C handler, which interrupt_main needs: a process started in the background by a
    # shell without job control inherits SIGINT ignored, and then interrupt_main does nothing.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    seen = 0
    try:
        with pytest.raises(KeyboardInterrupt):
            for _ in d.create_tuple_iterator(output_numpy=True):
                seen += 1
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 3.0
    assert seen < 1000
    gc.collect()
    assert wait_for_threads(base) <= base


def test_iterator_collected_on_its_own_worker_thread():
    """The garbage collector may free a dropped iterator on one of its own pipeline's threads; the
    pipeline must still stop, without that thread waiting on itself."""
    base = thread_count()
    holder, ready, collected = {}, threading.Event(), threading.Event()

    def collect_on_row_20(x):
        if int(x) == 20:  # within the rows the pipeline prefetches, so it runs without a consumer
            ready.wait(5.0)
            holder.clear()  # the last reference to the cycle holding the iterator
            gc.collect()
            collected.set()
        return x

    d = ds.NumpySlicesDataset(np.arange(10_000), ["x"], shuffle=False).map(collect_on_row_20, num_parallel_workers=2)
    it = d.create_tuple_iterator(output_numpy=True)
    next(it)
    cycle = [it]
    cycle.append(cycle)
    holder["cycle"] = cycle
    del it, cycle
    ready.set()
    assert collected.wait(5.0)
    assert wait_for_threads(base) <= base
