"""The examples run end to end on a few batches of generated digits (the real ones are fetched by `make demo`)."""
import os
import sys

import numpy as np
import pytest

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import fetch_mnist  # noqa: E402


@pytest.fixture(scope="module")
def digits(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mnist")
    rng = np.random.default_rng(0)
    for prefix, n in (("train", 256), ("t10k", 128)):
        labels = rng.integers(0, 10, n)
        images = np.zeros((n, 28, 28), np.uint8)
        for i, label in enumerate(labels):  # a learnable pattern: a bright bar whose row is the label
            images[i, 2 + 2 * label:4 + 2 * label, 4:24] = 255
        (folder / f"{prefix}-images-idx3-ubyte").write_bytes(fetch_mnist.idx_images(images))
        (folder / f"{prefix}-labels-idx1-ubyte").write_bytes(fetch_mnist.idx_labels(labels))
    return str(folder)


def test_lenet_mnist_runs(digits, capsys):
    import lenet_mnist
    accuracy = lenet_mnist.main(["--epochs", "1", "--max-steps", "3", "--data", digits])
    out = capsys.readouterr().out
    assert 0.0 <= accuracy <= 1.0 and "held-out accuracy" in out and "predicted" in out


def test_quick_start_runs(digits, capsys):
    import quick_start
    accuracy = quick_start.main(["--epochs", "1", "--max-steps", "3", "--data", digits])
    assert 0.0 <= accuracy <= 1.0 and "Test: accuracy" in capsys.readouterr().out


def test_data_parallel_lenet_runs_on_two_ranks(digits, tmp_path):
    from mpi_launch import run_mpi
    model = str(tmp_path / "lenet.mindir")
    done = run_mpi([sys.executable, os.path.join(ROOT, "examples", "data_parallel_lenet.py"), "--epochs", "1",
                    "--max-steps", "3", "--data", digits, "--export", model])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 ranks trained 1 epochs" in done.stdout and f"exported {model}" in done.stdout
    assert os.path.getsize(model) > 61706 * 4


def test_model_parallel_mlp_runs_on_two_ranks(digits):
    from mpi_launch import run_mpi
    done = run_mpi([sys.executable, os.path.join(ROOT, "examples", "model_parallel_mlp.py"), "--max-steps", "3",
                    "--data", digits])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 ranks trained 1 epochs" in done.stdout and "layers sharded" in done.stdout
