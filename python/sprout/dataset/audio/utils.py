"""Enums and filter-bank helpers of ``mindspore.dataset.audio``, and the argument and array checks its
transforms share.

MindSpore's audio enums derive from ``str`` (so they serialize to JSON); these do too. The filter banks
follow torchaudio's formulas, as MindSpore's do, and come back as float32 as MindSpore's.
"""
import enum
import numbers

import numpy as np


class BorderType(str, enum.Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class DensityFunction(str, enum.Enum):
    TPDF = "TPDF"
    RPDF = "RPDF"
    GPDF = "GPDF"


class FadeShape(str, enum.Enum):
    QUARTER_SINE = "quarter_sine"
    HALF_SINE = "half_sine"
    LINEAR = "linear"
    LOGARITHMIC = "logarithmic"
    EXPONENTIAL = "exponential"


class GainType(str, enum.Enum):
    AMPLITUDE = "amplitude"
    POWER = "power"
    DB = "db"


class Interpolation(str, enum.Enum):
    LINEAR = "linear"
    QUADRATIC = "quadratic"


class MelType(str, enum.Enum):
    HTK = "htk"
    SLANEY = "slaney"


class Modulation(str, enum.Enum):
    SINUSOIDAL = "sinusoidal"
    TRIANGULAR = "triangular"


class NormMode(str, enum.Enum):
    ORTHO = "ortho"
    NONE = "none"


class NormType(str, enum.Enum):
    SLANEY = "slaney"
    NONE = "none"


class ResampleMethod(str, enum.Enum):
    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


class ScaleType(str, enum.Enum):
    POWER = "power"
    MAGNITUDE = "magnitude"


class WindowType(str, enum.Enum):
    BARTLETT = "bartlett"
    BLACKMAN = "blackman"
    HAMMING = "hamming"
    HANN = "hann"
    KAISER = "kaiser"


# ---- argument checks (errors name the transform and the argument) ----

def check_int(api, name, value, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{api}: '{name}' must be an int, but got {type(value).__name__} {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{api}: '{name}' must be in [{low}, {'inf' if high is None else high}], but got {value}")
    return int(value)


def check_float(api, name, value, low=None, high=None, low_open=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{api}: '{name}' must be a number, but got {type(value).__name__} {value!r}")
    if (low is not None and (value < low or (low_open and value == low))) or (high is not None and value > high):
        bracket = "(" if low_open else "["
        raise ValueError(f"{api}: '{name}' must be in {bracket}{low}, {'inf' if high is None else high}], "
                         f"but got {value}")
    return float(value)


def check_bool(api, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{api}: '{name}' must be a bool, but got {type(value).__name__} {value!r}")
    return value


def check_enum(api, name, value, enum_type):
    if not isinstance(value, enum_type):
        raise TypeError(f"{api}: '{name}' must be a {enum_type.__name__}, but got {value!r}")
    return value


def check_quality(api, q):
    return check_float(api, "Q", q, 0.0, 1.0, low_open=True)


# ---- the arrays transforms take ----

def float_waveform(api, x, min_rank=1, keep_half=False):
    """``x`` as the float type MindSpore computes it in: float64 stays, float16 stays when ``keep_half``
    (the filters), every other numeric type becomes float32."""
    if x.dtype.kind not in "biuf":
        raise TypeError(f"{api}: expected a numeric array, but got dtype {x.dtype}")
    if x.ndim < min_rank:
        shape = "<..., time>" if min_rank == 1 else "<..., freq, time>"
        raise ValueError(f"{api}: expected an array of shape {shape} (at least {min_rank}-D), but got shape {x.shape}")
    if x.dtype == np.float64 or (keep_half and x.dtype == np.float16):
        return x
    return x.astype(np.float32)


def float_only(api, x):
    """The filters take float arrays only (MindSpore refuses integers)."""
    if x.dtype.kind != "f":
        raise TypeError(f"{api}: expected a float16, float32 or float64 waveform, but got dtype {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"{api}: expected a waveform of shape <..., time>, but got a scalar")
    return x


def complex_pairs(api, x, min_rank=1):
    """A complex array as MindSpore writes it, (..., 2) of real and imaginary parts, as float32/64."""
    x = float_waveform(api, x)
    if x.ndim < min_rank + 1 or x.shape[-1] != 2:
        raise ValueError(f"{api}: expected a complex array of shape <..., complex=2>, but got shape {x.shape}")
    return x


def pad_last(x, left, right, mode):
    """Pads the last axis; BorderType names NumPy's modes except EDGE/CONSTANT spelled alike."""
    widths = [(0, 0)] * (x.ndim - 1) + [(left, right)]
    return np.pad(x, widths, mode=mode.value)


def window(window_type, length):
    """The periodic window of ``length`` samples, float32 as MindSpore's (Kaiser with beta 12)."""
    if length == 1:
        return np.ones(1, np.float32)
    n = np.arange(length, dtype=np.float64)
    if window_type == WindowType.HANN:
        w = 0.5 - 0.5 * np.cos(2 * np.pi * n / length)
    elif window_type == WindowType.HAMMING:
        w = 0.54 - 0.46 * np.cos(2 * np.pi * n / length)
    elif window_type == WindowType.BLACKMAN:
        w = 0.42 - 0.5 * np.cos(2 * np.pi * n / length) + 0.08 * np.cos(4 * np.pi * n / length)
    elif window_type == WindowType.BARTLETT:
        w = 1.0 - np.abs(2.0 * n / length - 1.0)
    else:  # KAISER
        w = np.i0(12.0 * np.sqrt(np.maximum(0.0, 1 - (2.0 * n / length - 1.0) ** 2))) / np.i0(12.0)
    return w.astype(np.float32)


# ---- filter banks (public in MindSpore) ----

def _hz_to_mel(freq, mel_type):
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + freq / 700.0)
    freq = np.asarray(freq, np.float64)
    mels = freq / (200.0 / 3)
    log_step = np.log(6.4) / 27.0
    return np.where(freq >= 1000.0, 15.0 + np.log(np.maximum(freq, 1e-10) / 1000.0) / log_step, mels)


def _mel_to_hz(mels, mel_type):
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    log_step = np.log(6.4) / 27.0
    return np.where(mels >= 15.0, 1000.0 * np.exp(log_step * (mels - 15.0)), mels * (200.0 / 3))


def _triangles(all_freqs, f_pts):
    """(n_freqs, n_filters) triangular filters with corners at f_pts (torchaudio's _create_triangular_filterbank)."""
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def _check_fbank_args(api, n_freqs, f_min, f_max, n_filters, filters_name, sample_rate):
    check_int(api, "n_freqs", n_freqs, 1)
    f_min = check_float(api, "f_min", f_min, 0.0)
    f_max = check_float(api, "f_max", f_max, 0.0)
    if f_min > f_max:
        raise ValueError(f"{api}: 'f_min' must not exceed 'f_max', but got f_min={f_min} and f_max={f_max}")
    check_int(api, filters_name, n_filters, 1)
    check_int(api, "sample_rate", sample_rate, 1)
    return f_min, f_max


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=NormType.NONE, mel_type=MelType.HTK):
    """The (n_freqs, n_mels) matrix taking STFT bins to mel bands."""
    api = "melscale_fbanks"
    f_min, f_max = _check_fbank_args(api, n_freqs, f_min, f_max, n_mels, "n_mels", sample_rate)
    check_enum(api, "norm", norm, NormType)
    check_enum(api, "mel_type", mel_type, MelType)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    fb = _triangles(all_freqs, f_pts)
    if norm == NormType.SLANEY:  # each band's area made one (Slaney's "area normalization")
        fb *= 2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])
    return fb.astype(np.float32)


def linear_fbanks(n_freqs, f_min, f_max, n_filter, sample_rate):
    """The (n_freqs, n_filter) matrix of triangular filters spaced evenly in Hz."""
    f_min, f_max = _check_fbank_args("linear_fbanks", n_freqs, f_min, f_max, n_filter, "n_filter", sample_rate)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    return _triangles(all_freqs, np.linspace(f_min, f_max, n_filter + 2)).astype(np.float32)


def create_dct(n_mfcc, n_mels, norm=NormMode.NONE):
    """The (n_mels, n_mfcc) DCT-II matrix, right-multiplied to rows of n_mels values."""
    check_int("create_dct", "n_mfcc", n_mfcc, 1)
    check_int("create_dct", "n_mels", n_mels, 1)
    check_enum("create_dct", "norm", norm, NormMode)
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(np.pi / n_mels * (n + 0.5) * k)
    if norm == NormMode.NONE:
        dct *= 2.0
    else:
        dct[0] *= 1.0 / np.sqrt(2.0)
        dct *= np.sqrt(2.0 / n_mels)
    return dct.T.astype(np.float32)
