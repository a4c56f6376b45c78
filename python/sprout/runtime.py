"""Memory of the CPU caching allocator, under MindSpore 2.x's ``mindspore.runtime`` names.

Tensors take their memory from one caching allocator: a freed block is kept for the next tensor of a
fitting size instead of going back to the OS. *Allocated* bytes are held by live tensors; *reserved*
bytes are allocated plus cached ones, i.e. what the allocator holds from the OS. Sizes are the
allocator's size classes, so they can exceed the tensors' own byte counts slightly. Tensors of 64
bytes or less keep their bytes next to their bookkeeping instead and are not counted here.
"""
from sprout import _C

__all__ = ["memory_allocated", "max_memory_allocated", "memory_reserved", "memory_stats",
           "reset_peak_memory_stats", "reset_max_memory_allocated", "empty_cache"]


def memory_stats():
    """A dict of the allocator's counters: allocated, peak and cached bytes, OS allocations, cache hits."""
    return dict(_C.allocator_stats())


def memory_allocated():
    """Bytes held by live tensors now."""
    return _C.allocator_stats()["allocated_bytes"]


def max_memory_allocated():
    """The most bytes live tensors held at once since start-up or the last reset_peak_memory_stats()."""
    return _C.allocator_stats()["peak_allocated_bytes"]


def memory_reserved():
    """Bytes the allocator holds from the OS: allocated plus cached for reuse."""
    stats = _C.allocator_stats()
    return stats["allocated_bytes"] + stats["cached_bytes"]


def reset_peak_memory_stats():
    """Starts the peak of max_memory_allocated() again from the bytes allocated now."""
    _C.reset_peak_allocated()


reset_max_memory_allocated = reset_peak_memory_stats


def empty_cache():
    """Returns every cached (free) block to the OS; live tensors are not touched."""
    _C.empty_cache()
