"""Image cells under their ``mindspore.nn`` names: CentralCrop, ImageGradients, and the image quality measures
SSIM, MSSSIM and PSNR with MindSpore's definitions (an 11x11 Gaussian window of sigma 1.5 by default,
k1 = 0.01, k2 = 0.03, 'valid' filtering, five MS-SSIM scales with the Wang et al. weights).

Quality measures compute in float32, as MindSpore's: an integer image (uint8 ...) is scaled to [0, 1] by its
dtype's maximum, and so is max_val."""
import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.function.nn_func import _check_float_arg
from sprout.ops.function.nn_loss_more_func import _check_int

_INT_MAX = {mstype.uint8: 255.0, mstype.int8: 127.0, mstype.int16: 32767.0, mstype.int32: 2147483647.0,
            mstype.int64: 9223372036854775807.0}


def _check_image(api, arg, x, ranks=(4,)):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    if x.ndim not in ranks:
        raise ValueError(f"{api}: '{arg}' must be {' or '.join(f'{r}-d' for r in ranks)}, but got shape "
                         f"{tuple(x.shape)}")
    return x


def _check_pair(api, img1, img2, dtypes=None):
    _check_image(api, "img1", img1)
    _check_image(api, "img2", img2)
    if dtypes is not None and img1.dtype not in dtypes:
        raise TypeError(f"{api}: 'img1' must have dtype in {[str(d) for d in dtypes]}, but got {img1.dtype}")
    if img1.dtype != img2.dtype or tuple(img1.shape) != tuple(img2.shape):
        raise ValueError(f"{api}: 'img1' and 'img2' must have the same dtype and shape, but got {img1.dtype} "
                         f"{tuple(img1.shape)} and {img2.dtype} {tuple(img2.shape)}")


def _to_float32(img, max_val):
    """(img as float32 in [0, 1] terms, max_val likewise): integer images divided by their dtype's maximum."""
    scale = _INT_MAX.get(img.dtype, 1.0)
    img = ops.cast(img, mstype.float32)
    if scale > 1.0:
        return img * (1.0 / scale), max_val / scale
    return img, max_val


def _check_max_val(api, max_val):
    if isinstance(max_val, bool) or not isinstance(max_val, (int, float)):
        raise TypeError(f"{api}: 'max_val' must be an int or float, but got {type(max_val).__name__}")
    if not max_val > 0:
        raise ValueError(f"{api}: 'max_val' must be greater than 0, but got {max_val}")
    return max_val


def _gaussian_window(size, sigma):
    """MindSpore's _create_window: exp(-(x^2 + y^2) / (2 sigma^2)) over offsets -size//2+1 .. size//2, normalized;
    shape (1, 1, size, size), float32."""
    y, x = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1].astype(np.float32)
    g = np.exp(-(x * x + y * y) / np.float32(2 * sigma ** 2))
    return (g / g.sum()).astype(np.float32).reshape(1, 1, size, size)


class _SSIMBase(Cell):
    def _check_filter_args(self, api, max_val, filter_size, filter_sigma, k1, k2):
        self.max_val = _check_max_val(api, max_val)
        self.filter_size = _check_int(api, "filter_size", filter_size)
        if filter_size < 1:
            raise ValueError(f"{api}: 'filter_size' must be >= 1, but got {filter_size}")
        self.filter_sigma = _check_float_arg(api, "filter_sigma", filter_sigma)
        if not self.filter_sigma > 0:
            raise ValueError(f"{api}: 'filter_sigma' must be positive, but got {filter_sigma}")
        for name, value in (("k1", k1), ("k2", k2)):
            if not isinstance(value, float):
                raise TypeError(f"{api}: '{name}' must be a float, but got {type(value).__name__}")
        self.k1, self.k2 = k1, k2
        self._window = Tensor(_gaussian_window(filter_size, self.filter_sigma))

    def _ssim_and_cs(self, img1, img2, c1, c2):
        """Per (sample, channel) means over the valid-filtered planes: (ssim, contrast-structure), each (N, C)."""
        n, c, h, w = img1.shape
        if h < self.filter_size or w < self.filter_size:
            raise ValueError(f"{type(self).__name__}: the images ({h}x{w}) must be at least 'filter_size' "
                             f"({self.filter_size}) high and wide at every scale")
        planes = (n * c, 1, h, w)
        x, y = ops.reshape(img1, planes), ops.reshape(img2, planes)

        def blur(t):
            return ops.conv2d(t, self._window)

        mu1, mu2 = blur(x), blur(y)
        mu1_sq, mu2_sq, mu12 = mu1 * mu1, mu2 * mu2, mu1 * mu2
        sigma1_sq, sigma2_sq, sigma12 = blur(x * x) - mu1_sq, blur(y * y) - mu2_sq, blur(x * y) - mu12
        v1, v2 = 2 * sigma12 + c2, sigma1_sq + sigma2_sq + c2
        ssim = (2 * mu12 + c1) * v1 / ((mu1_sq + mu2_sq + c1) * v2)
        cs = v1 / v2
        return (ops.reshape(ops.mean(ssim, (1, 2, 3)), (n, c)), ops.reshape(ops.mean(cs, (1, 2, 3)), (n, c)))


class SSIM(_SSIMBase):
    """Structural similarity of two (N, C, H, W) float images, averaged over pixels and channels: shape (N,)."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self._check_filter_args("SSIM", max_val, filter_size, filter_sigma, k1, k2)

    def construct(self, img1, img2):
        _check_pair("SSIM", img1, img2, (mstype.float16, mstype.bfloat16, mstype.float32))
        img1, max_val = _to_float32(img1, self.max_val)
        img2, _ = _to_float32(img2, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        ssim, _ = self._ssim_and_cs(img1, img2, c1, c2)
        return ops.mean(ssim, -1)


class MSSSIM(_SSIMBase):
    """Multi-scale SSIM: the contrast-structure terms of the first scales and the SSIM of the last, each
    clipped at 0 and raised to its power factor, multiplied; the images halved by 2x2 average pooling between
    scales (one scale per power factor). Shape (N,)."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
                 filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self._check_filter_args("MSSSIM", max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)) or not power_factors:
            raise TypeError(f"MSSSIM: 'power_factors' must be a non-empty tuple or list, but got {power_factors!r}")
        self.power_factors = tuple(_check_float_arg("MSSSIM", "power_factors", p) for p in power_factors)
        self._weights = Tensor(np.array(self.power_factors, np.float32))

    def construct(self, img1, img2):
        _check_pair("MSSSIM", img1, img2, (mstype.float64, mstype.float32, mstype.float16, mstype.bfloat16, mstype.uint8))
        img1, max_val = _to_float32(img1, self.max_val)
        img2, _ = _to_float32(img2, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        terms = []
        levels = len(self.power_factors)
        for level in range(levels):
            ssim, cs = self._ssim_and_cs(img1, img2, c1, c2)
            terms.append(ops.relu(ssim if level == levels - 1 else cs))
            if level < levels - 1:
                img1, img2 = ops.avg_pool2d(img1, 2, 2), ops.avg_pool2d(img2, 2, 2)
        stacked = ops.pow(ops.stack(terms, -1), self._weights)  # (N, C, levels)
        return ops.mean(ops.prod(stacked, -1), -1)


class PSNR(Cell):
    """Peak signal-to-noise ratio 10 log10(max_val^2 / MSE) of (N, C, H, W) images, the MSE over (C, H, W):
    shape (N,)."""

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _check_max_val("PSNR", max_val)

    def construct(self, img1, img2):
        _check_pair("PSNR", img1, img2)
        img1, max_val = _to_float32(img1, self.max_val)
        img2, _ = _to_float32(img2, self.max_val)
        mse = ops.mean(ops.square(img1 - img2), (-3, -2, -1))
        return 10.0 * ops.log(max_val * max_val / mse) / float(np.log(10.0))


class CentralCrop(Cell):
    """The central `central_fraction` of each image of a (C, H, W) or (N, C, H, W) tensor; the border cut on
    each side is int((H - H * fraction) / 2), likewise for W."""

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"CentralCrop: 'central_fraction' must be a float, but got "
                            f"{type(central_fraction).__name__}")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"CentralCrop: 'central_fraction' must be in (0.0, 1.0], but got {central_fraction}")
        self.central_fraction = central_fraction

    def construct(self, image):
        _check_image("CentralCrop", "image", image, (3, 4))
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        begin = (0,) * (image.ndim - 2) + (top, left)
        size = tuple(image.shape[:-2]) + (h - 2 * top, w - 2 * left)
        return ops.slice(image, begin, size)


class ImageGradients(Cell):
    """(dy, dx) of (N, C, H, W) images: forward differences image[i + 1] - image[i] down the rows and across
    the columns, 0 in the last row (dy) and column (dx)."""

    def construct(self, images):
        _check_image("ImageGradients", "images", images)
        n, c, h, w = images.shape
        dy = ops.pad(images[:, :, 1:, :] - images[:, :, :h - 1, :], (0, 0, 0, 1)) if h > 1 else ops.zeros_like(images)
        dx = ops.pad(images[:, :, :, 1:] - images[:, :, :, :w - 1], (0, 1)) if w > 1 else ops.zeros_like(images)
        return dy, dx
