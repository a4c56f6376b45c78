"""sprout.dataset.vision: image transforms (``mindspore.dataset.vision``), C++ and OpenCV underneath."""
from sprout.dataset.vision.transforms import (AutoAugment, CenterCrop, ColorJitter, ConvertColor, CutMixBatch, Decode,
                                              Grayscale, HWC2CHW, MixUpBatch, Normalize, Pad, RandAugment,
                                              RandomAffine, RandomColorAdjust, RandomCrop, RandomCropDecodeResize,
                                              RandomErasing, RandomHorizontalFlip, RandomResizedCrop, RandomRotation,
                                              RandomVerticalFlip, Rescale, Resize, ToTensor)
from sprout.dataset.vision.utils import AutoAugmentPolicy, Border, ConvertMode, ImageBatchFormat, Inter

__all__ = ["AutoAugment", "CenterCrop", "ColorJitter", "ConvertColor", "CutMixBatch", "Decode", "Grayscale", "HWC2CHW",
           "MixUpBatch", "Normalize", "Pad", "RandAugment", "RandomAffine", "RandomColorAdjust", "RandomCrop",
           "RandomCropDecodeResize", "RandomErasing", "RandomHorizontalFlip", "RandomResizedCrop", "RandomRotation",
           "RandomVerticalFlip", "Rescale", "Resize", "ToTensor", "AutoAugmentPolicy", "Border", "ConvertMode",
           "ImageBatchFormat", "Inter"]
