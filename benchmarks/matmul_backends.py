"""Measures Sprout's float32 matmul backends (small_sgemm, OpenBLAS, oneDNN, MKL when installed) per
shape: the data behind the backend choice in src/kernels/cpu/gemm.cc (Note [Matmul backend], Note [MKL at
run time]).

    .venv/bin/python benchmarks/matmul_backends.py
Each backend runs in its own process (the choice is read once from SPROUT_MATMUL_BACKEND).
"""
import os
import subprocess
import sys

SHAPES = [(8, 8, 8), (32, 256, 10), (48, 48, 48), (64, 64, 64), (80, 80, 80), (96, 96, 96), (128, 64, 128),
          (64, 400, 120), (128, 128, 128), (64, 784, 512), (64, 512, 512), (256, 256, 256), (1024, 256, 768),
          (1024, 1024, 256), (1024, 64, 1024), (1024, 1024, 1024)]
# Plain, A transposed (a weight gradient x^T dy), B transposed (an input gradient dy w^T).
TRANSPOSES = {"": (False, False), "A^T": (True, False), "B^T": (False, True)}
CASES = [(shape, t) for shape in SHAPES for t in TRANSPOSES.values()]
BACKENDS = {"small": "small_sgemm", "blas": "OpenBLAS", "onednn": "oneDNN", "mkl": "MKL"}

CHILD = r"""
import json, sys, time
import numpy as np
import sprout as ms
from sprout import ops
out = []
for (m, k, n), (ta, tb) in json.loads(sys.argv[1]):
    a = ms.Tensor(np.random.rand(*((k, m) if ta else (m, k))).astype(np.float32))
    b = ms.Tensor(np.random.rand(*((n, k) if tb else (k, n))).astype(np.float32))
    matmul = ops.MatMul(transpose_a=ta, transpose_b=tb)
    matmul(a, b)
    reps = max(20, int(1e9 / (2 * m * n * k)))
    best = min(_t for _t in (__import__("timeit").timeit(lambda: matmul(a, b), number=reps) / reps
                             for _ in range(5)))
    out.append(best)
print(json.dumps(out))
"""


def main():
    import json
    results = {}
    for backend in BACKENDS:
        env = dict(os.environ, SPROUT_MATMUL_BACKEND=backend)
        proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(CASES)], env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:  # MKL is optional
            print(f"{BACKENDS[backend]}: not measured: {proc.stderr.strip().splitlines()[-1]}")
            continue
        results[backend] = json.loads(proc.stdout)
    print(f"{'m x k x n':>20}" + "".join(f"{BACKENDS[b] + ' GFLOP/s':>17}" for b in results)
          + "".join(f"{BACKENDS[b] + ' us':>13}" for b in results))
    names = [name for _ in SHAPES for name in TRANSPOSES]
    for i, ((m, k, n), _) in enumerate(CASES):
        flops = 2 * m * n * k
        print(f"{f'{m}x{k}x{n} {names[i]}':>20}" + "".join(f"{flops / results[b][i] / 1e9:17.1f}" for b in results)
              + "".join(f"{results[b][i] * 1e6:13.1f}" for b in results))


if __name__ == "__main__":
    main()
