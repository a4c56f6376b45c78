"""Records of GatherElements, TensorScatterElements, Roll, Meshgrid, Pad and Slice."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import NUMERIC_DTYPES, OpRecord

ALL_DTYPES = NUMERIC_DTYPES + (ms.bool_,)
ELEMENT_INDEX = np.array([[2, 0], [1, -1], [0, 0]])


def _ones(*shape):
    return ms.Tensor(np.ones(shape, np.float32))


def _scatter_elements_ref(x, u):
    out = x.copy()
    for i in range(ELEMENT_INDEX.shape[0]):
        for j in range(ELEMENT_INDEX.shape[1]):
            out[i, ELEMENT_INDEX[i, j]] += u[i, j]
    return out


RECORDS = [
    OpRecord("GatherElements", lambda x: ops.gather_elements(x, 1, ms.Tensor(ELEMENT_INDEX)),
             lambda x: np.take_along_axis(x, ELEMENT_INDEX % x.shape[1], 1), [((3, 4),), ((3, 3),)], ALL_DTYPES,
             exact=True,
             bad=[(lambda: ops.gather_elements(_ones(3, 2), 1, ms.Tensor([[2]])), ValueError,
                   "GatherElements: index 2 in 'index' is out of range"),
                  (lambda: ops.gather_elements(_ones(3, 2), 1, ms.Tensor([0])), ValueError,
                   "GatherElements: 'index' must have the rank of 'data'"),
                  (lambda: ops.gather_elements(_ones(1, 2), 1, ms.Tensor([[0], [0]])), ValueError,
                   "does not fit in 'data'")]),
    OpRecord("TensorScatterElements",
             lambda x, u: ops.tensor_scatter_elements(x, ms.Tensor(ELEMENT_INDEX), u, 1, "add"),
             _scatter_elements_ref, [((3, 4), (3, 2))], NUMERIC_DTYPES,
             bad=[(lambda: ops.tensor_scatter_elements(_ones(2), ms.Tensor([0]), _ones(2)), ValueError,
                   "'indices' and 'updates' must have the same shape"),
                  (lambda: ops.tensor_scatter_elements(_ones(2), ms.Tensor([0]), _ones(1), 0, "mul"), ValueError,
                   "'reduction' must be 'none' or 'add'")]),
    OpRecord("TensorScatterElements",
             lambda x, u: ops.tensor_scatter_elements(x, ms.Tensor([[1, 0]]), u[:1, :2], 0),
             lambda x, u: _replace_ref(x, u), [((3, 3), (3, 3))], (ms.float32, ms.int32), exact=True),
    OpRecord("Roll", lambda x: ops.roll(x, (1, -2), (0, 1)), lambda x: np.roll(x, (1, -2), (0, 1)),
             [((3, 4),), ((1, 5),), ((0, 2),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Roll", {"shift": (1, -2), "axis": (0, 1)}),
             bad=[(lambda: ops.roll(_ones(2), (1, 2), (0,)), ValueError, "Roll: 'shift' .* must have the same length")]),
    OpRecord("Roll", lambda x: ops.roll(x, 3), lambda x: np.roll(x, 3), [((2, 3),), ((),)], (ms.float64,), exact=True,
             prim=lambda: _C.Primitive("Roll", {"shift": (3,), "axis": ()}), grad_shapes=[((2, 3),)]),
    OpRecord("Meshgrid", lambda x, y: ops.meshgrid(x, y), lambda x, y: list(np.meshgrid(x, y)),
             [((3,), (2,)), ((0,), (4,))], NUMERIC_DTYPES, exact=True,
             bad=[(lambda: ops.meshgrid(_ones(2), _ones(2, 2)), ValueError, "Meshgrid: every input must be 1-d"),
                  (lambda: ops.meshgrid(_ones(2), _ones(2), indexing="xx"), ValueError, "Meshgrid: 'indexing'")]),
    OpRecord("Meshgrid", lambda x, y, z: ops.Meshgrid("ij")((x, y, z)),
             lambda x, y, z: list(np.meshgrid(x, y, z, indexing="ij")), [((3,), (2,), (4,))], (ms.float32,), exact=True),
    OpRecord("Pad", lambda x: ops.Pad(((1, 0), (2, 1)))(x), lambda x: np.pad(x, ((1, 0), (2, 1))),
             [((2, 3),), ((0, 1),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("Pad", {"paddings": ((1, 0), (2, 1))}),
             bad=[(lambda: ops.Pad(((1, 1),))(_ones(2, 2)), ValueError, "Pad: 'paddings' must hold"),
                  (lambda: ops.Pad(((-1, 1),))(_ones(2)), ValueError, "Pad: 'paddings' must be non-negative"),
                  (lambda: ops.pad(_ones(2), (1, 1), mode="symmetric"), ValueError, "pad: 'mode' must be 'constant'")]),
    OpRecord("Pad", lambda x: ops.pad(x, (1, 2), value=-1.5), lambda x: np.pad(x, ((0, 0), (1, 2)), constant_values=-1.5),
             [((2, 3),)], (ms.float32, ms.float64), exact=True),
    OpRecord("Slice", lambda x: ops.slice(x, (1, 0), (-1, 2)), lambda x: x[1:, 0:2], [((3, 4),), ((1, 2),)],
             ALL_DTYPES, exact=True, prim=lambda: _C.Primitive("Slice", {"begin": (1, 0), "size": (-1, 2)}),
             bad=[(lambda: ops.slice(_ones(3), (2,), (2,)), ValueError, "Slice: axis 0 of size 3 cannot hold"),
                  (lambda: ops.slice(_ones(3), (0, 0), (1, 1)), ValueError, "Slice: 'begin' and 'size' must have")]),
]


def _replace_ref(x, u):
    out = x.copy()
    out[1, 0] = u[0, 0]
    out[0, 1] = u[0, 1]
    return out


def _scatter_add_ref(x):
    out = x.copy()
    np.add.at(out, [1, 0, 1], np.arange(out[:3].size).reshape((3,) + out.shape[1:]).astype(out.dtype))
    return out


def _scatter_add(x):
    updates = ms.Tensor(np.arange(3 * int(np.prod(x.shape[1:]))).reshape((3,) + x.shape[1:]), x.dtype)
    return ops.scatter_add(x, ms.Tensor([1, 0, 1]), updates)


RECORDS += [
    OpRecord("StridedSlice", lambda x: ops.strided_slice(x, (1, 0, -1), (3, 0, 0), (1, 1, -2), end_mask=2),
             lambda x: x[1:3, :, -1:0:-2], [((3, 2, 5),), ((4, 1, 2),)], ALL_DTYPES, exact=True,
             prim=lambda: _C.Primitive("StridedSlice", {"begin": (1, 0, -1), "end": (3, 0, 0), "strides": (1, 1, -2),
                                                         "end_mask": 2})),
    OpRecord("StridedSlice", lambda x: ops.StridedSlice(ellipsis_mask=1, new_axis_mask=2, shrink_axis_mask=4)(
                 x, (0, 0, 1), (0, 0, 2), (1, 1, 1)), lambda x: x[..., None, 1], [((2, 3, 4),), ((4,),)],
             (ms.float32, ms.int32), exact=True,
             prim=lambda: _C.Primitive("StridedSlice", {"begin": (0, 0, 1), "end": (0, 0, 2), "strides": (1, 1, 1),
                                                         "ellipsis_mask": 1, "new_axis_mask": 2,
                                                         "shrink_axis_mask": 4}),
             bad=[(lambda: ops.strided_slice(_ones(3), (0,), (2,), (0,)), ValueError, "StridedSlice: 'strides' must be nonzero"),
                  (lambda: ops.strided_slice(_ones(3), (5,), (6,), (1,), shrink_axis_mask=1), ValueError,
                   "StridedSlice: index 5 .* out of range for axis 0 of size 3"),
                  (lambda: ops.strided_slice(_ones(3), (0, 0), (1,), (1,)), ValueError, "must have the same length")]),
    OpRecord("ScatterAdd", _scatter_add, _scatter_add_ref, [((3, 2),), ((4,),)], NUMERIC_DTYPES,
             bad=[(lambda: ops.scatter_add(_ones(3), ms.Tensor([3]), _ones(1)), ValueError,
                   "ScatterAdd: index 3 in 'indices' is out of range"),
                  (lambda: ops.scatter_add(_ones(3, 2), ms.Tensor([0]), _ones(2)), ValueError,
                   r"ScatterAdd: 'updates' must have shape indices.shape \+ input_x.shape\[1:\] = \(1, 2\)")]),
]


# PadEdges (Note [Padding from the edges]) through ops.pad, against np.pad's 'reflect', 'edge' and 'wrap'.
_NP_MODE = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def _pad_edges_record(mode, padding, shapes, dtypes=ALL_DTYPES, bad=()):
    pairs = lambda ndim: [(0, 0)] * (ndim - len(padding) // 2) + [  # noqa: E731
        (padding[2 * i], padding[2 * i + 1]) for i in reversed(range(len(padding) // 2))]
    flat = lambda ndim: tuple(v for p in pairs(ndim) for v in p)  # noqa: E731
    return OpRecord("PadEdges", lambda x: ops.pad(x, padding, mode=mode),
                    lambda x: np.pad(x, pairs(x.ndim), mode=_NP_MODE[mode]), [(s,) for s in shapes], dtypes, exact=True,
                    prim=lambda: _C.Primitive("PadEdges", {"paddings": flat(len(shapes[0])), "mode": mode}),
                    grad_shapes=[(shapes[0],)], bad=list(bad))


def _pad_edges_grad_ref(x_shape, paddings, mode):
    """The adjoint of np.pad: each dy element added where it was read from (by padding an index grid)."""
    def reference(dy):
        index = np.arange(int(np.prod(x_shape))).reshape(x_shape)
        read = np.pad(index, [(paddings[2 * d], paddings[2 * d + 1]) for d in range(len(x_shape))],
                      mode=_NP_MODE[mode])
        dx = np.zeros(int(np.prod(x_shape)), np.float64)
        np.add.at(dx, read.reshape(-1), dy.reshape(-1).astype(np.float64))
        return dx.reshape(x_shape).astype(dy.dtype)
    return reference


RECORDS += [
    _pad_edges_record("reflect", (2, 1, 1, 3), [(2, 3, 4, 5), (1, 2, 4, 3)], bad=[
        (lambda: ops.pad(_ones(2, 3), (3, 0), mode="reflect"), ValueError,
         r"pad: mode='reflect' pads an axis of size 3 by at most 2 on each side, but got \(3, 0\)"),
        (lambda: ops.pad(_ones(2, 3), (0, 4), mode="circular"), ValueError,
         r"pad: mode='circular' pads an axis of size 3 by at most 3 on each side, but got \(0, 4\)"),
        (lambda: ops.pad(_ones(2, 0), (1, 1), mode="replicate"), ValueError,
         r"pad: mode='replicate' pads an axis of size 0 by at most 0 on each side"),
        (lambda: ops.pad(_ones(2, 3), (-1, 1), mode="reflect"), ValueError, "pad: mode='reflect' needs non-negative"),
        (lambda: ops.pad(_ones(2, 3), (1, 1), mode="reflect", value=2.0), ValueError,
         "pad: 'value' applies to mode='constant' only")]),
    _pad_edges_record("replicate", (3, 0, 2, 2), [(2, 3, 1, 5), (0, 2, 1, 2)]),  # padding beyond the size
    _pad_edges_record("circular", (1, 4), [(3, 5), (2, 4)]),
    _pad_edges_record("reflect", (1, 1, 1, 1, 1, 1), [(2, 3, 4, 3)]),  # three axes, the first of 2 padded
    OpRecord("PadEdgesGrad", lambda dy: ops.PadEdgesGrad(paddings=(0, 0, 2, 1, 1, 3), mode="reflect")(dy),
             _pad_edges_grad_ref((2, 4, 5), (0, 0, 2, 1, 1, 3), "reflect"), [((2, 7, 9),)],
             (ms.float16, ms.float32, ms.float64, ms.int32),
             prim=lambda: _C.Primitive("PadEdgesGrad", {"paddings": (0, 0, 2, 1, 1, 3), "mode": "reflect"}),
             bad=[(lambda: ops.PadEdgesGrad(paddings=(0, 0, 2, 1, 1, 3), mode="reflect")(_ones(2, 2, 9)), ValueError,
                   r"PadEdgesGrad: 'dy' of shape \(2, 2, 9\) is smaller than its padding"),
                  (lambda: ops.PadEdges(paddings=(3, 0), mode="reflect")(_ones(3)), ValueError,
                   "PadEdges: mode 'reflect' pads axis 0 of size 3 by at most 2 on each side, but got \\(3, 0\\)"),
                  (lambda: ops.PadEdges(paddings=(1, 0), mode="mirror")(_ones(3)), ValueError,
                   "PadEdges: 'mode' must be 'reflect', 'replicate' or 'circular'")]),
    OpRecord("PadEdgesGrad", lambda dy: ops.PadEdgesGrad(paddings=(3, 2, 0, 1), mode="replicate")(dy),
             _pad_edges_grad_ref((2, 3), (3, 2, 0, 1), "replicate"), [((7, 4),)], (ms.float32, ms.float64),
             prim=lambda: _C.Primitive("PadEdgesGrad", {"paddings": (3, 2, 0, 1), "mode": "replicate"})),
    OpRecord("PadEdgesGrad", lambda dy: ops.PadEdgesGrad(paddings=(0, 0, 4, 2), mode="circular")(dy),
             _pad_edges_grad_ref((3, 4), (0, 0, 4, 2), "circular"), [((3, 10),)], (ms.float32, ms.float64),
             prim=lambda: _C.Primitive("PadEdgesGrad", {"paddings": (0, 0, 4, 2), "mode": "circular"})),
]
