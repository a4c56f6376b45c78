"""Records of Conv3D and its backward ops (MindSpore's operand order: Conv3DBackpropInput(weight, dout),
Conv3DBackpropFilter(x, dout))."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records import nn_conv_ref as ref
from op_records.record import OpRecord

DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)
TOL = {ms.float16: (2e-3, 5e-2), ms.float32: (1e-5, 1e-4)}


def _triple(v):
    return (v,) * 3 if isinstance(v, int) else tuple(v)


class Conv3DCase:
    def __init__(self, out_channel, kernel, x_shape, w_shape, pad_mode="valid", pad=0, stride=1, dilation=1, group=1):
        self.attrs = dict(out_channel=out_channel, kernel_size=kernel, pad_mode=pad_mode, pad=pad, stride=stride,
                          dilation=dilation, group=group)
        self.x_shape, self.w_shape = x_shape, w_shape
        self.stride, self.dilation, self.group = _triple(stride), _triple(dilation), group
        self.pads = ref.conv_pads(x_shape[2:], _triple(kernel), self.stride, self.dilation, pad_mode, pad)
        self.y_shape = ref.conv(np.zeros(x_shape), np.zeros(w_shape), self.stride, self.dilation, self.pads, group).shape

    def geometry(self):
        return self.stride, self.dilation, self.pads, self.group

    def records(self):
        a, xs, ws, ys = self.attrs, self.x_shape, self.w_shape, self.y_shape
        return [
            OpRecord("Conv3D", lambda x, w: ops.Conv3D(**a)(x, w), lambda x, w: ref.conv(x, w, *self.geometry()),
                     [(xs, ws)], DTYPES, tol=TOL, prim=lambda: _C.Primitive("Conv3D", a), bad=BAD),
            OpRecord("Conv3DBackpropInput", lambda w, dy: ops.Conv3DBackpropInput(**a)(w, dy, xs),
                     lambda w, dy: ref.conv_backprop_input(dy, w, xs, *self.geometry()), [(ws, ys)], DTYPES, tol=TOL,
                     prim=lambda: _C.Primitive("Conv3DBackpropInput", {**a, "input_size": xs})),
            OpRecord("Conv3DBackpropFilter", lambda x, dy: ops.Conv3DBackpropFilter(**a)(x, dy, ws),
                     lambda x, dy: ref.conv_backprop_filter(dy, x, ws, *self.geometry()), [(xs, ys)], DTYPES, tol=TOL,
                     prim=lambda: _C.Primitive("Conv3DBackpropFilter", {**a, "filter_size": ws})),
        ]


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


BAD = [
    (lambda: ops.Conv3D(4, 2)(_t(1, 3, 4, 4), _t(4, 3, 2, 2, 2)), ValueError,
     r"Conv3D: 'x' must be 5-d \(N, C, D, H, W\), but got shape \(1, 3, 4, 4\)"),
    (lambda: ops.Conv3D(4, 2, pad_mode="pad", pad=(1, 1, 1, 1))(_t(1, 3, 4, 4, 4), _t(4, 3, 2, 2, 2)), ValueError,
     r"Conv3D: 'pad' must be an int or a tuple of 6 ints"),
    (lambda: ops.Conv3D(4, 2, data_format="NCHW")(_t(1, 3, 4, 4, 4), _t(4, 3, 2, 2, 2)), ValueError,
     "Conv3D: 'data_format' must be 'NCDHW'"),
    (lambda: ops.Conv3DBackpropInput(4, 2)(_t(4, 3, 2, 2, 2), _t(1, 4, 2, 2, 2), (1, 3, 4, 4, 4)), ValueError,
     r"Conv3DBackpropInput: 'dout' has shape \(1, 4, 2, 2, 2\), but the convolution's output has shape \(1, 4, 3, 3, 3\)"),
]

CASES = [
    Conv3DCase(4, 2, (2, 3, 4, 3, 5), (4, 3, 2, 2, 2)),
    Conv3DCase(4, (2, 3, 1), (1, 4, 5, 4, 3), (4, 2, 2, 3, 1), pad_mode="pad", pad=(1, 0, 1, 1, 0, 2), stride=(2, 1, 2),
               group=2),
    Conv3DCase(2, 3, (1, 2, 4, 5, 3), (2, 2, 3, 3, 3), pad_mode="same", stride=2, dilation=(1, 2, 1)),
]

# ops.conv3d: padding (d, h, w) means (d, d, h, h, w, w).
FUNCTIONAL = OpRecord(
    "Conv3D", lambda x, w, b: ops.conv3d(x, w, b, stride=(1, 2, 1), pad_mode="pad", padding=(1, 0, 1)),
    lambda x, w, b: ref.conv(x, w, (1, 2, 1), (1, 1, 1), (1, 1, 0, 0, 1, 1), 1) + b[None, :, None, None, None],
    [((2, 2, 3, 4, 3), (3, 2, 2, 2, 2), (3,))], DTYPES, tol=TOL,
    prim=lambda: _C.Primitive("Conv3D", dict(out_channel=3, kernel_size=2, pad_mode="pad", pad=(1, 1, 0, 0, 1, 1),
                                             stride=(1, 2, 1), data_format="NCDHW")),
    grad_shapes=[((1, 2, 3, 4, 3), (3, 2, 2, 2, 2))],
    bad=[(lambda: ops.conv3d(_t(1, 2, 3, 3, 3), _t(3, 2, 2, 2)), ValueError, "conv3d: 'weight' must be 5-d")])

RECORDS = [FUNCTIONAL] + [r for case in CASES for r in case.records()]
