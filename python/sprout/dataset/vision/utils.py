"""Enums of ``mindspore.dataset.vision``: interpolation, border modes, colour conversions, policies."""
import enum


class Inter(enum.IntEnum):
    """Interpolation. LINEAR/BILINEAR and CUBIC/BICUBIC are the same filters under MindSpore's two names."""

    NEAREST = 0
    LINEAR = 1
    BILINEAR = 1
    CUBIC = 2
    BICUBIC = 2
    AREA = 3


class Border(enum.IntEnum):
    """Padding: a constant, the edge pixel repeated, a mirror without (REFLECT) or with (SYMMETRIC) the edge."""

    CONSTANT = 0
    EDGE = 1
    REFLECT = 2
    SYMMETRIC = 3


class ImageBatchFormat(enum.Enum):
    NHWC = "NHWC"
    NCHW = "NCHW"


class AutoAugmentPolicy(enum.IntEnum):
    IMAGENET = 0
    CIFAR10 = 1
    SVHN = 2


class ConvertMode(enum.Enum):
    COLOR_BGR2BGRA = "COLOR_BGR2BGRA"
    COLOR_RGB2RGBA = "COLOR_RGB2RGBA"
    COLOR_BGRA2BGR = "COLOR_BGRA2BGR"
    COLOR_RGBA2RGB = "COLOR_RGBA2RGB"
    COLOR_BGR2RGBA = "COLOR_BGR2RGBA"
    COLOR_RGB2BGRA = "COLOR_RGB2BGRA"
    COLOR_RGBA2BGR = "COLOR_RGBA2BGR"
    COLOR_BGRA2RGB = "COLOR_BGRA2RGB"
    COLOR_BGR2RGB = "COLOR_BGR2RGB"
    COLOR_RGB2BGR = "COLOR_RGB2BGR"
    COLOR_BGRA2RGBA = "COLOR_BGRA2RGBA"
    COLOR_RGBA2BGRA = "COLOR_RGBA2BGRA"
    COLOR_BGR2GRAY = "COLOR_BGR2GRAY"
    COLOR_RGB2GRAY = "COLOR_RGB2GRAY"
    COLOR_GRAY2BGR = "COLOR_GRAY2BGR"
    COLOR_GRAY2RGB = "COLOR_GRAY2RGB"
    COLOR_GRAY2BGRA = "COLOR_GRAY2BGRA"
    COLOR_GRAY2RGBA = "COLOR_GRAY2RGBA"
    COLOR_BGRA2GRAY = "COLOR_BGRA2GRAY"
    COLOR_RGBA2GRAY = "COLOR_RGBA2GRAY"
