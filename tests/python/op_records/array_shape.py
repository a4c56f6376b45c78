"""Records of the array ops that rearrange elements: expand/squeeze/flatten, join/split, tile, reverse."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import FLOAT_DTYPES, NUMERIC_DTYPES, OpRecord

ALL_DTYPES = NUMERIC_DTYPES + (ms.bool_,)


def _ones(*shape):
    return ms.Tensor(np.ones(shape, np.float32))


RECORDS = [
    OpRecord("ExpandDims", lambda x: ops.expand_dims(x, -1), lambda x: np.expand_dims(x, -1),
             [((2, 3),), ((),), ((0, 2),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("ExpandDims", {"axis": -1}),
             bad=[(lambda: ops.expand_dims(_ones(2, 3), 4), ValueError, "ExpandDims: 'axis' must be in"),
                  (lambda: ops.expand_dims(_ones(2), 1.5), TypeError, "expand_dims: 'axis' must be an int")]),
    OpRecord("Squeeze", lambda x: ops.squeeze(x), lambda x: np.squeeze(x),
             [((1, 3, 1),), ((),), ((1, 0, 1),), ((2, 3),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Squeeze", {"axis": (0, 2)}), grad_shapes=[((1, 3, 1),)],
             bad=[(lambda: ops.squeeze(_ones(2, 3), 0), ValueError, "Squeeze: cannot squeeze axis 0 .* its size is 2"),
                  (lambda: ops.squeeze(_ones(1, 3), 2), ValueError, "Squeeze: 'axis' must be in")]),
    OpRecord("Flatten", lambda x: ops.Flatten()(x), lambda x: x.reshape(x.shape[0], int(np.prod(x.shape[1:]))),
             [((2, 3, 4),), ((3,),), ((0, 2),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Flatten"),
             bad=[(lambda: ops.Flatten()(ms.Tensor(1.0)), ValueError, "Flatten: 'input_x' must have rank >= 1")]),
    OpRecord("Concat", lambda x, y: ops.concat((x, y), 1), lambda x, y: np.concatenate((x, y), 1),
             [((2, 3), (2, 1)), ((1, 0), (1, 2)), ((2, 3, 4), (2, 2, 4))], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Concat", {"axis": 1}),
             bad=[(lambda: ops.concat((_ones(2, 3), _ones(3, 3)), 1), ValueError,
                   r"Concat: all tensors must have the same shape except along axis 1, but tensor 0 has shape \(2, 3\)"),
                  (lambda: ops.Concat()(()), ValueError, "Concat: 'input_x' must hold at least one tensor"),
                  (lambda: ops.concat(_ones(2), 0), TypeError, "concat: 'tensors' must be a tuple or list"),
                  (lambda: ops.concat((ms.Tensor(1.0), ms.Tensor(2.0))), ValueError, "Concat: cannot concatenate 0-d")]),
    OpRecord("Concat", lambda x, y: ops.Concat(axis=0)([x, y, x]), lambda x, y: np.concatenate((x, y, x), 0),
             [((2, 3), (1, 3)), ((0,), (4,))], (ms.float32, ms.int64), exact=True),
    OpRecord("Stack", lambda x, y: ops.stack((x, y), -1), lambda x, y: np.stack((x, y), -1),
             [((2, 3), (2, 3)), ((), ()), ((0, 2), (0, 2))], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Stack", {"axis": -1}),
             bad=[(lambda: ops.stack((_ones(2), _ones(3))), ValueError, r"Stack: all tensors must have the same shape"),
                  (lambda: ops.stack((_ones(2), _ones(2)), 2), ValueError, "Stack: 'axis' must be in")]),
    OpRecord("Split", lambda x: ops.Split(1, 2)(x), lambda x: np.split(x, 2, 1),
             [((3, 4),), ((2, 0),), ((1, 6, 2),)], ALL_DTYPES, exact=True,
             bad=[(lambda: ops.Split(1, 2)(_ones(2, 3)), ValueError, "Split: axis 1 .* has size 3, which 'output_num' 2"),
                  (lambda: ops.Split(0, 1)(ms.Tensor(1.0)), ValueError, "Split: cannot split a 0-d tensor")]),
    OpRecord("SplitV", lambda x: ops.split(x, [1, 3], -1), lambda x: np.split(x, [1], -1),
             [((3, 4),), ((2, 0, 4),)], ALL_DTYPES, exact=True,
             bad=[(lambda: ops.split(_ones(2, 3), [2, 2], 1), ValueError, r"SplitV: 'size_splits' \(2, 2\) must add up to"),
                  (lambda: ops.SplitV((2, -1, -1), 0, 3)(_ones(4)), ValueError, "may hold -1 at most once"),
                  (lambda: ops.SplitV((2, -1), 0, 3)(_ones(4)), ValueError, "'num_split' must equal")]),
    OpRecord("SplitV", lambda x: ops.SplitV((2, -1), 0, 2)(x), lambda x: np.split(x, [2], 0),
             [((3, 4),), ((5,),)], (ms.float32,), exact=True),
    OpRecord("Tile", lambda x: ops.tile(x, (2, 1, 3)), lambda x: np.tile(x, (2, 1, 3)),
             [((2, 3),), ((),), ((0, 2),), ((2, 1, 1),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Tile", {"multiples": (2, 1, 3)}), grad_shapes=[((2, 3),), ((3,),)],
             bad=[(lambda: ops.Tile()(_ones(2, 3), (2,)), ValueError, "Tile: 'multiples' .* at least as many entries"),
                  (lambda: ops.tile(_ones(2), (-1,)), ValueError, "Tile: 'multiples' .* non-negative")]),
    OpRecord("ReverseV2", lambda x: ops.flip(x, (0, -1)), lambda x: np.flip(x, (0, -1)),
             [((2, 3, 4),), ((1, 0, 2),), ((5, 1),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("ReverseV2", {"axis": (0, 2)}), grad_shapes=[((2, 3, 4),)],
             bad=[(lambda: ops.flip(_ones(2, 3), (0, 0)), ValueError, "ReverseV2: 'axis' has duplicate entries"),
                  (lambda: ops.flip(_ones(2, 3), (2,)), ValueError, "ReverseV2: 'axis' must be in")]),
    OpRecord("Identity", lambda x: ops.Identity()(x), lambda x: x, [((2, 3),), ((),), ((0,),)], ALL_DTYPES,
             exact=True, prim=lambda: _C.Primitive("Identity")),
    OpRecord("Depend", lambda x, y: ops.depend(x, y), lambda x, y: x, [((2, 3), (4,)), ((), ())], FLOAT_DTYPES,
             exact=True, prim=lambda: _C.Primitive("Depend")),
    # Its gradient is zero by definition (finite differences see the identity): test_indexing.py checks it.
    OpRecord("StopGradient", lambda x: ops.stop_gradient(x), lambda x: x, [((2, 3),), ((),)], FLOAT_DTYPES,
             exact=True),
]
