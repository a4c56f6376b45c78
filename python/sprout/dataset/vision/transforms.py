"""Vision transforms (``mindspore.dataset.vision``), implemented in C++ with OpenCV (src/data/vision_ops.cc).

Arguments are checked here, where errors can name them; each transform then holds an engine op that
``map`` runs on its workers without the GIL, and that is callable eagerly on a NumPy image.
Images are (H, W, C) uint8 or float32, RGB, as MindSpore's.
"""
import numbers

from sprout import _C
from sprout.dataset.transforms.transforms import TensorOperation
from sprout.dataset.vision.utils import AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, Inter

_E = _C.dataset


def _number(api, name, value, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{name}' must be a number, but got {type(value).__name__} {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{api}: '{name}' must be in [{low}, {high}], but got {value}")
    return float(value)


def _positive_int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{api}: '{name}' must be a positive int, but got {value!r}")
    return int(value)


def _size(api, size):
    """int -> (s, s); (h, w) -> (h, w)."""
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        return (_positive_int(api, "size", size),) * 2
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return tuple(_positive_int(api, "size", s) for s in size)
    raise TypeError(f"{api}: 'size' must be an int or a (height, width) pair, but got {size!r}")


def _range(api, name, value, low=None, high=None, symmetric_from=None):
    """A (min, max) pair; a single number v means (symmetric_from - v, symmetric_from + v) when given."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and symmetric_from is not None:
        v = _number(api, name, value, low=0)
        lo = symmetric_from - v if symmetric_from != 1 else max(0.0, 1 - v)
        return (lo, symmetric_from + v)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        a, b = (_number(api, name, v, low, high) for v in value)
        if a > b:
            raise ValueError(f"{api}: '{name}' must be (min, max) with min <= max, but got {value!r}")
        return (a, b)
    raise TypeError(f"{api}: '{name}' must be a (min, max) pair{' or a number' if symmetric_from is not None else ''}, "
                    f"but got {value!r}")


def _fill(api, fill_value):
    if isinstance(fill_value, numbers.Integral) and not isinstance(fill_value, bool) and 0 <= fill_value <= 255:
        return (float(fill_value),) * 3
    if isinstance(fill_value, (list, tuple)) and len(fill_value) == 3 and all(
            isinstance(v, numbers.Integral) and 0 <= v <= 255 for v in fill_value):
        return tuple(float(v) for v in fill_value)
    raise ValueError(f"{api}: 'fill_value' must be an int in [0, 255] or a 3-tuple of them, but got {fill_value!r}")


def _enum(api, name, value, enum_type):
    if not isinstance(value, enum_type):
        raise TypeError(f"{api}: '{name}' must be a {enum_type.__name__}, but got {value!r}")
    return value


def _padding(api, padding):
    """MindSpore's padding: int (all sides), (left/right, top/bottom) or (left, top, right, bottom)
    -> (top, bottom, left, right)."""
    def check(v):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
            raise ValueError(f"{api}: 'padding' values must be non-negative ints, but got {padding!r}")
        return int(v)

    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        p = check(padding)
        return (p, p, p, p)
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        lr, tb = (check(v) for v in padding)
        return (tb, tb, lr, lr)
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        left, top, right, bottom = (check(v) for v in padding)
        return (top, bottom, left, right)
    raise TypeError(f"{api}: 'padding' must be an int, a 2-tuple or a 4-tuple, but got {padding!r}")


class Decode(TensorOperation):
    """Encoded bytes (JPEG, PNG, BMP, TIFF, WebP) -> (H, W, 3) uint8 RGB."""

    def __init__(self, to_pil=False):
        if to_pil:
            raise ValueError("Decode: to_pil=True is not supported; Sprout's vision transforms work on NumPy images")
        self._op = _E.decode_op()


class Resize(TensorOperation):
    """To ``size`` (h, w); an int resizes the shorter side to it, keeping the aspect ratio."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        keep_ratio = isinstance(size, numbers.Integral)
        h, w = _size("Resize", size)
        self._op = _E.resize_op((h, w), keep_ratio, int(_enum("Resize", "interpolation", interpolation, Inter)))


class CenterCrop(TensorOperation):
    def __init__(self, size):
        self._op = _E.center_crop_op(_size("CenterCrop", size))


class RandomCrop(TensorOperation):
    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        api = "RandomCrop"
        self._op = _E.random_crop_op(_size(api, size), _padding(api, padding or 0), bool(pad_if_needed),
                                     _fill(api, fill_value), int(_enum(api, "padding_mode", padding_mode, Border)))


def _random_resized_crop_args(api, size, scale, ratio, interpolation, max_attempts):
    scale, ratio = _range(api, "scale", scale, low=0), _range(api, "ratio", ratio, low=0)
    if ratio[0] <= 0:
        raise ValueError(f"{api}: 'ratio' must be positive, but got {ratio!r}")
    return (_size(api, size), scale, ratio, int(_enum(api, "interpolation", interpolation, Inter)),
            _positive_int(api, "max_attempts", max_attempts))


class RandomResizedCrop(TensorOperation):
    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self._op = _E.random_resized_crop_op(*_random_resized_crop_args(
            "RandomResizedCrop", size, scale, ratio, interpolation, max_attempts))


class RandomCropDecodeResize(TensorOperation):
    """Decode, RandomResizedCrop and Resize in one: the window is drawn as RandomResizedCrop draws it, from
    the image's size, and a JPEG decodes only the part the window covers (MindSpore's transform)."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self._op = _E.random_crop_decode_resize_op(*_random_resized_crop_args(
            "RandomCropDecodeResize", size, scale, ratio, interpolation, max_attempts))


class RandomHorizontalFlip(TensorOperation):
    def __init__(self, prob=0.5):
        self._op = _E.random_flip_op(_number("RandomHorizontalFlip", "prob", prob, 0, 1), True)


class RandomVerticalFlip(TensorOperation):
    def __init__(self, prob=0.5):
        self._op = _E.random_flip_op(_number("RandomVerticalFlip", "prob", prob, 0, 1), False)


class RandomRotation(TensorOperation):
    """Rotates by an angle drawn from ``degrees`` (counter-clockwise); a number d means (-d, d)."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        api = "RandomRotation"
        degrees = _range(api, "degrees", degrees, symmetric_from=0)
        if center is not None and not (isinstance(center, (list, tuple)) and len(center) == 2):
            raise TypeError(f"{api}: 'center' must be an (x, y) pair, but got {center!r}")
        self._op = _E.random_rotation_op(degrees, int(_enum(api, "resample", resample, Inter)), bool(expand),
                                         None if center is None else tuple(float(c) for c in center),
                                         _fill(api, fill_value))


class RandomAffine(TensorOperation):
    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        api = "RandomAffine"
        degrees = _range(api, "degrees", degrees, symmetric_from=0)
        # MindSpore's forms, fractions of the width and height in [-1, 1]: (min_dx, max_dx), no vertical
        # shift; (min_dx, max_dx, min_dy, max_dy).
        if translate is None:
            translate_x, translate_y = (0.0, 0.0), (0.0, 0.0)
        elif isinstance(translate, (list, tuple)) and len(translate) in (2, 4):
            translate_x = _range(api, "translate", translate[:2], -1, 1)
            translate_y = _range(api, "translate", translate[2:], -1, 1) if len(translate) == 4 else (0.0, 0.0)
        else:
            raise TypeError(f"{api}: 'translate' must be a 2- or 4-sequence of fractions in [-1, 1], "
                            f"but got {translate!r}")
        scale = (1.0, 1.0) if scale is None else _range(api, "scale", scale, low=0)
        if shear is None:
            shear_x, shear_y = (0.0, 0.0), (0.0, 0.0)
        elif isinstance(shear, numbers.Real):
            shear_x, shear_y = _range(api, "shear", shear, symmetric_from=0), (0.0, 0.0)
        elif isinstance(shear, (list, tuple)) and len(shear) == 2:
            shear_x, shear_y = _range(api, "shear", shear), (0.0, 0.0)
        elif isinstance(shear, (list, tuple)) and len(shear) == 4:
            shear_x, shear_y = _range(api, "shear", shear[:2]), _range(api, "shear", shear[2:])
        else:
            raise TypeError(f"{api}: 'shear' must be a number or a 2- or 4-tuple, but got {shear!r}")
        self._op = _E.random_affine_op(degrees, translate_x, translate_y, scale, shear_x, shear_y,
                                       int(_enum(api, "resample", resample, Inter)), _fill(api, fill_value))


class RandomColorAdjust(TensorOperation):
    """Brightness, contrast, saturation and hue, each by a factor drawn from its range, in random order.
    A number v means (max(0, 1 - v), 1 + v) (hue: (-v, v), v <= 0.5)."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        api = type(self).__name__
        self._op = _E.random_color_adjust_op(
            _range(api, "brightness", brightness, low=0, symmetric_from=1),
            _range(api, "contrast", contrast, low=0, symmetric_from=1),
            _range(api, "saturation", saturation, low=0, symmetric_from=1),
            _range(api, "hue", hue, low=-0.5, high=0.5, symmetric_from=0))


class ColorJitter(RandomColorAdjust):
    """torchvision's name for RandomColorAdjust; its defaults change nothing (0 means no jitter)."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__(brightness, contrast, saturation, hue)


class RandomErasing(TensorOperation):
    """Erases a random rectangle of a (C, H, W) image (after ToTensor/HWC2CHW)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, max_attempts=10):
        api = "RandomErasing"
        random_value = value == "random"
        if random_value:
            values = [0.0]
        elif isinstance(value, numbers.Real):
            values = [float(value)]
        elif isinstance(value, (list, tuple)) and len(value) == 3:
            values = [float(v) for v in value]
        else:
            raise TypeError(f"{api}: 'value' must be a number, a 3-tuple or 'random', but got {value!r}")
        self._op = _E.random_erasing_op(_number(api, "prob", prob, 0, 1), _range(api, "scale", scale, low=0),
                                        _range(api, "ratio", ratio, low=0), values, random_value,
                                        _positive_int(api, "max_attempts", max_attempts))


class Pad(TensorOperation):
    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self._op = _E.pad_op(_padding("Pad", padding), _fill("Pad", fill_value),
                             int(_enum("Pad", "padding_mode", padding_mode, Border)))


class Rescale(TensorOperation):
    """image * rescale + shift, as float32."""

    def __init__(self, rescale, shift):
        self._op = _E.rescale_op(_number("Rescale", "rescale", rescale), _number("Rescale", "shift", shift))


class Normalize(TensorOperation):
    """(image - mean) / std per channel, as float32."""

    def __init__(self, mean, std, is_hwc=True):
        api = "Normalize"
        if not isinstance(mean, (list, tuple)) or not isinstance(std, (list, tuple)) or len(mean) != len(std) \
                or not mean:
            raise TypeError(f"{api}: 'mean' and 'std' must be lists of the same length, but got {mean!r} and {std!r}")
        mean = [_number(api, "mean", m) for m in mean]
        std = [_number(api, "std", s) for s in std]
        if any(s <= 0 for s in std):
            raise ValueError(f"{api}: 'std' values must be positive, but got {std}")
        self._op = _E.normalize_op(mean, std, bool(is_hwc))


class HWC2CHW(TensorOperation):
    def __init__(self):
        self._op = _E.hwc2chw_op()


class ToTensor(TensorOperation):
    """(H, W, C) uint8 -> (C, H, W) float32 in [0, 1]."""

    def __init__(self, output_type=None):
        import numpy as np

        if output_type not in (None, np.float32, "float32"):
            raise ValueError(f"ToTensor: only output_type=float32 is supported, but got {output_type!r}")
        self._op = _E.to_tensor_op()


class ConvertColor(TensorOperation):
    def __init__(self, convert_mode):
        self._op = _E.convert_color_op(_enum("ConvertColor", "convert_mode", convert_mode, ConvertMode).value)


class Grayscale(TensorOperation):
    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):
            raise ValueError(f"Grayscale: 'num_output_channels' must be 1 or 3, but got {num_output_channels!r}")
        self._op = _E.grayscale_op(num_output_channels)


class CutMixBatch(TensorOperation):
    """On a batch (images, one-hot labels): pastes a box of another image of the batch into each."""

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        api = "CutMixBatch"
        fmt = _enum(api, "image_batch_format", image_batch_format, ImageBatchFormat)
        self._op = _E.cutmix_batch_op(fmt == ImageBatchFormat.NHWC, _number(api, "alpha", alpha, low=1e-12),
                                      _number(api, "prob", prob, 0, 1))


class MixUpBatch(TensorOperation):
    """On a batch (images, one-hot labels): blends each with another of the batch."""

    def __init__(self, alpha=1.0):
        self._op = _E.mixup_batch_op(_number("MixUpBatch", "alpha", alpha, low=1e-12))


class AutoAugment(TensorOperation):
    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST, fill_value=0):
        api = "AutoAugment"
        self._op = _E.auto_augment_op(int(_enum(api, "policy", policy, AutoAugmentPolicy)),
                                      int(_enum(api, "interpolation", interpolation, Inter)), _fill(api, fill_value))


class RandAugment(TensorOperation):
    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        api = "RandAugment"
        num_ops = _positive_int(api, "num_ops", num_ops)
        bins = _positive_int(api, "num_magnitude_bins", num_magnitude_bins)
        if bins < 2:
            raise ValueError(f"{api}: 'num_magnitude_bins' must be >= 2, but got {bins}")
        if isinstance(magnitude, bool) or not isinstance(magnitude, numbers.Integral) or not 0 <= magnitude < bins:
            raise ValueError(f"{api}: 'magnitude' must be an int in [0, {bins}), but got {magnitude!r}")
        self._op = _E.rand_augment_op(num_ops, int(magnitude), bins, int(_enum(api, "interpolation", interpolation, Inter)),
                                      _fill(api, fill_value))
