"""In-memory sources: GeneratorDataset (user Python code) and NumpySlicesDataset (arrays)."""
import numpy as np

from sprout import _C

from sprout.dataset.datasets import Dataset, _E, _callable_name, _check_int, _column_list, _window, _workers
from sprout.dataset.samplers import PKSampler, resolve_sampler


class _SampledSource(Dataset):
    """A random-access source read through a sampler (shuffle/num_shards/... resolved once)."""

    def __init__(self, api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers):
        super().__init__([], num_parallel_workers)
        self.sampler = resolve_sampler(api, sampler, shuffle, num_samples, num_shards, shard_id)
        self.num_samples = num_samples
        # A given sampler keeps its own num_samples; the source's caps it (MindSpore's rule).
        self._cap = num_samples if sampler is not None else None
        self.workers = 1 if num_parallel_workers is None else _workers(api, num_parallel_workers)

    def _labels(self):
        return None

    def _engine_sampler(self, ctx):
        labels = self._labels() if isinstance(self.sampler, PKSampler) else None
        return self.sampler._build(ctx.node_seed(), labels)

    def _capped(self, node):
        return _E.take(node, self._cap) if self._cap else node


class GeneratorDataset(_SampledSource):
    """Rows from Python: a random-access source (``__getitem__`` and ``__len__``), a generator
    function (called anew each epoch) or an iterable (``iter()`` each epoch).

    Each row is a tuple with one value per column (or one value for a single column): NumPy arrays,
    numbers or sprout.Tensors. Workers are threads; a source's ``__getitem__`` runs with the GIL, so
    several workers pay off when it spends its time in code that releases the GIL (NumPy, I/O).
    ``python_multiprocessing`` and ``max_rowsize`` are accepted for compatibility and ignored.
    """

    def __init__(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=None):
        if schema is not None:
            raise ValueError("GeneratorDataset: 'schema' is not supported; give 'column_names' (and 'column_types')")
        self.column_names = _column_list("GeneratorDataset", "column_names", column_names, allow_none=False)
        if len(set(self.column_names)) != len(self.column_names):
            raise ValueError(f"GeneratorDataset: column_names has duplicates: {self.column_names}")
        self.column_types = column_types
        if column_types is not None and len(column_types) != len(self.column_names):
            raise ValueError(f"GeneratorDataset: {len(column_types)} column_types for "
                             f"{len(self.column_names)} column_names")
        self.source = source
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not self.random_access:
            if not (callable(source) or hasattr(source, "__iter__")):
                raise TypeError("GeneratorDataset: 'source' must be a random-access object (__getitem__ and "
                                "__len__), a generator function or an iterable, but got "
                                f"{type(source).__name__}")
            if sampler is not None or shuffle or num_shards is not None:
                raise ValueError("GeneratorDataset: 'sampler', 'shuffle' and 'num_shards' need a random-access "
                                 "source (with __getitem__ and __len__); this source is only iterable")
            shuffle = False
        super().__init__("GeneratorDataset", sampler, shuffle, num_samples, num_shards, shard_id,
                         num_parallel_workers)

    def _label(self):
        return f"GeneratorDataset(source={_callable_name(self.source)})"

    def _typed(self, row):
        if not isinstance(row, tuple):
            row = (row,)
        return tuple(np.asarray(v, dtype=_np_dtype(t)) for v, t in zip(row, self.column_types))

    def _labels(self):
        if "label" not in self.column_names:
            return None
        k = self.column_names.index("label")
        rows = (self.source[i] for i in range(len(self.source)))
        return [r[k] if isinstance(r, tuple) else r for r in rows]

    def _build_node(self, ctx):
        if self.random_access:
            source = self.source if self.column_types is None else _TypedSource(self.source, self._typed)
            node = _E.random_access_source(source, len(self.source), self.column_names, self._engine_sampler(ctx),
                                           self.workers, _window(self.workers))
            return self._capped(node)
        make_iterable = self.source if callable(self.source) else (lambda: self.source)
        if self.column_types is not None:
            plain = make_iterable
            make_iterable = lambda: map(self._typed, plain())  # noqa: E731
        known = len(self.source) if hasattr(self.source, "__len__") else -1
        return _E.stream_source(make_iterable, self.column_names, self.num_samples or 0, known)


class _TypedSource:
    def __init__(self, source, typed):
        self.source, self.typed = source, typed

    def __getitem__(self, i):
        return self.typed(self.source[i])


def _np_dtype(t):
    """A sprout dtype (ms.float32) or anything NumPy accepts -> a NumPy dtype."""
    if isinstance(t, _C.DType):
        return np.dtype(str(t).lower())
    return np.dtype(t)


class NumpySlicesDataset(_SampledSource):
    """Rows are slices along the first axis of in-memory data: a list (one column), a tuple (one column
    per element), a dict (one column per key) or an array (one column)."""

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        api = "NumpySlicesDataset"
        if isinstance(data, dict):
            names, columns = list(data.keys()), list(data.values())
            if column_names is not None:
                names = _column_list(api, "column_names", column_names)
        else:
            columns = list(data) if isinstance(data, tuple) else [data]
            names = _column_list(api, "column_names", column_names) or [f"column_{i}" for i in range(len(columns))]
        if len(names) != len(columns):
            raise ValueError(f"{api}: {len(columns)} columns of data but {len(names)} column_names {names}")
        arrays = []
        for name, column in zip(names, columns):
            array = np.asarray(column)
            if array.dtype.kind not in "biufUS":
                raise TypeError(f"{api}: column '{name}' has NumPy dtype {array.dtype}; "
                                "expected numbers (bool, int, uint, float) or text (str, bytes)")
            if array.ndim == 0:
                raise ValueError(f"{api}: column '{name}' is a scalar; each column needs rows along its first axis")
            arrays.append(np.ascontiguousarray(array))
        self.column_names, self.arrays = names, arrays
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers)

    def _labels(self):
        name = getattr(self.sampler, "class_column", "label")
        return self.arrays[self.column_names.index(name)] if name in self.column_names else None

    def _build_node(self, ctx):
        if any(a.dtype.kind in "US" for a in self.arrays):
            # Text has no tensor dtype: the rows go through the Python row path, whose str arrays become the
            # engine's string fields (the slice source takes numeric arrays only).
            node = _E.random_access_source(_RowSlices(self.arrays), len(self.arrays[0]), self.column_names,
                                           self._engine_sampler(ctx), self.workers, _window(self.workers))
        else:
            node = _E.slices_source(self.arrays, self.column_names, self._engine_sampler(ctx), self.workers,
                                    _window(self.workers))
        return self._capped(node)


class _RowSlices:
    """Row i of a set of arrays, as a random-access source gives it."""

    def __init__(self, arrays):
        self.arrays = arrays

    def __getitem__(self, i):
        return tuple(a[i] for a in self.arrays)
