"""Conv2D forward and backward throughput at two reference shapes (Note [Conv2D backends]).

    PYTHONPATH=python .venv/bin/python benchmarks/nn_conv.py
LeNet's first layer (N=64, 1x32x32 -> 6, k5) and a ResNet-18 stage-1 layer (N=32, 64x56x56 -> 64, k3,
pad 1), float32. GFLOP/s counts 2 * multiply-adds; best of 5 repeats.

Measured 2026-11-22 on the shared 2-core AMD EPYC (AVX-512) machine, best runs at low load (other jobs
running; numbers at load > 3 are 2-3x worse):
    forward           2 threads         1 thread
    LeNet conv1       1.9 ms,   8 GF/s  0.63 ms,  24 GF/s   (oneDNN jit:avx512, dst reordered from nChw16c)
    ResNet-18 conv    44 ms,  168 GF/s  78 ms,    95 GF/s
    ResNet-18 backprop input 146 GF/s, backprop filter 111 GF/s (2 threads).
"""
import timeit

import numpy as np

import sprout as ms
from sprout import ops

SHAPES = {  # name: (x shape, w shape, padding)
    "LeNet conv1": ((64, 1, 32, 32), (6, 1, 5, 5), 0),
    "ResNet-18 conv": ((32, 64, 56, 56), (64, 64, 3, 3), 1),
}


def best_seconds(fn, min_seconds=0.5):
    fn()
    reps = max(1, int(min_seconds / max(timeit.timeit(fn, number=1), 1e-6)))
    return min(timeit.timeit(fn, number=reps) / reps for _ in range(5))


def main():
    rng = np.random.default_rng(0)
    print(f"{'shape':>16} {'pass':>16} {'ms':>8} {'GFLOP/s':>8}")
    for name, (xs, ws, pad) in SHAPES.items():
        x = ms.Tensor(rng.standard_normal(xs), ms.float32)
        w = ms.Tensor(rng.standard_normal(ws), ms.float32)
        mode = "pad" if pad else "valid"
        conv = ops.Conv2D(ws[0], ws[2:], pad_mode=mode, pad=pad)
        y = conv(x, w)
        dgrad = ops.Conv2DBackpropInput(ws[0], ws[2:], pad_mode=mode, pad=pad)
        wgrad = ops.Conv2DBackpropFilter(ws[0], ws[2:], pad_mode=mode, pad=pad)
        flops = 2.0 * np.prod(y.shape) * np.prod(ws[1:])
        passes = {"forward": lambda: conv(x, w), "backprop input": lambda: dgrad(y, w, xs),
                  "backprop filter": lambda: wgrad(y, x, ws)}
        for label, fn in passes.items():
            t = best_seconds(fn)
            print(f"{name:>16} {label:>16} {t * 1e3:8.2f} {flops / t / 1e9:8.1f}")


if __name__ == "__main__":
    main()
