"""sprout.dataset.vision: image transforms (``mindspore.dataset.vision``), C++ and OpenCV underneath."""
from sprout.dataset.vision.transforms import (AutoAugment, CenterCrop, ColorJitter, ConvertColor, CutMixBatch, Decode,
                                              Grayscale, HWC2CHW, MixUpBatch, Normalize, Pad, RandAugment,
                                              RandomAffine, RandomColorAdjust, RandomCrop, RandomCropDecodeResize,
                                              RandomErasing, RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
                                              RandomVerticalFlip, Rescale, Resize, ToTensor)
from sprout.dataset.vision.utils import AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, Inter
from sprout.dataset.vision import color as _color
from sprout.dataset.vision import composite as _composite
from sprout.dataset.vision import geometry as _geometry
from sprout.dataset.vision.color import *  # noqa: F401,F403  (names listed in color.__all__)
from sprout.dataset.vision.geometry import *  # noqa: F401,F403
from sprout.dataset.vision.composite import *  # noqa: F401,F403

__all__ = ["AutoAugment", "CenterCrop", "ColorJitter", "ConvertColor", "CutMixBatch", "Decode", "Grayscale", "HWC2CHW",
           "MixUpBatch", "Normalize", "Pad", "RandAugment", "RandomAffine", "RandomColorAdjust", "RandomCrop",
           "RandomCropDecodeResize", "RandomErasing", "RandomHorizontalFlip", "RandomResizedCrop", "RandomRotation",
           "RandomVerticalFlip", "Rescale", "Resize", "ToTensor", "AutoAugmentPolicy", "Border", "ConvertMode",
           "ImageBatchFormat", "Inter"] + _color.__all__ + _geometry.__all__ + _composite.__all__
