"""STL-10: 96x96 colour images in binary files, read with NumPy once per Dataset object."""
import os

import numpy as np

from sprout.dataset.file_sources import _check_dir, _check_usage, _existing
from sprout.dataset.loader_base import ArraySource


class STL10Dataset(ArraySource):
    """STL-10 from its binary files ({train,test,unlabeled}_X.bin: 96x96 RGB images stored channel by
    channel, column-major; {train,test}_y.bin: labels 1..10). Rows: image (96, 96, 3) uint8, label int32
    (label - 1; -1 for the unlabeled images). usage 'all' reads test, train, unlabeled in that order."""

    column_names = ("image", "label")

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        api = "STL10Dataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        self.usage = _check_usage(api, usage, ("train", "test", "unlabeled", "train+unlabeled", "all"))
        self._where = f"dataset_dir='{self.dataset_dir}', usage='{self.usage}'"
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _part(self, part):
        api, image_bytes = "STL10Dataset", 3 * 96 * 96
        path = _existing(api, os.path.join(self.dataset_dir, f"{part}_X.bin"))
        data = np.fromfile(path, np.uint8)
        if data.size % image_bytes:
            raise RuntimeError(f"STL10Dataset: '{path}' has {data.size} bytes, not a multiple of the "
                               f"{image_bytes}-byte image")
        images = data.reshape(-1, 3, 96, 96).transpose(0, 3, 2, 1)  # (channel, column, row) -> (row, column, channel)
        if part == "unlabeled":
            return images, np.full(len(images), -1, np.int32)
        labels_path = _existing(api, os.path.join(self.dataset_dir, f"{part}_y.bin"))
        labels = np.fromfile(labels_path, np.uint8).astype(np.int32) - 1
        if len(labels) != len(images):
            raise RuntimeError(f"STL10Dataset: '{path}' has {len(images)} images but '{labels_path}' has "
                               f"{len(labels)} labels")
        return images, labels

    def _load(self):
        parts = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
                 "train+unlabeled": ["train", "unlabeled"], "all": ["test", "train", "unlabeled"]}[self.usage]
        images, labels = zip(*(self._part(p) for p in parts))
        return [np.ascontiguousarray(np.concatenate(images)), np.concatenate(labels)]
