"""The operations of a Dataset: each class here is one node of the description tree and builds one
engine node (src/data). Users reach them through Dataset methods (``ds.map(...)``, ``ds.batch(...)``)."""
from sprout.dataset.datasets import Dataset, _callable_name, _check_int, _column_list, _E, _window, _workers


class MapDataset(Dataset):
    def __init__(self, child, operations, input_columns, output_columns, num_parallel_workers):
        super().__init__([child], num_parallel_workers)
        if not isinstance(operations, (list, tuple)):
            operations = [operations]
        if not operations:
            raise ValueError("map: 'operations' must not be empty")
        for i, op in enumerate(operations):
            if not callable(op):
                raise TypeError(f"map: operations[{i}] must be callable, but got {type(op).__name__} {op!r}")
        self.operations = list(operations)
        self.input_columns = _column_list("map", "input_columns", input_columns)
        self.output_columns = _column_list("map", "output_columns", output_columns)
        self.workers = _workers("map", num_parallel_workers)

    def _label(self):
        ops = ", ".join(_callable_name(op) for op in self.operations)
        return f"map(operations=[{ops}], input_columns={self.input_columns or '<first column>'})"

    def _build_node(self, ctx):
        child = self.children[0]._build(ctx)
        num_outputs = len(self.output_columns or self.input_columns) or 1
        return _E.map_ops(child, _steps(self.operations), self.input_columns, self.output_columns, num_outputs,
                          self.workers, _window(self.workers), ctx.node_seed())


def _flatten(op):
    from sprout.dataset.transforms import Compose

    if isinstance(op, Compose):
        return [leaf for t in op.transforms for leaf in _flatten(t)]
    return [op]


def _steps(operations):
    """The engine's steps for `operations`: each C++ transform as its engine op (run without the GIL),
    each run of consecutive Python callables as one function fn(row_seed, *columns)."""
    steps, pending = [], []
    for op in (leaf for op in operations for leaf in _flatten(op)):
        if getattr(op, "_op", None) is not None:
            if pending:
                steps.append(_chain(pending))
                pending = []
            steps.append(op._op)
        else:
            pending.append(op)
    if pending:
        steps.append(_chain(pending))
    return steps


def _chain(operations):
    """One callable running `operations` in turn: each op's outputs are the next one's inputs. The row
    seed from the engine seeds Sprout's random transforms (Note [Seeds in the pipeline])."""
    from sprout.dataset.transforms._random import row_seed

    def run(seed, *columns):
        with row_seed(seed):
            for op in operations:
                result = op(*columns)
                columns = result if isinstance(result, tuple) else (result,)
        return columns

    return run


class FilterDataset(Dataset):
    def __init__(self, child, predicate, input_columns, num_parallel_workers):
        super().__init__([child], num_parallel_workers)
        if not callable(predicate):
            raise TypeError(f"filter: 'predicate' must be callable, but got {type(predicate).__name__}")
        self.predicate = predicate
        self.input_columns = _column_list("filter", "input_columns", input_columns)
        self.workers = _workers("filter", num_parallel_workers)

    def _label(self):
        return f"filter(predicate={_callable_name(self.predicate)})"

    def _build_node(self, ctx):
        child = self.children[0]._build(ctx)
        return _E.filter(child, self.predicate, self.input_columns, self.workers, _window(self.workers))


class BatchInfo:
    """What per_batch_map learns about its batch (MindSpore's BatchInfo)."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num, self._epoch_num = batch_num, epoch_num

    def get_batch_num(self):
        return self._batch_num

    def get_epoch_num(self):
        return self._epoch_num


def _pad_info(api, pad_info):
    """{column: (shape or None, value)} with shape entries ints or None (None: the batch's largest)."""
    if pad_info is None:
        return {}
    if not isinstance(pad_info, dict):
        raise TypeError(f"{api}: 'pad_info' must be a dict of column -> (pad_shape, pad_value), but got {pad_info!r}")
    out = {}
    for name, spec in pad_info.items():
        if spec is None:
            spec = (None, 0)
        if not (isinstance(spec, (list, tuple)) and len(spec) == 2):
            raise TypeError(f"{api}: pad_info['{name}'] must be (pad_shape, pad_value), but got {spec!r}")
        shape, value = spec
        if shape is not None and not (isinstance(shape, (list, tuple)) and all(
                d is None or (isinstance(d, int) and d >= 0) for d in shape)):
            raise TypeError(f"{api}: pad_info['{name}'] pad_shape must be a list of ints or None, but got {shape!r}")
        out[name] = (None if shape is None else list(shape), 0 if value is None else value)
    return out


class BatchDataset(Dataset):
    def __init__(self, child, batch_size, drop_remainder, num_parallel_workers, per_batch_map=None,
                 input_columns=None, output_columns=None, pad_info=None, python_multiprocessing=False,
                 max_rowsize=None, pad_all=False):
        super().__init__([child], num_parallel_workers)
        self.batch_size = _check_int("batch", "batch_size", batch_size, low=1)
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"batch: 'drop_remainder' must be a bool, but got {drop_remainder!r}")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"batch: 'per_batch_map' must be callable, but got {type(per_batch_map).__name__}")
        self.drop_remainder, self.per_batch_map = drop_remainder, per_batch_map
        self.input_columns = _column_list("batch", "input_columns", input_columns)
        self.output_columns = _column_list("batch", "output_columns", output_columns)
        if (self.input_columns or self.output_columns) and per_batch_map is None:
            raise ValueError("batch: 'input_columns' and 'output_columns' need a per_batch_map")
        self.pad_info = _pad_info("batch", pad_info)
        self.pad_all = pad_all  # padded_batch without pad_info: every column to the batch's largest
        self.workers = _workers("batch", num_parallel_workers)

    def _label(self):
        return f"batch(batch_size={self.batch_size})"

    def _build_node(self, ctx):
        child = self.children[0]._build(ctx)
        pad_info = dict(self.pad_info)
        if self.pad_all:
            columns = list(child.columns) if self.per_batch_map is None else None
            for name in columns or []:
                pad_info.setdefault(name, (None, 0))
        return _E.batch(child, self.batch_size, self.drop_remainder, self.workers, max(2, self.workers),
                        self.per_batch_map, self.input_columns, self.output_columns, pad_info)


class ShuffleDataset(Dataset):
    def __init__(self, child, buffer_size):
        super().__init__([child])
        self.buffer_size = _check_int("shuffle", "buffer_size", buffer_size, low=2)

    def _build_node(self, ctx):
        child = self.children[0]._build(ctx)
        return _E.shuffle(child, self.buffer_size, ctx.node_seed())


class RepeatDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        self.count = _check_int("repeat", "count", count)
        if self.count == 0 or self.count < -1:
            raise ValueError(f"repeat: 'count' must be -1 (forever) or >= 1, but got {count}")

    def _build_node(self, ctx):
        return _E.repeat(self.children[0]._build(ctx), self.count)


class TakeDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        self.count = _check_int("take", "count", count, low=-1)

    def _build_node(self, ctx):
        return _E.take(self.children[0]._build(ctx), self.count)


class SkipDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        self.count = _check_int("skip", "count", count, low=0)

    def _build_node(self, ctx):
        return _E.skip(self.children[0]._build(ctx), self.count)


class ProjectDataset(Dataset):
    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = _column_list("project", "columns", columns, allow_none=False)

    def _build_node(self, ctx):
        return _E.project(self.children[0]._build(ctx), self.columns)


class RenameDataset(Dataset):
    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        self.input_columns = _column_list("rename", "input_columns", input_columns, allow_none=False)
        self.output_columns = _column_list("rename", "output_columns", output_columns, allow_none=False)

    def _build_node(self, ctx):
        return _E.rename(self.children[0]._build(ctx), self.input_columns, self.output_columns)


def _check_datasets(api, datasets):
    for i, d in enumerate(datasets):
        if not isinstance(d, Dataset):
            raise TypeError(f"{api}: datasets[{i}] must be a Dataset, but got {type(d).__name__}")


class ZipDataset(Dataset):
    def __init__(self, datasets):
        _check_datasets("zip", datasets)
        super().__init__(datasets)

    def _build_node(self, ctx):
        return _E.zip([c._build(ctx) for c in self.children])


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        _check_datasets("concat", datasets)
        super().__init__(datasets)

    def _build_node(self, ctx):
        return _E.concat([c._build(ctx) for c in self.children])
