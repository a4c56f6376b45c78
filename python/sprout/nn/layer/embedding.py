"""Embedding (``mindspore.nn.Embedding``): a lookup table of vectors indexed by integer ids."""
from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import initializer
from sprout.common.parameter import Parameter
from sprout.nn.cell import Cell


class Embedding(Cell):
    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal", dtype=mstype.int32,
                 padding_idx=None):
        super().__init__()
        for name, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"Embedding: '{name}' must be a positive int, but got {value!r}")
        if padding_idx is not None and not -vocab_size <= padding_idx < vocab_size:
            raise ValueError(f"Embedding: 'padding_idx' must be in [{-vocab_size}, {vocab_size}), got {padding_idx}")
        self.vocab_size, self.embedding_size = vocab_size, embedding_size
        self.padding_idx = None if padding_idx is None else padding_idx % vocab_size
        table = initializer(embedding_table, (vocab_size, embedding_size), mstype.float32)
        if self.padding_idx is not None:
            table[self.padding_idx] = 0.0
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        return ops.embedding(ids, self.embedding_table, self.padding_idx)

    def extend_repr(self):
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, padding_idx={self.padding_idx}"
