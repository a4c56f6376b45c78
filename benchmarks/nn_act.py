"""Activations, softmax, cross entropy and dropout: milliseconds per call, one thread, best of 5.

    PYTHONPATH=python .venv/bin/python benchmarks/nn_act.py                     # Sprout
    /path/to/bench-venv/bin/python benchmarks/nn_act.py --framework torch       # the same workloads in PyTorch
Inputs are float32: 4M elements for the elementwise ops, (4096, 1000) and (1000, 10) logits for the
softmax family (last axis), (64, 512, 64) for a softmax over a middle axis.
"""
import argparse
import timeit

import numpy as np


def best_ms(fn, min_seconds=0.3):
    fn()
    reps = max(1, int(min_seconds / max(timeit.timeit(fn, number=1), 1e-6)))
    return 1e3 * min(timeit.timeit(fn, number=reps) / reps for _ in range(5))


def arrays():
    rng = np.random.default_rng(0)
    return {"x": rng.standard_normal(4 << 20).astype(np.float32),
            "logits": rng.standard_normal((4096, 1000)).astype(np.float32),
            "small": rng.standard_normal((1000, 10)).astype(np.float32),
            "middle": rng.standard_normal((64, 512, 64)).astype(np.float32),
            "labels": rng.integers(0, 1000, 4096)}


def sprout_workloads(a):
    import sprout as ms
    from sprout import ops
    ms.set_context(runtime_num_threads=1)
    x, lg, sm, mid = (ms.Tensor(a[k]) for k in ("x", "logits", "small", "middle"))
    labels = ms.Tensor(a["labels"], ms.int32)
    return {"relu": lambda: ops.relu(x), "sigmoid": lambda: ops.sigmoid(x), "gelu": lambda: ops.gelu(x),
            "gelu tanh": lambda: ops.gelu(x, approximate="tanh"), "silu": lambda: ops.silu(x),
            "mish": lambda: ops.mish(x), "elu": lambda: ops.elu(x), "softplus": lambda: ops.softplus(x),
            "softmax 4096x1000": lambda: ops.softmax(lg), "log_softmax 4096x1000": lambda: ops.log_softmax(lg),
            "softmax 1000x10": lambda: ops.softmax(sm), "softmax axis 1 of 64x512x64": lambda: ops.softmax(mid, 1),
            "cross_entropy 4096x1000": lambda: ops.cross_entropy(lg, labels),
            "dropout p=0.5": lambda: ops.dropout(x, 0.5)}


def torch_workloads(a):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(1)
    x, lg, sm, mid = (torch.from_numpy(a[k]) for k in ("x", "logits", "small", "middle"))
    labels = torch.from_numpy(a["labels"])
    return {"relu": lambda: torch.relu(x), "sigmoid": lambda: torch.sigmoid(x), "gelu": lambda: F.gelu(x),
            "gelu tanh": lambda: F.gelu(x, approximate="tanh"), "silu": lambda: F.silu(x),
            "mish": lambda: F.mish(x), "elu": lambda: F.elu(x), "softplus": lambda: F.softplus(x),
            "softmax 4096x1000": lambda: torch.softmax(lg, -1), "log_softmax 4096x1000": lambda: torch.log_softmax(lg, -1),
            "softmax 1000x10": lambda: torch.softmax(sm, -1), "softmax axis 1 of 64x512x64": lambda: torch.softmax(mid, 1),
            "cross_entropy 4096x1000": lambda: F.cross_entropy(lg, labels),
            "dropout p=0.5": lambda: F.dropout(x, 0.5)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--framework", choices=("sprout", "torch"), default="sprout")
    args = ap.parse_args()
    work = (sprout_workloads if args.framework == "sprout" else torch_workloads)(arrays())
    print(f"{'workload (' + args.framework + ')':>32} {'ms':>8}")
    for name, fn in work.items():
        print(f"{name:>32} {best_ms(fn):8.3f}")


if __name__ == "__main__":
    main()
