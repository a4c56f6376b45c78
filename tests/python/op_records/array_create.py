"""Records of the array ops that create values: fills, Eye, Range, LinSpace, Tril, Triu."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

NO_INPUTS = [()]  # one sample with no tensor inputs: the op's arguments are all attributes


def _ones(*shape):
    return ms.Tensor(np.ones(shape, np.float32))


RECORDS = [
    OpRecord("OnesLike", lambda x: ops.ones_like(x), np.ones_like, [((2, 3),), ((),), ((0,),)], NUMERIC_DTYPES,
             exact=True, prim=lambda: _C.Primitive("OnesLike")),
    OpRecord("ZerosLike", lambda x: ops.zeros_like(x), np.zeros_like, [((2, 3),), ((),), ((0,),)], NUMERIC_DTYPES,
             exact=True, prim=lambda: _C.Primitive("ZerosLike")),
    OpRecord("Ones", lambda: ops.ones((2, 3), ms.int32), lambda: np.ones((2, 3), np.int32), NO_INPUTS, (ms.int32,),
             exact=True, bad=[(lambda: ops.ones((2, -1)), ValueError, "Ones: .*'shape'")]),
    OpRecord("Ones", lambda: ops.Ones()((), ms.float16), lambda: np.ones((), np.float16), NO_INPUTS, (ms.float16,)),
    OpRecord("Zeros", lambda: ops.zeros((0, 4)), lambda: np.zeros((0, 4), np.float32), NO_INPUTS, (ms.float32,),
             exact=True, bad=[(lambda: ops.zeros("3"), TypeError, "zeros: 'shape' must be")]),
    OpRecord("Fill", lambda: ops.fill(ms.float64, (2, 2), 2.5), lambda: np.full((2, 2), 2.5), NO_INPUTS,
             (ms.float64,), exact=True),
    OpRecord("Fill", lambda: ops.full((3,), 7), lambda: np.full((3,), 7, np.int64), NO_INPUTS, (ms.int64,), exact=True,
             bad=[(lambda: ops.full((-3,), 1.0), ValueError, "Fill: .*'shape'")]),
    OpRecord("Eye", lambda: ops.eye(3, 4, ms.int32), lambda: np.eye(3, 4, dtype=np.int32), NO_INPUTS, (ms.int32,),
             exact=True, bad=[(lambda: ops.Eye()(-1, 2, ms.float32), ValueError, "Eye: 'n' and 'm' must be non-negative")]),
    OpRecord("Eye", lambda: ops.eye(2), lambda: np.eye(2, dtype=np.float32), NO_INPUTS, (ms.float32,), exact=True),
    OpRecord("Range", lambda: ops.arange(1, 10, 3), lambda: np.arange(1, 10, 3), NO_INPUTS, (ms.int64,), exact=True,
             bad=[(lambda: ops.arange(0, 5, 0), ValueError, "Range: 'delta' must not be 0"),
                  (lambda: ops.arange(5, 0, 1), ValueError, "Range: 'delta' 1 points away from 'limit'"),
                  (lambda: ops.Range(maxlen=3)(0, 10, 1, ms.int64), ValueError, "more than 'maxlen' 3")]),
    OpRecord("Range", lambda: ops.arange(1.0, -1.0, -0.25), lambda: np.arange(1.0, -1.0, -0.25).astype(np.float32),
             NO_INPUTS, (ms.float32,), exact=True),
    OpRecord("Range", lambda: ops.arange(4, dtype=ms.float64), lambda: np.arange(4.0), NO_INPUTS, (ms.float64,)),
    OpRecord("LinSpace", lambda s, e: ops.LinSpace()(s, e, 5), lambda s, e: np.linspace(s, e, 5), [((), ())],
             (ms.float32, ms.float64), prim=lambda: _C.Primitive("LinSpace", {"num": 5}),
             bad=[(lambda: ops.LinSpace()(ms.Tensor(0.0), ms.Tensor(1.0), 0), ValueError, "LinSpace: 'num' must be positive"),
                  (lambda: ops.LinSpace()(_ones(2), ms.Tensor(1.0), 3), ValueError, "LinSpace: 'start' must be a 0-d"),
                  (lambda: ops.LinSpace()(ms.Tensor(0), ms.Tensor(1), 3), TypeError, "LinSpace: 'start' must be a floating")]),
    OpRecord("LinSpace", lambda s, e: ops.linspace(s, e, 1), lambda s, e: np.linspace(s, e, 1), [((), ())],
             (ms.float32,), prim=lambda: _C.Primitive("LinSpace", {"num": 1})),
    OpRecord("Tril", lambda x: ops.tril(x, 1), lambda x: np.tril(x, 1), [((3, 4),), ((2, 3, 3),), ((0, 2),), ((2, 0),)],
             NUMERIC_DTYPES + (ms.bool_,), exact=True, prim=lambda: _C.Primitive("Tril", {"diagonal": 1}),
             bad=[(lambda: ops.tril(_ones(3)), ValueError, "Tril: 'x' must have rank >= 2")]),
    OpRecord("Triu", lambda x: ops.triu(x, -1), lambda x: np.triu(x, -1), [((3, 4),), ((2, 4, 3),), ((0, 2),)],
             NUMERIC_DTYPES, exact=True, prim=lambda: _C.Primitive("Triu", {"diagonal": -1}),
             bad=[(lambda: ops.triu(ms.Tensor(1.0)), ValueError, "Triu: 'x' must have rank >= 2")]),
    OpRecord("Triu", lambda x: ops.triu(x, 5), lambda x: np.triu(x, 5), [((3, 4),)], FLOAT_DTYPES, exact=True),
]
