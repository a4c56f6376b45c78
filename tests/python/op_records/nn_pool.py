"""Records of MaxPool, AvgPool and their gradient ops (MaxPoolGrad, MaxPoolGradGrad, AvgPoolGrad).

Float32 runs oneDNN, float64 direct loops; the gradient check runs in float64.
"""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)
TOL = {ms.float32: (1e-6, 1e-6)}


def _cells(x, sy, sx):
    """The window's cells of every plane, flattened: (N, C, cells)."""
    return x[:, :, sy, sx].reshape(x.shape[:2] + ((sy.stop - sy.start) * (sx.stop - sx.start),))


class PoolCase:
    """One attribute set and the input shapes it is tested on."""

    def __init__(self, kernel, strides, pad_mode, shapes):
        self.attrs = dict(kernel_size=kernel, strides=strides, pad_mode=pad_mode)
        pair = lambda v: (v, v) if isinstance(v, int) else tuple(v)  # noqa: E731
        self.kernel, self.strides, self.same, self.shapes = pair(kernel), pair(strides), pad_mode.lower() == "same", shapes

    def windows(self, shape):
        """For each output (oy, ox): the in-bounds (row slice, column slice) of its window."""
        (h, w), (kh, kw), (sh, sw) = shape[2:], self.kernel, self.strides
        if self.same:
            oh, ow = -(-h // sh), -(-w // sw)
            pt, pl = max(0, (oh - 1) * sh + kh - h) // 2, max(0, (ow - 1) * sw + kw - w) // 2
        else:
            oh, ow, pt, pl = (h - kh) // sh + 1, (w - kw) // sw + 1, 0, 0
        return {(oy, ox): (slice(max(oy * sh - pt, 0), min(oy * sh - pt + kh, h)),
                           slice(max(ox * sw - pl, 0), min(ox * sw - pl + kw, w)))
                for oy in range(oh) for ox in range(ow)}, (oh, ow)

    def pooled_shape(self, shape):
        return tuple(shape[:2]) + self.windows(shape)[1]

    def forward(self, x, reduce):
        wins, (oh, ow) = self.windows(x.shape)
        out = np.zeros(x.shape[:2] + (oh, ow))
        for (oy, ox), (sy, sx) in wins.items():
            out[:, :, oy, ox] = reduce(_cells(x, sy, sx), axis=-1)
        return out

    def argmax_positions(self, x):
        """For each output: flat index into the plane of its window's first maximum."""
        wins, (oh, ow) = self.windows(x.shape)
        pos = np.zeros(x.shape[:2] + (oh, ow), dtype=np.int64)
        for (oy, ox), (sy, sx) in wins.items():
            k = _cells(x, sy, sx).argmax(axis=-1)
            ncols = sx.stop - sx.start
            pos[:, :, oy, ox] = (sy.start + k // ncols) * x.shape[3] + sx.start + k % ncols
        return pos

    def max_grad(self, x, dy):
        pos, dx = self.argmax_positions(x), np.zeros(x.shape)
        flat = dx.reshape(x.shape[:2] + (x.shape[2] * x.shape[3],))
        for idx in np.ndindex(*pos.shape):
            flat[idx[0], idx[1], pos[idx]] += dy[idx]
        return dx

    def max_gather(self, x, grad):
        pos = self.argmax_positions(x)
        flat = grad.reshape(x.shape[:2] + (x.shape[2] * x.shape[3],))
        return np.take_along_axis(flat, pos.reshape(pos.shape[:2] + (pos.shape[2] * pos.shape[3],)), axis=-1).reshape(pos.shape)

    def avg_grad(self, x, dy):
        wins, _ = self.windows(x.shape)
        dx = np.zeros(x.shape)
        for (oy, ox), (sy, sx) in wins.items():
            count = (sy.stop - sy.start) * (sx.stop - sx.start)
            dx[:, :, sy, sx] += dy[:, :, oy, ox][:, :, None, None] / count
        return dx


CASES = [
    PoolCase(2, 2, "valid", [(2, 3, 6, 8), (1, 1, 2, 2), (0, 2, 4, 4)]),
    PoolCase((3, 2), (2, 1), "same", [(2, 2, 7, 5)]),
    PoolCase(3, 2, "SAME", [(1, 3, 6, 6), (1, 2, 1, 1)]),
]


def _prim(op, case):
    return lambda: _C.Primitive(op, case.attrs)


def _pool_records(case):
    first = [(case.shapes[0],)]
    with_pooled = lambda s, last: (s, case.pooled_shape(s), last(s))  # noqa: E731
    grad_shapes = [with_pooled(s, lambda s: case.pooled_shape(s)) for s in case.shapes]
    gather_shapes = [with_pooled(s, lambda s: s) for s in case.shapes]
    return [
        OpRecord("MaxPool", lambda x: ops.MaxPool(**case.attrs)(x), lambda x: case.forward(x, np.max),
                 [(s,) for s in case.shapes], DTYPES, tol=TOL, prim=_prim("MaxPool", case), grad_shapes=first,
                 bad=POOL_BAD),
        OpRecord("AvgPool", lambda x: ops.AvgPool(**case.attrs)(x), lambda x: case.forward(x, np.mean),
                 [(s,) for s in case.shapes], DTYPES, tol=TOL, prim=_prim("AvgPool", case), grad_shapes=first),
        OpRecord("MaxPoolGrad", lambda x, y, dy: ops.MaxPoolGrad(**case.attrs)(x, y, dy),
                 lambda x, y, dy: case.max_grad(x, dy), grad_shapes, DTYPES, tol=TOL,
                 prim=_prim("MaxPoolGrad", case), grad_shapes=grad_shapes[:1], bad=POOL_GRAD_BAD),
        OpRecord("MaxPoolGradGrad", lambda x, y, g: ops.MaxPoolGradGrad(**case.attrs)(x, y, g),
                 lambda x, y, g: case.max_gather(x, g), gather_shapes, DTYPES, tol=TOL,
                 prim=_prim("MaxPoolGradGrad", case), grad_shapes=gather_shapes[:1]),
        OpRecord("AvgPoolGrad", lambda x, y, dy: ops.AvgPoolGrad(**case.attrs)(x, y, dy),
                 lambda x, y, dy: case.avg_grad(x, dy), grad_shapes, DTYPES, tol=TOL,
                 prim=_prim("AvgPoolGrad", case), grad_shapes=grad_shapes[:1]),
    ]


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


POOL_BAD = [
    (lambda: ops.MaxPool(3, 1)(_t(1, 1, 2, 5)), ValueError,
     r"MaxPool: 'kernel_size' \(3,\) is larger than the input's spatial size \(2, 5\)"),
    (lambda: ops.MaxPool(2, 2, pad_mode="full")(_t(1, 1, 4, 4)), ValueError,
     "MaxPool: 'pad_mode' must be 'valid', 'same' or 'pad', but got 'full'"),
    (lambda: ops.MaxPool(2, 2, "pad", "NCHW", (1, 0, 0))(_t(1, 1, 4, 4)), ValueError,
     r"MaxPool: 'pad_list' must be 4 non-negative ints \(top, bottom, left, right\), but got \(1, 0, 0\)"),
    (lambda: ops.AvgPool(2, 2)(_t(4, 4)), ValueError, r"AvgPool: 'x' must be 4-d \(N, C, H, W\), but got shape \(4, 4\)"),
    (lambda: ops.AvgPool(2, 2, "pad")(_t(1, 1, 4, 4)), ValueError,
     "AvgPool: 'pad_mode' must be 'valid' or 'same', but got 'pad'"),
    (lambda: ops.MaxPool((2, 2, 2), 1)(_t(1, 1, 4, 4)), ValueError, "MaxPool: 'kernel_size' must be an int"),
    (lambda: ops.MaxPool(0, 1)(_t(1, 1, 4, 4)), ValueError,
     r"MaxPool: 'kernel_size' must be in \[1, 2147483647\], but got \(0,\)"),
    (lambda: ops.MaxPool(2, 1 << 40)(_t(1, 1, 4, 4)), ValueError, "MaxPool: 'strides' must be in"),
    (lambda: ops.MaxPool(2, 2)(_t(1, 1, 4, 4, dtype=ms.int32)), TypeError, "MaxPool: 'x' must have dtype in"),
    (lambda: ops.MaxPool(2, 2, pad_mode="same")(_t(1, 1, 0, 4)), ValueError, "is empty; there is nothing to pool"),
]

POOL_GRAD_BAD = [
    (lambda: ops.MaxPoolGrad(2, 2)(_t(1, 1, 4, 4), _t(1, 1, 2, 2), _t(1, 1, 3, 3)), ValueError,
     r"MaxPoolGrad: 'grad' must have shape \(1, 1, 2, 2\), but got \(1, 1, 3, 3\)"),
    (lambda: ops.AvgPoolGrad(2, 2)(_t(1, 1, 4, 4), _t(1, 1, 2, 2), _t(1, 1, 2, 2, dtype=ms.float64)), TypeError,
     "AvgPoolGrad: 'grad' must have the dtype of 'x_origin'"),
]

_FUNCTIONAL_CASE = PoolCase(3, 2, "valid", [(2, 3, 7, 8)])
FUNCTIONAL = [
    OpRecord("MaxPool", lambda x: ops.max_pool2d(x, 3, 2), lambda x: _FUNCTIONAL_CASE.forward(x, np.max),
             [(s,) for s in _FUNCTIONAL_CASE.shapes], DTYPES, tol=TOL, prim=_prim("MaxPool", _FUNCTIONAL_CASE),
             bad=[(lambda: ops.max_pool2d(_t(1, 1, 4, 4), 2, dilation=0), ValueError,
                   "max_pool2d: 'dilation' must be >= 1, but got 0"),
                  (lambda: ops.max_pool2d(_t(1, 1, 4, 4), 2, padding=2), ValueError,
                   r"max_pool2d: 'padding' must be between 0 and half the kernel size \(2\), but got 2")]),
    OpRecord("AvgPool", lambda x: ops.avg_pool2d(x, kernel_size=3, stride=2), lambda x: _FUNCTIONAL_CASE.forward(x, np.mean),
             [(s,) for s in _FUNCTIONAL_CASE.shapes], DTYPES, tol=TOL, prim=_prim("AvgPool", _FUNCTIONAL_CASE),
             bad=[(lambda: ops.avg_pool2d(_t(1, 1, 4, 4), 2, 2, divisor_override=0), ValueError,
                   "avg_pool2d: 'divisor_override' must be a positive int, but got 0")]),
]


def _torch_pool(x, k, s, p, ceil, kind, include=True, divisor=None):
    """PyTorch's max_pool2d / avg_pool2d with padding and ceil_mode, written out: the reference."""
    n, c, h, w = x.shape

    def size(length):
        out = (length + 2 * p - k + (s - 1 if ceil else 0)) // s + 1
        return out - 1 if ceil and (out - 1) * s >= length + p else out

    out = np.empty((n, c, size(h), size(w)))
    for i in range(out.shape[2]):
        for j in range(out.shape[3]):
            hs, ws = i * s - p, j * s - p
            he, we = min(hs + k, h + p), min(ws + k, w + p)
            window = x[:, :, max(hs, 0):min(he, h), max(ws, 0):min(we, w)]
            if kind == "max":
                out[:, :, i, j] = window.max((2, 3))
            else:
                count = divisor or ((he - hs) * (we - ws) if include else window.shape[2] * window.shape[3])
                out[:, :, i, j] = window.sum((2, 3)) / count
    return out


PADDED = [
    OpRecord("MaxPool", lambda x: ops.max_pool2d(x, 3, 2, padding=1), lambda x: _torch_pool(x, 3, 2, 1, False, "max"),
             [((2, 3, 7, 8),)], DTYPES, tol=TOL),
    OpRecord("MaxPool", lambda x: ops.max_pool2d(x, 3, 2, padding=1, ceil_mode=True),
             lambda x: _torch_pool(x, 3, 2, 1, True, "max"), [((2, 3, 8, 7),)], DTYPES, tol=TOL),
    OpRecord("AvgPool", lambda x: ops.avg_pool2d(x, 3, 2, padding=1), lambda x: _torch_pool(x, 3, 2, 1, False, "avg"),
             [((2, 3, 7, 8),)], DTYPES, tol=TOL),
    OpRecord("AvgPool", lambda x: ops.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True, count_include_pad=False),
             lambda x: _torch_pool(x, 3, 2, 1, True, "avg", include=False), [((2, 3, 8, 7),)], DTYPES, tol=TOL),
    OpRecord("AvgPool", lambda x: ops.avg_pool2d(x, 2, 2, ceil_mode=True), lambda x: _torch_pool(x, 2, 2, 0, True, "avg"),
             [((1, 2, 5, 5),)], DTYPES, tol=TOL),
    OpRecord("AvgPool", lambda x: ops.avg_pool2d(x, 3, 1, padding=1, divisor_override=4),
             lambda x: _torch_pool(x, 3, 1, 1, False, "avg", divisor=4), [((1, 2, 4, 5),)], DTYPES, tol=TOL),
]

RECORDS = FUNCTIONAL + PADDED + [r for case in CASES for r in _pool_records(case)]
