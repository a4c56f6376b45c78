"""Spectrogram masking (``mindspore.dataset.audio``'s FrequencyMasking, TimeMasking, MaskAlongAxis,
MaskAlongAxisIID): a band of rows (axis 1, frequency: the array's axis -2) or columns (axis 2, time:
axis -1) set to ``mask_value``. One mask covers the whole array; random ones draw from the row's generator."""

from sprout.dataset.audio.utils import check_bool, check_float, check_int, float_waveform
from sprout.dataset.transforms._random import rng
from sprout.dataset.transforms.transforms import TensorOperation, _one

__all__ = ["FrequencyMasking", "TimeMasking", "MaskAlongAxis", "MaskAlongAxisIID"]


def mask_along_axis(api, x, start, width, value, axis):
    length = x.shape[axis - 3]
    if start + width > length:
        raise ValueError(f"{api}: the mask [{start}, {start + width}) must lie within the {length} "
                         f"{'frequency bins' if axis == 1 else 'time frames'} of shape {x.shape}")
    out = x.copy()
    index = (Ellipsis, slice(start, start + width)) + ((slice(None),) if axis == 1 else ())
    out[index] = value
    return out


def random_mask(api, x, mask_param, value, axis):
    """A width uniform in [0, mask_param], then a start uniform over the positions where it fits."""
    length = x.shape[axis - 3]
    if mask_param > length:
        raise ValueError(f"{api}: the mask parameter {mask_param} exceeds the {length} "
                         f"{'frequency bins' if axis == 1 else 'time frames'} of shape {x.shape}")
    width = int(rng().integers(0, mask_param + 1))
    start = int(rng().integers(0, length - width + 1))
    return mask_along_axis(api, x, start, width, value, axis)


def _spectrogram(api, columns):
    return float_waveform(api, _one(api, columns), min_rank=2)


def _axis(api, axis):
    if isinstance(axis, bool) or axis not in (1, 2):
        raise ValueError(f"{api}: 'axis' must be 1 (frequency) or 2 (time), but got {axis!r}")
    return axis


class MaskAlongAxis(TensorOperation):
    """Masks [mask_start, mask_start + mask_width) along ``axis``."""

    def __init__(self, mask_start, mask_width, mask_value, axis):
        self.mask_start = check_int("MaskAlongAxis", "mask_start", mask_start, 0)
        self.mask_width = check_int("MaskAlongAxis", "mask_width", mask_width, 1)
        self.mask_value = check_float("MaskAlongAxis", "mask_value", mask_value)
        self.axis = _axis("MaskAlongAxis", axis)

    def _apply(self, *columns):
        x = _spectrogram("MaskAlongAxis", columns)
        return mask_along_axis("MaskAlongAxis", x, self.mask_start, self.mask_width, self.mask_value, self.axis)


class MaskAlongAxisIID(TensorOperation):
    """Masks a random band of up to ``mask_param`` along ``axis``."""

    def __init__(self, mask_param, mask_value, axis):
        self.mask_param = check_int("MaskAlongAxisIID", "mask_param", mask_param, 0)
        self.mask_value = check_float("MaskAlongAxisIID", "mask_value", mask_value)
        self.axis = _axis("MaskAlongAxisIID", axis)

    def _apply(self, *columns):
        x = _spectrogram("MaskAlongAxisIID", columns)
        return random_mask("MaskAlongAxisIID", x, self.mask_param, self.mask_value, self.axis)


class _Masking(TensorOperation):
    """iid_masks=False: the band [mask_start, mask_start + param); True: a random band of up to param."""

    _axis = None
    _param_name = None

    def __init__(self, iid_masks, param, mask_start, mask_value):
        api = type(self).__name__
        self.iid_masks = check_bool(api, "iid_masks", iid_masks)
        self.param = check_int(api, self._param_name, param, 0)
        self.mask_start = check_int(api, "mask_start", mask_start, 0)
        self.mask_value = check_float(api, "mask_value", mask_value, 0.0, 16777216.0)  # MindSpore's bounds

    def _apply(self, *columns):
        api = type(self).__name__
        x = _spectrogram(api, columns)
        if self.iid_masks:
            return random_mask(api, x, self.param, self.mask_value, self._axis)
        if self.param == 0:
            return x
        return mask_along_axis(api, x, self.mask_start, self.param, self.mask_value, self._axis)


class FrequencyMasking(_Masking):
    _axis, _param_name = 1, "freq_mask_param"

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value)


class TimeMasking(_Masking):
    _axis, _param_name = 2, "time_mask_param"

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)
