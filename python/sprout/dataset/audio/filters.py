"""IIR filters (``mindspore.dataset.audio``'s biquads, LFilter and Filtfilt).

Each biquad designs its six coefficients with SoX's formulas (torchaudio's, as MindSpore's) and runs
LFilter with the output clamped to [-1, 1]. Waveforms must be float (MindSpore refuses integers) and keep
their dtype; float16 is filtered in float32.
"""
import math

import numpy as np

from sprout.dataset.audio.utils import check_bool, check_float, check_int, check_quality, float_only
from sprout.dataset.transforms.transforms import TensorOperation, _one

__all__ = ["LFilter", "Filtfilt", "Biquad", "AllpassBiquad", "BandBiquad", "BandpassBiquad", "BandrejectBiquad",
           "BassBiquad", "DeemphBiquad", "EqualizerBiquad", "HighpassBiquad", "LowpassBiquad", "RiaaBiquad",
           "TrebleBiquad"]


def lfilter(x, a_coeffs, b_coeffs, clamp):
    """y[n] = (sum_k b[k] x[n-k] - sum_{k>=1} a[k] y[n-k]) / a[0] along the last axis, zero initial state;
    only the output is clamped, the recursion runs on unclamped values (as MindSpore's)."""
    a = np.asarray(a_coeffs, np.float64)
    b = np.asarray(b_coeffs, np.float64) / a[0]
    a = a / a[0]
    flat = x.reshape(-1, x.shape[-1]).astype(np.float64)
    n = flat.shape[-1]
    # The moving-average part at once; only the feedback needs a loop over time.
    fir = np.zeros_like(flat)
    for k, bk in enumerate(b):
        if k < n:
            fir[:, k:] += bk * flat[:, :n - k]
    y = np.zeros_like(flat)
    order = len(a) - 1
    for t in range(n):
        acc = fir[:, t]
        for k in range(1, min(order, t) + 1):
            acc = acc - a[k] * y[:, t - k]
        y[:, t] = acc
    if clamp:
        y = np.clip(y, -1.0, 1.0)
    return y.reshape(x.shape).astype(x.dtype)


def _coeffs(api, a_coeffs, b_coeffs):
    for name, c in (("a_coeffs", a_coeffs), ("b_coeffs", b_coeffs)):
        if not isinstance(c, (list, tuple, np.ndarray)) or len(c) == 0:
            raise TypeError(f"{api}: '{name}' must be a non-empty sequence of numbers, but got {c!r}")
        for v in c:
            check_float(api, name, v)
    if len(a_coeffs) != len(b_coeffs):
        raise ValueError(f"{api}: 'a_coeffs' and 'b_coeffs' must have the same length (pad with 0), but got "
                         f"{len(a_coeffs)} and {len(b_coeffs)}")
    if a_coeffs[0] == 0:
        raise ValueError(f"{api}: a_coeffs[0] must not be 0")
    return [float(v) for v in a_coeffs], [float(v) for v in b_coeffs]


class LFilter(TensorOperation):
    """(..., time) through the IIR filter with denominator ``a_coeffs`` and numerator ``b_coeffs``."""

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        self.a_coeffs, self.b_coeffs = _coeffs("LFilter", a_coeffs, b_coeffs)
        self.clamp = check_bool("LFilter", "clamp", clamp)

    def _apply(self, *columns):
        x = float_only("LFilter", _one("LFilter", columns))
        return lfilter(x, self.a_coeffs, self.b_coeffs, self.clamp)


class Filtfilt(TensorOperation):
    """LFilter forward, then backward over the time-reversed result: zero phase, squared magnitude response."""

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        self.a_coeffs, self.b_coeffs = _coeffs("Filtfilt", a_coeffs, b_coeffs)
        self.clamp = check_bool("Filtfilt", "clamp", clamp)

    def _apply(self, *columns):
        x = float_only("Filtfilt", _one("Filtfilt", columns))
        forward = lfilter(x.astype(np.float64), self.a_coeffs, self.b_coeffs, False)
        backward = lfilter(forward[..., ::-1], self.a_coeffs, self.b_coeffs, self.clamp)
        return np.ascontiguousarray(backward[..., ::-1]).astype(x.dtype)


class _Biquad(TensorOperation):
    """A second-order filter: subclasses set self.b (b0, b1, b2) and self.a (a0, a1, a2)."""

    def _apply(self, *columns):
        api = type(self).__name__
        return lfilter(float_only(api, _one(api, columns)), self.a, self.b, True)


def _sample_rate(api, sample_rate):
    sample_rate = check_int(api, "sample_rate", sample_rate)
    if sample_rate == 0:
        raise ValueError(f"{api}: 'sample_rate' must not be 0")
    return sample_rate


def _omega(sample_rate, freq):
    return 2 * math.pi * freq / sample_rate


class Biquad(_Biquad):
    def __init__(self, b0, b1, b2, a0, a1, a2):
        names = ("b0", "b1", "b2", "a0", "a1", "a2")
        values = [check_float("Biquad", n, v) for n, v in zip(names, (b0, b1, b2, a0, a1, a2))]
        if values[3] == 0:
            raise ValueError("Biquad: 'a0' must not be 0")
        self.b, self.a = values[:3], values[3:]


class AllpassBiquad(_Biquad):
    def __init__(self, sample_rate, central_freq, Q=0.707):  # noqa: N803 - MindSpore's name
        api = "AllpassBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "central_freq", central_freq))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        self.b = [1 - alpha, -2 * math.cos(w0), 1 + alpha]
        self.a = [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class BandBiquad(_Biquad):
    def __init__(self, sample_rate, central_freq, Q=0.707, noise=False):  # noqa: N803
        api = "BandBiquad"
        sample_rate = _sample_rate(api, sample_rate)
        central_freq = check_float(api, "central_freq", central_freq)
        q = check_quality(api, Q)
        check_bool(api, "noise", noise)
        w0 = _omega(sample_rate, central_freq)
        bw_hz = central_freq / q
        a2 = math.exp(-2 * math.pi * bw_hz / sample_rate)
        a1 = -4 * a2 / (1 + a2) * math.cos(w0)
        b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if noise:
            b0 *= math.sqrt(((1 + a2) ** 2 - a1 * a1) * (1 - a2) / (1 + a2)) / b0
        self.b, self.a = [b0, 0.0, 0.0], [1.0, a1, a2]


class BandpassBiquad(_Biquad):
    def __init__(self, sample_rate, central_freq, Q=0.707, const_skirt_gain=False):  # noqa: N803
        api = "BandpassBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "central_freq", central_freq))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        gain = math.sin(w0) / 2 if check_bool(api, "const_skirt_gain", const_skirt_gain) else alpha
        self.b = [gain, 0.0, -gain]
        self.a = [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class BandrejectBiquad(_Biquad):
    def __init__(self, sample_rate, central_freq, Q=0.707):  # noqa: N803
        api = "BandrejectBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "central_freq", central_freq))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        self.b = [1.0, -2 * math.cos(w0), 1.0]
        self.a = [1 + alpha, -2 * math.cos(w0), 1 - alpha]


def _shelf(w0, gain_db, alpha, treble):
    """SoX's low-shelf (bass) and high-shelf (treble) coefficients."""
    a = math.exp(gain_db / 40 * math.log(10))
    t1, t2, t3 = 2 * math.sqrt(a) * alpha, (a - 1) * math.cos(w0), (a + 1) * math.cos(w0)
    if treble:
        b = [a * ((a + 1) + t2 + t1), -2 * a * ((a - 1) + t3), a * ((a + 1) + t2 - t1)]
        return b, [(a + 1) - t2 + t1, 2 * ((a - 1) - t3), (a + 1) - t2 - t1]
    b = [a * ((a + 1) - t2 + t1), 2 * a * ((a - 1) - t3), a * ((a + 1) - t2 - t1)]
    return b, [(a + 1) + t2 + t1, -2 * ((a - 1) + t3), (a + 1) + t2 - t1]


class BassBiquad(_Biquad):
    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):  # noqa: N803
        api = "BassBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "central_freq", central_freq))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        self.b, self.a = _shelf(w0, check_float(api, "gain", gain), alpha, treble=False)


class TrebleBiquad(_Biquad):
    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707):  # noqa: N803
        api = "TrebleBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "central_freq", central_freq))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        self.b, self.a = _shelf(w0, check_float(api, "gain", gain), alpha, treble=True)


class DeemphBiquad(_Biquad):
    """Compact Disc de-emphasis: a treble shelf fixed per sample rate (44100 or 48000 Hz)."""

    _SHELVES = {44100: (5283.0, 0.4845, -9.477), 48000: (5356.0, 0.479, -9.62)}

    def __init__(self, sample_rate):
        api = "DeemphBiquad"
        check_int(api, "sample_rate", sample_rate)
        if sample_rate not in self._SHELVES:
            raise ValueError(f"{api}: 'sample_rate' must be 44100 or 48000, but got {sample_rate}")
        central_freq, width_slope, gain = self._SHELVES[sample_rate]
        w0 = _omega(sample_rate, central_freq)
        a = math.exp(gain / 40 * math.log(10))
        alpha = math.sin(w0) / 2 * math.sqrt((a + 1 / a) * (1 / width_slope - 1) + 2)
        self.b, self.a = _shelf(w0, gain, alpha, treble=True)


class EqualizerBiquad(_Biquad):
    def __init__(self, sample_rate, center_freq, gain, Q=0.707):  # noqa: N803
        api = "EqualizerBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "center_freq", center_freq))
        a = math.exp(check_float(api, "gain", gain) / 40 * math.log(10))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        self.b = [1 + alpha * a, -2 * math.cos(w0), 1 - alpha * a]
        self.a = [1 + alpha / a, -2 * math.cos(w0), 1 - alpha / a]


class HighpassBiquad(_Biquad):
    def __init__(self, sample_rate, cutoff_freq, Q=0.707):  # noqa: N803
        api = "HighpassBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "cutoff_freq", cutoff_freq))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        self.b = [(1 + math.cos(w0)) / 2, -1 - math.cos(w0), (1 + math.cos(w0)) / 2]
        self.a = [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class LowpassBiquad(_Biquad):
    def __init__(self, sample_rate, cutoff_freq, Q=0.707):  # noqa: N803
        api = "LowpassBiquad"
        w0 = _omega(_sample_rate(api, sample_rate), check_float(api, "cutoff_freq", cutoff_freq))
        alpha = math.sin(w0) / 2 / check_quality(api, Q)
        self.b = [(1 - math.cos(w0)) / 2, 1 - math.cos(w0), (1 - math.cos(w0)) / 2]
        self.a = [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class RiaaBiquad(_Biquad):
    """RIAA vinyl playback equalization: SoX's poles and zeros per sample rate, gain 1 at 1 kHz."""

    _ZEROS_POLES = {44100: ((-0.2014898, 0.9233820), (0.7083149, 0.9924091)),
                    48000: ((-0.1766069, 0.9321590), (0.7396325, 0.9931330)),
                    88200: ((-0.1168735, 0.9648312), (0.8590646, 0.9964002)),
                    96000: ((-0.1141486, 0.9676817), (0.8699137, 0.9966946))}

    def __init__(self, sample_rate):
        api = "RiaaBiquad"
        check_int(api, "sample_rate", sample_rate)
        if sample_rate not in self._ZEROS_POLES:
            raise ValueError(f"{api}: 'sample_rate' must be one of 44100, 48000, 88200, 96000, but got {sample_rate}")
        (z0, z1), (p0, p1) = self._ZEROS_POLES[sample_rate]
        b = [1.0, -(z0 + z1), z0 * z1]
        a = [1.0, -(p0 + p1), p0 * p1]
        y = 2 * math.pi * 1000 / sample_rate
        b_re = b[0] + b[1] * math.cos(-y) + b[2] * math.cos(-2 * y)
        a_re = a[0] + a[1] * math.cos(-y) + a[2] * math.cos(-2 * y)
        b_im = b[1] * math.sin(-y) + b[2] * math.sin(-2 * y)
        a_im = a[1] * math.sin(-y) + a[2] * math.sin(-2 * y)
        g = 1 / math.sqrt((b_re ** 2 + b_im ** 2) / (a_re ** 2 + a_im ** 2))
        self.b, self.a = [v * g for v in b], a
