"""``ms.Profiler``: where the time goes, op by op (MindSpore's Profiler, on the CPU).

    profiler = ms.Profiler(output_path="./data")
    model.train(...)          # or any eager / compiled code
    profiler.analyse()        # writes <output_path>/profiler/op_statistics.csv, prints the top ops

Every op run by eager dispatch or by a compiled graph's VM (fused elementwise groups as one entry) is
timed while the profiler is on; off, an op pays one relaxed atomic load.
"""
import os
import tempfile

from sprout import _C


class Profiler:
    def __init__(self, output_path="./data", profile_memory=False, start_profile=True, **kwargs):
        if not isinstance(output_path, str):
            raise TypeError(f"Profiler: 'output_path' must be a str, but got {type(output_path).__name__}")
        if not isinstance(start_profile, bool):
            raise TypeError(f"Profiler: 'start_profile' must be a bool, but got {type(start_profile).__name__}")
        self.output_path = output_path
        self.profile_memory = profile_memory
        self._running = False
        _C.clear_op_profile()
        if start_profile:
            self.start()

    def start(self):
        _C.set_op_profiling(True)
        self._running = True

    def stop(self):
        _C.set_op_profiling(False)
        self._running = False

    def op_statistics(self):
        """[{op, calls, total_ms, avg_us, percent}], most time first."""
        rows = _C.op_profile()
        total = sum(ns for _, _, ns in rows) or 1
        return [{"op": name, "calls": calls, "total_ms": ns / 1e6, "avg_us": ns / calls / 1e3,
                 "percent": 100.0 * ns / total} for name, calls, ns in rows]

    def analyse(self, top=20):
        """Stops profiling, writes op_statistics.csv (atomically) and prints the `top` ops."""
        self.stop()
        stats = self.op_statistics()
        folder = os.path.join(self.output_path, "profiler")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "op_statistics.csv")
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".op_statistics.")
        with os.fdopen(fd, "w") as f:
            f.write("op,calls,total_ms,avg_us,percent\n")
            for s in stats:
                f.write(f"\"{s['op']}\",{s['calls']},{s['total_ms']:.4f},{s['avg_us']:.3f},{s['percent']:.2f}\n")
        os.replace(tmp, path)
        print(f"{'op':<40} {'calls':>8} {'total ms':>10} {'avg us':>10} {'%':>6}")
        for s in stats[:top]:
            print(f"{s['op'][:40]:<40} {s['calls']:>8} {s['total_ms']:>10.3f} {s['avg_us']:>10.2f} {s['percent']:>6.1f}")
        print(f"written to {path}")
        return stats
