"""Geometric and region transforms (``mindspore.dataset.vision``'s Affine, Crop, Rotate, Perspective ...).

OpenCV underneath (src/data/vision_geometry_ops.cc) with MindSpore's matrices and sizes; arguments are
checked here. LinearTransformation and ToType are NumPy, as MindSpore's are.
"""
import enum
import numbers

import numpy as np

from sprout import _C
from sprout.dataset.transforms.transforms import TensorOperation, TypeCast, _one
from sprout.dataset.vision.transforms import _enum, _fill, _number, _positive_int, _size
from sprout.dataset.vision.utils import Border, Inter

_E = _C.dataset

__all__ = ["SliceMode", "Affine", "Crop", "HorizontalFlip", "VerticalFlip", "Rotate", "ResizedCrop", "Perspective",
           "PadToSize", "GaussianBlur", "Erase", "CutOut", "SlicePatches", "NormalizePad", "RandomResize",
           "LinearTransformation", "ToType"]


class SliceMode(enum.IntEnum):
    """SlicePatches: pad the bottom and right to whole patches, or drop the remainder."""

    PAD = 0
    DROP = 1


def _nonneg_int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{api}: '{name}' must be a non-negative int, but got {value!r}")
    return int(value)


def _pair(api, name, value, check):
    """A number v -> (v, v); a 2-sequence -> its two values, each through `check`."""
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise TypeError(f"{api}: '{name}' must be a number or a 2-sequence, but got {value!r}")
        return tuple(check(v) for v in value)
    return (check(value),) * 2


def _interpolation(api, name, value):
    return int(_enum(api, name, value, Inter))


class Affine(TensorOperation):
    """Rotation by ``degrees`` about the centre, ``translate`` (fractions of width and height), ``scale`` and
    ``shear`` (degrees; a number shears along x only), in one warp."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        api = "Affine"
        degrees = _number(api, "degrees", degrees, -180, 180)
        if not isinstance(translate, (list, tuple)) or len(translate) != 2:
            raise TypeError(f"{api}: 'translate' must be a (tx, ty) pair of fractions, but got {translate!r}")
        translate = tuple(_number(api, "translate", t, -1, 1) for t in translate)
        scale = _number(api, "scale", scale)
        if scale <= 0:
            raise ValueError(f"{api}: 'scale' must be positive, but got {scale}")
        if isinstance(shear, (list, tuple)):
            if len(shear) != 2:
                raise TypeError(f"{api}: 'shear' must be a number or an (x, y) pair, but got {shear!r}")
            shear = tuple(_number(api, "shear", s, -180, 180) for s in shear)
        else:
            shear = (_number(api, "shear", shear, -180, 180), 0.0)
        self._op = _E.affine_op(degrees, translate, scale, shear, _interpolation(api, "resample", resample),
                                _fill(api, fill_value))


class Crop(TensorOperation):
    """The window of ``size`` whose top-left corner is ``coordinates`` (top, left)."""

    def __init__(self, coordinates, size):
        api = "Crop"
        if not isinstance(coordinates, (list, tuple)) or len(coordinates) != 2:
            raise TypeError(f"{api}: 'coordinates' must be a (top, left) pair, but got {coordinates!r}")
        top, left = (_nonneg_int(api, "coordinates", c) for c in coordinates)
        self._op = _E.crop_op(top, left, _size(api, size))


class HorizontalFlip(TensorOperation):
    def __init__(self):
        self._op = _E.flip_op(True)


class VerticalFlip(TensorOperation):
    def __init__(self):
        self._op = _E.flip_op(False)


class Rotate(TensorOperation):
    """Rotates by ``degrees`` counter-clockwise (RandomRotation with a fixed angle)."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        api = "Rotate"
        degrees = _number(api, "degrees", degrees)
        if center is not None and not (isinstance(center, (list, tuple)) and len(center) == 2):
            raise TypeError(f"{api}: 'center' must be an (x, y) pair, but got {center!r}")
        self._op = _E.random_rotation_op((degrees, degrees), _interpolation(api, "resample", resample), bool(expand),
                                         None if center is None else tuple(float(c) for c in center),
                                         _fill(api, fill_value))


class ResizedCrop(TensorOperation):
    """The window (top, left, height, width), resized to ``size``."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        api = "ResizedCrop"
        self._op = _E.resized_crop_op(_nonneg_int(api, "top", top), _nonneg_int(api, "left", left),
                                      _positive_int(api, "height", height), _positive_int(api, "width", width),
                                      _size(api, size), _interpolation(api, "interpolation", interpolation))


def _points(api, name, points):
    if not isinstance(points, (list, tuple)) or len(points) != 4 or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 for p in points):
        raise TypeError(f"{api}: '{name}' must be four (x, y) points, but got {points!r}")
    return [tuple(_number(api, name, v) for v in p) for p in points]


class Perspective(TensorOperation):
    """Maps the quadrilateral ``start_points`` onto ``end_points`` (top-left, top-right, bottom-right,
    bottom-left), outside filled with zeros."""

    def __init__(self, start_points, end_points, interpolation=Inter.BILINEAR):
        api = "Perspective"
        self._op = _E.perspective_op(_points(api, "start_points", start_points), _points(api, "end_points", end_points),
                                     _interpolation(api, "interpolation", interpolation))


class PadToSize(TensorOperation):
    """Pads to ``size`` (height, width); ``offset`` (top, left) places the image, None centres it."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        api = "PadToSize"
        if offset is not None:
            offset = _pair(api, "offset", offset, lambda v: _nonneg_int(api, "offset", v))
        self._op = _E.pad_to_size_op(_size(api, size), offset, _fill(api, fill_value),
                                     int(_enum(api, "padding_mode", padding_mode, Border)))


class GaussianBlur(TensorOperation):
    """OpenCV's Gaussian blur; ``kernel_size`` (width, height) odd, ``sigma`` (x, y) or from the kernel size."""

    def __init__(self, kernel_size, sigma=None):
        api = "GaussianBlur"

        def odd(v):
            v = _positive_int(api, "kernel_size", v)
            if v % 2 == 0:
                raise ValueError(f"{api}: 'kernel_size' must be odd, but got {kernel_size!r}")
            return v

        kernel = _pair(api, "kernel_size", kernel_size, odd)
        if sigma is None:  # MindSpore's default, per axis: ((k - 1) * 0.5 - 1) * 0.3 + 0.8
            sigma = tuple(((k - 1) * 0.5 - 1) * 0.3 + 0.8 for k in kernel)
        else:
            sigma = _pair(api, "sigma", sigma, lambda v: _number(api, "sigma", v, low=0))
            if min(sigma) <= 0:
                raise ValueError(f"{api}: 'sigma' must be positive, but got {sigma!r}")
        self._op = _E.gaussian_blur_op(kernel, sigma)


class Erase(TensorOperation):
    """Sets the box (top, left, height, width) of an (H, W, C) image to ``value`` (one, or one per channel)."""

    def __init__(self, top, left, height, width, value=0.0, inplace=False):
        api = "Erase"
        if isinstance(value, (list, tuple)):
            if len(value) != 3:
                raise TypeError(f"{api}: 'value' must be a number or 3 numbers, but got {value!r}")
            values = [_number(api, "value", v) for v in value]
        else:
            values = [_number(api, "value", value)]
        # `inplace` is accepted: Sprout's transforms return new arrays, which is all the caller can observe.
        self._op = _E.erase_op(_nonneg_int(api, "top", top), _nonneg_int(api, "left", left),
                               _positive_int(api, "height", height), _positive_int(api, "width", width), values)


class CutOut(TensorOperation):
    """Zeroes ``num_patches`` random squares of side ``length``; with is_hwc=False on (C, H, W) images."""

    def __init__(self, length, num_patches=1, is_hwc=True):
        api = "CutOut"
        self._op = _E.cut_out_op(_positive_int(api, "length", length), _positive_int(api, "num_patches", num_patches),
                                 bool(is_hwc))


class SlicePatches(TensorOperation):
    """Cuts an image into num_height x num_width patches, returned as that many columns in row-major order."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        api = "SlicePatches"
        mode = _enum(api, "slice_mode", slice_mode, SliceMode)
        if isinstance(fill_value, bool) or not isinstance(fill_value, numbers.Integral) or not 0 <= fill_value <= 255:
            raise ValueError(f"{api}: 'fill_value' must be an int in [0, 255], but got {fill_value!r}")
        self._op = _E.slice_patches_op(_positive_int(api, "num_height", num_height),
                                       _positive_int(api, "num_width", num_width), mode == SliceMode.PAD,
                                       float(fill_value))


class NormalizePad(TensorOperation):
    """(image - mean) / std per channel, then a channel of zeros appended; float32 or float16."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        api = "NormalizePad"
        if not isinstance(mean, (list, tuple)) or not isinstance(std, (list, tuple)) or len(mean) != len(std) \
                or not mean:
            raise TypeError(f"{api}: 'mean' and 'std' must be sequences of the same length, but got {mean!r} and "
                            f"{std!r}")
        mean = [_number(api, "mean", m, 0, 255) for m in mean]
        std = [_number(api, "std", s, 0, 255) for s in std]
        if any(s <= 0 for s in std):
            raise ValueError(f"{api}: 'std' values must be in (0, 255], but got {std}")
        if dtype not in ("float32", "float16"):
            raise ValueError(f"{api}: 'dtype' must be 'float32' or 'float16', but got {dtype!r}")
        self._op = _E.normalize_pad_op(mean, std, dtype == "float16", bool(is_hwc))


class RandomResize(TensorOperation):
    """Resize with an interpolation drawn each call from bilinear, nearest, bicubic and area."""

    def __init__(self, size):
        api = "RandomResize"
        keep_ratio = isinstance(size, numbers.Integral)
        self._op = _E.random_resize_op(_size(api, size), keep_ratio)


class LinearTransformation(TensorOperation):
    """(image.flatten() - mean_vector) @ transformation_matrix, reshaped back (a (C, H, W) image, as in
    ZCA whitening)."""

    def __init__(self, transformation_matrix, mean_vector):
        api = "LinearTransformation"
        matrix, mean = np.asarray(transformation_matrix), np.asarray(mean_vector)
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"{api}: 'transformation_matrix' must be a square matrix, but got shape {matrix.shape}")
        if mean.ndim != 1 or mean.shape[0] != matrix.shape[0]:
            raise ValueError(f"{api}: 'mean_vector' must have {matrix.shape[0]} values (the matrix's size), "
                             f"but got shape {mean.shape}")
        self.transformation_matrix, self.mean_vector = matrix, mean

    def _apply(self, *columns):
        image = _one("LinearTransformation", columns)
        if image.size != self.mean_vector.size:
            raise ValueError(f"LinearTransformation: the image has {image.size} values (shape {image.shape}), but the "
                             f"matrix is {self.transformation_matrix.shape}")
        flat = image.reshape(1, -1) - self.mean_vector
        return np.dot(flat, self.transformation_matrix).reshape(image.shape)


class ToType(TypeCast):
    """Casts to ``data_type`` (a sprout or NumPy dtype): TypeCast under its vision name."""
