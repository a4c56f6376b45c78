"""The workload table.

A Workload says what is measured and how a step's time turns into the
reported metric; its per-framework implementations are small functions
registered with @WORKLOAD.impl("torch"). An implementation gets the
framework's module and the input arrays (NumPy, identical for every
framework) and returns a zero-argument `step` callable that does the work
once and returns its last result (a tensor, or a tuple of tensors). The
worker waits for that result at the end of each timed sample
(frameworks.Handle.sync: JAX and MindSpore run ops asynchronously).

Before timing, the worker checks the result: against `reference` (the
expected result of one step, computed with NumPy), or, where no reference
can exist, with `check`. A training step is the case: each framework
initializes its weights its own way, so losses are not comparable across
frameworks; `check(np, next_result)` gets a callable that runs one more
step and returns its result as NumPy, and raises AssertionError if the
steps do not behave (e.g. the loss is not finite or does not decrease).

Kinds of metric:
  latency    microseconds per op   (amount = ops per step; lower is better)
  bandwidth  GB/s of useful bytes  (amount = bytes per step; higher is better)
  flops      GFLOP/s               (amount = FLOPs per step; higher is better)
  step       milliseconds per step (amount = steps per step call, usually 1)
  throughput rows per second       (amount = rows per step; higher is better)

A workload reading files (the data pipelines) names a `files(folder, smoke)`
function: the parent calls it once per run to write them into an empty
folder, and every worker's inputs get that folder as d["folder"], so all
frameworks read the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

KINDS = {
    "latency": ("us/op", "lower"),
    "bandwidth": ("GB/s", "higher"),
    "flops": ("GFLOP/s", "higher"),
    "step": ("ms/step", "lower"),
    "throughput": ("rows/s", "higher"),
}


@dataclass
class Goal:
    """A target ratio against one peer, e.g. Sprout <= 0.5 x PyTorch's time."""
    peer: str
    max_time_ratio: float  # Sprout time / peer time must not exceed this
    text: str


@dataclass
class Workload:
    name: str
    kind: str                       # key of KINDS
    doc: str                        # one line: what and how bytes/FLOPs are counted
    inputs: Callable                # (np, smoke) -> dict of arrays (float32 data)
    amount: Callable                # (smoke) -> ops / bytes / FLOPs per step
    reference: Optional[Callable] = None  # (np, inputs) -> expected result of one step
    check: Optional[Callable] = None      # (np, next_result) -> None, or AssertionError
    triad_elems: Optional[int] = None  # bandwidth: compare with triad of this size
    goal: Optional[Goal] = None
    peak_memory: bool = False  # also report each framework's peak memory (fresh worker, see worker.py)
    files: Optional[Callable] = None  # (folder, smoke) -> None: writes the files the workload reads
    rtol: float = 1e-5
    atol: float = 1e-6
    impls: dict = field(default_factory=dict)

    @property
    def unit(self) -> str:
        return KINDS[self.kind][0]

    @property
    def lower_is_better(self) -> bool:
        return KINDS[self.kind][1] == "lower"

    def metric(self, seconds_per_step: float, smoke: bool = False) -> float:
        amount = self.amount(smoke)
        if self.kind == "latency":
            return seconds_per_step / amount * 1e6
        if self.kind == "step":
            return seconds_per_step / amount * 1e3
        if self.kind == "throughput":
            return amount / seconds_per_step
        return amount / seconds_per_step / 1e9

    def impl(self, *frameworks: str):
        """Registers fn for each framework named (e.g. "mindspore" and
        "mindspore_graph" when one Cell-based function serves both modes)."""
        def register(fn):
            for framework in frameworks:
                self.impls[framework] = fn
            return fn
        return register


WORKLOADS: dict[str, Workload] = {}


def workload(**kwargs) -> Workload:
    w = Workload(**kwargs)
    if (w.reference is None) == (w.check is None):
        raise ValueError(f"workload {w.name} needs exactly one of reference, check")
    if w.name in WORKLOADS:
        raise ValueError(f"workload {w.name} registered twice")
    WORKLOADS[w.name] = w
    return w


def load_all() -> dict[str, Workload]:
    """Imports every workload module (they register themselves), in order."""
    from .workloads import ALL_MODULES  # noqa: F401  (import registers)
    return WORKLOADS
