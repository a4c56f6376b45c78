"""MindDataset (MindRecord files) and Dataset.save (to MindRecord)."""
import numpy as np

from sprout.dataset.datasets import _E, _column_list, _window
from sprout.dataset.sources import _SampledSource
from sprout.dataset import config


class MindDataset(_SampledSource):
    """Rows of MindRecord files: a file (its sibling shards come along) or a list of shard files.
    Rows are read by the source's workers with pread; shuffle, samplers and sharding as other sources."""

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None, num_shards=None,
                 shard_id=None, sampler=None, padded_sample=None, num_padded=None, num_samples=None, cache=None):
        from sprout.mindrecord.filereader import MindRecordRows

        if cache is not None:
            raise ValueError("MindDataset: 'cache' (the dataset cache server) is not supported")
        if padded_sample is not None or num_padded:
            raise ValueError("MindDataset: padded_sample/num_padded are not supported; pad the dataset with concat")
        self.rows = MindRecordRows(dataset_files, _column_list("MindDataset", "columns_list", columns_list))
        self.column_names = self.rows.columns
        if num_parallel_workers is None:
            num_parallel_workers = config.get_num_parallel_workers()
        super().__init__("MindDataset", sampler, shuffle, num_samples, num_shards, shard_id, num_parallel_workers)

    def _label(self):
        return f"MindDataset({self.rows.shards.paths[0]})"

    def _labels(self):
        name = getattr(self.sampler, "class_column", "label")
        if name not in self.column_names:
            return None
        k = self.column_names.index(name)
        return [self.rows[i][k] for i in range(len(self.rows))]

    def _build_node(self, ctx):
        node = _E.random_access_source(self.rows, len(self.rows), self.column_names, self._engine_sampler(ctx),
                                       self.workers, _window(self.workers))
        return self._capped(node)


_SCALAR_TYPES = {"i": "int64", "u": "int64", "b": "int32", "f": "float64"}


def _field_spec(name, value):
    """The MindRecord schema entry for a column, from its first value."""
    value = np.asarray(value)
    if value.dtype.kind in "US":
        if value.ndim:
            raise TypeError(f"save: column '{name}' holds text arrays; MindRecord stores one string per field")
        return {"type": "string"}
    if value.dtype.kind not in "biuf":
        raise TypeError(f"save: column '{name}' has dtype {value.dtype}, which MindRecord cannot store")
    if value.ndim == 0:
        return {"type": "int32" if value.dtype in (np.int32, np.bool_) else
                "float32" if value.dtype in (np.float32, np.float16) else _SCALAR_TYPES[value.dtype.kind]}
    t = {"i": "int64", "u": "int64", "b": "int32", "f": "float64"}[value.dtype.kind]
    if value.dtype in (np.int32, np.int16, np.int8, np.uint8, np.uint16, np.bool_):
        t = "int32"
    elif value.dtype in (np.float32, np.float16):
        t = "float32"
    return {"type": t, "shape": [-1, *value.shape[1:]] if value.ndim > 1 else [-1]}


def save(dataset, file_name, num_files=1, file_type="mindrecord"):
    """Writes one epoch of `dataset` to MindRecord files (MindSpore's Dataset.save)."""
    from sprout.mindrecord import FileWriter

    if file_type != "mindrecord":
        raise ValueError(f"save: only file_type='mindrecord' is supported, but got {file_type!r}")
    names = dataset.get_col_names()
    writer, rows = None, []
    for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        if writer is None:
            writer = FileWriter(file_name, num_files)
            writer.add_schema({n: _field_spec(n, v) for n, v in zip(names, row)}, "sprout.dataset.save")
        rows.append({n: (v.item() if v.ndim == 0 and v.dtype.kind != "U" else str(v) if v.dtype.kind == "U" else v)
                     for n, v in zip(names, row)})
    if writer is None:
        raise ValueError("save: the dataset is empty; there is nothing to write")
    writer.write_raw_data(rows)
    writer.commit()
