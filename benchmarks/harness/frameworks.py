"""How each framework is imported and pinned to N threads (worker side).

Pinning happens in three layers because each framework listens to a
different one: the CPU affinity mask (honoured by every thread pool that
sizes itself from the usable CPUs, e.g. XLA's), the OpenMP/BLAS environment
variables (read once, at import, by libgomp, MKL, OpenBLAS), and the
framework's own setting (torch.set_num_threads, set_context(...)).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

THREAD_ENV = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
              "BLIS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def _no_wait(result) -> None:
    """Sprout, NumPy and PyTorch (CPU) finish an op before it returns."""


@dataclass
class Handle:
    name: str
    mod: object                 # what the workload implementations receive
    version: str
    to_numpy: Callable          # framework result -> numpy array (checks only)
    # Waits until `result` (and all work queued before it) is computed. The
    # worker calls it once per timed sample, as a throughput loop would, not
    # per op: MindSpore's wait alone costs about a millisecond here.
    sync: Callable = _no_wait


def pin_threads(threads: int) -> None:
    """Must run before the framework is imported."""
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, cpus[:threads])
    for var in THREAD_ENV:
        os.environ[var] = str(threads)


def _sprout(threads: int) -> Handle:
    import sprout as ms
    ms.set_context(runtime_num_threads=threads)
    return Handle("sprout", ms, getattr(ms, "__version__", "unknown"),
                  lambda t: t.asnumpy())


def _sprout_graph(threads: int) -> Handle:
    # The same Sprout with Cells compiled (GRAPH_MODE is process-wide context: a process of its own).
    h = _sprout(threads)
    h.mod.set_context(mode=h.mod.GRAPH_MODE)
    h.name = "sprout_graph"
    return h


def _numpy(threads: int) -> Handle:
    import numpy as np
    return Handle("numpy", np, np.__version__, lambda a: a)


def _torch(threads: int) -> Handle:
    import torch
    torch.set_num_threads(threads)
    return Handle("torch", torch, torch.__version__, lambda t: t.numpy())


def _torch_compile(threads: int) -> Handle:
    # The same torch; its workloads wrap their step in torch.compile. A
    # process of its own so that compiling (threads, caches) cannot disturb
    # the eager measurements.
    h = _torch(threads)
    h.name = "torch_compile"
    return h


def _jax(threads: int) -> Handle:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import numpy as np
    # block_until_ready on the pytree: a step may return a tuple.
    return Handle("jax", jax, jax.__version__, np.asarray, jax.block_until_ready)


def _mindspore(threads: int, graph: bool = False) -> Handle:
    import mindspore as ms
    # PyNative is MindSpore's eager mode, the one comparable to Sprout's;
    # GRAPH_MODE (compiled Cells) is a process of its own because the mode
    # is process-wide context.
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE, device_target="CPU",
                   runtime_num_threads=threads)
    try:  # what Tensor.asnumpy() waits on, without its copy; private API
        from mindspore.common.api import _pynative_executor
        wait = lambda r: _pynative_executor.sync()  # noqa: E731
    except ImportError:
        wait = lambda r: r.asnumpy()  # noqa: E731
    return Handle("mindspore_graph" if graph else "mindspore", ms, ms.__version__,
                  lambda t: t.asnumpy(), wait)


LOADERS = {"sprout": _sprout, "sprout_graph": _sprout_graph, "numpy": _numpy, "torch": _torch,
           "torch_compile": _torch_compile, "jax": _jax, "mindspore": _mindspore,
           "mindspore_graph": lambda threads: _mindspore(threads, graph=True)}
# Display names, in the order frameworks appear in reports.
TITLES = {"sprout": "Sprout", "sprout_graph": "Sprout GRAPH_MODE", "numpy": "NumPy", "torch": "PyTorch",
          "torch_compile": "PyTorch torch.compile", "jax": "JAX", "mindspore": "MindSpore",
          "mindspore_graph": "MindSpore GRAPH_MODE"}
PEERS = ("sprout_graph", "numpy", "torch", "torch_compile", "jax", "mindspore", "mindspore_graph")
# A variant runs in its base peer's environment, and only on the workloads
# that implement it (its absence elsewhere is not news).
VARIANT_OF = {"sprout_graph": "sprout", "torch_compile": "torch", "mindspore_graph": "mindspore"}


def load(name: str, threads: int) -> Handle:
    pin_threads(threads)
    return LOADERS[name](threads)
