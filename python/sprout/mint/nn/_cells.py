"""mint.nn's layers without parameters: each holds its arguments and calls the mint.nn.functional function
of the same meaning (activations, pooling, padding, losses, dropout, reshaping and resampling)."""
from sprout.mint._checks import check_int, check_reduction, is_int
from sprout.mint.nn import functional as F
from sprout.nn.cell import Cell

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
           "AvgPool1d", "AvgPool2d", "AvgPool3d", "BCELoss", "BCEWithLogitsLoss", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "CosineEmbeddingLoss", "CrossEntropyLoss", "Dropout", "Dropout2d", "ELU", "Flatten",
           "Fold", "GELU", "GLU", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "Identity", "KLDivLoss",
           "L1Loss", "LogSigmoid", "LogSoftmax", "MSELoss", "MaxPool2d", "MaxUnpool2d", "Mish", "NLLLoss",
           "PixelShuffle", "ReLU", "ReLU6", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "SELU", "SiLU", "Sigmoid", "SmoothL1Loss",
           "SoftMarginLoss", "Softmax", "Softshrink", "Tanh", "Threshold", "Unfold", "Upsample",
           "UpsamplingBilinear2d", "UpsamplingNearest2d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]


class _Call(Cell):
    """construct(input) = fn(input, **self._kwargs)."""
    _fn = None

    def __init__(self, **kwargs):
        super().__init__()
        self._kwargs = kwargs

    def construct(self, input):
        return type(self)._fn(input, **self._kwargs)

    def extend_repr(self):
        return ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())


def _call(fn):
    return staticmethod(fn)


# ---- activations ----

class ReLU(_Call):
    """max(x, 0)."""
    _fn = _call(F.relu)


class ReLU6(_Call):
    """min(max(x, 0), 6)."""
    _fn = _call(F.relu6)

    def __init__(self, inplace=False):
        super().__init__(inplace=inplace)


class ELU(_Call):
    """x where positive, alpha * (exp(x) - 1) elsewhere."""
    _fn = _call(F.elu)

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__(alpha=alpha, inplace=inplace)


class GELU(_Call):
    """x * Phi(x), or its tanh approximation."""
    _fn = _call(F.gelu)

    def __init__(self, approximate="none"):
        if approximate not in ("none", "tanh"):
            raise ValueError(f"mint.nn.GELU: 'approximate' must be 'none' or 'tanh', but got {approximate!r}")
        super().__init__(approximate=approximate)


class GLU(_Call):
    """a * sigmoid(b) for the halves of the input along `dim`."""
    _fn = _call(F.glu)

    def __init__(self, dim=-1):
        super().__init__(dim=dim)


class Hardshrink(_Call):
    """x where |x| > lambd, else 0."""
    _fn = _call(F.hardshrink)

    def __init__(self, lambd=0.5):
        super().__init__(lambd=lambd)


class Softshrink(_Call):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    _fn = _call(F.softshrink)

    def __init__(self, lambd=0.5):
        super().__init__(lambd=lambd)


class Hardsigmoid(_Call):
    """relu6(x + 3) / 6."""
    _fn = _call(F.hardsigmoid)


class Hardswish(_Call):
    """x * relu6(x + 3) / 6."""
    _fn = _call(F.hardswish)


class Hardtanh(_Call):
    """x clamped to [min_val, max_val]."""
    _fn = _call(F.hardtanh)

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        if min_val > max_val:
            raise ValueError(f"mint.nn.Hardtanh: 'min_val' ({min_val}) must not exceed 'max_val' ({max_val})")
        super().__init__(min_val=min_val, max_val=max_val, inplace=inplace)


class LogSigmoid(_Call):
    """log(sigmoid(x))."""
    _fn = _call(F.logsigmoid)


class Mish(_Call):
    """x * tanh(softplus(x))."""
    _fn = _call(F.mish)


class SELU(_Call):
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))."""
    _fn = _call(F.selu)


class SiLU(_Call):
    """x * sigmoid(x)."""
    _fn = _call(F.silu)

    def __init__(self, inplace=False):
        super().__init__(inplace=inplace)


class Sigmoid(_Call):
    """1 / (1 + exp(-x))."""
    _fn = _call(F.sigmoid)


class Tanh(_Call):
    """tanh(x)."""
    _fn = _call(F.tanh)


class Threshold(_Call):
    """x where x > threshold, else value."""
    _fn = _call(F.threshold)

    def __init__(self, threshold, value, inplace=False):
        super().__init__(threshold=threshold, value=value, inplace=inplace)


class Softmax(_Call):
    """softmax along `dim`."""
    _fn = _call(F.softmax)

    def __init__(self, dim=None):
        super().__init__(dim=dim)


class LogSoftmax(_Call):
    """log_softmax along `dim`."""
    _fn = _call(F.log_softmax)

    def __init__(self, dim=None):
        super().__init__(dim=dim)


class Identity(Cell):
    """Returns its input; accepts and ignores any arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def construct(self, input):
        return input


# ---- pooling ----

class AvgPool1d(_Call):
    """Averages over windows of the last dimension."""
    _fn = _call(F.avg_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                         count_include_pad=count_include_pad)


class AvgPool2d(_Call):
    """Averages over kH x kW windows."""
    _fn = _call(F.avg_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                         count_include_pad=count_include_pad, divisor_override=divisor_override)


class AvgPool3d(_Call):
    """Averages over kD x kH x kW windows."""
    _fn = _call(F.avg_pool3d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                         count_include_pad=count_include_pad, divisor_override=divisor_override)


class MaxPool2d(_Call):
    """Maxima over kH x kW windows (and their indices with `return_indices`)."""
    _fn = _call(F.max_pool2d)

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation,
                         ceil_mode=ceil_mode, return_indices=return_indices)


class MaxUnpool2d(Cell):
    """The inverse of MaxPool2d: values placed at their indices, zeros elsewhere."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class AdaptiveAvgPool1d(_Call):
    """Averages over adaptive windows giving `output_size` values."""
    _fn = _call(F.adaptive_avg_pool1d)

    def __init__(self, output_size):
        super().__init__(output_size=output_size)


class AdaptiveAvgPool2d(_Call):
    """Averages over adaptive windows giving an `output_size` plane."""
    _fn = _call(F.adaptive_avg_pool2d)

    def __init__(self, output_size):
        super().__init__(output_size=output_size)


class AdaptiveAvgPool3d(_Call):
    """Averages over adaptive windows giving an `output_size` volume."""
    _fn = _call(F.adaptive_avg_pool3d)

    def __init__(self, output_size):
        super().__init__(output_size=output_size)


class AdaptiveMaxPool1d(_Call):
    """Maxima over adaptive windows giving `output_size` values."""
    _fn = _call(F.adaptive_max_pool1d)

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size=output_size, return_indices=return_indices)


class AdaptiveMaxPool2d(_Call):
    """Maxima over adaptive windows giving an `output_size` plane."""
    _fn = _call(F.adaptive_max_pool2d)

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size=output_size, return_indices=return_indices)


# ---- padding ----

class _Pad(Cell):
    _n, _mode, _name = 1, "constant", "ConstantPad1d"

    def __init__(self, padding, value=None):
        super().__init__()
        api = f"mint.nn.{type(self).__name__}"
        if is_int(padding):
            padding = (padding,) * (2 * self._n)
        if not isinstance(padding, (tuple, list)) or len(padding) != 2 * self._n or not all(is_int(p)
                                                                                          for p in padding):
            raise TypeError(f"{api}: 'padding' must be an int or a tuple of {2 * self._n} ints, but got {padding!r}")
        self.padding, self.value = tuple(padding), value

    def construct(self, input):
        return F.pad(input, self.padding, self._mode, self.value)


def _pad_class(name, n, mode, zero=False, doc=""):
    """A padding Cell: ConstantPad's take (padding, value); the others, zeros included, (padding)."""
    if mode == "constant" and not zero:
        def __init__(self, padding, value):
            _Pad.__init__(self, padding, value)
    else:
        def __init__(self, padding):
            _Pad.__init__(self, padding, 0 if mode == "constant" else None)
    return type(name, (_Pad,), {"_n": n, "_mode": mode, "__init__": __init__, "__doc__": doc,
                                "__module__": __name__, "__qualname__": name})


ConstantPad1d = _pad_class("ConstantPad1d", 1, "constant", doc="Pads the last dimension with `value`.")
ConstantPad2d = _pad_class("ConstantPad2d", 2, "constant", doc="Pads the last 2 dimensions with `value`.")
ConstantPad3d = _pad_class("ConstantPad3d", 3, "constant", doc="Pads the last 3 dimensions with `value`.")
ZeroPad1d = _pad_class("ZeroPad1d", 1, "constant", True, "Pads the last dimension with zeros.")
ZeroPad2d = _pad_class("ZeroPad2d", 2, "constant", True, "Pads the last 2 dimensions with zeros.")
ZeroPad3d = _pad_class("ZeroPad3d", 3, "constant", True, "Pads the last 3 dimensions with zeros.")
ReflectionPad1d = _pad_class("ReflectionPad1d", 1, "reflect", doc="Pads the last dimension by reflection.")
ReflectionPad2d = _pad_class("ReflectionPad2d", 2, "reflect", doc="Pads the last 2 dimensions by reflection.")
ReflectionPad3d = _pad_class("ReflectionPad3d", 3, "reflect", doc="Pads the last 3 dimensions by reflection.")
ReplicationPad1d = _pad_class("ReplicationPad1d", 1, "replicate", doc="Pads the last dimension with edge values.")
ReplicationPad2d = _pad_class("ReplicationPad2d", 2, "replicate", doc="Pads the last 2 dimensions with edge values.")
ReplicationPad3d = _pad_class("ReplicationPad3d", 3, "replicate", doc="Pads the last 3 dimensions with edge values.")


# ---- losses ----

class _Loss(Cell):
    _fn = None

    def __init__(self, reduction="mean", **kwargs):
        super().__init__()
        self.reduction = check_reduction(reduction, f"mint.nn.{type(self).__name__}") \
            if type(self) is not KLDivLoss else reduction
        self._kwargs = kwargs

    def construct(self, input, target):
        return type(self)._fn(input, target, reduction=self.reduction, **self._kwargs)


class L1Loss(_Loss):
    """|input - target|, reduced."""
    _fn = _call(F.l1_loss)


class MSELoss(_Loss):
    """(input - target)^2, reduced."""
    _fn = _call(F.mse_loss)


class SmoothL1Loss(_Loss):
    """The Huber-like smooth L1 loss with threshold `beta`."""
    _fn = _call(F.smooth_l1_loss)

    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction, beta=beta)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-target * input)), reduced."""
    _fn = _call(F.soft_margin_loss)


class KLDivLoss(_Loss):
    """target * (log(target) - input), reduced ('batchmean' too)."""
    _fn = _call(F.kl_div)

    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction, log_target=log_target)


class BCELoss(_Loss):
    """Binary cross entropy of probabilities."""
    _fn = _call(F.binary_cross_entropy)

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction, weight=weight)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits."""
    _fn = _call(F.binary_cross_entropy_with_logits)

    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction, weight=weight, pos_weight=pos_weight)


class CrossEntropyLoss(_Loss):
    """Cross entropy of logits against class indices or probabilities."""
    _fn = _call(F.cross_entropy)

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction, weight=weight, ignore_index=ignore_index, label_smoothing=label_smoothing)


class NLLLoss(_Loss):
    """Negative log likelihood of log-probabilities."""
    _fn = _call(F.nll_loss)

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction, weight=weight, ignore_index=ignore_index)


class CosineEmbeddingLoss(Cell):
    """1 - cos(input1, input2) for target 1, max(0, cos - margin) for -1, reduced."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__()
        self.margin, self.reduction = margin, check_reduction(reduction, "mint.nn.CosineEmbeddingLoss")

    def construct(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)


# ---- dropout, reshaping, resampling ----

class Dropout(Cell):
    """Zeros elements with probability p when training, scaling the others by 1 / (1 - p)."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0 <= p <= 1:
            raise ValueError(f"mint.nn.Dropout: 'p' must be in [0, 1], but got {p}")
        self.p, self.inplace = p, inplace

    def construct(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    """Zeros whole channels with probability p when training."""

    def construct(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Flatten(_Call):
    """Merges dimensions start_dim .. end_dim (from 1 by default: the batch stays)."""
    _fn = _call(F.flatten)

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__(start_dim=start_dim, end_dim=end_dim)


class Fold(_Call):
    """Sums sliding blocks back into an `output_size` plane."""
    _fn = _call(F.fold)

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(output_size=output_size, kernel_size=kernel_size, dilation=dilation, padding=padding,
                         stride=stride)


class Unfold(_Call):
    """The sliding blocks of a plane as columns."""
    _fn = _call(F.unfold)

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)


class PixelShuffle(_Call):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    _fn = _call(F.pixel_shuffle)

    def __init__(self, upscale_factor):
        super().__init__(upscale_factor=check_int(upscale_factor, "mint.nn.PixelShuffle", "upscale_factor"))


class Upsample(_Call):
    """Resizes to `size` or by `scale_factor` with `mode` sampling."""
    _fn = _call(F.interpolate)

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__(size=size, scale_factor=scale_factor, mode=mode, align_corners=align_corners,
                         recompute_scale_factor=recompute_scale_factor)


class UpsamplingNearest2d(Upsample):
    """Nearest-neighbour resizing of (N, C, H, W) input."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear resizing of (N, C, H, W) input with aligned corners."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, "bilinear", True)
