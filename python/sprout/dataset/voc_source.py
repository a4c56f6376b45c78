"""VOCDataset: PASCAL VOC's images with their segmentation masks or object annotations (XML)."""
import os
import xml.etree.ElementTree as ET

import numpy as np

from sprout.dataset.file_sources import _check_dir, _existing
from sprout.dataset.loader_base import RowListSource, check_bool, check_choice, check_decrypt, file_bytes


class VOCDataset(RowListSource):
    """PASCAL VOC from ``dataset_dir`` (JPEGImages/, SegmentationClass/, Annotations/, ImageSets/). The images
    listed in ImageSets/Segmentation/{usage}.txt (task 'Segmentation') or ImageSets/Main/{usage}.txt
    ('Detection'), in that order. Columns:

    - Segmentation: image, target (the SegmentationClass PNG): bytes, or decoded with ``decode=True``
    - Detection: image, bbox (n, 4) float32 [xmin, ymin, width, height], label (n, 1) int32,
      difficult (n, 1) int32, truncate (n, 1) int32

    Labels number the object names: by ``class_indexing`` (a name it lacks is an error), or in sorted order
    of the names in the annotations read. ``extra_metadata`` adds a last column ``_meta-filename`` (the
    image's name), which Sprout's iterators show (MindSpore's hide it until it is renamed).
    """

    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None, extra_metadata=False, decrypt=None):
        api = "VOCDataset"
        self.dataset_dir = _check_dir(api, dataset_dir)
        self.task = check_choice(api, "task", task, ("Segmentation", "Detection"))
        if not isinstance(usage, str) or not usage:
            raise TypeError(f"{api}: 'usage' must be the name of a list in ImageSets (such as 'train'), "
                            f"but got {usage!r}")
        self.usage = usage
        if class_indexing is not None:
            if task != "Detection":
                raise ValueError(f"{api}: 'class_indexing' is only for task 'Detection', but task is '{task}'")
            if not isinstance(class_indexing, dict) or not all(
                    isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                    for k, v in class_indexing.items()):
                raise TypeError(f"{api}: 'class_indexing' must be a dict of object name -> int, "
                                f"but got {class_indexing!r}")
        self.class_indexing = class_indexing
        self.decode = check_bool(api, "decode", decode)
        self.extra_metadata = check_bool(api, "extra_metadata", extra_metadata)
        check_decrypt(api, decrypt)
        columns = (("image", "target") if task == "Segmentation" else
                   ("image", "bbox", "label", "difficult", "truncate"))
        self.column_names = columns + (("_meta-filename",) if extra_metadata else ())
        self._encoded_columns = 2 if task == "Segmentation" else 1
        self._where = f"dataset_dir='{self.dataset_dir}', task='{task}', usage='{usage}'"
        self._names = self._objects = None
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _image_names(self):
        if self._names is None:
            folder = "Segmentation" if self.task == "Segmentation" else "Main"
            path = _existing("VOCDataset", os.path.join(self.dataset_dir, "ImageSets", folder, f"{self.usage}.txt"))
            with open(path) as f:
                self._names = [line.strip() for line in f if line.strip()]
        return self._names

    def _parse(self, name):
        """One annotation file -> [(object name, [xmin, ymin, xmax, ymax], difficult, truncated)]."""
        path = _existing("VOCDataset", os.path.join(self.dataset_dir, "Annotations", f"{name}.xml"))
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            raise RuntimeError(f"VOCDataset: '{path}' is not valid XML: {e}") from None
        objects = []
        for obj in root.iter("object"):
            box = obj.find("bndbox")
            if obj.findtext("name") is None or box is None:
                raise RuntimeError(f"VOCDataset: an object in '{path}' has no 'name' or 'bndbox'")
            try:
                corners = [float(box.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax")]
            except (TypeError, ValueError):
                raise RuntimeError(f"VOCDataset: a bndbox in '{path}' lacks a number for xmin, ymin, xmax or ymax") \
                    from None
            objects.append((obj.findtext("name").strip(), corners, int(obj.findtext("difficult") or 0),
                            int(obj.findtext("truncated") or 0)))
        return objects

    def _all_objects(self):
        if self._objects is None:
            self._objects = [self._parse(n) for n in self._image_names()]
        return self._objects

    def get_class_indexing(self):
        """{object name: label} (task 'Detection')."""
        if self.task != "Detection":
            raise ValueError(f"VOCDataset: get_class_indexing needs task 'Detection', but task is '{self.task}'")
        if self.class_indexing is not None:
            return dict(self.class_indexing)
        names = sorted({o[0] for objects in self._all_objects() for o in objects})
        return {n: i for i, n in enumerate(names)}

    def _load(self):
        jpeg = lambda n: os.path.join(self.dataset_dir, "JPEGImages", f"{n}.jpg")  # noqa: E731
        if self.task == "Segmentation":
            return [(n, (jpeg(n), os.path.join(self.dataset_dir, "SegmentationClass", f"{n}.png")), ())
                    for n in self._image_names()]
        indexing = self.get_class_indexing()
        records = []
        for name, objects in zip(self._image_names(), self._all_objects()):
            missing = sorted({o[0] for o in objects} - set(indexing))
            if missing:
                raise RuntimeError(f"VOCDataset: '{name}.xml' has objects named {missing}, which class_indexing "
                                   f"{indexing} lacks")
            boxes = [[x0, y0, x1 - x0, y1 - y0] for _, (x0, y0, x1, y1), _, _ in objects]
            columns = (np.asarray(boxes, np.float32).reshape(-1, 4),
                       np.asarray([indexing[o[0]] for o in objects], np.int32).reshape(-1, 1),
                       np.asarray([o[2] for o in objects], np.int32).reshape(-1, 1),
                       np.asarray([o[3] for o in objects], np.int32).reshape(-1, 1))
            records.append((name, (jpeg(name),), columns))
        return records

    def _row(self, record):
        name, paths, columns = record
        row = tuple(file_bytes(p) for p in paths) + columns
        return row + (np.asarray(name),) if self.extra_metadata else row
