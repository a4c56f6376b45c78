"""Images listed with their labels in a text file: CelebADataset (list_attr_celeba.txt) and ManifestDataset
(a manifest of JSON lines)."""
import json
import os

import numpy as np

from sprout.dataset.file_sources import _check_dir, _existing
from sprout.dataset.loader_base import RowListSource, check_bool, check_choice, check_decrypt, check_file, file_bytes

_CELEBA_PARTITIONS = {"train": 0, "valid": 1, "test": 2}


class CelebADataset(RowListSource):
    """CelebA from ``dataset_dir``: the images, ``list_attr_celeba.txt`` (a count, the attribute names, then
    per image its name and 40 values of 1 or -1) and, for a ``usage`` other than 'all',
    ``list_eval_partition.txt`` (per image 0 train, 1 valid, 2 test). Rows in the attribute file's order:
    image (bytes, or (H, W, 3) RGB with ``decode=True``), attr (40,) int32 of 0/1. ``extensions`` keeps only
    images with those file extensions."""

    column_names = ("image", "attr")

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all", sampler=None, decode=False,
                 extensions=None, num_samples=None, num_shards=None, shard_id=None, cache=None, decrypt=None):
        api = "CelebADataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        self.usage = check_choice(api, "usage", usage, ("all", "train", "valid", "test"))
        self.decode = check_bool(api, "decode", decode)
        if extensions is not None and (isinstance(extensions, str) or not all(isinstance(e, str) for e in extensions)):
            raise TypeError(f"{api}: 'extensions' must be a list of str such as ['.jpg'], but got {extensions!r}")
        self.extensions = None if extensions is None else {e.lower() for e in extensions}
        check_decrypt(api, decrypt)
        self._where = f"dataset_dir='{self.dataset_dir}', usage='{self.usage}'"
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _partition(self):
        path = _existing("CelebADataset", os.path.join(self.dataset_dir, "list_eval_partition.txt"))
        with open(path) as f:
            return {fields[0]: int(fields[1]) for fields in (line.split() for line in f) if len(fields) == 2}

    def _load(self):
        path = _existing("CelebADataset", os.path.join(self.dataset_dir, "list_attr_celeba.txt"))
        with open(path) as f:
            lines = [line.split() for line in f]
        if len(lines) < 2:
            raise RuntimeError(f"CelebADataset: '{path}' lacks its two header lines (a count, the attribute names)")
        num_attrs = len(lines[1])
        keep = None if self.usage == "all" else _CELEBA_PARTITIONS[self.usage]
        partition = self._partition() if keep is not None else {}
        records = []
        for number, fields in enumerate(lines[2:], 3):
            if not fields:
                continue
            if len(fields) != num_attrs + 1:
                raise RuntimeError(f"CelebADataset: '{path}' line {number} has {len(fields) - 1} attributes, "
                                   f"expected {num_attrs}")
            name = fields[0]
            if keep is not None and partition.get(name) != keep:
                continue
            if self.extensions is not None and os.path.splitext(name)[1].lower() not in self.extensions:
                continue
            attrs = (np.asarray(fields[1:], np.int32) == 1).astype(np.int32)  # 1 -> 1, -1 -> 0
            records.append((os.path.join(self.dataset_dir, name), attrs))
        return records

    def _row(self, record):
        return file_bytes(record[0]), record[1]


def _is_image(path):
    """JPEG, PNG, GIF or BMP by the first bytes: the images MindSpore's manifest reader keeps."""
    with open(path, "rb") as f:
        head = f.read(3)
    return head in (b"\xff\xd8\xff", b"\x89PN", b"GIF") or head[:2] == b"BM"


class ManifestDataset(RowListSource):
    """Images listed in a manifest file: one JSON object per line with ``source`` (the image's path),
    ``usage`` ('train', 'eval' or 'inference', any case) and ``annotation`` (a list of {"name": label}).
    Rows of the given ``usage``, in file order: image (bytes, or decoded with ``decode=True``), label int32:
    a scalar, or (k,) for an image with k labels. Labels are numbered by ``class_indexing`` (names it lacks
    are dropped, and images left without a label) or in sorted order of the names seen. Files that are not
    JPEG, PNG, GIF or BMP are skipped, as MindSpore does."""

    column_names = ("image", "label")

    def __init__(self, dataset_file, usage="train", num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None):
        api = "ManifestDataset"
        self.dataset_file = check_file(api, "dataset_file", dataset_file)
        self.usage = check_choice(api, "usage", usage, ("train", "eval", "inference"))
        if class_indexing is not None and not (isinstance(class_indexing, dict) and all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                for k, v in class_indexing.items())):
            raise TypeError(f"{api}: 'class_indexing' must be a dict of label name -> int, but got {class_indexing!r}")
        self.class_indexing = class_indexing
        self.decode = check_bool(api, "decode", decode)
        self._where = f"dataset_file='{self.dataset_file}', usage='{self.usage}'"
        self._entries = None
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _images_and_labels(self):
        """[(image path, [label names])] of this usage, as MindSpore selects them."""
        if self._entries is not None:
            return self._entries
        api, entries = "ManifestDataset", []
        with open(self.dataset_file, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError as e:
                    raise RuntimeError(f"{api}: line {number} of '{self.dataset_file}' is not JSON: {e}") from None
                for key in ("source", "usage", "annotation"):
                    if key not in entry or (key != "annotation" and not entry[key]):
                        raise RuntimeError(f"{api}: line {number} of '{self.dataset_file}' has no '{key}'")
                source = entry["source"]
                if not os.path.isfile(source):
                    raise RuntimeError(f"{api}: image '{source}' (line {number} of '{self.dataset_file}') "
                                       "does not exist")
                if not _is_image(source) or str(entry["usage"]).lower() != self.usage:
                    continue
                names = [a.get("name", "") for a in entry["annotation"]]
                if "" in names:
                    raise RuntimeError(f"{api}: a label on line {number} of '{self.dataset_file}' has no 'name'")
                names = [n for n in names if self.class_indexing is None or n in self.class_indexing]
                if names:
                    entries.append((source, names))
        if not entries:
            raise RuntimeError(f"{api}: '{self.dataset_file}' lists no JPEG/PNG/GIF/BMP image with a label for "
                               f"usage '{self.usage}'")
        self._entries = entries
        return entries

    def get_class_indexing(self):
        """{label name: label}: ``class_indexing``, or the names seen numbered in sorted order."""
        if self.class_indexing is not None:
            return dict(self.class_indexing)
        names = sorted({n for _, labels in self._images_and_labels() for n in labels})
        return {n: i for i, n in enumerate(names)}

    def _load(self):
        indexing = self.get_class_indexing()
        records = []
        for source, names in self._images_and_labels():
            labels = np.asarray([indexing[n] for n in names], np.int32)
            records.append((source, labels[0] if len(labels) == 1 else labels))
        return records

    def _row(self, record):
        return file_bytes(record[0]), np.asarray(record[1])
