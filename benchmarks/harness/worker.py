"""Worker process: runs ONE framework, driven over a pipe (JSON lines).

Started by workers.py as
    PYTHON benchmarks/harness/worker.py --framework NAME --threads N
with the PYTHON of that framework's environment (Sprout's .venv, or the
bench venv for peers). Requests and replies, one JSON object per line:

  -> (on start)                                 <- {"ok", "framework", "version"}
  -> {"op": "setup", "workload", "smoke", "target_s", "warmup_s"}
                                                <- {"ok", "repeats", "step_s"}
  -> {"op": "run", "workload", "samples"}       <- {"ok", "times": [s per step]}
  -> {"op": "drop", "workload"}                 <- {"ok"}
  -> {"op": "quit"}
Any failure replies {"ok": false, "error": "..."} and the worker carries on.

The protocol uses a private copy of the original stdout; fd 1 itself is
pointed at stderr so that whatever a framework prints cannot corrupt it.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from harness import frameworks  # noqa: E402
from harness.registry import load_all  # noqa: E402


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
        data = w.inputs(np, req["smoke"])
        step = w.impls[self.fw.name](self.fw.mod, data)
        # Correctness first: a fast wrong answer is not a result.
        got = np.asarray(self.fw.to_numpy(step()))
        want = w.reference(np, data)
        if got.shape != want.shape or not np.allclose(got, want, rtol=w.rtol, atol=w.atol):
            raise AssertionError(f"wrong result for {w.name}: shape {got.shape} vs "
                                 f"{want.shape}, max abs err "
                                 f"{np.max(np.abs(got.astype(np.float64) - want)) if got.shape == want.shape else 'n/a'}")
        # Warm-up (caches, allocator pools, lazy init, JIT), then calibrate how
        # many steps one sample takes so it is long against the timer.
        t_end = time.perf_counter() + req["warmup_s"]
        n, t0 = 0, time.perf_counter()
        while True:
            step()
            n += 1
            if time.perf_counter() >= t_end and n >= 2:
                break
        step_s = (time.perf_counter() - t0) / n
        repeats = 1 if req["smoke"] else max(1, round(req["target_s"] / step_s))
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
                t0 = time.perf_counter()
                for _ in range(repeats):
                    step()
                times.append((time.perf_counter() - t0) / repeats)
        finally:
            if gc_was_enabled:
                gc.enable()
        return {"times": times}

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
           "python": sys.executable, "cpus": sorted(os.sched_getaffinity(0))})

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
