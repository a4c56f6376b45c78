"""Records of AsStrided and AsStridedScatter (basic indexing under autodiff)."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import NUMERIC_DTYPES, OpRecord


def _window(x, size, stride, offset):
    flat = np.ascontiguousarray(x).reshape(-1)
    return np.lib.stride_tricks.as_strided(flat[offset:], size, [s * flat.itemsize for s in stride]).copy()


def _scatter(x, size, stride, offset, input_size):
    out = np.zeros(int(np.prod(input_size)), dtype=np.float64)
    for idx in np.ndindex(*size):
        out[offset + sum(i * s for i, s in zip(idx, stride))] += x[idx]
    return out.reshape(input_size)


RECORDS = [
    OpRecord("AsStrided", lambda x: ops.AsStrided()(x, (2, 2), (4, 2), 1), lambda x: _window(x, (2, 2), (4, 2), 1),
             [((3, 4),), ((12,),)], NUMERIC_DTYPES, exact=True,
             prim=lambda: _C.Primitive("AsStrided", {"size": (2, 2), "stride": (4, 2), "storage_offset": 1}),
             bad=[(lambda: ops.AsStrided()(ms.Tensor(np.ones(4)), (3,), (2,), 0), ValueError,
                   r"AsStrided: the window .* reaches elements \[0, 4\] of an input with 4 elements")]),
    OpRecord("AsStridedScatter", lambda x: ops.AsStridedScatter()(x, (2, 3), (0, 1), 1, (2, 4)),
             lambda x: _scatter(x, (2, 3), (0, 1), 1, (2, 4)), [((2, 3),)],
             prim=lambda: _C.Primitive("AsStridedScatter", {"size": (2, 3), "stride": (0, 1), "storage_offset": 1,
                                                            "input_size": (2, 4)}),
             bad=[(lambda: ops.AsStridedScatter()(ms.Tensor(np.ones((2, 2))), (2, 3), (1, 1), 0, (9,)), ValueError,
                   "AsStridedScatter: 'x' has shape")]),
]
