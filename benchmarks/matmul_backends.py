"""Measures Sprout's float32 matmul backends (small_sgemm, OpenBLAS, oneDNN, MKL when installed) per
shape: the data behind the backend choice in src/kernels/cpu/gemm.cc (Note [Matmul backend], Note [MKL at
run time]).

    .venv/bin/python benchmarks/matmul_backends.py [--rounds N] [--shapes 512x64x784,64x512x512]

All backends run in one process, switched by _C.set_matmul_backend and interleaved round by round (A B C
A B C ...), so a drift of the host's speed moves every column alike; each cell is the median over the
rounds of a round's best of three timings, and "auto" is the choice Sprout makes unasked.
"""
import argparse
import statistics
import sys
import timeit

import numpy as np

import sprout as ms
from sprout import _C, ops

SHAPES = [(8, 8, 8), (32, 256, 10), (48, 48, 48), (64, 64, 64), (80, 80, 80), (96, 96, 96), (128, 64, 128),
          (64, 400, 120), (128, 128, 128), (64, 784, 512), (64, 512, 512), (256, 256, 256), (1024, 256, 768),
          (1024, 1024, 256), (1024, 64, 1024), (1024, 1024, 1024)]
# Plain, A transposed (a weight gradient x^T dy), B transposed (an input gradient dy w^T).
TRANSPOSES = {"": (False, False), "A^T": (True, False), "B^T": (False, True)}
BACKENDS = {"auto": "auto", "small": "small_sgemm", "blas": "OpenBLAS", "onednn": "oneDNN", "mkl": "MKL"}


def seconds_per_call(fn, reps: int) -> float:
    return min(timeit.timeit(fn, number=reps) / reps for _ in range(3))


def measure(m, k, n, ta, tb, backends, rounds) -> dict:
    rng = np.random.default_rng(0)
    a = ms.Tensor(rng.random((k, m) if ta else (m, k), dtype=np.float32))
    b = ms.Tensor(rng.random((n, k) if tb else (k, n), dtype=np.float32))
    matmul = ops.MatMul(transpose_a=ta, transpose_b=tb)
    reps = max(20, int(2e8 / (2 * m * n * k)))
    times = {name: [] for name in backends}
    for _ in range(rounds):
        for name in backends:
            _C.set_matmul_backend(name)
            matmul(a, b)  # warm: the backend's primitive or packed buffers
            times[name].append(seconds_per_call(lambda: matmul(a, b), reps))
    _C.set_matmul_backend("auto")
    return {name: statistics.median(t) for name, t in times.items()}


def parse_shapes(text: str) -> list:
    try:
        shapes = [tuple(int(v) for v in item.split("x")) for item in text.split(",")]
    except ValueError:
        shapes = []
    if not shapes or any(len(s) != 3 or min(s) < 1 for s in shapes):
        raise argparse.ArgumentTypeError(f"expected products like 64x784x512,128x64x128, got {text!r}")
    return shapes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--shapes", type=parse_shapes, default=SHAPES,
                    help="comma-separated m x k x n products instead of the built-in list, e.g. 64x784x512")
    args = ap.parse_args()
    backends = [b for b in BACKENDS if b != "mkl" or _C.mkl_status().startswith("MKL")]
    if "mkl" not in backends:
        print(f"MKL: not measured: {_C.mkl_status()}")
    print(f"{'m x k x n':>20}" + "".join(f"{BACKENDS[b] + ' GFLOP/s':>17}" for b in backends)
          + "".join(f"{BACKENDS[b] + ' us':>14}" for b in backends))
    for m, k, n in args.shapes:
        for label, (ta, tb) in TRANSPOSES.items():
            t = measure(m, k, n, ta, tb, backends, args.rounds)
            flops = 2 * m * n * k
            print(f"{f'{m}x{k}x{n} {label}':>20}" + "".join(f"{flops / t[b] / 1e9:17.1f}" for b in backends)
                  + "".join(f"{t[b] * 1e6:14.1f}" for b in backends), flush=True)


if __name__ == "__main__":
    sys.exit(main())
