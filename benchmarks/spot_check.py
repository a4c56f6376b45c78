"""What the spot-check scripts (layers_vs_torch.py, half_precision.py) share: a framework's half runs in a
child process, Sprout from this environment and PyTorch from the peers' venv (benchmarks/peers_env.sh)."""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# The start of every child script: its imports, a seeded generator, and best(f, n, warmup): the best of 5
# runs of n calls of f, in ms per call, after `warmup` calls.
CHILD_PRELUDE = r'''
import json, sys, time
import numpy as np
rng = np.random.default_rng(0)

def best(f, n=20, warmup=3):
    for _ in range(warmup): f()
    times = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n): f()
        times.append((time.perf_counter() - t) / n * 1e3)
    return min(times)
'''


def run_child(python, child, args, env, label):
    """The JSON that `child` (a script run by `python` with `args`, after CHILD_PRELUDE) prints on its last
    line."""
    result = subprocess.run([python, "-c", CHILD_PRELUDE + child, *args], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"{label} failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def pythons_and_env(description):
    """(Sprout's python, PyTorch's python, the children's environment: two threads, Sprout importable)
    from the command line (--bench-venv)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bench-venv", default=os.path.join(ROOT, ".bench-venv"))
    args = parser.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="2", PYTHONPATH=os.path.join(ROOT, "python"))
    return sys.executable, os.path.join(args.bench_venv, "bin", "python"), env
