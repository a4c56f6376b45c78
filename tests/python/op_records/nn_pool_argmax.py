"""Records of MaxPoolWithArgmaxV2 and its gradient MaxPoolGradWithArgmaxV2 (Note [Max pooling with argmax]):
padding, dilation and ceil_mode against a NumPy loop over PyTorch's window geometry."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)


class ArgmaxCase:
    """One attribute set of MaxPoolWithArgmaxV2 and the input shapes it is tested on."""

    def __init__(self, kernel, strides, pads, dilation, ceil_mode, shapes, argmax_type=ms.int64):
        self.attrs = dict(kernel_size=kernel, strides=strides, pads=pads, dilation=dilation, ceil_mode=ceil_mode,
                          argmax_type=argmax_type)
        self.kernel, self.strides, self.pads, self.dilation = kernel, strides, pads, dilation
        self.ceil_mode, self.shapes = ceil_mode, shapes

    def _axis(self, n, axis):
        """The taps of every window along one axis: (out, k) input coordinates, -1 where in the padding."""
        k, s, p, d = self.kernel[axis], self.strides[axis], self.pads[axis], self.dilation[axis]
        room = n + 2 * p - (d * (k - 1) + 1)
        out = (room + (s - 1 if self.ceil_mode else 0)) // s + 1
        if self.ceil_mode and (out - 1) * s >= n + p:
            out -= 1
        taps = np.arange(out)[:, None] * s - p + np.arange(k)[None, :] * d
        return np.where((taps >= 0) & (taps < n), taps, -1)

    def pooled_shape(self, shape):
        return tuple(shape[:2]) + (len(self._axis(shape[2], 0)), len(self._axis(shape[3], 1)))

    def forward(self, x):
        """(values, argmax): each window's first maximum over its cells inside the input."""
        rows, cols = self._axis(x.shape[2], 0), self._axis(x.shape[3], 1)
        y = np.full(x.shape[:2] + (len(rows), len(cols)), -np.inf)
        at = np.zeros(y.shape, np.int64)
        for oy, row_taps in enumerate(rows):
            for ox, col_taps in enumerate(cols):
                cells = [(r, c) for r in row_taps if r >= 0 for c in col_taps if c >= 0]
                values = np.stack([x[:, :, r, c] for r, c in cells], -1)
                first = values.argmax(-1)
                y[:, :, oy, ox] = np.take_along_axis(values, first[..., None], -1)[..., 0]
                at[:, :, oy, ox] = np.array([r * x.shape[3] + c for r, c in cells])[first]
        return y, at

    def backward(self, x, dy, argmax):
        dx = np.zeros(x.shape)
        flat = dx.reshape(x.shape[:2] + (x.shape[2] * x.shape[3],))
        for idx in np.ndindex(*argmax.shape):
            flat[idx[0], idx[1], argmax[idx]] += dy[idx]
        return dx


CASES = [
    ArgmaxCase((3, 3), (2, 2), (1, 1), (1, 1), False, [(2, 3, 7, 8), (1, 1, 1, 1)]),
    ArgmaxCase((3, 2), (2, 1), (1, 1), (2, 3), True, [(2, 2, 9, 8)], ms.int32),
    ArgmaxCase((2, 2), (1, 3), (0, 1), (1, 1), True, [(1, 2, 5, 11), (0, 2, 4, 4)]),
]


def _sample_grad_inputs(case):
    """(x, grads, argmax) with argmax the real one of x, so the gradient is the one autodiff sees."""
    def sample(rng, shapes, dtype):
        x = rng.uniform(-3, 3, shapes[0])
        _, argmax = case.forward(x)
        return [x, rng.uniform(-3, 3, shapes[1]), argmax]
    return sample


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


_V2 = ops.MaxPoolWithArgmaxV2
_GRAD = lambda **kw: ops.MaxPoolGradWithArgmaxV2(**{**dict(kernel_size=(2, 2), strides=(2, 2)), **kw})  # noqa: E731
BAD = [
    (lambda: _V2(3, 1, pads=2)(_t(1, 1, 6, 6)), ValueError,
     "MaxPoolWithArgmaxV2: 'pads' must be at most half the kernel size, but got 2 for a window of 3 along the height"),
    (lambda: _V2(3, 1, dilation=(3, 1))(_t(1, 1, 6, 6)), ValueError,
     r"MaxPoolWithArgmaxV2: a window of 3 cells at dilation 3 \(7 wide\) is larger than the height of the padded "
     r"input \(6 \+ 2 \* 0\)"),
    (lambda: _V2(2)(_t(1, 1, 4, 4, dtype=ms.bool_)), TypeError, "MaxPoolWithArgmaxV2: 'x' must have dtype in"),
    (lambda: _V2(2, 2, argmax_type=ms.float32)(_t(1, 1, 4, 4)), TypeError,
     "MaxPoolWithArgmaxV2: 'argmax_type' must be Int32 or Int64, but got Float32"),
    (lambda: _V2(2, 2)(_t(4, 4)), ValueError, r"MaxPoolWithArgmaxV2: 'x' must be 4-d \(N, C, H, W\)"),
    (lambda: _C.Primitive("MaxPoolWithArgmaxV2", {"kernel_size": (2, 2), "pads": (2, 0)})(_t(1, 1, 6, 6)), ValueError,
     "MaxPoolWithArgmaxV2: 'pads' must be at most half the kernel size, but got 2 for a window of 2 along the height"),
    (lambda: _C.Primitive("MaxPoolWithArgmaxV2", {"kernel_size": (2, 2), "dilation": (0, 1)})(_t(1, 1, 6, 6)),
     ValueError, r"MaxPoolWithArgmaxV2: 'dilation' must be in \[1, 2147483647\], but got \(0, 1\)"),
    (lambda: _C.Primitive("MaxPoolWithArgmaxV2", {"kernel_size": (2, 2), "argmax_type": ms.float32})(_t(1, 1, 4, 4)),
     TypeError, "MaxPoolWithArgmaxV2: 'argmax_type' must be Int32 or Int64, but got Float32"),
    (lambda: _GRAD()(_t(1, 1, 4, 4), _t(1, 1, 2, 2), ms.Tensor(np.full((1, 1, 2, 2), 16), ms.int64)), ValueError,
     r"MaxPoolGradWithArgmaxV2: 'argmax' 16 at position 0 is outside the input's 4 x 4 plane"),
    (lambda: _GRAD()(_t(1, 1, 4, 4), _t(1, 1, 2, 2), ms.Tensor(np.full((1, 1, 2, 2), -1), ms.int32)), ValueError,
     r"MaxPoolGradWithArgmaxV2: 'argmax' -1 at position 0 is outside"),
    (lambda: _GRAD()(_t(1, 1, 4, 4), _t(1, 1, 3, 3), ms.Tensor(np.zeros((1, 1, 2, 2)), ms.int64)), ValueError,
     r"MaxPoolGradWithArgmaxV2: 'grads' must have the pooled shape \(1, 1, 2, 2\), but got \(1, 1, 3, 3\)"),
    (lambda: _GRAD()(_t(1, 1, 4, 4), _t(1, 1, 2, 2), _t(1, 1, 2, 2)), TypeError,
     "MaxPoolGradWithArgmaxV2: 'argmax' must have dtype in"),
    (lambda: _GRAD()(_t(1, 1, 4, 4), _t(1, 1, 2, 2, dtype=ms.float64), ms.Tensor(np.zeros((1, 1, 2, 2)), ms.int64)),
     TypeError, r"MaxPoolGradWithArgmaxV2: 'grads' must have the dtype of 'x' \(Float32\), but got Float64"),
]


def _records(case):
    grad_shapes = [(s, case.pooled_shape(s), case.pooled_shape(s)) for s in case.shapes]
    return [
        OpRecord("MaxPoolWithArgmaxV2", lambda x: ops.MaxPoolWithArgmaxV2(**case.attrs)(x), case.forward,
                 [(s,) for s in case.shapes], DTYPES, prim=lambda: _C.Primitive("MaxPoolWithArgmaxV2", case.attrs),
                 grad_shapes=[(case.shapes[0],)], grad_outputs=(0,), bad=BAD),
        OpRecord("MaxPoolGradWithArgmaxV2", lambda x, dy, at: ops.MaxPoolGradWithArgmaxV2(**case.attrs)(x, dy, at),
                 case.backward, grad_shapes, DTYPES, input_dtypes=(None, None, case.attrs["argmax_type"]),
                 sampler=_sample_grad_inputs(case),
                 prim=lambda: _C.Primitive("MaxPoolGradWithArgmaxV2", case.attrs), grad_shapes=grad_shapes[:1]),
    ]


RECORDS = [r for case in CASES for r in _records(case)]
