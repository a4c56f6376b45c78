"""Spectrograms and complex spectra (``mindspore.dataset.audio``'s Spectrogram ... PitchShift).

Complex spectra are (..., 2) real arrays of real and imaginary parts, as in MindSpore. float64 input
gives float64 output; any other numeric input is computed and returned as float32.
"""
import numpy as np

from sprout.dataset.audio import stft as S
from sprout.dataset.audio.resample import resample
from sprout.dataset.audio.utils import (BorderType, WindowType, check_bool, check_enum, check_float, check_int,
                                        complex_pairs, float_waveform, pad_last)
from sprout.dataset.transforms._random import rng
from sprout.dataset.transforms.transforms import TensorOperation, _one

__all__ = ["Spectrogram", "InverseSpectrogram", "GriffinLim", "SpectralCentroid", "ComplexNorm", "Angle", "Magphase",
           "TimeStretch", "PhaseVocoder", "PitchShift"]


def stft_lengths(api, n_fft, win_length, hop_length, hop_divisor=2):
    """MindSpore's defaults: win_length = n_fft, hop_length = win_length // hop_divisor."""
    n_fft = check_int(api, "n_fft", n_fft, 1)
    win_length = n_fft if win_length is None else check_int(api, "win_length", win_length, 1)
    if win_length > n_fft:
        raise ValueError(f"{api}: 'win_length' must be at most n_fft={n_fft}, but got {win_length}")
    hop_length = max(1, win_length // hop_divisor) if hop_length is None else check_int(api, "hop_length",
                                                                                      hop_length, 1)
    return n_fft, win_length, hop_length


class Spectrogram(TensorOperation):
    """(..., time) -> (..., n_fft // 2 + 1, frames) of |STFT| ** power; power 0 keeps the complex STFT as
    (..., freq, frames, 2)."""

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True):
        api = "Spectrogram"
        self.n_fft, self.win_length, self.hop_length = stft_lengths(api, n_fft, win_length, hop_length)
        self.pad = check_int(api, "pad", pad, 0)
        self.window = check_enum(api, "window", window, WindowType)
        self.power = check_float(api, "power", power, 0.0)
        self.normalized = check_bool(api, "normalized", normalized)
        self.center = check_bool(api, "center", center)
        self.pad_mode = check_enum(api, "pad_mode", pad_mode, BorderType)
        self.onesided = check_bool(api, "onesided", onesided)

    def _apply(self, *columns):
        x = float_waveform("Spectrogram", _one("Spectrogram", columns))
        return spectrogram("Spectrogram", x, self.n_fft, self.hop_length, self.win_length, self.window, self.pad,
                           self.power, self.normalized, self.center, self.pad_mode, self.onesided)


def spectrogram(api, x, n_fft, hop_length, win_length, window, pad, power, normalized=False, center=True,
                pad_mode=BorderType.REFLECT, onesided=True):
    z = S.stft(api, x, n_fft, hop_length, win_length, window, pad, center, pad_mode, normalized, onesided)
    if power == 0:
        return S.to_pairs(z, x.dtype)
    return (np.abs(z) ** power).astype(x.dtype)


class InverseSpectrogram(TensorOperation):
    """(..., freq, frames, 2) complex STFT -> (..., time) waveform by windowed overlap-add."""

    def __init__(self, length=None, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True):
        api = "InverseSpectrogram"
        self.length = 0 if length is None else check_int(api, "length", length, 0)
        self.n_fft, self.win_length, self.hop_length = stft_lengths(api, n_fft, win_length, hop_length)
        self.pad = check_int(api, "pad", pad, 0)
        self.window = check_enum(api, "window", window, WindowType)
        self.normalized = check_bool(api, "normalized", normalized)
        self.center = check_bool(api, "center", center)
        self.pad_mode = check_enum(api, "pad_mode", pad_mode, BorderType)  # the forward padding: nothing to undo
        self.onesided = check_bool(api, "onesided", onesided)

    def _apply(self, *columns):
        api = "InverseSpectrogram"
        x = complex_pairs(api, _one(api, columns), min_rank=2)
        lead = x.shape[:-3]
        z = S.from_pairs(x).reshape((-1,) + x.shape[-3:-1])
        if not self.onesided:  # the first half holds everything (MindSpore reads no more)
            z = z[:, :self.n_fft // 2 + 1]
        if self.normalized:
            w = S.padded_window(self.window, self.win_length, self.n_fft)
            z = z * np.sqrt(np.sum(w.astype(np.float32).astype(np.float64) ** 2))
        length = (z.shape[-1] - 1) * self.hop_length if self.length == 0 else self.length + 2 * self.pad
        y = S.istft(api, z, self.n_fft, self.hop_length, self.win_length, self.window, self.center, length)
        if self.pad:
            y = y[..., self.pad:y.shape[-1] - self.pad]
        return y.reshape(lead + (y.shape[-1],)).astype(x.dtype)


class GriffinLim(TensorOperation):
    """(..., freq, frames) magnitude spectrogram -> (..., time) waveform: phases recovered by fast Griffin-Lim."""

    def __init__(self, n_fft=400, n_iter=32, win_length=None, hop_length=None, window_type=WindowType.HANN,
                 power=2.0, momentum=0.99, length=None, rand_init=True):
        api = "GriffinLim"
        self.n_fft, self.win_length, self.hop_length = stft_lengths(api, n_fft, win_length, hop_length)
        self.n_iter = check_int(api, "n_iter", n_iter, 1)
        self.window = check_enum(api, "window_type", window_type, WindowType)
        self.power = check_float(api, "power", power, 0.0, low_open=True)
        self.momentum = check_float(api, "momentum", momentum, 0.0)
        self.length = 0 if length is None else check_int(api, "length", length, 0)
        self.rand_init = check_bool(api, "rand_init", rand_init)

    def _apply(self, *columns):
        api = "GriffinLim"
        x = float_waveform(api, _one(api, columns), min_rank=2)
        if x.shape[-2] != self.n_fft // 2 + 1:
            raise ValueError(f"{api}: expected n_fft // 2 + 1 = {self.n_fft // 2 + 1} frequency bins, "
                             f"but got shape {x.shape}")
        spec = (x.astype(np.float64) ** (1.0 / self.power)).reshape((-1,) + x.shape[-2:])
        if self.rand_init:  # MindSpore draws both parts uniformly in [0, 1)
            angles = rng().random(spec.shape) + 1j * rng().random(spec.shape)
        else:
            angles = np.ones(spec.shape, np.complex128)
        previous = np.zeros_like(angles)
        args = (self.n_fft, self.hop_length, self.win_length, self.window)
        # MindSpore scales the previous estimate by a / (1 + a) with a = momentum / (1 + momentum), not by a
        # (torchaudio's): its outputs are matched.
        alpha = self.momentum / (1 + self.momentum)
        alpha = alpha / (1 + alpha)
        n_frames = spec.shape[-1]
        for _ in range(self.n_iter):
            inverse = S.istft(api, angles * spec, *args, center=True, length=self.length)
            rebuilt = S.stft(api, inverse, self.n_fft, self.hop_length, self.win_length, self.window)
            # A given length may give a frame more or less than the input: align them (MindSpore misreads).
            rebuilt = np.pad(rebuilt[..., :n_frames], [(0, 0), (0, 0), (0, max(0, n_frames - rebuilt.shape[-1]))])
            angles = rebuilt - previous * alpha if self.momentum else rebuilt
            angles = angles / (np.abs(angles) + 1e-16)
            previous = rebuilt
        y = S.istft(api, angles * spec, *args, center=True, length=self.length)
        return y.reshape(x.shape[:-2] + (y.shape[-1],)).astype(x.dtype)


class SpectralCentroid(TensorOperation):
    """(..., time) -> (..., 1, frames): the magnitude-weighted mean frequency of each frame."""

    def __init__(self, sample_rate, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN):
        api = "SpectralCentroid"
        self.sample_rate = check_int(api, "sample_rate", sample_rate, 0)
        self.n_fft, self.win_length, self.hop_length = stft_lengths(api, n_fft, win_length, hop_length)
        self.pad = check_int(api, "pad", pad, 0)
        self.window = check_enum(api, "window", window, WindowType)

    def _apply(self, *columns):
        api = "SpectralCentroid"
        x = float_waveform(api, _one(api, columns))
        spec = np.abs(S.stft(api, x, self.n_fft, self.hop_length, self.win_length, self.window, self.pad))
        spec = spec.astype(x.dtype).astype(np.float64)
        freqs = np.linspace(0, self.sample_rate // 2, 1 + self.n_fft // 2)[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.sum(freqs * spec, axis=-2, keepdims=True) / np.sum(spec, axis=-2, keepdims=True)
        return out.astype(x.dtype)


class ComplexNorm(TensorOperation):
    """(..., 2) -> (...): |z| ** power."""

    def __init__(self, power=1.0):
        self.power = check_float("ComplexNorm", "power", power, 0.0)

    def _apply(self, *columns):
        x = complex_pairs("ComplexNorm", _one("ComplexNorm", columns))
        return complex_norm(x, self.power)


def complex_norm(x, power):
    return ((x[..., 0].astype(np.float64) ** 2 + x[..., 1].astype(np.float64) ** 2) ** (0.5 * power)).astype(x.dtype)


class Angle(TensorOperation):
    """(..., 2) -> (...): the argument of each complex number, in (-pi, pi]."""

    def _apply(self, *columns):
        x = complex_pairs("Angle", _one("Angle", columns))
        return np.arctan2(x[..., 1], x[..., 0])


class Magphase(TensorOperation):
    """(..., 2) -> ((...) magnitude ** power, (...) phase): two output columns."""

    def __init__(self, power=1.0):
        self.power = check_float("Magphase", "power", power, 0.0)

    def _apply(self, *columns):
        x = complex_pairs("Magphase", _one("Magphase", columns))
        return complex_norm(x, self.power), np.arctan2(x[..., 1], x[..., 0])


def _stretch(api, x, rate, phase_advance):
    x = complex_pairs(api, x, min_rank=2)
    lead = x.shape[:-3]
    z = S.from_pairs(x).reshape((-1,) + x.shape[-3:-1])
    if phase_advance.shape[0] != z.shape[-2]:
        raise ValueError(f"{api}: the spectrogram has {z.shape[-2]} frequency bins but the phase advance has "
                         f"{phase_advance.shape[0]}")
    out = S.phase_vocoder(z, rate, phase_advance)
    return S.to_pairs(out, x.dtype).reshape(lead + out.shape[-2:] + (2,))


class TimeStretch(TensorOperation):
    """(..., freq, time, 2) complex STFT sped up by ``fixed_rate`` without changing pitch:
    (..., freq, ceil(time / rate), 2)."""

    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None):
        api = "TimeStretch"
        self.n_freq = check_int(api, "n_freq", n_freq, 1)
        self.hop_length = self.n_freq - 1 if hop_length is None else check_int(api, "hop_length", hop_length, 1)
        self.fixed_rate = 1.0 if fixed_rate is None else check_float(api, "fixed_rate", fixed_rate, 0.0,
                                                                       low_open=True)

    def _apply(self, *columns):
        phase_advance = np.linspace(0, np.pi * self.hop_length, self.n_freq)
        return _stretch("TimeStretch", _one("TimeStretch", columns), self.fixed_rate, phase_advance)


class PhaseVocoder(TensorOperation):
    """TimeStretch with a given ``phase_advance`` of shape (freq, 1)."""

    def __init__(self, rate, phase_advance):
        self.rate = check_float("PhaseVocoder", "rate", rate, 0.0, low_open=True)
        if not isinstance(phase_advance, np.ndarray) or phase_advance.ndim != 2 or phase_advance.shape[1] != 1:
            raise TypeError(f"PhaseVocoder: 'phase_advance' must be a numpy.ndarray of shape (freq, 1), but got "
                            f"{getattr(phase_advance, 'shape', type(phase_advance).__name__)}")
        self.phase_advance = phase_advance.astype(np.float64)[:, 0]

    def _apply(self, *columns):
        return _stretch("PhaseVocoder", _one("PhaseVocoder", columns), self.rate, self.phase_advance)


class PitchShift(TensorOperation):
    """(..., time) shifted by ``n_steps`` of 1/bins_per_octave octave: stretched in time by the phase
    vocoder, then resampled back to the original length."""

    def __init__(self, sample_rate, n_steps, bins_per_octave=12, n_fft=512, win_length=None, hop_length=None,
                 window=WindowType.HANN):
        api = "PitchShift"
        self.sample_rate = check_int(api, "sample_rate", sample_rate, 1)
        self.n_steps = check_int(api, "n_steps", n_steps)
        self.bins_per_octave = check_int(api, "bins_per_octave", bins_per_octave)
        if self.bins_per_octave == 0:
            raise ValueError(f"{api}: 'bins_per_octave' must not be 0")
        self.n_fft, self.win_length, self.hop_length = stft_lengths(api, n_fft, win_length, hop_length, 4)
        self.window = check_enum(api, "window", window, WindowType)

    def _apply(self, *columns):
        api = "PitchShift"
        x = float_waveform(api, _one(api, columns))
        length = x.shape[-1]
        spec = S.stft(api, x, self.n_fft, self.hop_length, self.win_length, self.window)
        spec = spec.astype(np.complex64 if x.dtype == np.float32 else np.complex128).reshape((-1,) + spec.shape[-2:])
        rate = float(np.float32(2.0 ** (np.float32(-self.n_steps) / np.float32(self.bins_per_octave))))
        phase_advance = np.linspace(0, np.pi * self.hop_length, spec.shape[-2])
        stretched = S.phase_vocoder(spec.astype(np.complex128), rate, phase_advance)
        y = S.istft(api, stretched, self.n_fft, self.hop_length, self.win_length, self.window, True,
                    int(S.c_round(length / rate)))
        y = resample(y.astype(x.dtype), int(self.sample_rate / rate), self.sample_rate)
        y = y[..., :length] if y.shape[-1] >= length else pad_last(y, 0, length - y.shape[-1], BorderType.CONSTANT)
        return y.reshape(x.shape).astype(x.dtype)
