"""Colour transforms (``mindspore.dataset.vision``'s AdjustBrightness ... RandomSolarize).

The uint8 arithmetic is MindSpore's, in C++ with OpenCV (src/data/vision_color_ops.cc); arguments are
checked here, where errors can name them. RgbToHsv and HsvToRgb are NumPy, as MindSpore's (Python) are.
"""
import numbers

import numpy as np

from sprout import _C
from sprout.dataset.transforms.transforms import TensorOperation, _one
from sprout.dataset.vision.transforms import _number, _range

_E = _C.dataset

__all__ = ["AdjustBrightness", "AdjustContrast", "AdjustGamma", "AdjustHue", "AdjustSaturation", "AdjustSharpness",
           "AutoContrast", "Equalize", "Invert", "Posterize", "Solarize", "RgbToHsv", "HsvToRgb",
           "RandomAdjustSharpness", "RandomAutoContrast", "RandomColor", "RandomEqualize", "RandomInvert",
           "RandomLighting", "RandomPosterize", "RandomSharpness", "RandomSolarize"]


def _factor(api, name, value):
    return _number(api, name, value, low=0)


def _int(api, name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
        raise ValueError(f"{api}: '{name}' must be an int in [{low}, {high}], but got {value!r}")
    return int(value)


def _int_range(api, name, value, low, high):
    """An int v, or a (min, max) pair of ints in [low, high] with min <= max."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        v = _int(api, name, value, low, high)
        return (v, v)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        a, b = (_int(api, name, v, low, high) for v in value)
        if a > b:
            raise ValueError(f"{api}: '{name}' must be (min, max) with min <= max, but got {value!r}")
        return (a, b)
    raise TypeError(f"{api}: '{name}' must be an int or a (min, max) pair of ints, but got {value!r}")


class AdjustBrightness(TensorOperation):
    """image * brightness_factor, saturated (an RGB image)."""

    def __init__(self, brightness_factor):
        self._op = _E.adjust_brightness_op(_factor("AdjustBrightness", "brightness_factor", brightness_factor))


class AdjustContrast(TensorOperation):
    """Blends a uint8 RGB image with its mean gray level: factor 0 is flat gray, 1 the original."""

    def __init__(self, contrast_factor):
        self._op = _E.adjust_contrast_op(_factor("AdjustContrast", "contrast_factor", contrast_factor))


class AdjustSaturation(TensorOperation):
    """Blends an RGB image with its grayscale: factor 0 is gray, 1 the original."""

    def __init__(self, saturation_factor):
        self._op = _E.adjust_saturation_op(_factor("AdjustSaturation", "saturation_factor", saturation_factor))


class AdjustSharpness(TensorOperation):
    """Blends a uint8 image with its smoothed copy: factor 0 is blurred, 1 the original, 2 sharpened."""

    def __init__(self, sharpness_factor):
        self._op = _E.adjust_sharpness_op(_factor("AdjustSharpness", "sharpness_factor", sharpness_factor))


class AdjustGamma(TensorOperation):
    """255 * gain * (image / 255) ** gamma on uint8 images; (image * gain) ** gamma clipped to [0, 1] on float."""

    def __init__(self, gamma, gain=1):
        api = "AdjustGamma"
        self._op = _E.adjust_gamma_op(_number(api, "gamma", gamma, low=0), _number(api, "gain", gain))


class AdjustHue(TensorOperation):
    """Rotates the hue of a uint8 RGB image by ``hue_factor`` of a turn, in [-0.5, 0.5]."""

    def __init__(self, hue_factor):
        self._op = _E.adjust_hue_op(_number("AdjustHue", "hue_factor", hue_factor, -0.5, 0.5))


def _ignore(api, ignore):
    if ignore is None:
        return []
    values = [ignore] if isinstance(ignore, numbers.Integral) and not isinstance(ignore, bool) else ignore
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{api}: 'ignore' must be an int or a sequence of ints, but got {ignore!r}")
    return [_int(api, "ignore", v, 0, 255) for v in values]


class AutoContrast(TensorOperation):
    """Stretches each channel of a uint8 image to 0..255, after cutting ``cutoff`` percent of the histogram at
    each end and leaving out the ``ignore`` values."""

    def __init__(self, cutoff=0.0, ignore=None):
        api = "AutoContrast"
        self._op = _E.auto_contrast_op(_number(api, "cutoff", cutoff, 0, 50), _ignore(api, ignore))


class Equalize(TensorOperation):
    """Equalizes the histogram of each channel of a uint8 image."""

    def __init__(self):
        self._op = _E.equalize_op()


class Invert(TensorOperation):
    """255 - image, for uint8 images."""

    def __init__(self):
        self._op = _E.invert_op()


class Posterize(TensorOperation):
    """Keeps the ``bits`` highest bits of each uint8 value."""

    def __init__(self, bits):
        self._op = _E.posterize_op(_int("Posterize", "bits", bits, 0, 8))


def _threshold(api, threshold):
    """MindSpore's threshold: v or (v, v) inverts values >= v; (min, max) inverts values in [min, max]."""
    if isinstance(threshold, numbers.Real) and not isinstance(threshold, bool):
        low = high = _number(api, "threshold", threshold, 0, 255)
    elif isinstance(threshold, (list, tuple)) and len(threshold) == 2:
        low, high = _range(api, "threshold", threshold, 0, 255)
    else:
        raise TypeError(f"{api}: 'threshold' must be a number or a (min, max) pair, but got {threshold!r}")
    return (low, 255.0) if low == high else (low, high)


class Solarize(TensorOperation):
    """Inverts (255 - x) the uint8 values in the ``threshold`` range."""

    def __init__(self, threshold):
        self._op = _E.solarize_op(*_threshold("Solarize", threshold))


def _rgb_planes(api, image, is_hwc):
    image = np.asarray(image)
    axis = -1 if is_hwc else -3
    if image.ndim not in (3, 4) or image.shape[axis] != 3:
        layout = "(H, W, 3) or (N, H, W, 3)" if is_hwc else "(3, H, W) or (N, 3, H, W)"
        raise ValueError(f"{api}: expected an image of shape {layout} (is_hwc={is_hwc}), but got {image.shape}")
    return np.moveaxis(image, axis, 0), axis


class RgbToHsv(TensorOperation):
    """RGB -> HSV with Python's colorsys formulas, vectorized: hue, saturation and value in [0, 1]
    for RGB in [0, 1]; float64, as MindSpore's."""

    def __init__(self, is_hwc=False):
        self.is_hwc = bool(is_hwc)

    def _apply(self, *columns):
        (r, g, b), axis = _rgb_planes("RgbToHsv", _one("RgbToHsv", columns), self.is_hwc)
        r, g, b = (np.asarray(c, dtype=np.float64) for c in (r, g, b))
        maxc, minc = np.maximum(np.maximum(r, g), b), np.minimum(np.minimum(r, g), b)
        rangec = maxc - minc
        gray = rangec == 0
        safe_range, safe_max = np.where(gray, 1.0, rangec), np.where(maxc == 0, 1.0, maxc)
        rc, gc, bc = ((maxc - c) / safe_range for c in (r, g, b))
        h = np.where(r == maxc, bc - gc, np.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
        h = np.where(gray, 0.0, (h / 6.0) % 1.0)
        s = np.where(gray, 0.0, rangec / safe_max)
        return np.stack((h, s, maxc), axis=axis)


class HsvToRgb(TensorOperation):
    """HSV -> RGB with Python's colorsys formulas, vectorized; float64, as MindSpore's."""

    def __init__(self, is_hwc=False):
        self.is_hwc = bool(is_hwc)

    def _apply(self, *columns):
        (h, s, v), axis = _rgb_planes("HsvToRgb", _one("HsvToRgb", columns), self.is_hwc)
        h, s, v = (np.asarray(c, dtype=np.float64) for c in (h, s, v))
        i = np.floor(h * 6.0)  # int() of colorsys truncates; h >= 0 here
        f = h * 6.0 - i
        p, q, t = v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f))
        i = i.astype(np.int64) % 6
        choices = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)]
        rgb = [np.choose(i, [c[k] for c in choices]) for k in range(3)]
        rgb = [np.where(s == 0.0, v, c) for c in rgb]
        return np.stack(rgb, axis=axis)


def _prob(api, prob):
    return _number(api, "prob", prob, 0, 1)


class RandomAdjustSharpness(TensorOperation):
    """AdjustSharpness(degree) with probability ``prob``."""

    def __init__(self, degree, prob=0.5):
        api = "RandomAdjustSharpness"
        self._op = _E.random_apply_op(api, _prob(api, prob), _E.adjust_sharpness_op(_factor(api, "degree", degree)))


class RandomAutoContrast(TensorOperation):
    """AutoContrast(cutoff, ignore) with probability ``prob``."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        api = "RandomAutoContrast"
        op = _E.auto_contrast_op(_number(api, "cutoff", cutoff, 0, 50), _ignore(api, ignore))
        self._op = _E.random_apply_op(api, _prob(api, prob), op)


class RandomEqualize(TensorOperation):
    def __init__(self, prob=0.5):
        self._op = _E.random_apply_op("RandomEqualize", _prob("RandomEqualize", prob), _E.equalize_op())


class RandomInvert(TensorOperation):
    def __init__(self, prob=0.5):
        self._op = _E.random_apply_op("RandomInvert", _prob("RandomInvert", prob), _E.invert_op())


class RandomColor(TensorOperation):
    """AdjustSaturation by a factor drawn from ``degrees``."""

    def __init__(self, degrees=(0.1, 1.9)):
        self._op = _E.random_color_op(_range("RandomColor", "degrees", degrees, low=0))


class RandomSharpness(TensorOperation):
    """AdjustSharpness by a factor drawn from ``degrees``."""

    def __init__(self, degrees=(0.1, 1.9)):
        self._op = _E.random_sharpness_op(_range("RandomSharpness", "degrees", degrees, low=0))


class RandomPosterize(TensorOperation):
    """Posterize to a number of bits drawn from ``bits`` (an int, or a (min, max) range in [1, 8])."""

    def __init__(self, bits=(8, 8)):
        self._op = _E.random_posterize_op(_int_range("RandomPosterize", "bits", bits, 1, 8))


class RandomSolarize(TensorOperation):
    """Solarize the values in a sub-range [a, b] drawn from ``threshold``."""

    def __init__(self, threshold=(0, 255)):
        api = "RandomSolarize"
        if not isinstance(threshold, (list, tuple)) or len(threshold) != 2:
            raise TypeError(f"{api}: 'threshold' must be a (min, max) pair, but got {threshold!r}")
        self._op = _E.random_solarize_op(_int_range(api, "threshold", tuple(threshold), 0, 255))


class RandomLighting(TensorOperation):
    """AlexNet's PCA lighting noise on a uint8 RGB image, of strength ``alpha``."""

    def __init__(self, alpha=0.05):
        self._op = _E.random_lighting_op(_number("RandomLighting", "alpha", alpha, low=0))
