"""Records of Conv2D and its backward ops, Conv2DBackpropInput and Conv2DBackpropFilter.

Float32 runs oneDNN, float64 the im2col + dgemm path; the gradient check runs in float64.
"""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records import nn_conv_ref as ref
from op_records.record import OpRecord

DTYPES = (ms.float16, ms.bfloat16, ms.float32, ms.float64)
# Sums of up to ~50 products of values in [-3, 3]: float16 rounds the result to ~1e-3 relative.
TOL = {ms.float16: (2e-3, 5e-2), ms.float32: (1e-5, 1e-4)}


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


class ConvCase:
    """One Conv2D attribute set and the (x shape, w shape) samples it is tested on."""

    def __init__(self, out_channel, kernel, samples, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 grad_samples=None):
        self.attrs = dict(out_channel=out_channel, kernel_size=kernel, pad_mode=pad_mode, pad=pad, stride=stride,
                          dilation=dilation, group=group)
        self.samples, self.grad_samples = samples, grad_samples or samples[:1]
        self.kernel, self.stride, self.dilation = _pair(kernel), _pair(stride), _pair(dilation)
        self.pad_mode, self.pad, self.group = pad_mode, pad, group

    def pads(self, x_shape):
        return ref.conv_pads(x_shape[2:], self.kernel, self.stride, self.dilation, self.pad_mode, self.pad)

    def geometry(self, x_shape):
        return self.stride, self.dilation, self.pads(x_shape), self.group

    def out_shape(self, x_shape, w_shape):
        return ref.conv2d(np.zeros(x_shape), np.zeros(w_shape), *self.geometry(x_shape)).shape


CASES = [
    ConvCase(6, 3, [((2, 4, 7, 8), (6, 4, 3, 3)), ((1, 4, 3, 3), (6, 4, 3, 3)), ((0, 4, 5, 5), (6, 4, 3, 3)),
                    ((1, 0, 5, 5), (6, 0, 3, 3))]),  # no input channels: a sum over nothing
    ConvCase(4, (3, 2), [((2, 3, 9, 8), (4, 3, 3, 2))], pad_mode="same", stride=2, dilation=(2, 1),
             grad_samples=[((1, 3, 7, 6), (4, 3, 3, 2))]),
    ConvCase(6, 3, [((2, 4, 6, 7), (6, 2, 3, 3))], pad_mode="pad", pad=(1, 0, 2, 1), stride=(2, 1), group=2),
    ConvCase(5, 1, [((3, 2, 4, 4), (5, 2, 1, 1))], pad_mode="SAME"),
    ConvCase(4, 3, [((2, 4, 6, 7), (4, 1, 3, 3))], pad_mode="pad", pad=1, group=4),  # depthwise
]


def _conv_record(case):
    def call(x, w):
        return ops.Conv2D(**case.attrs)(x, w)

    def reference(x, w):
        return ref.conv2d(x, w, *case.geometry(x.shape))

    return OpRecord("Conv2D", call, reference, case.samples, DTYPES, tol=TOL,
                    prim=lambda: _C.Primitive("Conv2D", case.attrs), grad_shapes=case.grad_samples, bad=CONV_BAD)


def _backprop_input_record(case, op="Conv2DBackpropInput"):
    samples = [(case.out_shape(x, w), w, x) for x, w in case.samples]
    grads = [(case.out_shape(x, w), w) for x, w in case.grad_samples]
    x_shapes = {(case.out_shape(x, w), w): x for x, w in case.samples + case.grad_samples}

    def call(dy, w):
        return getattr(ops, op)(**case.attrs)(dy, w, x_shapes[(tuple(dy.shape), tuple(w.shape))])

    def reference(dy, w):
        x_shape = x_shapes[(dy.shape, w.shape)]
        return ref.conv2d_backprop_input(dy, w, x_shape, *case.geometry(x_shape))

    grad_x = x_shapes[grads[0]]
    return OpRecord(op, call, reference, [s[:2] for s in samples], DTYPES, tol=TOL,
                    prim=lambda: _C.Primitive(op, {**case.attrs, "input_sizes": grad_x}),
                    grad_shapes=grads[:1], bad=BACKPROP_INPUT_BAD)


def _backprop_filter_record(case):
    samples = [(case.out_shape(x, w), x) for x, w in case.samples]
    w_shapes = {(case.out_shape(x, w), x): w for x, w in case.samples + case.grad_samples}
    grads = [(case.out_shape(x, w), x) for x, w in case.grad_samples]

    def call(dy, x):
        return ops.Conv2DBackpropFilter(**case.attrs)(dy, x, w_shapes[(tuple(dy.shape), tuple(x.shape))])

    def reference(dy, x):
        return ref.conv2d_backprop_filter(dy, x, w_shapes[(dy.shape, x.shape)], *case.geometry(x.shape))

    grad_w = w_shapes[grads[0]]
    return OpRecord("Conv2DBackpropFilter", call, reference, samples, DTYPES, tol=TOL,
                    prim=lambda: _C.Primitive("Conv2DBackpropFilter", {**case.attrs, "filter_sizes": grad_w}),
                    grad_shapes=grads[:1])


def _t(*shape, dtype=ms.float32):
    return ms.Tensor(np.ones(shape), dtype)


CONV_BAD = [
    (lambda: ops.Conv2D(6, 3)(_t(1, 3, 5, 5), _t(6, 4, 3, 3)), ValueError,
     r"Conv2D: 'x' of shape \(1, 3, 5, 5\) has 3 channels, but 'weight' of shape \(6, 4, 3, 3\) with group=1 expects 4"),
    (lambda: ops.Conv2D(6, 3, pad_mode="full")(_t(1, 4, 5, 5), _t(6, 4, 3, 3)), ValueError,
     "Conv2D: 'pad_mode' must be one of 'valid', 'same', 'pad', but got 'full'"),
    (lambda: ops.Conv2D(6, 3, pad=1)(_t(1, 4, 5, 5), _t(6, 4, 3, 3)), ValueError,
     "Conv2D: 'pad' must be 0 unless pad_mode is 'pad'"),
    (lambda: ops.Conv2D(6, 3)(_t(1, 4, 2, 5), _t(6, 4, 3, 3)), ValueError, "the output would be empty"),
    (lambda: ops.Conv2D(6, 3)(_t(4, 5, 5), _t(6, 4, 3, 3)), ValueError, r"Conv2D: 'x' must be 4-d \(N, C, H, W\)"),
    (lambda: ops.Conv2D(8, 3)(_t(1, 4, 5, 5), _t(6, 4, 3, 3)), ValueError, "Conv2D: 'out_channel' is 8"),
    (lambda: ops.Conv2D(6, 5)(_t(1, 4, 5, 5), _t(6, 4, 3, 3)), ValueError, r"Conv2D: 'kernel_size' is \(5,\)"),
    (lambda: ops.Conv2D(6, 3, stride=(1, 2, 3))(_t(1, 4, 5, 5), _t(6, 4, 3, 3)), ValueError,
     "Conv2D: 'stride' must be an int or a tuple of 2 ints"),
    (lambda: ops.Conv2D(6, 3)(_t(1, 4, 5, 5), _t(6, 4, 3, 3, dtype=ms.float64)), TypeError,
     "Conv2D: 'x' and 'weight' must have the same dtype"),
    (lambda: ops.Conv2D(6, 3)(_t(1, 4, 5, 5, dtype=ms.int32), _t(6, 4, 3, 3, dtype=ms.int32)), TypeError,
     "Conv2D: 'x' must have dtype in"),
    (lambda: ops.Conv2D(6, 3, stride=1 << 40)(_t(1, 4, 5, 5), _t(6, 4, 3, 3)), ValueError,
     r"Conv2D: 'stride' must be in \[1, 2147483647\]"),
    (lambda: ops.Conv2D(6, 3, data_format="NHWC")(_t(1, 4, 5, 5), _t(6, 4, 3, 3)), ValueError,
     "Conv2D: 'data_format' must be 'NCHW'"),
]

BACKPROP_INPUT_BAD = [
    (lambda: ops.Conv2DBackpropInput(6, 3)(_t(1, 6, 4, 4), _t(6, 4, 3, 3), (1, 4, 5, 5)), ValueError,
     r"Conv2DBackpropInput: 'out_backprop' has shape \(1, 6, 4, 4\), but the convolution's output has shape "
     r"\(1, 6, 3, 3\)"),
]

# The functional form: padding (h, w) means (h, h, w, w); bias broadcasts over (N, ., H, W).
FUNCTIONAL = OpRecord(
    "Conv2D", lambda x, w, b: ops.conv2d(x, w, b, stride=2, pad_mode="pad", padding=(1, 2), groups=1),
    lambda x, w, b: ref.conv2d(x, w, (2, 2), (1, 1), (1, 1, 2, 2), 1) + b[None, :, None, None],
    [((2, 3, 7, 6), (4, 3, 3, 3), (4,))], DTYPES, tol=TOL,
    prim=lambda: _C.Primitive("Conv2D", dict(out_channel=4, kernel_size=3, pad_mode="pad", pad=(1, 1, 2, 2), stride=2)),
    grad_shapes=[((1, 3, 5, 4), (4, 3, 3, 3))],
    bad=[(lambda: ops.conv2d(_t(1, 3, 5, 5), _t(4, 3, 3, 3), _t(3)), ValueError, r"conv2d: 'bias' must have shape \(4,\)"),
         (lambda: ops.conv2d(_t(1, 3, 5, 5), _t(4, 3, 3, 3), padding=(1, 2, 3)), ValueError,
          "conv2d: 'padding' must be an int or a tuple of 1 or 2 or 4 ints")])

# ops.conv1d: Conv2D over a height-1 image.
CONV1D = OpRecord(
    "Conv2D", lambda x, w, b: ops.conv1d(x, w, b, stride=2, pad_mode="pad", padding=1, dilation=2, groups=2),
    lambda x, w, b: ref.conv2d(x[:, :, None], w[:, :, None], (1, 2), (1, 2), (0, 0, 1, 1), 2)[:, :, 0] + b[None, :, None],
    [((2, 4, 9), (6, 2, 3), (6,)), ((1, 4, 5), (6, 2, 3), (6,))], DTYPES, tol=TOL,
    prim=lambda: _C.Primitive("Conv2D", dict(out_channel=6, kernel_size=(1, 3), pad_mode="pad", pad=(0, 0, 1, 1),
                                             stride=(1, 2), dilation=(1, 2), group=2)),
    grad_shapes=[((1, 4, 1, 7), (6, 2, 1, 3))],
    bad=[(lambda: ops.conv1d(_t(1, 3, 5, 5), _t(4, 3, 3)), ValueError, "conv1d: 'input' and 'weight' must be 3-d")])

RECORDS = ([FUNCTIONAL, CONV1D] + [_conv_record(c) for c in CASES] + [_backprop_input_record(c) for c in CASES]
           + [_backprop_filter_record(c) for c in CASES]
           + [_backprop_input_record(c, "Conv2DTranspose") for c in CASES[1:3]])
