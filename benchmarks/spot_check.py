"""What the spot-check scripts (layers_vs_torch.py, half_precision.py) share: a framework's half runs in a
child process, Sprout from this environment and PyTorch from the peers' venv (benchmarks/peers_env.sh)."""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_child(python, child, args, env, label):
    """The JSON that `child` (a script run by `python` with `args`) prints on its last line."""
    result = subprocess.run([python, "-c", child, *args], capture_output=True, text=True, env=env)
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
