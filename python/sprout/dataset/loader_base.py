"""What the dataset loaders of ``*_sources.py`` share: sources whose files are parsed in Python, once
per Dataset object, into NumPy arrays (served by the engine's slice source, without the GIL) or into a
list of rows (served through the engine's random-access source, one Python call per row).

Sprout has no uint32/uint64 tensors, so the columns MindSpore gives as uint32 (labels, bounding-box
classes, attributes) come as int32 here; every value of those datasets fits.
"""
import os

import numpy as np

from sprout.dataset.datasets import _E, _window
from sprout.dataset.file_sources import Shuffle, _BlockSampler, _FileSource  # noqa: F401 (USPS takes them from here)


class ArraySource(_FileSource):
    """Rows are slices along the first axis of the arrays ``_load`` returns (one per column)."""

    def _build_node(self, ctx):
        arrays = self._row_source()
        node = _E.slices_source(arrays, list(self.column_names), self._engine_sampler(ctx), self.workers,
                                _window(self.workers))
        return self._capped(node)


class RowListSource(_FileSource):
    """Rows are what ``_row(i)`` returns for the i-th of the ``_load()`` records: a tuple of NumPy arrays.
    With ``decode`` the image columns (``_encoded_columns``: the first, unless a subclass says otherwise)
    are decoded by the engine's Decode, off the GIL."""

    decode = False
    _encoded_columns = 1

    def _row(self, record):
        raise NotImplementedError(f"{type(self).__name__} must define _row")

    def _build_node(self, ctx):
        records = self._row_source()
        node = _E.random_access_source(_Rows(records, self._row), len(records), list(self.column_names),
                                       self._engine_sampler(ctx), self.workers, _window(self.workers))
        node = self._capped(node)
        for column in self.column_names[:self._encoded_columns] if self.decode else ():
            node = _E.map_ops(node, [_E.decode_op()], [column], [], 1, self.workers, _window(self.workers),
                              ctx.node_seed())
        return node


class _Rows:
    """The random-access object the engine reads: record i -> its row."""

    def __init__(self, records, row):
        self.records, self.row = records, row

    def __getitem__(self, i):
        return self.row(self.records[i])

    def __len__(self):
        return len(self.records)


def file_bytes(path):
    """A file's bytes as a 1-D uint8 array: an image column before decoding, as MindSpore gives it."""
    with open(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8)


def check_bool(api, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{name}' must be a bool, but got {type(value).__name__} {value!r}")
    return value


def check_choice(api, name, value, allowed):
    if value not in allowed:
        raise ValueError(f"{api}: '{name}' must be one of {list(allowed)}, but got {value!r}")
    return value


def check_decrypt(api, decrypt):
    if decrypt is not None:
        raise ValueError(f"{api}: 'decrypt' (a decryption function for encrypted images) is not supported")


def check_file(api, name, path):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{api}: '{name}' must be a path, but got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"{api}: {name} '{path}' is not a file")
    return path


def split_shuffle(api, shuffle):
    """The (shuffle, Shuffle.FILES?) of a source that takes a bool or Shuffle.GLOBAL/FILES, like text sources."""
    if shuffle is None or shuffle is True:
        return True, False
    if shuffle is False:
        return False, False
    if shuffle == Shuffle.GLOBAL:
        return True, False
    if shuffle == Shuffle.FILES:
        return None, True
    raise TypeError(f"{api}: 'shuffle' must be a bool, Shuffle.GLOBAL or Shuffle.FILES, but got {shuffle!r}")
