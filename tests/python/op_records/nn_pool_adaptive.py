"""Records of AdaptiveAvgPool2D and AdaptiveAvgPool2DGrad (Note [Adaptive pooling windows])."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.nn_norm import MultiOutputRecord
from op_records.record import OpRecord

DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)
TOL = {ms.float32: (1e-6, 1e-6)}


def _windows(size_in, size_out):
    return [slice(i * size_in // size_out, -(-(i + 1) * size_in // size_out)) for i in range(size_out)]


def _pool(x, out_hw):
    out = np.zeros(x.shape[:-2] + tuple(out_hw))
    for i, sy in enumerate(_windows(x.shape[-2], out_hw[0])):
        for j, sx in enumerate(_windows(x.shape[-1], out_hw[1])):
            out[..., i, j] = x[..., sy, sx].mean(axis=(-1, -2))
    return out


def _pool_grad(dy, in_shape):
    dx = np.zeros(in_shape)
    for i, sy in enumerate(_windows(in_shape[-2], dy.shape[-2])):
        for j, sx in enumerate(_windows(in_shape[-1], dy.shape[-1])):
            count = (sy.stop - sy.start) * (sx.stop - sx.start)
            dx[..., sy, sx] += dy[..., i, j][..., None, None] / count
    return dx


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


def _pool_record(output_size, shapes, out_hw, call=None):
    op = lambda x: ops.AdaptiveAvgPool2D(output_size)(x)  # noqa: E731
    return OpRecord("AdaptiveAvgPool2D", call or op, lambda x: _pool(x, out_hw(x.shape)), [(s,) for s in shapes],
                    DTYPES, tol=TOL, prim=lambda: _C.Primitive("AdaptiveAvgPool2D", {"output_size": output_size}),
                    grad_shapes=[(shapes[0],)], bad=BAD)


def _grad_record(in_shape, grad_shape):
    return OpRecord("AdaptiveAvgPool2DGrad", lambda dy: ops.AdaptiveAvgPool2DGrad()(dy, in_shape),
                    lambda dy: _pool_grad(dy, in_shape), [(grad_shape,)], DTYPES, tol=TOL,
                    prim=lambda: _C.Primitive("AdaptiveAvgPool2DGrad", {"orig_input_shape": in_shape}),
                    bad=GRAD_BAD)


BAD = [
    (lambda: ops.AdaptiveAvgPool2D(2)(_t(4, 4)), ValueError, r"AdaptiveAvgPool2D: 'input_x' must be 3-d \(C, H, W\)"),
    (lambda: ops.AdaptiveAvgPool2D((2, 0))(_t(1, 4, 4)), ValueError, "'output_size' entries must be positive"),
    (lambda: ops.AdaptiveAvgPool2D((1, 2, 3))(_t(1, 4, 4)), ValueError, "'output_size' must be an int or a tuple of 2"),
    (lambda: ops.AdaptiveAvgPool2D(2)(_t(1, 0, 4)), ValueError, "has an empty spatial size"),
    (lambda: ops.AdaptiveAvgPool2D(2)(_t(1, 4, 4, dtype=ms.int32)), TypeError, "AdaptiveAvgPool2D: 'input_x' must have"),
    (lambda: ops.adaptive_avg_pool2d(_t(1, 4, 4), "2"), TypeError, "adaptive_avg_pool2d: 'output_size' must be"),
]
GRAD_BAD = [
    (lambda: ops.AdaptiveAvgPool2DGrad()(_t(2, 3, 2, 2), (2, 4, 5, 5)), ValueError,
     r"'input_grad' of shape \(2, 3, 2, 2\) must match 'orig_input_shape' \(2, 4, 5, 5\)"),
]

def _argmax(x, out_hw):
    """Flat in-plane index of each window's first maximum."""
    idx = np.zeros(x.shape[:-2] + tuple(out_hw), dtype=np.int64)
    for i, sy in enumerate(_windows(x.shape[-2], out_hw[0])):
        for j, sx in enumerate(_windows(x.shape[-1], out_hw[1])):
            cells = x[..., sy, sx].reshape(x.shape[:-2] + ((sy.stop - sy.start) * (sx.stop - sx.start),))
            k = cells.argmax(axis=-1)
            idx[..., i, j] = (sy.start + k // (sx.stop - sx.start)) * x.shape[-1] + sx.start + k % (sx.stop - sx.start)
    return idx


def _max_pool_ref(out_hw):
    def reference(x):
        idx = _argmax(x, out_hw)
        flat = x.reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))
        return [np.take_along_axis(flat, idx.reshape(idx.shape[:-2] + (-1,)), axis=-1).reshape(idx.shape), idx]
    return reference


def _max_pool_grad_ref(dy, x):
    idx = _argmax(x, dy.shape[-2:])
    dx = np.zeros(x.shape).reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))
    for pos in np.ndindex(*idx.shape):
        dx[pos[:-2] + (idx[pos],)] += dy[pos]
    return dx.reshape(x.shape)


def _max_pool_gather_ref(out_hw):
    def reference(x, g):
        idx = _argmax(x, out_hw)
        flat = g.reshape(g.shape[:-2] + (g.shape[-2] * g.shape[-1],))
        return np.take_along_axis(flat, idx.reshape(idx.shape[:-2] + (-1,)), axis=-1).reshape(idx.shape)
    return reference


MAX_RECORDS = [
    MultiOutputRecord("AdaptiveMaxPool2D", lambda x: ops.AdaptiveMaxPool2D((3, 2))(x), _max_pool_ref((3, 2)),
                      [((2, 3, 7, 5),), ((2, 4, 3),)], DTYPES, tol=TOL,
                      prim=lambda: _C.Primitive("AdaptiveMaxPool2D", {"output_size": (3, 2)}),
                      bad=[(lambda: ops.AdaptiveMaxPool2D(2)(_t(4, 4)), ValueError, "AdaptiveMaxPool2D: 'input_x' must be 3-d")]),
    MultiOutputRecord("AdaptiveMaxPool2D", lambda x: ops.adaptive_max_pool2d(x, (None, 4), return_indices=True),
                      lambda x: _max_pool_ref((x.shape[-2], 4))(x), [((1, 2, 3, 3),)], DTYPES, tol=TOL,
                      prim=lambda: _C.Primitive("AdaptiveMaxPool2D", {"output_size": (-1, 4)})),
    OpRecord("AdaptiveMaxPool2DGrad", lambda dy, x: ops.AdaptiveMaxPool2DGrad()(dy, x), _max_pool_grad_ref,
             [((2, 3, 3, 2), (2, 3, 7, 5)), ((2, 2, 2), (2, 5, 4))], DTYPES, tol=TOL,
             prim=lambda: _C.Primitive("AdaptiveMaxPool2DGrad"),
             bad=[(lambda: ops.AdaptiveMaxPool2DGrad()(_t(2, 3, 2, 2), _t(2, 4, 5, 5)), ValueError,
                   "AdaptiveMaxPool2DGrad: 'y_grad'")]),
    OpRecord("AdaptiveMaxPool2DGradGrad", lambda x, g: ops.AdaptiveMaxPool2DGradGrad((3, 2))(x, g),
             _max_pool_gather_ref((3, 2)), [((2, 3, 7, 5), (2, 3, 7, 5))], DTYPES, tol=TOL,
             prim=lambda: _C.Primitive("AdaptiveMaxPool2DGradGrad", {"output_size": (3, 2)})),
]

RECORDS = MAX_RECORDS + [
    _pool_record((3, 2), [(2, 3, 7, 5), (1, 4, 3, 2), (0, 2, 4, 4)], lambda s: (3, 2)),
    _pool_record(1, [(2, 3, 5, 6), (3, 1, 1)], lambda s: (1, 1)),  # global average pooling
    _pool_record((4, 5), [(1, 2, 3, 3)], lambda s: (4, 5)),  # upsampling: windows overlap
    _pool_record((2, -1), [(2, 5, 7)], lambda s: (2, s[-1]), call=lambda x: ops.adaptive_avg_pool2d(x, (2, None))),
    _pool_record((5, 2), [(1, 2, 7, 4)], lambda s: (5, 2), call=lambda x: ops.interpolate(x, size=(5, 2), mode="area")),
    _pool_record((3, 1), [(2, 3, 7, 5)], lambda s: (3, 1)),  # windows of whole rows, overlapping
    _grad_record((2, 3, 7, 5), (2, 3, 3, 2)),
    _grad_record((2, 3, 5, 6), (2, 3, 1, 1)),  # global average pooling's gradient
    _grad_record((3, 2, 2), (3, 5, 4)),
]
