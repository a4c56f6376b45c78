"""Records of the layout and dtype ops, and of the matrix products."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

RECORDS = [
    OpRecord("Cast", lambda x: ops.cast(x, ms.float64), lambda x: x.astype(np.float64),
             [((2, 3),), ((),), ((0,),)], NUMERIC_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Cast", {"dst_type": ms.float64}),
             bad=[(lambda: ops.cast(ms.Tensor([1.0]), "int32"), TypeError, "cast: 'dtype'")]),
    OpRecord("Reshape", lambda x: ops.reshape(x, (-1, 2)), lambda x: x.reshape(-1, 2),
             [((2, 3),), ((4, 1, 2),)], NUMERIC_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Reshape", {"shape": (3, 2)}), grad_shapes=[((2, 3),)],
             bad=[(lambda: ops.reshape(ms.Tensor(np.ones(6)), (4, -1)), ValueError, "Reshape: cannot reshape")]),
    OpRecord("Transpose", lambda x: ops.transpose(x, (2, 0, 1)), lambda x: x.transpose(2, 0, 1),
             [((2, 3, 4),), ((1, 0, 2),)], NUMERIC_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Transpose", {"perm": (2, 0, 1)}),
             bad=[(lambda: ops.transpose(ms.Tensor(np.ones((2, 3))), (0,)), ValueError, "Transpose: 'perm' must have 2")]),
    OpRecord("BroadcastTo", lambda x: ops.BroadcastTo((2, 4, 3))(x), lambda x: np.broadcast_to(x, (2, 4, 3)),
             [((4, 3),), ((1, 3),), ((),)], NUMERIC_DTYPES, exact=True,
             prim=lambda: _C.Primitive("BroadcastTo", {"shape": (2, 4, 3)}), grad_shapes=[((1, 3),), ((4, 1),)],
             bad=[(lambda: ops.BroadcastTo((2, 4))(ms.Tensor(np.ones(3))), ValueError, "BroadcastTo: cannot broadcast")]),
    OpRecord("MatMul", lambda x, y: ops.MatMul(transpose_b=True)(x, y), lambda x, y: x @ y.T,
             [((3, 4), (5, 4)), ((1, 7), (2, 7)), ((0, 3), (2, 3))], (ms.float16, ms.float32, ms.float64, ms.int32),
             tol={ms.float16: (4e-3, 4e-3), ms.float32: (1e-5, 1e-5)},
             prim=lambda: _C.Primitive("MatMul", {"transpose_b": True}),
             bad=[(lambda: ops.MatMul()(ms.Tensor(np.ones((2, 3))), ms.Tensor(np.ones((2, 3)))), ValueError,
                   "MatMul: 'x' has shape")]),
    OpRecord("BatchMatMul", lambda x, y: ops.BatchMatMul(transpose_a=True)(x, y),
             lambda x, y: np.swapaxes(x, -1, -2) @ y,
             [((2, 4, 3), (2, 4, 5)), ((3, 1, 4, 2), (5, 4, 3))], (ms.float32, ms.float64),
             tol={ms.float32: (1e-5, 1e-5)},
             prim=lambda: _C.Primitive("BatchMatMul", {"transpose_a": True}),
             bad=[(lambda: ops.BatchMatMul()(ms.Tensor(np.ones(3)), ms.Tensor(np.ones((3, 2)))), ValueError,
                   "rank >= 2")]),
]
