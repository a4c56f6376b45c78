"""CocoDataset: COCO images with the annotations of one task, from its JSON annotation file.

Each row is one entry of the file's "images" list, in that order, with its annotations in file order
stacked into one array per column, as MindSpore 2.10 gives them (int32 where MindSpore has uint32).
"""
import json
import os

import numpy as np

from sprout.dataset.file_sources import _check_dir
from sprout.dataset.loader_base import RowListSource, check_bool, check_choice, check_decrypt, check_file, file_bytes

COCO_TASKS = ("Detection", "Stuff", "Panoptic", "Keypoint", "Captioning")
_COLUMNS = {
    "Detection": ("image", "bbox", "category_id", "iscrowd"),
    "Stuff": ("image", "segmentation", "iscrowd"),
    "Keypoint": ("image", "keypoints", "num_keypoints"),
    "Panoptic": ("image", "bbox", "category_id", "iscrowd", "area"),
    "Captioning": ("image", "captions"),
}


def _column(values, width, dtype):
    """Annotation values -> an (n, width) array (n may be 0)."""
    return np.asarray(values, dtype).reshape(-1, width)


def _padded(rows, dtype, pad):
    """Rows of different lengths -> one (n, longest) array, the short ones padded with `pad` (MindSpore's -1)."""
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), pad, dtype)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


class CocoDataset(RowListSource):
    """COCO from ``dataset_dir`` (the image folder) and ``annotation_file``. Columns by ``task``:

    - Detection: image, bbox (n, 4) float32 [x, y, width, height], category_id (n, 1) int32, iscrowd (n, 1) int32
    - Stuff: image, segmentation (n, longest) float32 (each annotation's polygon points, or a crowd region's RLE
      counts, padded with -1), iscrowd (n, 1) int32
    - Keypoint: image, keypoints (n, 3k) float32, num_keypoints (n, 1) int32
    - Panoptic (the panoptic JSON: segments_info per image): image, bbox, category_id, iscrowd, area (n, 1) int32
    - Captioning: image, captions (n, 1) str

    image is the file's bytes (uint8), or (H, W, 3) RGB with ``decode=True``. With ``extra_metadata`` a last
    column ``_meta-filename`` holds the image's file name without extension; MindSpore leaves that column out
    of iterators until it is renamed, Sprout's iterators show it.
    """

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None, cache=None,
                 extra_metadata=False, decrypt=None):
        api = "CocoDataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        self.annotation_file = check_file(api, "annotation_file", annotation_file)
        self.task = check_choice(api, "task", task, COCO_TASKS)
        self.decode = check_bool(api, "decode", decode)
        self.extra_metadata = check_bool(api, "extra_metadata", extra_metadata)
        check_decrypt(api, decrypt)
        self.column_names = _COLUMNS[task] + (("_meta-filename",) if extra_metadata else ())
        self._where = f"dataset_dir='{self.dataset_dir}', task='{task}'"
        self._json = None
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _annotations(self):
        if self._json is None:
            try:
                with open(self.annotation_file, encoding="utf-8") as f:
                    self._json = json.load(f)
            except json.JSONDecodeError as e:
                raise RuntimeError(f"CocoDataset: '{self.annotation_file}' is not valid JSON: {e}") from None
            for key in ("images", "annotations"):
                if key not in self._json:
                    raise RuntimeError(f"CocoDataset: '{self.annotation_file}' has no '{key}' list")
        return self._json

    def get_class_indexing(self):
        """{category name: [category id]} ([id, isthing] for Panoptic), as MindSpore gives it."""
        if self.task not in ("Detection", "Stuff", "Panoptic"):
            raise ValueError(f"CocoDataset: get_class_indexing needs task 'Detection', 'Stuff' or 'Panoptic', "
                             f"but task is '{self.task}'")
        categories = self._annotations().get("categories")
        if categories is None:
            raise RuntimeError(f"CocoDataset: '{self.annotation_file}' has no 'categories' list")
        if self.task == "Panoptic":
            return {c["name"]: [int(c["id"]), int(c.get("isthing", 0))] for c in categories}
        return {c["name"]: [int(c["id"])] for c in categories}

    def _load(self):
        content = self._annotations()
        by_image = {}
        if self.task == "Panoptic":
            for a in content["annotations"]:
                by_image.setdefault(a["image_id"], []).extend(a.get("segments_info", []))
        else:
            for a in content["annotations"]:
                by_image.setdefault(a["image_id"], []).append(a)
        records = []
        for image in content["images"]:
            name = image["file_name"]
            records.append((os.path.join(self.dataset_dir, name), os.path.splitext(name)[0],
                            self._columns(by_image.get(image["id"], []), name)))
        return records

    def _columns(self, annotations, name):
        """The annotation columns of one image: computed once at load, as NumPy arrays."""
        task = self.task
        if task == "Captioning":
            return (np.asarray([a["caption"] for a in annotations], dtype=str).reshape(-1, 1),)
        try:
            if task in ("Detection", "Panoptic"):
                cols = (_column([a["bbox"] for a in annotations], 4, np.float32),
                        _column([a["category_id"] for a in annotations], 1, np.int32),
                        _column([a.get("iscrowd", 0) for a in annotations], 1, np.int32))
                if task == "Panoptic":
                    cols += (_column([a["area"] for a in annotations], 1, np.int32),)
                return cols
            if task == "Keypoint":
                return (_padded([a["keypoints"] for a in annotations], np.float32, -1),
                        _column([a["num_keypoints"] for a in annotations], 1, np.int32))
            return (_padded([self._segmentation(a) for a in annotations], np.float32, -1),
                    _column([a.get("iscrowd", 0) for a in annotations], 1, np.int32))
        except KeyError as e:
            raise RuntimeError(f"CocoDataset: an annotation of image '{name}' in '{self.annotation_file}' has no "
                               f"'{e.args[0]}' attribute, which task '{task}' needs") from None

    def _segmentation(self, annotation):
        seg = annotation["segmentation"]
        if annotation.get("iscrowd", 0):
            if not isinstance(seg, dict) or "counts" not in seg:
                raise KeyError("segmentation.counts")  # a crowd region's run-length encoding
            return [float(v) for v in seg["counts"]]
        return [float(v) for polygon in seg for v in polygon]

    def _row(self, record):
        path, stem, columns = record
        row = (file_bytes(path),) + columns
        return row + (np.asarray(stem),) if self.extra_metadata else row
