"""The MNIST set-up script writes valid IDX files (checked on a tiny CSV made here)."""
import gzip
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import fetch_mnist  # noqa: E402


def test_convert_csv_writes_idx(tmp_path):
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, (10, 784))
    labels = np.arange(10)
    csv = "\n".join(",".join(map(str, list(p) + [l])) for p, l in zip(pixels, labels)).encode()
    fetch_mnist.convert_csv(gzip.compress(csv), str(tmp_path), n_train=7)
    raw = open(tmp_path / "train-images-idx3-ubyte", "rb").read()
    assert struct.unpack(">IIII", raw[:16]) == (0x803, 7, 28, 28) and len(raw) == 16 + 7 * 784
    lab = open(tmp_path / "t10k-labels-idx1-ubyte", "rb").read()
    assert struct.unpack(">II", lab[:8]) == (0x801, 3)
    train_labels = np.frombuffer(open(tmp_path / "train-labels-idx1-ubyte", "rb").read()[8:], np.uint8)
    all_labels = sorted(list(train_labels) + list(np.frombuffer(lab[8:], np.uint8)))
    assert all_labels == list(range(10))  # every row lands in exactly one split
    images = np.frombuffer(raw[16:], np.uint8).reshape(7, 784)
    for img, label in zip(images, train_labels):
        np.testing.assert_array_equal(img, pixels[label])  # pixels stay with their label
