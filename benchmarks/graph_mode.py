"""Graph mode vs PYNATIVE on the same machine, same run (issue 4's speed goals).

  chain100   100 tiny elementwise ops on a (4,) tensor: eager dispatch vs one compiled Program
  lenet_compile  compile time of a LeNet-5 forward (staging + passes + lowering), first call
  xyz_4M     x*y+z over 4M floats: eager (two ops) vs compiled (one fused pass, Note [Elementwise fusion])

    python benchmarks/graph_mode.py
"""
import importlib.util
import pathlib
import statistics
import time

import numpy as np

import sprout as ms
from sprout import Tensor


def median_time(fn, repeat=30, number=20):
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def chain(x):
    for i in range(50):
        x = x * 1.0001
        x = x + 0.5
    return x


def xyz(x, y, z):
    return x * y + z


def main():
    small = Tensor(np.ones(4, np.float32))
    compiled_chain = ms.jit(chain)
    eager_us = median_time(lambda: chain(small)) * 1e6
    graph_us = median_time(lambda: compiled_chain(small)) * 1e6
    print(f"chain100: PYNATIVE {eager_us:.1f} us, graph {graph_us:.1f} us, speed-up {eager_us / graph_us:.1f}x")

    path = pathlib.Path(__file__).resolve().parents[1] / "examples" / "lenet_mnist.py"
    spec = importlib.util.spec_from_file_location("lenet_mnist", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    compile_ms = []
    for _ in range(5):
        net = module.LeNet5()
        ms.set_context(mode=ms.GRAPH_MODE)
        net(Tensor(np.zeros((32, 1, 32, 32), np.float32)))
        ms.set_context(mode=ms.PYNATIVE_MODE)
        compile_ms.append(next(iter(net._jit_construct._cache.values())).compile_ms)
    print(f"lenet_compile: median {statistics.median(compile_ms):.1f} ms (5 compilations)")

    big = [Tensor(np.random.rand(4 * 1024 * 1024).astype(np.float32)) for _ in range(3)]
    compiled_xyz = ms.jit(xyz)
    e = median_time(lambda: xyz(*big), repeat=10, number=5) * 1e3
    g = median_time(lambda: compiled_xyz(*big), repeat=10, number=5) * 1e3
    gbs = 4 * 4 * 1024 * 1024 * 4 / (g * 1e-3) / 1e9
    print(f"xyz_4M: PYNATIVE {e:.2f} ms, graph {g:.2f} ms ({gbs:.1f} GB/s counting 4 arrays once)")


if __name__ == "__main__":
    main()
