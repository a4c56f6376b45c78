"""EmbeddingLookup and MultiFieldEmbeddingLookup (``mindspore.nn``): embedding tables read by id, as one
process on the CPU.

MindSpore's `target`, `slice_mode`, `manual_shapes` and `sparse` choose where the table lives and how auto
parallel shards it; Sprout keeps the whole table in every process, which is what MindSpore does outside
(semi-)auto parallel. So the values that describe that case are accepted, and those that ask for sharding are
refused with an error naming them. Ids outside [0, vocab_size) read zeros, as MindSpore's CPU lookup."""
from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import initializer
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.function.nn_loss_more_func import _check_bool

_SLICE_MODES = ("batch_slice", "field_slice", "table_row_slice", "table_column_slice")
_INDEX_TYPES = (mstype.int32, mstype.int64)


def _positive_int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{api}: '{name}' must be a positive int, but got {value}")
    return value


def _check_input(api, arg, x, dtypes, ndim=None):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    if x.dtype not in dtypes:
        raise TypeError(f"{api}: '{arg}' must have dtype in {[str(d) for d in dtypes]}, but got {x.dtype}")
    if ndim is not None and x.ndim != ndim:
        raise ValueError(f"{api}: '{arg}' must be {ndim}-d, but got shape {tuple(x.shape)}")
    return x


class EmbeddingLookup(Cell):
    """table[indices]: (..., embedding_size) rows of a (vocab_size, embedding_size) Parameter; with max_norm, each
    looked-up row longer than max_norm (L2) is scaled down to it."""

    def __init__(self, vocab_size, embedding_size, param_init='normal', target='CPU', slice_mode='batch_slice',
                 manual_shapes=None, max_norm=None, sparse=True, dtype=mstype.float32):
        super().__init__()
        api = type(self).__name__
        self.sparse = _check_bool(api, "sparse", sparse)
        self.vocab_size = _positive_int(api, "vocab_size", vocab_size)
        self.embedding_size = _positive_int(api, "embedding_size", embedding_size)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"{api}: 'target' must be 'CPU' or 'DEVICE', but got {target!r}")
        if not sparse and target == "CPU":
            raise ValueError(f"{api}: 'sparse' must be True when 'target' is 'CPU', but got False")
        if slice_mode not in _SLICE_MODES:
            raise ValueError(f"{api}: 'slice_mode' must be one of {_SLICE_MODES}, but got {slice_mode!r}")
        from sprout.parallel_context import get_auto_parallel_context
        if slice_mode != "batch_slice" and get_auto_parallel_context("parallel_mode") in ("semi_auto_parallel",
                                                                                           "auto_parallel"):
            raise ValueError(f"{api}: slice_mode={slice_mode!r} shards the table in auto parallel, which Sprout's "
                             f"{api} does not do (every process holds the whole table); use 'batch_slice'")
        if manual_shapes is not None:
            raise ValueError(f"{api}: 'manual_shapes' ({type(manual_shapes).__name__}) splits the table for "
                             f"field_slice in auto parallel, which Sprout's {api} does not do; leave it None")
        self.target, self.slice_mode = target, slice_mode
        self.embedding_table = Parameter(initializer(param_init, (vocab_size, embedding_size), dtype),
                                         name="embedding_table")
        self.max_norm = None
        if max_norm is not None:
            if isinstance(max_norm, bool) or not isinstance(max_norm, (int, float)) or not max_norm > 0:
                raise ValueError(f"{api}: 'max_norm' must be a positive float, but got {max_norm!r}")
            self.max_norm = float(max_norm)

    def _lookup(self, indices):
        table = self.embedding_table
        inside = ops.logical_and(indices >= 0, indices < self.vocab_size)
        safe = ops.select(inside, indices, ops.zeros_like(indices))
        rows = ops.gather(table, safe, 0)
        out = rows * ops.expand_dims(ops.cast(inside, rows.dtype), -1)
        if self.max_norm is not None:
            norm = ops.sqrt(ops.sum(ops.square(out), -1, True))
            out = out * self.max_norm / ops.maximum(norm, self.max_norm)
        return out

    def construct(self, indices):
        _check_input(type(self).__name__, "indices", indices, _INDEX_TYPES)
        return self._lookup(indices)

    def extend_repr(self):
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, max_norm={self.max_norm}"


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Per sample, the looked-up rows times their input_values, merged per field (field_ids) by SUM, MEAN
    (divided by the sum of |input_values| of the field, 0 for an empty field) or MAX (entries whose value is 0
    left out, an empty field 0): (batch, field_size, embedding_size)."""

    def __init__(self, vocab_size, embedding_size, field_size, param_init='normal', target='CPU',
                 slice_mode='batch_slice', feature_num_list=None, max_norm=None, sparse=True, operator='SUM',
                 dtype=mstype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, dtype)
        self.field_size = _positive_int("MultiFieldEmbeddingLookup", "field_size", field_size)
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"MultiFieldEmbeddingLookup: 'operator' must be one of 'SUM', 'MAX', 'MEAN', but got "
                             f"{operator!r}")
        self.operator = operator

    def construct(self, input_indices, input_values, field_ids):
        api = "MultiFieldEmbeddingLookup"
        _check_input(api, "input_indices", input_indices, _INDEX_TYPES, 2)
        _check_input(api, "input_values", input_values, (mstype.float32, mstype.float16, mstype.bfloat16), 2)
        _check_input(api, "field_ids", field_ids, (mstype.int32,), 2)
        if not tuple(input_indices.shape) == tuple(input_values.shape) == tuple(field_ids.shape):
            raise ValueError(f"{api}: 'input_indices', 'input_values' and 'field_ids' must have one shape, but got "
                             f"{tuple(input_indices.shape)}, {tuple(input_values.shape)} and "
                             f"{tuple(field_ids.shape)}")
        values = ops.expand_dims(input_values, -1)
        embedding = self._lookup(input_indices) * values  # (B, L, E)
        # (B, L, F): entry l of a sample belongs to field f. Ids outside [0, field_size) belong to none.
        member = ops.one_hot(field_ids, self.field_size, Tensor(1.0, mstype.float32), Tensor(0.0, mstype.float32))
        count = ops.sum(ops.abs(values) * member, 1)  # (B, F): sum of |value| per field
        if self.operator == "MAX":
            keep = ops.expand_dims(member * ops.cast(values != 0, mstype.float32), -1)  # (B, L, F, 1)
            candidates = ops.where(keep > 0, ops.expand_dims(embedding, 2), -3.402823466e+38)  # (B, L, F, E)
            merged = ops.amax(candidates, 1)  # (B, F, E)
            return merged * ops.expand_dims(ops.cast(count != 0, mstype.float32), -1)
        merged = ops.matmul(ops.swapaxes(member, 1, 2), embedding)  # (B, F, E): the per-field sums
        if self.operator == "MEAN":
            # div_no_nan: an empty field (count 0) has zero sums, so dividing by max(count, tiny) gives 0.
            merged = merged / ops.maximum(ops.expand_dims(count, -1), 1e-30)
        return merged

    def extend_repr(self):
        return super().extend_repr() + f", field_size={self.field_size}, operator={self.operator}"
