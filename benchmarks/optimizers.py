"""The optimizer update kernels (src/kernels/cpu/optim_simd.cc) on one float32 parameter of 256K elements.

    PYTHONPATH=python .venv/bin/python benchmarks/optimizers.py

Microseconds per update, best of 7 runs of 500; every state is in L2 or L3. Measured 2026-11-27 on the
2-vCPU Intel Xeon (Emerald Rapids, AVX-512), two threads, before (the baseline build's SSE2 loops, sqrt
and division one lane at a time) and after the Highway loops:
    Momentum 59.5 -> 41.0, GradientDescent 31.3 -> 20.0, AdamWeightDecay 442 -> 91, RMSProp 396 -> 84,
    CenteredRMSProp 402 -> 110, Adagrad 310 -> 74, Lamb 1133 -> 169 (two passes: the trust ratio needs
    both norms first). Adam was already vectorized.
The ones with a square root and a division are now bound by those (AVX-512 vsqrtps and vdivps issue one
vector every several cycles), the others by the caches. At the nn level the optimizers that were built
from elementwise ops now call these fused ops; one step over 4.2M parameters in 20 tensors, ms:
    AdamW 17.0 -> 1.9, RMSProp 12.5 -> 1.7, centered 18.7 -> 2.1, Adagrad 7.8 -> 1.2, Lamb 17.1 -> 2.7,
    SGD with momentum 12.2 -> 1.8 (through the new ops.SGD; with nesterov and weight decay 15.5 -> 1.8),
    Adamax 13.0 -> 1.5 and Adadelta 20.1 -> 1.8 (through the new ApplyAdaMax and ApplyAdadelta)
    (Adam 1.6, Momentum 1.2).
"""
import timeit

import numpy as np

import sprout as ms
from sprout import ops

N = 256 * 1024


def best_us(fn, number, repeat):
    fn()
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main(n=N, number=500, repeat=7):
    """Prints each update's time; returns {name: microseconds}."""
    rng = np.random.default_rng(0)
    state = lambda: ms.Parameter(ms.Tensor(rng.uniform(0.5, 1.5, n).astype(np.float32)))  # noqa: E731
    var, s1, s2, s3 = state(), state(), state(), state()
    g = ms.Tensor(rng.standard_normal(n).astype(np.float32))
    updates = {
        "Momentum": lambda: ops.ApplyMomentum()(var, s1, 0.01, g, 0.9),
        "GradientDescent": lambda: ops.ApplyGradientDescent()(var, 0.01, g),
        "SGD": lambda: ops.SGD(weight_decay=1e-4, nesterov=True)(var, g, 0.01, s1, 0.9, s2),
        "Adam": lambda: ops.Adam()(var, s1, s2, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, g),
        "AdamWeightDecay": lambda: ops.AdamWeightDecay()(var, s1, s2, 0.01, 0.9, 0.999, 1e-8, 0.01, g),
        "RMSProp": lambda: ops.ApplyRMSProp()(var, s1, s2, 0.01, g, 0.9, 0.0, 1e-6),
        "CenteredRMSProp": lambda: ops.ApplyCenteredRMSProp()(var, s1, s2, s3, g, 0.9, 0.0, 1e-6, 0.01),
        "Adagrad": lambda: ops.ApplyAdagrad()(var, s1, 0.01, g),
        "AdaMax": lambda: ops.ApplyAdaMax()(var, s1, s2, 0.5, 0.01, 0.9, 0.999, 1e-8, g),
        "Adadelta": lambda: ops.ApplyAdadelta()(var, s1, s2, 1.0, 0.9, 1e-6, g),
        "Lamb": lambda: ops.Lamb()(var, s1, s2, 0.01, 0.9, 0.999, 1e-6, 0.01, 2.0, g),
    }
    times = {name: best_us(fn, number, repeat) for name, fn in updates.items()}
    for name, us in times.items():
        print(f"{name:>16} {us:8.1f} us")
    return times


if __name__ == "__main__":
    main()
