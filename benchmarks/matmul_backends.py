"""Measures Sprout's two float32 matmul backends (OpenBLAS, oneDNN) per shape: the data behind the
backend choice in src/kernels/cpu/matmul.cc (Note [Matmul backend]).

    .venv/bin/python benchmarks/matmul_backends.py
Each backend runs in its own process (the choice is read once from SPROUT_MATMUL_BACKEND).
"""
import os
import subprocess
import sys

SHAPES = [(8, 8, 8), (32, 256, 10), (64, 400, 120), (128, 128, 128), (64, 784, 512), (256, 256, 256),
          (1024, 64, 1024), (1024, 1024, 1024)]

CHILD = r"""
import json, sys, time
import numpy as np
import sprout as ms
from sprout import ops
out = []
for m, k, n in json.loads(sys.argv[1]):
    a = ms.Tensor(np.random.rand(m, k).astype(np.float32))
    b = ms.Tensor(np.random.rand(k, n).astype(np.float32))
    ops.matmul(a, b)
    reps = max(20, int(1e9 / (2 * m * n * k)))
    best = min(_t for _t in (__import__("timeit").timeit(lambda: ops.matmul(a, b), number=reps) / reps
                             for _ in range(5)))
    out.append(best)
print(json.dumps(out))
"""


def main():
    import json
    results = {}
    for backend in ("blas", "onednn"):
        env = dict(os.environ, SPROUT_MATMUL_BACKEND=backend)
        proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(SHAPES)], env=env, check=True,
                              capture_output=True, text=True)
        results[backend] = json.loads(proc.stdout)
    print(f"{'m x k x n':>20} {'OpenBLAS GFLOP/s':>17} {'oneDNN GFLOP/s':>15} {'OpenBLAS us':>12} {'oneDNN us':>10}")
    for i, (m, k, n) in enumerate(SHAPES):
        flops = 2 * m * n * k
        tb, to = results["blas"][i], results["onednn"][i]
        print(f"{f'{m}x{k}x{n}':>20} {flops / tb / 1e9:17.1f} {flops / to / 1e9:15.1f} {tb * 1e6:12.1f} {to * 1e6:10.1f}")


if __name__ == "__main__":
    main()
