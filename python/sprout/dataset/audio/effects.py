"""Waveform effects (``mindspore.dataset.audio``'s Contrast ... Vol, MuLawEncoding/Decoding), SoX's
algorithms as MindSpore implements them.

Effects with state along time (Overdrive, Phaser, Flanger) loop over samples with every channel in one
NumPy vector; the others are elementwise.
"""
import math

import numpy as np

from sprout.dataset.audio.utils import (DensityFunction, FadeShape, GainType, Interpolation, Modulation, WindowType,
                                        check_bool, check_enum, check_float, check_int, float_waveform, window)
from sprout.dataset.transforms._random import rng
from sprout.dataset.transforms.transforms import TensorOperation, _one

__all__ = ["Contrast", "DCShift", "Dither", "Fade", "Flanger", "Gain", "Overdrive", "Phaser", "Vol",
           "MuLawEncoding", "MuLawDecoding"]


def _waveform(api, columns):
    return float_waveform(api, _one(api, columns))


class Contrast(TensorOperation):
    """sin(x pi/2 + amount/750 sin(x 2 pi)): louder without clipping, like compression."""

    def __init__(self, enhancement_amount=75.0):
        self.amount = check_float("Contrast", "enhancement_amount", enhancement_amount, 0.0, 100.0)

    def _apply(self, *columns):
        x = _waveform("Contrast", columns)
        t = x.astype(np.float64) * (math.pi / 2)
        return np.sin(t + self.amount / 750.0 * np.sin(t * 4)).astype(x.dtype)


class DCShift(TensorOperation):
    """x + shift, with peaks beyond 1 - (|shift| - limiter_gain) compressed by ``limiter_gain``."""

    def __init__(self, shift, limiter_gain=None):
        self.shift = check_float("DCShift", "shift", shift, -2.0, 2.0)
        self.limiter_gain = self.shift if limiter_gain is None else check_float("DCShift", "limiter_gain",
                                                                                limiter_gain)

    def _apply(self, *columns):
        x = _waveform("DCShift", columns)
        shift, gain = self.shift, self.limiter_gain
        v = x.astype(np.float64)
        if shift == gain or shift == 0:
            return np.clip(v + shift, -1, 1).astype(x.dtype)
        threshold = 1.0 - (abs(shift) - gain)
        out = np.clip(v + shift, -1, 1)
        if shift > 0:
            high = v > threshold
            peak = (v - threshold) * gain / (1 - threshold) + threshold + shift
            out = np.where(high, np.minimum(peak, threshold), out)
        else:
            low = v < -threshold
            peak = (v + threshold) * gain / (1 - threshold) + threshold + shift
            out = np.where(low, np.maximum(peak, -threshold), out)
        return out.astype(x.dtype)


class Dither(TensorOperation):
    """Quantizes to 16 bits after adding MindSpore's dither: TPDF adds a Bartlett window along time, RPDF one
    sample of the input drawn at random, GPDF the sum of seven drawn samples; ``noise_shaping`` adds each
    sample's quantization error to the next."""

    def __init__(self, density_function=DensityFunction.TPDF, noise_shaping=False):
        self.density_function = check_enum("Dither", "density_function", density_function, DensityFunction)
        self.noise_shaping = check_bool("Dither", "noise_shaping", noise_shaping)

    def _apply(self, *columns):
        x = _waveform("Dither", columns)
        flat = x.reshape(-1, x.shape[-1]).astype(np.float64)
        scaled = flat * (2 ** 15 - 2)
        if self.density_function == DensityFunction.TPDF:
            dithered = scaled + window_bartlett(flat.shape[-1]).astype(x.dtype)
        else:
            generator = rng()
            pick = lambda: flat[generator.integers(0, flat.shape[0]), generator.integers(0, flat.shape[1])]  # noqa
            offset = pick()
            if self.density_function == DensityFunction.GPDF:
                for _ in range(6):
                    offset = offset + pick()
            dithered = scaled + offset
        out = np.round(dithered) / 2 ** 15
        if self.noise_shaping:
            error = out - flat
            out = out + np.pad(error[:, :-1], ((0, 0), (1, 0)))
        return out.reshape(x.shape).astype(x.dtype)


def window_bartlett(length):
    """MindSpore's Bartlett window, whose single-sample window is 0."""
    return window(WindowType.BARTLETT, length) if length > 1 else np.zeros(length, np.float32)


def _fade_curve(length, shape, fade_in):
    t = np.linspace(0.0, 1.0, length) if length > 1 else np.zeros(length)
    if fade_in:
        curves = {FadeShape.LINEAR: t, FadeShape.EXPONENTIAL: 2.0 ** (t - 1) * t,
                  FadeShape.LOGARITHMIC: np.log10(t + 0.1) + 1.0, FadeShape.QUARTER_SINE: np.sin(t * math.pi / 2),
                  FadeShape.HALF_SINE: np.sin(t * math.pi - math.pi / 2) / 2 + 0.5}
    else:
        curves = {FadeShape.LINEAR: 1.0 - t, FadeShape.EXPONENTIAL: 2.0 ** (-t) * (1 - t),
                  FadeShape.LOGARITHMIC: np.log10(1.1 - t) + 1.0,
                  FadeShape.QUARTER_SINE: np.sin(t * math.pi / 2 + math.pi / 2),
                  FadeShape.HALF_SINE: np.sin(t * math.pi + math.pi / 2) / 2 + 0.5}
    return curves[shape]


class Fade(TensorOperation):
    """Scales the first ``fade_in_len`` samples up from 0 and the last ``fade_out_len`` down to 0."""

    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape=FadeShape.LINEAR):
        self.fade_in_len = check_int("Fade", "fade_in_len", fade_in_len, 0)
        self.fade_out_len = check_int("Fade", "fade_out_len", fade_out_len, 0)
        self.fade_shape = check_enum("Fade", "fade_shape", fade_shape, FadeShape)

    def _apply(self, *columns):
        x = _waveform("Fade", columns)
        n = x.shape[-1]
        for name, value in (("fade_in_len", self.fade_in_len), ("fade_out_len", self.fade_out_len)):
            if value > n:
                raise ValueError(f"Fade: '{name}' must be at most the waveform length {n}, but got {value}")
        gain = np.ones(n)
        gain[:self.fade_in_len] *= _fade_curve(self.fade_in_len, self.fade_shape, True)
        gain[n - self.fade_out_len:] *= _fade_curve(self.fade_out_len, self.fade_shape, False)
        return (x * gain.astype(x.dtype)).astype(x.dtype)


class Gain(TensorOperation):
    """x * 10 ** (gain_db / 20)."""

    def __init__(self, gain_db=1.0):
        self.gain_db = check_float("Gain", "gain_db", gain_db)

    def _apply(self, *columns):
        x = _waveform("Gain", columns)
        return (x * x.dtype.type(10 ** (self.gain_db / 20))).astype(x.dtype)


class Vol(TensorOperation):
    """x times an amplitude ratio, a power ratio or a gain in dB, clamped to [-1, 1]."""

    def __init__(self, gain, gain_type=GainType.AMPLITUDE):
        self.gain_type = check_enum("Vol", "gain_type", gain_type, GainType)
        low = None if gain_type == GainType.DB else 0.0  # a power ratio must be positive, an amplitude one not negative
        self.gain = check_float("Vol", "gain", gain, low, low_open=gain_type == GainType.POWER)

    def _apply(self, *columns):
        x = _waveform("Vol", columns)
        gain = self.gain
        if self.gain_type == GainType.DB and gain != 0:
            gain = 10 ** (gain / 20)
        elif self.gain_type == GainType.POWER:
            gain = 10 ** (10 * math.log10(gain) / 20)
        out = x.astype(np.float64)
        if gain != 0 or self.gain_type == GainType.AMPLITUDE:
            out = out * gain
        return np.clip(out, -1, 1).astype(x.dtype)


class Overdrive(TensorOperation):
    """SoX's overdrive: a cubic soft clipper after ``gain`` dB and a ``color`` offset, DC-blocked and mixed
    with half the input."""

    def __init__(self, gain=20.0, color=20.0):
        self.gain = check_float("Overdrive", "gain", gain, 0.0, 100.0)
        self.color = check_float("Overdrive", "color", color, 0.0, 100.0)

    def _apply(self, *columns):
        x = _waveform("Overdrive", columns)
        flat = x.reshape(-1, x.shape[-1]).astype(np.float64)
        v = flat * math.exp(self.gain * math.log(10) / 20.0) + self.color / 200
        clipped = np.where(v < -1, -2.0 / 3, np.where(v > 1, 2.0 / 3, v - v ** 3 / 3))
        out = np.empty_like(flat)
        last_in = np.zeros(flat.shape[0])
        last_out = np.zeros(flat.shape[0])
        for t in range(flat.shape[1]):
            last_out = clipped[:, t] - last_in + last_out * 0.995
            last_in = clipped[:, t]
            out[:, t] = flat[:, t] * 0.5 + last_out * 0.75
        return np.clip(out, -1, 1).reshape(x.shape).astype(x.dtype)


def wave_table(modulation, size, low, high, phase, integer):
    """One period of the sine or triangle a modulated effect sweeps its delay with (SoX's lsx_generate_wave_table)."""
    point = (np.arange(size) + int(phase / math.pi / 2 * size + 0.5)) % size
    if modulation == Modulation.SINUSOIDAL:
        table = (np.sin(point * math.pi / size * 2) + 1) / 2
    else:
        table = point * 2.0 / size
        quarter = (4 * point) // size
        table = np.where(quarter == 0, table + 0.5, np.where(quarter == 3, table - 1.5, 1.5 - table))
    table = (table.astype(np.float32) * np.float32(high - low) + np.float32(low)).astype(np.float32)
    if integer:
        return np.where(table < 0, table - 0.5, table + 0.5).astype(np.int32)
    return table


class Phaser(TensorOperation):
    """SoX's phaser: a modulated delay line fed back with ``decay``."""

    def __init__(self, sample_rate, gain_in=0.4, gain_out=0.74, delay_ms=3.0, decay=0.4, mod_speed=0.5,
                 sinusoidal=True):
        api = "Phaser"
        self.sample_rate = check_int(api, "sample_rate", sample_rate, -2 ** 31, 2 ** 31 - 1)
        self.gain_in = check_float(api, "gain_in", gain_in, 0.0, 1.0)
        self.gain_out = check_float(api, "gain_out", gain_out, 0.0, 1e9)
        self.delay_ms = check_float(api, "delay_ms", delay_ms, 0.0, 5.0)
        self.decay = check_float(api, "decay", decay, 0.0, 0.99)
        self.mod_speed = check_float(api, "mod_speed", mod_speed, 0.1, 2.0)
        self.sinusoidal = check_bool(api, "sinusoidal", sinusoidal)

    def _apply(self, *columns):
        x = _waveform("Phaser", columns)
        flat = x.reshape(-1, x.shape[-1]).astype(np.float64) * np.float32(self.gain_in)
        delay_len = int(self.delay_ms * 0.001 * self.sample_rate + 0.5)
        if delay_len < 1:
            raise ValueError(f"Phaser: delay_ms * sample_rate / 1000 must give a delay of at least one sample, "
                             f"but got delay_ms={self.delay_ms} and sample_rate={self.sample_rate}")
        mod_len = int(self.sample_rate / self.mod_speed + 0.5)
        modulation = Modulation.SINUSOIDAL if self.sinusoidal else Modulation.TRIANGULAR
        mod = wave_table(modulation, mod_len, 1.0, float(delay_len), math.pi / 2, integer=True)
        decay = np.float32(self.decay)
        buf = np.zeros((flat.shape[0], delay_len))
        out = np.empty_like(flat)
        delay_pos = mod_pos = 0
        for t in range(flat.shape[1]):
            idx = (delay_pos + int(mod[mod_pos])) % delay_len
            mod_pos = (mod_pos + 1) % mod_len
            delay_pos = (delay_pos + 1) % delay_len
            out[:, t] = flat[:, t] + buf[:, idx]
            buf[:, delay_pos] = out[:, t] * decay
        out = np.clip(out * np.float32(self.gain_out), -1, 1)
        return out.reshape(x.shape).astype(x.dtype)


class Flanger(TensorOperation):
    """SoX's flanger on (..., channel, time): a delay swept by a low-frequency oscillator, fed back by
    ``regen`` dB and mixed by ``width`` dB; channels sweep ``phase`` percent apart. Keeps the input dtype."""

    def __init__(self, sample_rate, delay=0.0, depth=2.0, regen=0.0, width=71.0, speed=0.5, phase=25.0,
                 modulation=Modulation.SINUSOIDAL, interpolation=Interpolation.LINEAR):
        api = "Flanger"
        self.sample_rate = check_int(api, "sample_rate", sample_rate)
        if self.sample_rate == 0:
            raise ValueError(f"{api}: 'sample_rate' must not be 0")
        self.delay = check_float(api, "delay", delay, 0.0, 30.0)
        self.depth = check_float(api, "depth", depth, 0.0, 10.0)
        self.regen = check_float(api, "regen", regen, -95.0, 95.0)
        self.width = check_float(api, "width", width, 0.0, 100.0)
        self.speed = check_float(api, "speed", speed, 0.1, 10.0)
        self.phase = check_float(api, "phase", phase, 0.0, 100.0)
        self.modulation = check_enum(api, "modulation", modulation, Modulation)
        self.interpolation = check_enum(api, "interpolation", interpolation, Interpolation)

    def _apply(self, *columns):
        x = _one("Flanger", columns)
        if x.dtype.kind not in "iuf":
            raise TypeError(f"Flanger: expected a numeric waveform, but got dtype {x.dtype}")
        if x.ndim < 2:
            raise ValueError(f"Flanger: expected a waveform of shape <..., channel, time>, but got shape {x.shape}")
        compute = np.float64 if x.dtype == np.float64 else np.float32
        wave = x.astype(compute).reshape((-1,) + x.shape[-2:]).astype(np.float64)
        n_channels, n_time = wave.shape[1], wave.shape[2]
        feedback = self.regen / 100
        delay_gain = self.width / 100
        in_gain = 1.0 / (1 + delay_gain)
        delay_gain = delay_gain / (1 + delay_gain) * (1 - abs(feedback))
        delay_min, delay_depth = self.delay / 1000, self.depth / 1000
        buf_len = int((delay_min + delay_depth) * self.sample_rate + 0.5) + 2
        lfo_len = int(self.sample_rate / self.speed)
        lfo = wave_table(self.modulation, lfo_len, math.floor(delay_min * self.sample_rate + 0.5), buf_len - 2.0,
                         3 * math.pi / 2, integer=False).astype(np.float64)
        channel_phase = (np.arange(n_channels) * lfo_len * self.phase / 100 + 0.5).astype(np.int64)
        bufs = np.zeros(wave.shape[:2] + (buf_len,))
        last = np.zeros(wave.shape[:2])
        out = np.empty_like(wave)
        rows = np.arange(n_channels)
        pos = lfo_pos = 0
        for t in range(n_time):
            pos = (pos + buf_len - 1) % buf_len
            delay = lfo[(lfo_pos + channel_phase) % lfo_len].astype(compute)
            frac = (delay - delay.astype(np.int64)).astype(np.float64)
            int_delay = np.floor(delay).astype(np.int64)
            bufs[:, :, pos] = wave[:, :, t] + last * feedback
            a = bufs[:, rows, (pos + int_delay) % buf_len]
            b = bufs[:, rows, (pos + int_delay + 1) % buf_len]
            if self.interpolation == Interpolation.LINEAR:
                delayed = a + (b - a) * frac
            else:
                c = bufs[:, rows, (pos + int_delay + 2) % buf_len] - a
                b = b - a
                delayed = a + ((c * 0.5 - b) * frac + (b * 2 - c * 0.5)) * frac
            last = delayed
            out[:, :, t] = wave[:, :, t] * in_gain + delayed * delay_gain
            lfo_pos = (lfo_pos + 1) % lfo_len
        out = np.clip(out, -1, 1).reshape(x.shape)
        return out.astype(x.dtype) if x.dtype.kind == "f" else out.astype(compute).astype(x.dtype)


class MuLawEncoding(TensorOperation):
    """Waveform in [-1, 1] -> int32 codes in [0, quantization_channels) by mu-law companding."""

    def __init__(self, quantization_channels=256):
        self.channels = check_int("MuLawEncoding", "quantization_channels", quantization_channels, 1)

    def _apply(self, *columns):
        x = _waveform("MuLawEncoding", columns)
        mu = x.dtype.type(self.channels - 1)
        v = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
        return ((v + 1) / 2 * mu + x.dtype.type(0.5)).astype(np.int32)


class MuLawDecoding(TensorOperation):
    """Mu-law codes -> waveform in [-1, 1]."""

    def __init__(self, quantization_channels=256):
        self.channels = check_int("MuLawDecoding", "quantization_channels", quantization_channels, 1)

    def _apply(self, *columns):
        x = _waveform("MuLawDecoding", columns)
        mu = x.dtype.type(self.channels - 1)
        if mu == 0:
            raise ValueError("MuLawDecoding: 'quantization_channels' must be at least 2")
        v = x / mu * 2 - x.dtype.type(1.0)
        return (np.sign(v) * np.expm1(np.abs(v) * np.log1p(mu)) / mu).astype(x.dtype)
