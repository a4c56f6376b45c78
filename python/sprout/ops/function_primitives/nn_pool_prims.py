"""Pooling and unpooling Primitive classes MindSpore has beside the registry's MaxPool/AvgPool
(``ops.MaxPool3D()``, ``ops.AvgPool3D()``, ``ops.MaxUnpool2D()`` ...), each
carried out by the functional op."""
import math

from sprout.common import dtype as mstype
from sprout.ops.function import array_func as _array
from sprout.ops.function import nn_conv_func as _conv
from sprout.ops.function import nn_layers_more_func as _layers
from sprout.ops.function import nn_pool3d_func as _pool3d
from sprout.ops.function import nn_pool3d_more_func as _pool3d_more
from sprout.ops.function._pool_windows import lowest
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["AvgPool3D", "MaxPool3D", "MaxPool3DWithArgmax", "AdaptiveAvgPool3D",
           "AdaptiveMaxPool3D", "MaxUnpool2D", "MaxUnpool3D"]


def _check_format(name, data_format, expected):
    if data_format != expected:
        raise ValueError(f"{name}: 'data_format' must be {expected!r} (the only layout on CPU), but got "
                         f"{data_format!r}")


def _tuple(name, arg, value, n, minimum):
    values = _conv._ints(name, arg, value, (1, n))
    values = values * n if len(values) == 1 else values
    if min(values) < minimum:
        raise ValueError(f"{name}: '{arg}' must be >= {minimum}, but got {value!r}")
    return values


def _pads(name, arg, value, pad_mode):
    """(head, tail, top, bottom, left, right) of an int or 6 ints; only 'pad' mode may give nonzero ones."""
    pads = _tuple(name, arg, value, 6, 0)
    if any(pads) and pad_mode != "PAD":
        raise ValueError(f"{name}: '{arg}' must be 0 unless pad_mode is 'pad', but got {value!r}")
    return pads


def _pad_mode(name, pad_mode):
    if not isinstance(pad_mode, str) or pad_mode.upper() not in ("SAME", "VALID", "PAD"):
        raise ValueError(f"{name}: 'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}")
    return pad_mode.upper()


def _same_pads(spatial, kernel, strides):
    """MindSpore's 'same' padding: the output has ceil(n / s) cells, the odd padded cell after."""
    pads = []
    for n, k, s in zip(spatial, kernel, strides):
        total = max((math.ceil(n / s) - 1) * s + k - n, 0)
        pads += [total // 2, total - total // 2]
    return tuple(pads)


def _check_5d(name, x):
    _conv._check_tensor(name, "x", x)
    if x.ndim != 5:
        raise ValueError(f"{name}: 'x' must be 5-d (N, C, D, H, W), but got shape {x.shape}")


class AvgPool3D(Primitive):
    """``AvgPool3D(kernel_size=1, strides=1, pad_mode='valid', pad=0, ceil_mode=False, count_include_pad=True,
    divisor_override=0, data_format='NCDHW')(x)``: ops.avg_pool3d with MindSpore's padding modes."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=0, data_format="NCDHW"):
        _check_format("AvgPool3D", data_format, "NCDHW")
        self._mode = _pad_mode("AvgPool3D", pad_mode)
        self._kernel = _tuple("AvgPool3D", "kernel_size", kernel_size, 3, 1)
        self._strides = _tuple("AvgPool3D", "strides", strides, 3, 1)
        self._pads = _pads("AvgPool3D", "pad", pad, self._mode)
        self.init_prim_io_names(["input"], ["output"])

    def __call__(self, x):
        _check_5d("AvgPool3D", x)
        pads = _same_pads(x.shape[2:], self._kernel, self._strides) if self._mode == "SAME" else self._pads
        return _pool3d_more.avg_pool3d(x, self._kernel, self._strides, pads, self.ceil_mode, self.count_include_pad,
                                       self.divisor_override)


class MaxPool3D(Primitive):
    """``MaxPool3D(kernel_size=1, strides=1, pad_mode='VALID', pad_list=0, ceil_mode=None,
    data_format='NCDHW')(x)``: 3-d max pooling with MindSpore's padding modes."""

    @prim_attr_register
    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None, data_format="NCDHW"):
        _check_format("MaxPool3D", data_format, "NCDHW")
        self._mode = _pad_mode("MaxPool3D", pad_mode)
        self._kernel = _tuple("MaxPool3D", "kernel_size", kernel_size, 3, 1)
        self._strides = _tuple("MaxPool3D", "strides", strides, 3, 1)
        self._pads = _pads("MaxPool3D", "pad_list", pad_list, self._mode)
        if ceil_mode is not None and not isinstance(ceil_mode, bool):
            raise TypeError(f"MaxPool3D: 'ceil_mode' must be a bool or None, but got {ceil_mode!r}")
        if ceil_mode and self._mode != "PAD":
            raise ValueError(f"MaxPool3D: 'ceil_mode' needs pad_mode 'pad', but got {pad_mode!r}")
        self.init_prim_io_names(["x"], ["output"])

    def __call__(self, x):
        _check_5d("MaxPool3D", x)
        spatial = x.shape[2:]
        pads = _same_pads(spatial, self._kernel, self._strides) if self._mode == "SAME" else self._pads
        widths = []
        for a in reversed(range(3)):  # ops.pad lists the last axis first; ceil_mode's cells go after
            _, extra = _pool3d_more.pool_extents("MaxPool3D", spatial[a], self._kernel[a], self._strides[a],
                                                 pads[2 * a], pads[2 * a + 1], bool(self.ceil_mode))
            widths += [pads[2 * a], pads[2 * a + 1] + extra]
        if any(widths):
            x = _array.pad(x, tuple(widths), value=lowest(x.dtype))
        return _pool3d.max_pool3d(x, self._kernel, self._strides)


def _argmax_type(name, argmax_type):
    if argmax_type not in (mstype.int32, mstype.int64):
        raise TypeError(f"{name}: 'argmax_type' must be mindspore.int32 or mindspore.int64, but got {argmax_type!r}")
    return argmax_type


class MaxPool3DWithArgmax(Primitive):
    """``MaxPool3DWithArgmax(ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format='NCDHW',
    argmax_type=mindspore.int64)(x)``: (output, argmax), argmax flat in each D * H * W input volume."""

    @prim_attr_register
    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format="NCDHW",
                 argmax_type=mstype.int64):
        _check_format("MaxPool3DWithArgmax", data_format, "NCDHW")
        _argmax_type("MaxPool3DWithArgmax", argmax_type)
        self.init_prim_io_names(["x"], ["y", "argmax"])

    def __call__(self, x):
        _check_5d("MaxPool3DWithArgmax", x)
        y, argmax = _pool3d.max_pool3d(x, self.ksize, self.strides, self.pads, self.dilation, self.ceil_mode, True)
        return y, argmax.astype(self.argmax_type)


class AdaptiveAvgPool3D(Primitive):
    """``AdaptiveAvgPool3D(output_size)(x)``: ops.adaptive_avg_pool3d."""

    @prim_attr_register
    def __init__(self, output_size):
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return _pool3d_more.adaptive_avg_pool3d(x, self.output_size)


class AdaptiveMaxPool3D(Primitive):
    """``AdaptiveMaxPool3D()(x, output_size)``: (y, argmax) of ops.adaptive_max_pool3d; `output_size` (ints
    or a 1-d int Tensor of 3 values) is an input, as in MindSpore."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "output_size"], ["y", "argmax"])

    def __call__(self, x, output_size):
        return _pool3d_more.adaptive_max_pool3d(x, output_size, True)


class _MaxUnpool(Primitive):
    _nd, _format, _fn = 2, "NCHW", None

    def _setup(self, ksize, strides, pads, output_shape, data_format):
        name, nd = type(self).__name__, self._nd
        _check_format(name, data_format, self._format)
        self._kernel = _tuple(name, "ksize", ksize, nd, 1)
        self._strides = self._kernel if strides in (0, None) else _tuple(name, "strides", strides, nd, 1)
        self._pads = _tuple(name, "pads", pads, nd, 0)
        if not isinstance(output_shape, (tuple, list)) or len(output_shape) not in (0, nd + 2):
            raise ValueError(f"{name}: 'output_shape' must be () or a tuple of {nd + 2} ints, but got {output_shape!r}")
        self._output = tuple(output_shape) or None
        self.init_prim_io_names(["x", "argmax"], ["y"])

    def __call__(self, x, argmax):
        return type(self)._fn(x, argmax, self._kernel, self._strides, self._pads, self._output)


class MaxUnpool2D(_MaxUnpool):
    """``MaxUnpool2D(ksize, strides=0, pads=0, output_shape=(), data_format='NCHW')(x, argmax)``:
    ops.max_unpool2d (strides 0: the kernel size)."""
    _fn = staticmethod(_layers.max_unpool2d)

    @prim_attr_register
    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCHW"):
        self._setup(ksize, strides, pads, output_shape, data_format)


class MaxUnpool3D(_MaxUnpool):
    """``MaxUnpool3D(ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW')(x, argmax)``:
    ops.max_unpool3d (strides 0: the kernel size)."""
    _nd, _format, _fn = 3, "NCDHW", staticmethod(_layers.max_unpool3d)

    @prim_attr_register
    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCDHW"):
        self._setup(ksize, strides, pads, output_shape, data_format)
