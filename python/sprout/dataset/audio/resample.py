"""Resample (``mindspore.dataset.audio.Resample``): band-limited sinc interpolation, torchaudio's
polyphase kernel as MindSpore builds it."""
import math

import numpy as np

from sprout.dataset.audio.utils import ResampleMethod, check_enum, check_float, check_int, float_waveform
from sprout.dataset.transforms.transforms import TensorOperation, _one

__all__ = ["Resample"]

KAISER_BETA = 14.769656459379492


def _kernel(orig, new, method, lowpass_filter_width, rolloff, beta, dtype):
    """(new, 2 * width + orig) filter: row j gives output phase j from a window of the padded input."""
    base_freq = float(np.float32(min(orig, new)) * np.float32(rolloff))
    width = math.ceil(float(np.float32(lowpass_filter_width * orig) / np.float32(base_freq)))
    idx = np.arange(-width, width + orig, dtype=dtype) / dtype(orig)
    t = (-np.arange(new, dtype=dtype) / dtype(new))[:, None] + idx[None, :]
    t = np.clip(t * dtype(base_freq), -lowpass_filter_width, lowpass_filter_width)
    if method == ResampleMethod.SINC_INTERPOLATION:
        win = np.cos(t * dtype(np.pi) / lowpass_filter_width / 2) ** 2
    else:
        win = np.i0(beta * np.sqrt(np.maximum(0.0, 1 - (t / lowpass_filter_width) ** 2))) / np.i0(np.float32(beta))
    t = t * dtype(np.pi)
    scale = dtype(base_freq / orig)
    with np.errstate(invalid="ignore", divide="ignore"):
        sinc = np.where(t == 0, scale, scale * np.sin(t) / t)
    return (sinc * win).astype(dtype), width


def resample(x, orig_freq, new_freq, method=ResampleMethod.SINC_INTERPOLATION, lowpass_filter_width=6,
             rolloff=0.99, beta=KAISER_BETA):
    """(..., time) float32/float64 -> (..., ceil(time * new / orig)) of the same dtype."""
    dtype = x.dtype.type
    gcd = math.gcd(int(orig_freq), int(new_freq))
    orig, new = int(orig_freq) // gcd, int(new_freq) // gcd
    kernel, width = _kernel(orig, new, method, lowpass_filter_width, rolloff, beta, dtype)
    length = x.shape[-1]
    flat = np.pad(x.reshape(-1, length), ((0, 0), (width, width + orig)))
    frames = np.lib.stride_tricks.sliding_window_view(flat, kernel.shape[1], axis=-1)[:, ::orig]
    target = math.ceil(new * length / orig)
    out = np.einsum("bkt,jt->bkj", frames, kernel).reshape(flat.shape[0], -1)[:, :target]
    return out.reshape(x.shape[:-1] + (target,)).astype(dtype)


class Resample(TensorOperation):
    """(..., time) sampled at ``orig_freq`` -> (..., ceil(time * new_freq / orig_freq)) sampled at ``new_freq``."""

    def __init__(self, orig_freq=16000, new_freq=16000, resample_method=ResampleMethod.SINC_INTERPOLATION,
                 lowpass_filter_width=6, rolloff=0.99, beta=None):
        api = "Resample"
        self.orig_freq = check_float(api, "orig_freq", orig_freq, 0.0, low_open=True)
        self.new_freq = check_float(api, "new_freq", new_freq, 0.0, low_open=True)
        if int(self.orig_freq) == 0 or int(self.new_freq) == 0:
            raise ValueError(f"{api}: 'orig_freq' and 'new_freq' are used as whole numbers of Hz and must be at "
                             f"least 1, but got {orig_freq} and {new_freq}")
        self.resample_method = check_enum(api, "resample_method", resample_method, ResampleMethod)
        self.lowpass_filter_width = check_int(api, "lowpass_filter_width", lowpass_filter_width, 1)
        self.rolloff = check_float(api, "rolloff", rolloff, 0.0, 1.0, low_open=True)
        self.beta = KAISER_BETA if beta is None else check_float(api, "beta", beta)

    def _apply(self, *columns):
        x = float_waveform("Resample", _one("Resample", columns))
        return resample(x, self.orig_freq, self.new_freq, self.resample_method, self.lowpass_filter_width,
                        self.rolloff, self.beta)
