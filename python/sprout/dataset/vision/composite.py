"""Transforms made of other transforms (``mindspore.dataset.vision``'s RandomSelectSubpolicy, UniformAugment,
TrivialAugmentWide), MixUp on batches, and the image encoders encode_jpeg / encode_png.

The compositions draw from the row's generator (transforms/_random.py) as RandomApply does, so a pipeline
gives the same result whatever the number of workers; the operations they run are the C++ ones.
"""
import numbers

import numpy as np

from sprout import _C
from sprout.dataset.transforms._random import rng
from sprout.dataset.transforms.transforms import TensorOperation, _check_transforms, _run
from sprout.dataset.vision.transforms import _enum, _fill, _number, _positive_int
from sprout.dataset.vision.utils import Inter

_E = _C.dataset

__all__ = ["RandomSelectSubpolicy", "UniformAugment", "TrivialAugmentWide", "MixUp", "encode_jpeg", "encode_png"]


def _unpack(columns):
    return columns[0] if len(columns) == 1 else columns


class RandomSelectSubpolicy(TensorOperation):
    """Picks one sub-policy (a list of (transform, prob)) uniformly, then runs each of its transforms with
    its probability."""

    def __init__(self, policy):
        api = "RandomSelectSubpolicy"
        if not isinstance(policy, (list, tuple)) or not policy:
            raise TypeError(f"{api}: 'policy' must be a non-empty list of sub-policies, but got {policy!r}")
        for i, sub in enumerate(policy):
            if not isinstance(sub, (list, tuple)) or not sub:
                raise TypeError(f"{api}: policy[{i}] must be a non-empty list of (transform, prob), but got {sub!r}")
            for j, step in enumerate(sub):
                if not (isinstance(step, (list, tuple)) and len(step) == 2 and callable(step[0])):
                    raise TypeError(f"{api}: policy[{i}][{j}] must be a (transform, prob) pair, but got {step!r}")
                _number(api, "prob", step[1], 0, 1)
        self.policy = [list(sub) for sub in policy]

    def __call__(self, *columns):
        sub = self.policy[int(rng().integers(len(self.policy)))]
        for transform, prob in sub:
            if rng().random() < prob:
                columns = _run(transform, columns)
        return _unpack(columns)


class UniformAugment(TensorOperation):
    """Runs ``num_ops`` of ``transforms``, chosen uniformly without repetition, in a random order."""

    def __init__(self, transforms, num_ops=2):
        api = "UniformAugment"
        self.transforms = _check_transforms(api, transforms)
        self.num_ops = _positive_int(api, "num_ops", num_ops)
        if self.num_ops > len(self.transforms):
            raise ValueError(f"{api}: 'num_ops' ({self.num_ops}) must not exceed the number of transforms "
                             f"({len(self.transforms)})")

    def __call__(self, *columns):
        for i in rng().choice(len(self.transforms), self.num_ops, replace=False):
            columns = _run(self.transforms[int(i)], columns)
        return _unpack(columns)


# TrivialAugment's "wide" operations and their magnitude at bin t of (bins - 1) (Mueller & Hutter 2021,
# torchvision's _augmentation_space with wide magnitudes); signed ones get a random sign.
_WIDE_OPS = {
    "Identity": (lambda t, img: 0.0, False),
    "ShearX": (lambda t, img: 0.99 * t, True),
    "ShearY": (lambda t, img: 0.99 * t, True),
    "TranslateX": (lambda t, img: 32.0 * t, True),
    "TranslateY": (lambda t, img: 32.0 * t, True),
    "Rotate": (lambda t, img: 135.0 * t, True),
    "Brightness": (lambda t, img: 0.99 * t, True),
    "Color": (lambda t, img: 0.99 * t, True),
    "Contrast": (lambda t, img: 0.99 * t, True),
    "Sharpness": (lambda t, img: 0.99 * t, True),
    "Posterize": (None, False),
    "Solarize": (lambda t, img: 255.0 * (1.0 - t), False),
    "AutoContrast": (lambda t, img: 0.0, False),
    "Equalize": (lambda t, img: 0.0, False),
}


class TrivialAugmentWide(TensorOperation):
    """One operation drawn uniformly from TrivialAugment's wide set, at a magnitude bin drawn uniformly
    (a uint8 RGB image)."""

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        api = "TrivialAugmentWide"
        self.num_magnitude_bins = _positive_int(api, "num_magnitude_bins", num_magnitude_bins)
        if self.num_magnitude_bins < 2:
            raise ValueError(f"{api}: 'num_magnitude_bins' must be >= 2, but got {num_magnitude_bins}")
        self.interpolation = int(_enum(api, "interpolation", interpolation, Inter))
        self.fill_value = _fill(api, fill_value)

    def __call__(self, *columns):
        if len(columns) != 1:
            raise ValueError(f"TrivialAugmentWide: takes one image column, but got {len(columns)}")
        image = np.asarray(columns[0])
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise TypeError(f"TrivialAugmentWide: expected a uint8 RGB image (H, W, 3), but got {image.dtype} of "
                            f"shape {image.shape}")
        names = list(_WIDE_OPS)
        op = names[int(rng().integers(len(names)))]
        bins = self.num_magnitude_bins
        b = int(rng().integers(bins))
        magnitude_of, signed = _WIDE_OPS[op]
        if op == "Posterize":  # 8 - round(b / ((bins - 1) / 6)) bits, as torchvision's wide space
            magnitude = float(8 - int(np.round(b / ((bins - 1) / 6))))
        else:
            magnitude = magnitude_of(b / (bins - 1), image)
        if signed and rng().random() < 0.5:
            magnitude = -magnitude
        return _E.augment_image(image, op, magnitude, self.interpolation, self.fill_value)


class MixUp(TensorOperation):
    """On a batch (images (N, ...), one-hot labels (N, classes)): each image and label blended with the next
    one of the batch (is_single) or with the previous batch's output, by Beta(alpha, alpha) weights."""

    def __init__(self, batch_size, alpha, is_single=True):
        api = "MixUp"
        self.batch_size = _positive_int(api, "batch_size", batch_size)
        self.alpha = _number(api, "alpha", alpha)
        if self.alpha <= 0:
            raise ValueError(f"{api}: 'alpha' must be positive, but got {alpha}")
        self.is_single = bool(is_single)
        self._previous = None

    def _apply(self, *columns):
        if len(columns) != 2:
            raise ValueError(f"MixUp: takes two columns (images, labels), but got {len(columns)}")
        image, label = columns
        n = self.batch_size
        # batch_size weights broadcast against the arrays, as MindSpore's (Python) MixUp does: batch_size is
        # normally N, and a single image with batch_size=2 gives two blends.
        if image.ndim < 1 or label.ndim < 1:
            raise ValueError(f"MixUp: expected images (batch_size={n}, ...) and one-hot labels ({n}, ..., classes), "
                             f"but got shapes {image.shape} and {label.shape}; apply OneHot, then batch")
        lam = rng().beta(self.alpha, self.alpha, n)
        if self.is_single:
            other_image, other_label = np.roll(image, -1, axis=0), np.roll(label, -1, axis=0)
        else:
            if self._previous is None:  # the first batch is kept as it is, as MindSpore's
                lam = np.ones(n)
                self._previous = (image, label)
            other_image, other_label = self._previous
        # MindSpore's weight shapes, whatever the ranks: (n, 1, 1, 1) for images, (n, 1) for labels.
        lam_image, lam_label = lam.reshape((n, 1, 1, 1)), lam.reshape((n, 1))
        try:
            mixed = (lam_image * image + (1 - lam_image) * other_image,
                     lam_label * label + (1 - lam_label) * other_label)
        except ValueError:
            raise ValueError(f"MixUp: batch_size={n} weights do not broadcast against images {image.shape} and "
                             f"labels {label.shape}") from None
        if not self.is_single:
            self._previous = mixed
        return mixed


def _encode(api, image, encoder, level, name, low, high):
    if isinstance(level, bool) or not isinstance(level, numbers.Integral) or not low <= level <= high:
        raise ValueError(f"{api}: '{name}' must be an int in [{low}, {high}], but got {level!r}")
    from sprout.common.tensor import Tensor

    is_tensor = isinstance(image, Tensor)
    array = image.asnumpy() if is_tensor else image
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{api}: 'image' must be a NumPy array or a Tensor, but got {type(image).__name__}")
    out = encoder(array, int(level))
    return Tensor(out) if is_tensor else out


def encode_jpeg(image, quality=75):
    """An (H, W, 3) or (H, W) uint8 RGB image -> JPEG bytes (a 1-D uint8 array, or Tensor for a Tensor)."""
    return _encode("encode_jpeg", image, _E.encode_jpeg, quality, "quality", 1, 100)


def encode_png(image, compression_level=6):
    """An (H, W, 3) or (H, W) uint8 RGB image -> PNG bytes (a 1-D uint8 array, or Tensor for a Tensor)."""
    return _encode("encode_png", image, _E.encode_png, compression_level, "compression_level", 0, 9)
