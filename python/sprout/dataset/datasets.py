"""Dataset: the MindSpore 2.x pipeline API (map, batch, shuffle, repeat, ...).

A Dataset object is a description: a node of a tree of Python objects. Each iterator builds a fresh
tree of engine nodes from it (``_build``), so one Dataset can be iterated many times and by several
iterators at once. The work happens in C++ (src/data); see docs/ARCHITECTURE.md, "Data pipeline".
"""
import numbers
import types

import numpy as np

from sprout import _C
from sprout.dataset import config

_E = _C.dataset


class _BuildContext:
    """State of one build: the pipeline seed, and a counter giving every random node its own seed."""

    def __init__(self, seed):
        self.seed = seed
        self._next = 0

    def node_seed(self):
        self._next += 1
        return (self.seed * 1_000_003 + self._next * 7919) % 2**64


def _check_int(api, name, value, low=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__} {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{api}: '{name}' must be >= {low}, but got {value}")
    return int(value)


def _column_list(api, name, columns, allow_none=True):
    if columns is None:
        if allow_none:
            return []
        raise ValueError(f"{api}: '{name}' is required")
    if isinstance(columns, str):
        columns = [columns]
    if not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) for c in columns):
        raise TypeError(f"{api}: '{name}' must be a str or a list of str, but got {columns!r}")
    if not columns and not allow_none:
        raise ValueError(f"{api}: '{name}' must not be empty")
    return list(columns)


def _workers(api, num_parallel_workers):
    if num_parallel_workers is None:
        return config.get_num_parallel_workers()
    return _check_int(api, "num_parallel_workers", num_parallel_workers, low=1)


def _window(workers):
    """Rows a parallel node keeps in flight: enough to keep every worker busy, at least the prefetch depth."""
    return max(config.get_prefetch_size(), 2 * workers)


def _callable_name(fn):
    """How error notes name a user callable: a function by its qualified name, an object by its class."""
    if isinstance(fn, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        return fn.__qualname__
    return type(fn).__name__


class Dataset:
    """Base of every dataset: sources and the operations applied to them."""

    def __init__(self, children=(), num_parallel_workers=None):
        self.children = list(children)
        self.num_parallel_workers = num_parallel_workers
        self._size_cache = None

    # --- building the engine tree ----------------------------------------------------------------
    def _build_node(self, ctx):
        raise NotImplementedError(f"{type(self).__name__} must define _build_node")

    def _label(self):
        return type(self).__name__

    def _build(self, ctx):
        node = self._build_node(ctx)
        node.label = self._label()
        return node

    def _root(self, seed=None):
        return self._build(_BuildContext(config._pipeline_seed() if seed is None else seed))

    # --- operations ------------------------------------------------------------------------------
    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None,
            python_multiprocessing=False, max_rowsize=None, callbacks=None):
        """Applies ``operations`` in turn to ``input_columns`` of each row, on ``num_parallel_workers``
        threads (``python_multiprocessing`` and ``max_rowsize`` are accepted and not needed: Sprout's
        C++ transforms run without the GIL)."""
        from sprout.dataset.operations import MapDataset

        if callbacks is not None:
            raise ValueError("map: 'callbacks' (DSCallback) are not supported")
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        from sprout.dataset.operations import FilterDataset

        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, per_batch_map=None,
              input_columns=None, output_columns=None, pad_info=None, python_multiprocessing=False,
              max_rowsize=None):
        """Groups rows into batches. ``per_batch_map(*columns, batch_info)`` gets each input column
        as a list of the batch's rows and returns the output columns in that form; ``pad_info``
        ({column: (pad_shape, pad_value)}) pads rows to one shape before stacking."""
        from sprout.dataset.operations import BatchDataset

        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, per_batch_map, input_columns,
                            output_columns, pad_info)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None):
        """batch, padding each column to the largest row of the batch (or as ``pad_info`` says) with 0."""
        from sprout.dataset.operations import BatchDataset

        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, pad_info=pad_info,
                            pad_all=pad_info is None)

    def split(self, sizes, randomize=True):
        """Splits into datasets of ``sizes`` rows (ints) or fractions (floats summing to 1).
        With ``randomize``, rows are assigned at random (from the dataset seed); that needs a
        random-access source without a sampler of its own."""
        from sprout.dataset.splitting import split

        return split(self, sizes, randomize)

    def shuffle(self, buffer_size):
        from sprout.dataset.operations import ShuffleDataset

        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        from sprout.dataset.operations import RepeatDataset

        return RepeatDataset(self, -1 if count is None else count)

    def take(self, count=-1):
        from sprout.dataset.operations import TakeDataset

        return TakeDataset(self, count)

    def skip(self, count):
        from sprout.dataset.operations import SkipDataset

        return SkipDataset(self, count)

    def project(self, columns):
        from sprout.dataset.operations import ProjectDataset

        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        from sprout.dataset.operations import RenameDataset

        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets):
        from sprout.dataset.operations import ZipDataset

        if isinstance(datasets, Dataset):
            datasets = [datasets]
        return ZipDataset([self, *datasets])

    def concat(self, datasets):
        from sprout.dataset.operations import ConcatDataset

        if isinstance(datasets, Dataset):
            datasets = [datasets]
        return ConcatDataset([self, *datasets])

    def __add__(self, other):
        return self.concat(other)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """Writes one epoch to MindRecord file(s) that MindDataset (Sprout's or MindSpore's) reads back."""
        from sprout.dataset.mindrecord_source import save

        save(self, file_name, num_files, file_type)

    # --- information -----------------------------------------------------------------------------
    def get_col_names(self):
        return list(self._root(seed=0).columns)

    def get_dataset_size(self):
        """Rows (or batches) per epoch. Counted by running one epoch when it is not known in advance
        (a filter, a generator without __len__)."""
        if self._size_cache is None:
            size = self._root(seed=0).size()
            if size < 0:
                size = sum(1 for _ in self.create_tuple_iterator(num_epochs=1, output_numpy=True))
            self._size_cache = size
        return self._size_cache

    def get_batch_size(self):
        for node in self._walk():
            if hasattr(node, "batch_size"):
                return node.batch_size
        return 1

    def _first_row(self):
        it = self.create_tuple_iterator(num_epochs=1, output_numpy=True)
        try:
            return next(it)
        except StopIteration:
            raise RuntimeError(f"{type(self).__name__}: the dataset is empty; no row to read shapes or types from")
        finally:
            it.stop()

    def output_shapes(self, estimate=False):
        return [list(np.shape(col)) for col in self._first_row()]

    def output_types(self):
        return [np.asarray(col).dtype for col in self._first_row()]

    def _walk(self):
        yield self
        for c in self.children:
            yield from c._walk()

    # --- iteration -------------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        from sprout.dataset.iterators import TupleIterator

        return TupleIterator(self, columns, num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        from sprout.dataset.iterators import DictIterator

        return DictIterator(self, None, num_epochs, output_numpy)

    def __iter__(self):
        return self.create_tuple_iterator(num_epochs=1)

    def reset(self):
        """Forgets what was learnt by running the pipeline (the counted size); the next iterator
        starts from the first epoch."""
        self._size_cache = None
