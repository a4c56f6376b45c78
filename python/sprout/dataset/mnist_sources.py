"""The MNIST family beyond MNIST itself: Fashion-MNIST, KMNIST and EMNIST (IDX files, read by the engine's
MNIST reader), QMNIST (IDX with int32 label matrices), USPS (libsvm text) and SEMEION (text).

Rows as MindSpore 2.10 gives them: image (H, W, 1) uint8 and a scalar label, with labels int32 rather
than uint32 (loader_base.py says why). Like MindSpore, usage=None/'all' reads the files in sorted name
order (test before train) for the IDX datasets.
"""
import bz2
import os

import numpy as np

from sprout.dataset.datasets import _E
from sprout.dataset.file_sources import _FileSource, _check_dir, _check_usage, _existing
from sprout.dataset.loader_base import ArraySource, _BlockSampler, Shuffle, check_bool, split_shuffle


class _IdxPairsDataset(_FileSource):
    """IDX image/label file pairs named ``{prefix}-images-idx3-ubyte`` / ``{prefix}-labels-idx1-ubyte``."""

    column_names = ("image", "label")
    _api = None
    _prefixes = {"train": "train", "test": "t10k"}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir(self._api, dataset_dir)
        self.usage = _check_usage(self._api, usage, ("train", "test", "all"))
        self._where = f"dataset_dir='{self.dataset_dir}', usage='{self.usage}'"
        super().__init__(self._api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _load(self):
        usages = ["test", "train"] if self.usage == "all" else [self.usage]
        prefixes = sorted(self._prefixes[u] for u in usages)  # MindSpore reads them in sorted name order
        pairs = [(_existing(self._api, os.path.join(self.dataset_dir, f"{p}-images-idx3-ubyte")),
                  _existing(self._api, os.path.join(self.dataset_dir, f"{p}-labels-idx1-ubyte"))) for p in prefixes]
        try:
            return _E.mnist_source(pairs)
        except RuntimeError as e:  # the engine's reader names MnistDataset in its messages
            raise RuntimeError(str(e).replace("MnistDataset:", f"{self._api}:", 1)) from None


class FashionMnistDataset(_IdxPairsDataset):
    """Fashion-MNIST (Zalando's 28x28 article images) from its IDX files, named as MNIST's.
    Rows: image (28, 28, 1) uint8, label int32."""

    _api = "FashionMnistDataset"


class KMnistDataset(_IdxPairsDataset):
    """KMNIST (Kuzushiji-MNIST, 28x28 cursive Japanese characters) from its IDX files, named as MNIST's.
    Rows: image (28, 28, 1) uint8, label int32."""

    _api = "KMnistDataset"


EMNIST_NAMES = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")


class EMnistDataset(_IdxPairsDataset):
    """EMNIST (Extended MNIST) split ``name`` from its IDX files ``emnist-{name}-{train,test}-...``.
    Rows: image (28, 28, 1) uint8 (as the files store it: transposed against MNIST), label int32."""

    _api = "EMnistDataset"

    def __init__(self, dataset_dir, name, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        if name not in EMNIST_NAMES:
            raise ValueError(f"EMnistDataset: 'name' must be one of {list(EMNIST_NAMES)}, but got {name!r}")
        self.name = name
        self._prefixes = {"train": f"emnist-{name}-train", "test": f"emnist-{name}-test"}
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)


def _read_idx(api, path, expected_type, ndim):
    """An IDX file (big-endian header: 0, 0, type code, number of dimensions; the sizes; the data) -> array."""
    with open(_existing(api, path), "rb") as f:
        data = f.read()
    header = 4 + 4 * ndim
    if len(data) < header or data[:2] != b"\0\0" or data[2] != expected_type or data[3] != ndim:
        raise RuntimeError(f"{api}: '{path}' is not an IDX file of {ndim} dimensions of type 0x{expected_type:02X} "
                           f"(its first bytes are {data[:4].hex()})")
    shape = tuple(int(d) for d in np.frombuffer(data, ">u4", ndim, 4))
    dtype = {0x08: np.uint8, 0x0C: np.dtype(">i4")}[expected_type]
    count = int(np.prod(shape))
    if len(data) < header + count * np.dtype(dtype).itemsize:
        raise RuntimeError(f"{api}: '{path}' is truncated: its header says shape {shape} but the file has "
                           f"{len(data) - header} bytes of data")
    return np.frombuffer(data, dtype, count, header).reshape(shape)


QMNIST_USAGES = ("train", "test", "test10k", "test50k", "nist", "all")


class QMnistDataset(ArraySource):
    """QMNIST from its IDX files (qmnist-{train,test}-images-idx3-ubyte, qmnist-*-labels-idx2-int, and
    xnist-* for usage='nist'). Rows: image (28, 28, 1) uint8, label int32: the class (``compat=True``) or
    QMNIST's 8 label fields (``compat=False``). 'test10k' and 'test50k' are the test file's first 10,000
    rows and the rest; 'all' (the default) is train, test and nist in that order."""

    column_names = ("image", "label")

    def __init__(self, dataset_dir, usage=None, compat=True, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        api = "QMnistDataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        self.usage = _check_usage(api, usage, QMNIST_USAGES)
        self.compat = check_bool(api, "compat", compat)
        self._where = f"dataset_dir='{self.dataset_dir}', usage='{self.usage}'"
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _part(self, prefix, rows=slice(None)):
        api = "QMnistDataset"
        images = _read_idx(api, os.path.join(self.dataset_dir, f"{prefix}-images-idx3-ubyte"), 0x08, 3)
        labels = _read_idx(api, os.path.join(self.dataset_dir, f"{prefix}-labels-idx2-int"), 0x0C, 2)
        if len(images) != len(labels):
            raise RuntimeError(f"QMnistDataset: '{prefix}-images-idx3-ubyte' has {len(images)} images but "
                               f"'{prefix}-labels-idx2-int' has {len(labels)} label rows")
        return images[rows], labels[rows]

    def _load(self):
        parts = {"train": [("qmnist-train",)], "test": [("qmnist-test",)],
                 "test10k": [("qmnist-test", slice(0, 10000))], "test50k": [("qmnist-test", slice(10000, None))],
                 "nist": [("xnist",)], "all": [("qmnist-train",), ("qmnist-test",), ("xnist",)]}[self.usage]
        images, labels = zip(*(self._part(*p) for p in parts))
        labels = np.concatenate(labels).astype(np.int32)
        return [np.ascontiguousarray(np.concatenate(images)[..., None]),
                np.ascontiguousarray(labels[:, 0] if self.compat else labels)]


class USPSDataset(ArraySource):
    """USPS (16x16 digits of the U.S. Postal Service) from its libsvm files ``usps`` and ``usps.t`` (or, as
    downloaded, ``usps.bz2`` / ``usps.t.bz2``): lines ``label 1:v1 ... 256:v256`` with v in [-1, 1].
    Rows: image (16, 16, 1) uint8 = (v + 1) / 2 * 255 truncated, label int32 = label - 1.
    ``shuffle`` is a bool, Shuffle.GLOBAL (rows) or Shuffle.FILES (the order of the two files)."""

    column_names = ("image", "label")

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        api = "USPSDataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        self.usage = _check_usage(api, usage, ("train", "test", "all"))
        self._where = f"dataset_dir='{self.dataset_dir}', usage='{self.usage}'"
        self._loaded = None
        rows_shuffle, files_shuffle = split_shuffle(api, shuffle)
        if files_shuffle:
            super().__init__(api, _BlockSampler(self, Shuffle.FILES, num_shards, shard_id, num_samples), None,
                             None, None, None, num_parallel_workers, cache)
        else:
            super().__init__(api, None, rows_shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _read(self, name):
        plain = os.path.join(self.dataset_dir, name)
        if os.path.isfile(plain):
            with open(plain, "rb") as f:
                text = f.read()
        elif os.path.isfile(plain + ".bz2"):
            with open(plain + ".bz2", "rb") as f:
                text = bz2.decompress(f.read())
        else:
            raise ValueError(f"USPSDataset: neither '{plain}' nor '{plain}.bz2' exists")
        labels, values = [], []
        for number, line in enumerate(text.decode().splitlines(), 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 257 or not all(":" in f for f in fields[1:]):
                raise RuntimeError(f"USPSDataset: '{plain}' line {number} has {len(fields) - 1} 'index:value' "
                                   "fields, expected 256")
            labels.append(int(fields[0]) - 1)
            values.append([f.split(":", 1)[1] for f in fields[1:]])
        # float32, as MindSpore's reader computes, then truncated toward zero
        pixels = ((np.asarray(values, np.float32).reshape(-1, 256) + 1) / 2 * 255).astype(np.uint8)
        return pixels.reshape(-1, 16, 16, 1), np.asarray(labels, np.int32)

    def _row_source_and_sizes(self):
        if self._loaded is None:
            names = {"train": ["usps"], "test": ["usps.t"], "all": ["usps", "usps.t"]}[self.usage]
            parts = [self._read(n) for n in names]
            arrays = [np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])]
            self._loaded = arrays, [len(p[1]) for p in parts]
        return self._loaded

    def _load(self):
        return self._row_source_and_sizes()[0]


class SemeionDataset(ArraySource):
    """SEMEION (1,593 handwritten digits, 16x16 binary) from ``semeion.data``: per line 256 pixel values
    (0 or 1) then the class one-hot in 10 columns. Rows: image (16, 16) uint8 of 0/1, label int32."""

    column_names = ("image", "label")

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, cache=None):
        api = "SemeionDataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        self._where = f"dataset_dir='{self.dataset_dir}'"
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _load(self):
        path = _existing("SemeionDataset", os.path.join(self.dataset_dir, "semeion.data"))
        with open(path) as f:
            lines = [line.split() for line in f if line.strip()]
        bad = [k + 1 for k, fields in enumerate(lines) if len(fields) != 266]
        if bad:
            raise RuntimeError(f"SemeionDataset: '{path}' line {bad[0]} has {len(lines[bad[0] - 1])} values, "
                               "expected 266 (256 pixels and a 10-column one-hot class)")
        values = np.asarray(lines, np.float32).reshape(-1, 266)
        images = values[:, :256].astype(np.uint8).reshape(-1, 16, 16)
        return [images, np.argmax(values[:, 256:], axis=1).astype(np.int32)]
