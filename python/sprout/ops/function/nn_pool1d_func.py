"""1-d pooling (MindSpore 2.x names): the 1-d pools run the 2-d ones on (N, C, 1, L)."""
from sprout.ops.function.array_func import _int, _tensor, expand_dims, squeeze
from sprout.ops.function.nn_conv_func import _max_pool2d, adaptive_avg_pool2d, adaptive_max_pool2d, avg_pool2d


def _pair(api, arg, value):
    """A 1-d window or step as the 2-d pools take it, checked here so that errors name the 1-d op."""
    value = _int(value, api, arg)
    if value < 1:
        raise ValueError(f"{api}: '{arg}' must be positive, but got {value}")
    return (1, value)


def _ncl(api, arg, x):
    x = _tensor(x, api, arg)
    if x.ndim not in (2, 3):
        raise ValueError(f"{api}: '{arg}' must be (N, C, L) or (C, L), but got shape {x.shape}")
    return x


def _as_2d(x):
    """(N, C, L) -> (N, C, 1, L); (C, L) -> (1, C, 1, L)."""
    return expand_dims(x if x.ndim == 3 else expand_dims(x, 0), 2)


def _back(y, x):
    """The 2-d pool's result without the axes _as_2d added to x."""
    y = squeeze(y, 2)
    return y if x.ndim == 3 else squeeze(y, 0)


def max_pool1d(input_x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
    """Max pooling over the last axis of an (N, C, L) or (C, L) input; `stride` defaults to `kernel_size`.
    With `return_indices`, also each maximum's index along L (int64)."""
    x = _ncl("max_pool1d", "input_x", input_x)
    stride = kernel_size if stride is None else stride
    out = _max_pool2d("max_pool1d", _as_2d(x), _pair("max_pool1d", "kernel_size", kernel_size),
                      _pair("max_pool1d", "stride", stride), (0, _int(padding, "max_pool1d", "padding")),
                      _pair("max_pool1d", "dilation", dilation), return_indices, ceil_mode)
    return (_back(out[0], x), _back(out[1], x)) if return_indices else _back(out, x)


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    """Average pooling over the last axis of an (N, C, L) or (C, L) input."""
    x = _ncl("avg_pool1d", "input_x", input_x)
    return _back(avg_pool2d(_as_2d(x), _pair("avg_pool1d", "kernel_size", kernel_size),
                            _pair("avg_pool1d", "stride", stride), (0, _int(padding, "avg_pool1d", "padding")),
                            ceil_mode, count_include_pad), x)


def adaptive_avg_pool1d(input, output_size):
    """Average pooling of an (N, C, L) or (C, L) input to length `output_size`."""
    x = _ncl("adaptive_avg_pool1d", "input", input)
    return _back(adaptive_avg_pool2d(_as_2d(x), (1, _int(output_size, "adaptive_avg_pool1d", "output_size"))), x)


def adaptive_max_pool1d(input, output_size):
    """Max pooling of an (N, C, L) or (C, L) input to length `output_size`."""
    x = _ncl("adaptive_max_pool1d", "input", input)
    return _back(adaptive_max_pool2d(_as_2d(x), (1, _int(output_size, "adaptive_max_pool1d", "output_size"))), x)


__all__ = ["max_pool1d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d"]
