"""Worker process: runs ONE framework, driven over a pipe (JSON lines).

Started by workers.py as
    PYTHON benchmarks/harness/worker.py --framework NAME --threads N
with the PYTHON of that framework's environment (Sprout's .venv, or the
bench venv for peers). Requests and replies, one JSON object per line:

  -> (on start)                                 <- {"ok", "framework", "version"}
  -> {"op": "setup", "workload", "smoke", "target_s", "warmup_s", "files"}
                                                <- {"ok", "repeats", "step_s"}
  -> {"op": "run", "workload", "samples"}       <- {"ok", "times": [s per step]}
  -> {"op": "drop", "workload"}                 <- {"ok"}
  -> {"op": "peak_memory", "workload", "smoke", "files"}
                                                <- {"ok", "peak_bytes"}  (in a fresh worker)
  -> {"op": "quit"}
Any failure replies {"ok": false, "error": "..."} and the worker carries on.

The protocol uses a private copy of the original stdout; fd 1 itself is
pointed at stderr so that whatever a framework prints cannot corrupt it.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from harness import frameworks  # noqa: E402
from harness.registry import load_all  # noqa: E402


def as_numpy(handle, np, result) -> list:
    """A step's result (one tensor or a tuple of them) as a list of arrays."""
    parts = result if isinstance(result, (tuple, list)) else [result]
    return [np.asarray(handle.to_numpy(p)) for p in parts]


def check(np, w, got: list, want) -> None:
    want = list(want) if isinstance(want, (tuple, list)) else [want]
    if len(got) != len(want):
        raise AssertionError(f"wrong result for {w.name}: {len(got)} outputs, "
                             f"expected {len(want)}")
    for i, (g, e) in enumerate(zip(got, want)):
        what = f"{w.name}" + (f" output {i}" if len(want) > 1 else "")
        if g.shape != e.shape:
            raise AssertionError(f"wrong result for {what}: shape {g.shape}, "
                                 f"expected {e.shape}")
        if g.dtype != e.dtype:
            raise AssertionError(f"wrong result for {what}: dtype {g.dtype}, "
                                 f"expected {e.dtype}")
        if not np.allclose(g, e, rtol=w.rtol, atol=w.atol):
            err = np.max(np.abs(g.astype(np.float64) - e))
            raise AssertionError(f"wrong result for {what}: max abs error {err:.3g} "
                                 f"(rtol {w.rtol}, atol {w.atol})")


def _status_bytes(field: str) -> int:
    """A memory figure of /proc/self/status (VmRSS, VmHWM), in bytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"/proc/self/status has no {field}")


def _inputs(np, w, req) -> dict:
    """A workload's inputs; with the folder of files the parent wrote for it, if it reads any."""
    data = w.inputs(np, req["smoke"])
    if w.files:
        data["folder"] = req["files"]
    return data


class Session:
    def __init__(self, handle):
        self.fw = handle
        self.workloads = load_all()
        self.active = {}  # workload name -> (step, repeats)

    def setup(self, req):
        import numpy as np
        w = self.workloads[req["workload"]]
        if self.fw.name not in w.impls:
            raise NotImplementedError(f"{w.name} has no {self.fw.name} implementation")
        data = _inputs(np, w, req)
        step = w.impls[self.fw.name](self.fw.mod, data)
        # Correctness first: a fast wrong answer is not a result.
        if w.check:
            w.check(np, lambda: as_numpy(self.fw, np, step())[0])
        else:
            check(np, w, as_numpy(self.fw, np, step()), w.reference(np, data))
        # Warm-up (caches, allocator pools, lazy init, JIT), each step waited
        # for so an asynchronous framework cannot pile up a queue.
        t_end, n = time.perf_counter() + req["warmup_s"], 0
        while n < 2 or time.perf_counter() < t_end:
            self.fw.sync(step())
            n += 1
        # Calibrate how many steps one sample takes (one sync per sample) so
        # a sample is long against the timer and the sync.
        repeats = 1
        while True:
            dt = self._sample(step, repeats)
            if req["smoke"] or dt >= req["target_s"]:
                break
            grow = 1.05 * req["target_s"] / dt if dt > req["target_s"] / 20 else 20
            repeats = max(repeats + 1, math.ceil(repeats * grow))
        step_s = dt / repeats
        self.active[w.name] = (step, repeats)
        return {"repeats": repeats, "step_s": step_s}

    def run(self, req):
        step, repeats = self.active[req["workload"]]
        times = []
        # As timeit does: no cyclic GC pauses inside a sample, for anyone.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            for _ in range(req["samples"]):
                times.append(self._sample(step, repeats) / repeats)
        finally:
            if gc_was_enabled:
                gc.enable()
        return {"times": times}

    def _sample(self, step, repeats) -> float:
        """Seconds for `repeats` steps, waiting for the last result."""
        t0 = time.perf_counter()
        for _ in range(repeats):
            r = step()
        self.fw.sync(r)
        return time.perf_counter() - t0

    def peak_memory(self, req):
        """How far the process's resident memory rises above where it stood before the model was
        built, over building it and running three steps: weights, optimizer state, activations,
        gradients and whatever the framework caches for them. Meant for a fresh worker, whose
        allocators hold nothing from earlier workloads that the model could reuse unseen."""
        import numpy as np
        w = self.workloads[req["workload"]]
        gc.collect()
        base = _status_bytes("VmRSS")
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # Linux: resets the peak (VmHWM) to the current resident size
        step = w.impls[self.fw.name](self.fw.mod, _inputs(np, w, req))
        for _ in range(3):
            self.fw.sync(step())
        return {"peak_bytes": _status_bytes("VmHWM") - base}

    def drop(self, req):
        self.active.pop(req["workload"], None)
        gc.collect()
        return {}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--framework", required=True, choices=sorted(frameworks.LOADERS))
    ap.add_argument("--threads", type=int, required=True)
    args = ap.parse_args()

    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def reply(obj):
        proto.write(json.dumps(obj) + "\n")
        proto.flush()

    try:
        session = Session(frameworks.load(args.framework, args.threads))
    except BaseException as e:  # noqa: BLE001  (ImportError, OSError, ...)
        reply({"ok": False, "error": f"import failed: {type(e).__name__}: {e}".strip(),
               "traceback": traceback.format_exc()})
        return
    reply({"ok": True, "framework": args.framework, "version": session.fw.version,
           "python": sys.executable, "module": getattr(session.fw.mod, "__file__", None),
           "cpus": sorted(os.sched_getaffinity(0))})

    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "quit":
            break
        try:
            reply({"ok": True, **getattr(session, req["op"])(req)})
        except Exception as e:  # noqa: BLE001
            reply({"ok": False, "error": f"{type(e).__name__}: {e}",
                   "traceback": traceback.format_exc()})


if __name__ == "__main__":
    main()
