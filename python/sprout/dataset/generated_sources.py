"""Sources whose rows are made rather than read: RandomDataset (random rows per a Schema), FakeImageDataset
(random images and labels) and PaddedDataset (rows given as dicts, to pad shards to one size)."""
import numbers
import os

import numpy as np

from sprout.dataset import config
from sprout.dataset.datasets import _E, _check_int, _column_list, _window
from sprout.dataset.schema import Schema
from sprout.dataset.sources import GeneratorDataset, _SampledSource

# Without a schema, MindSpore draws the columns too: 1-4 of them, rank 1-4, sizes 1-32; without
# total_rows, 1-1024 rows. Sprout draws them from the pipeline seed when the dataset is made.
_MAX_COLUMNS, _MAX_RANK, _MAX_DIM, _MAX_ROWS = 4, 4, 32, 1024
_RANDOM_TYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64")


class _GeneratedSource(_SampledSource):
    """Rows made on demand by ``_make(i)``; the engine's workers call it for the rows the sampler picks."""

    def __init__(self, api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache):
        if cache is not None:
            raise ValueError(f"{api}: 'cache' (the dataset cache server) is not supported")
        if num_parallel_workers is None:
            num_parallel_workers = config.get_num_parallel_workers()
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers)

    def _build_node(self, ctx):
        node = _E.random_access_source(_Made(self._make, self._size()), self._size(), list(self.column_names),
                                       self._engine_sampler(ctx), self.workers, _window(self.workers))
        return self._capped(node)


class _Made:
    def __init__(self, make, size):
        self.make, self.size = make, size

    def __getitem__(self, i):
        return self.make(i)

    def __len__(self):
        return self.size


def _random_values(rng, type_name, shape):
    """Random values of a type: uniform over the integer type's range, in [0, 1) for floats."""
    dtype = np.dtype(type_name)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return rng.random(shape, np.float64 if dtype == np.float64 else np.float32).astype(dtype)


class RandomDataset(_GeneratedSource):
    """``total_rows`` rows of random values with the columns of ``schema`` (a Schema or a schema JSON file):
    integers uniform over their type's range, floats in [0, 1), bools 0/1; a column without a shape gets a
    random one (fixed for the dataset). Without a schema the columns are random too (MindSpore's rule: 1-4
    columns named c0, c1, ...), and without total_rows their number (1-1024), both drawn from the dataset
    seed. ``columns_list`` picks and orders columns. Row i's values depend only on the seed and i."""

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None, num_parallel_workers=None,
                 cache=None, shuffle=None, num_shards=None, shard_id=None):
        api = "RandomDataset"
        draw = np.random.default_rng(config.get_seed())
        if total_rows is not None:
            _check_int(api, "total_rows", total_rows, low=1)
        if isinstance(schema, (str, os.PathLike)):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError(f"{api}: 'schema' must be a Schema or the path of a schema JSON file, "
                            f"but got {type(schema).__name__}")
        if schema is None:
            columns = [{"name": f"c{k}", "type": _RANDOM_TYPES[draw.integers(len(_RANDOM_TYPES))]}
                       for k in range(draw.integers(1, _MAX_COLUMNS + 1))]
        else:
            columns = [dict(c) for c in schema.columns]
            if not columns:
                raise ValueError(f"{api}: the schema has no columns")
        if total_rows is None:
            total_rows = (schema.num_rows if schema is not None and schema.num_rows else
                          int(draw.integers(1, _MAX_ROWS + 1)))
        names = _column_list(api, "columns_list", columns_list)
        by_name = {c["name"]: c for c in columns}
        missing = [n for n in names if n not in by_name]
        if missing:
            raise ValueError(f"{api}: columns_list names {missing}, which the schema lacks (it has {list(by_name)})")
        self._column_specs = [by_name[n] for n in names] if names else columns
        for c in self._column_specs:
            if c["type"] not in _RANDOM_TYPES:
                raise ValueError(f"{api}: column '{c['name']}' has type '{c['type']}'; Sprout's tensors cannot hold "
                                 f"it, so random rows are made only of {list(_RANDOM_TYPES)}")
            if c.get("shape") is None:
                c["shape"] = [int(d) for d in draw.integers(1, _MAX_DIM + 1, draw.integers(1, _MAX_RANK + 1))]
            elif any(d < 0 for d in c["shape"]):
                raise ValueError(f"{api}: column '{c['name']}' has shape {c['shape']}; random rows need every size")
        self.column_names = [c["name"] for c in self._column_specs]
        self.total_rows, self.schema = total_rows, schema
        self._seed = int(draw.integers(2**63))
        super().__init__(api, None, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _size(self):
        return self.total_rows

    def _make(self, i):
        rng = np.random.default_rng([self._seed, i])
        return tuple(_random_values(rng, c["type"], c["shape"]) for c in self._column_specs)


class FakeImageDataset(_GeneratedSource):
    """``num_images`` random images and labels: image ``image_size`` uint8, label int32 in [0, num_classes)
    (uint32 in MindSpore). Image i is drawn from seed ``base_seed + i``, so it is the same whatever the
    sampler, shuffle or sharding (MindSpore's rule; its generator differs, so its pixels do too)."""

    column_names = ("image", "label")

    def __init__(self, num_images=1000, image_size=(224, 224, 3), num_classes=10, base_seed=0, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        api = "FakeImageDataset"
        self.num_images = _check_int(api, "num_images", num_images, low=1)
        if not isinstance(image_size, (list, tuple)) or len(image_size) != 3 or not all(
                isinstance(d, numbers.Integral) and not isinstance(d, bool) and d > 0 for d in image_size):
            raise ValueError(f"{api}: 'image_size' must be 3 positive ints (height, width, channels), "
                             f"but got {image_size!r}")
        self.image_size = tuple(int(d) for d in image_size)
        self.num_classes = _check_int(api, "num_classes", num_classes, low=1)
        self.base_seed = _check_int(api, "base_seed", base_seed, low=0)
        super().__init__(api, sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers, cache)

    def _size(self):
        return self.num_images

    def _make(self, i):
        rng = np.random.default_rng(self.base_seed + i)
        image = rng.integers(0, 256, self.image_size, dtype=np.uint8)
        return image, np.int32(rng.integers(self.num_classes))


class PaddedDataset(GeneratorDataset):
    """Rows given as dicts (column -> value), in order: filler rows concatenated to a dataset so that its
    rows divide evenly among shards. The columns are the first dict's keys, in its order."""

    def __init__(self, padded_samples):
        api = "PaddedDataset"
        if not isinstance(padded_samples, list):
            raise TypeError(f"{api}: 'padded_samples' must be a list of dicts, but got {type(padded_samples).__name__}")
        if not padded_samples:
            raise ValueError(f"{api}: 'padded_samples' must not be empty")
        for k, sample in enumerate(padded_samples):
            if not isinstance(sample, dict):
                raise TypeError(f"{api}: padded_samples[{k}] must be a dict, but got {type(sample).__name__}")
        names = list(padded_samples[0])
        for k, sample in enumerate(padded_samples):
            if list(sample) != names and set(sample) != set(names):
                raise ValueError(f"{api}: padded_samples[{k}] has columns {list(sample)}, but the first sample has "
                                 f"{names}")
        self.padded_samples = padded_samples
        rows = [tuple(np.asarray(sample[n]) for n in names) for sample in padded_samples]
        super().__init__(rows, column_names=names, shuffle=False)
