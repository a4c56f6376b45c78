"""Mel and decibel scales, and the cepstral coefficients built on them (``mindspore.dataset.audio``'s
MelScale, InverseMelScale, MelSpectrogram, MFCC, LFCC, AmplitudeToDB, DBToAmplitude)."""
import numpy as np

from sprout.dataset.audio.spectral import spectrogram, stft_lengths
from sprout.dataset.audio.utils import (BorderType, MelType, NormMode, NormType, ScaleType, WindowType, check_bool,
                                        check_enum, check_float, check_int, create_dct, float_waveform,
                                        linear_fbanks, melscale_fbanks)
from sprout.dataset.transforms._random import rng
from sprout.dataset.transforms.transforms import TensorOperation, _one

__all__ = ["AmplitudeToDB", "DBToAmplitude", "MelScale", "InverseMelScale", "MelSpectrogram", "MFCC", "LFCC"]


def amplitude_to_db(x, multiplier, amin, db_multiplier, top_db):
    """multiplier * log10(max(x, amin)) - multiplier * db_multiplier, floored at top_db below the maximum of
    each (channel, freq, time) block (of the whole array when it is 2-D)."""
    db = multiplier * np.log10(np.maximum(x.astype(np.float64), amin)) - multiplier * db_multiplier
    if top_db is not None:
        axes = tuple(range(max(0, db.ndim - 3), db.ndim))
        db = np.maximum(db, np.max(db, axis=axes, keepdims=True) - top_db)
    return db.astype(x.dtype)


class AmplitudeToDB(TensorOperation):
    """(..., freq, time) power (or magnitude) -> decibels."""

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        api = "AmplitudeToDB"
        self.stype = check_enum(api, "stype", stype, ScaleType)
        self.ref_value = check_float(api, "ref_value", ref_value, 0.0, low_open=True)
        self.amin = check_float(api, "amin", amin, 0.0, low_open=True)
        self.top_db = None if top_db is None else check_float(api, "top_db", top_db, 0.0)

    def _apply(self, *columns):
        x = float_waveform("AmplitudeToDB", _one("AmplitudeToDB", columns), min_rank=2)
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        return amplitude_to_db(x, multiplier, self.amin, np.log10(max(self.ref_value, self.amin)), self.top_db)


class DBToAmplitude(TensorOperation):
    """Decibels -> ref * (10 ** (x / 10)) ** power."""

    def __init__(self, ref, power):
        self.ref = check_float("DBToAmplitude", "ref", ref)
        self.power = check_float("DBToAmplitude", "power", power)

    def _apply(self, *columns):
        x = float_waveform("DBToAmplitude", _one("DBToAmplitude", columns))
        return (self.ref * np.power(np.power(10.0, x.astype(np.float64) * 0.1), self.power)).astype(x.dtype)


def _check_mel_args(api, n_mels, sample_rate, f_min, f_max):
    n_mels = check_int(api, "n_mels", n_mels, 1)
    sample_rate = check_int(api, "sample_rate", sample_rate, 1)
    f_min = check_float(api, "f_min", f_min, 0.0)
    f_max = float(sample_rate // 2) if f_max is None else check_float(api, "f_max", f_max, 0.0)
    if f_min >= f_max:
        raise ValueError(f"{api}: 'f_min' must be less than 'f_max', but got f_min={f_min} and f_max={f_max}")
    return n_mels, sample_rate, f_min, f_max


def _apply_filters(x, fb):
    """(..., n_freqs, time) -> (..., n_filters, time) through fb of shape (n_freqs, n_filters)."""
    if x.shape[-2] != fb.shape[0]:
        raise ValueError(f"expected {fb.shape[0]} frequency bins on axis -2, but got shape {x.shape}")
    return np.einsum("fm,...ft->...mt", fb.astype(np.float64), x.astype(np.float64)).astype(x.dtype)


class MelScale(TensorOperation):
    """(..., n_stft, time) spectrogram -> (..., n_mels, time)."""

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201, norm=NormType.NONE,
                 mel_type=MelType.HTK):
        api = "MelScale"
        n_mels, sample_rate, f_min, f_max = _check_mel_args(api, n_mels, sample_rate, f_min, f_max)
        self.n_stft = check_int(api, "n_stft", n_stft, 1)
        check_enum(api, "norm", norm, NormType)
        check_enum(api, "mel_type", mel_type, MelType)
        self.fb = melscale_fbanks(self.n_stft, f_min, f_max, n_mels, sample_rate, norm, mel_type)

    def _apply(self, *columns):
        x = float_waveform("MelScale", _one("MelScale", columns), min_rank=2)
        try:
            return _apply_filters(x, self.fb)
        except ValueError as e:
            raise ValueError(f"MelScale: {e} (n_stft={self.n_stft})") from None


class InverseMelScale(TensorOperation):
    """(..., n_mels, time) -> (..., n_stft, time): the non-negative spectrogram whose mel scale fits the input
    best in least squares, found by SGD with momentum from a random start."""

    def __init__(self, n_stft, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, max_iter=100000,
                 tolerance_loss=1e-5, tolerance_change=1e-8, sgdargs=None, norm=NormType.NONE, mel_type=MelType.HTK):
        api = "InverseMelScale"
        self.n_stft = check_int(api, "n_stft", n_stft, 1)
        n_mels, sample_rate, f_min, f_max = _check_mel_args(api, n_mels, sample_rate, f_min, f_max)
        self.max_iter = check_int(api, "max_iter", max_iter, 1)
        self.tolerance_loss = check_float(api, "tolerance_loss", tolerance_loss, 0.0)
        self.tolerance_change = check_float(api, "tolerance_change", tolerance_change, 0.0)
        sgdargs = {"sgd_lr": 0.1, "sgd_momentum": 0.9} if sgdargs is None else sgdargs
        if not isinstance(sgdargs, dict) or set(sgdargs) - {"sgd_lr", "sgd_momentum"}:
            raise TypeError(f"{api}: 'sgdargs' must be a dict with keys 'sgd_lr' and 'sgd_momentum', "
                            f"but got {sgdargs!r}")
        self.lr = check_float(api, "sgd_lr", sgdargs.get("sgd_lr", 0.1), 0.0)
        self.momentum = check_float(api, "sgd_momentum", sgdargs.get("sgd_momentum", 0.9), 0.0)
        check_enum(api, "norm", norm, NormType)
        check_enum(api, "mel_type", mel_type, MelType)
        self.fb = melscale_fbanks(self.n_stft, f_min, f_max, n_mels, sample_rate, norm, mel_type).astype(np.float64)

    def _apply(self, *columns):
        api = "InverseMelScale"
        x = float_waveform(api, _one(api, columns), min_rank=2)
        if x.shape[-2] != self.fb.shape[1]:
            raise ValueError(f"{api}: expected n_mels={self.fb.shape[1]} on axis -2, but got shape {x.shape}")
        mels = np.swapaxes(x.reshape((-1,) + x.shape[-2:]).astype(np.float64), -1, -2)  # (batch, time, n_mels)
        out = np.empty(mels.shape[:2] + (self.n_stft,))
        for b, target in enumerate(mels):
            spec = rng().random((target.shape[0], self.n_stft))
            velocity, loss = None, np.inf
            for _ in range(self.max_iter):
                diff = target - spec @ self.fb
                new_loss = np.mean(diff * diff)
                grad = -(diff @ self.fb.T) / target.shape[0]
                velocity = grad if velocity is None else self.momentum * velocity + grad
                if new_loss < self.tolerance_loss or abs(loss - new_loss) < self.tolerance_change:
                    break
                loss = new_loss
                spec = spec - self.lr * velocity
            out[b] = np.maximum(spec, 0)
        return np.swapaxes(out, -1, -2).reshape(x.shape[:-2] + (self.n_stft, x.shape[-1])).astype(x.dtype)


_SPECTROGRAM_DEFAULTS = {"n_fft": 400, "win_length": None, "hop_length": None, "pad": 0, "window": WindowType.HANN,
                         "power": 2.0, "normalized": False, "center": True, "pad_mode": BorderType.REFLECT,
                         "onesided": True}


class _SpectrogramArgs:
    """The Spectrogram arguments MelSpectrogram, MFCC and LFCC take, checked once."""

    def __init__(self, api, n_fft, win_length, hop_length, pad, window, power, normalized, center, pad_mode,
                 onesided):
        self.n_fft, self.win_length, self.hop_length = stft_lengths(api, n_fft, win_length, hop_length)
        self.pad = check_int(api, "pad", pad, 0)
        self.window = check_enum(api, "window", window, WindowType)
        self.power = check_float(api, "power", power, 0.0, low_open=True)
        self.normalized = check_bool(api, "normalized", normalized)
        self.center = check_bool(api, "center", center)
        self.pad_mode = check_enum(api, "pad_mode", pad_mode, BorderType)
        self.onesided = check_bool(api, "onesided", onesided)

    def __call__(self, api, x):
        if self.n_fft >= 2 * x.shape[-1]:
            raise ValueError(f"{api}: 'n_fft' must be less than twice the waveform length {x.shape[-1]}, "
                             f"but got {self.n_fft}")
        return spectrogram(api, x, self.n_fft, self.hop_length, self.win_length, self.window, self.pad, self.power,
                           self.normalized, self.center, self.pad_mode, self.onesided)


class MelSpectrogram(TensorOperation):
    """(..., time) -> (..., n_mels, frames): a power spectrogram on the mel scale."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.0, f_max=None, pad=0,
                 n_mels=128, window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True, norm=NormType.NONE, mel_scale=MelType.HTK):
        api = "MelSpectrogram"
        self.spectrogram = _SpectrogramArgs(api, n_fft, win_length, hop_length, pad, window, power, normalized,
                                            center, pad_mode, onesided)
        n_mels, sample_rate, f_min, f_max = _check_mel_args(api, n_mels, sample_rate, f_min, f_max)
        check_enum(api, "norm", norm, NormType)
        check_enum(api, "mel_scale", mel_scale, MelType)
        self.fb = melscale_fbanks(self.spectrogram.n_fft // 2 + 1, f_min, f_max, n_mels, sample_rate, norm, mel_scale)

    def _apply(self, *columns):
        x = float_waveform("MelSpectrogram", _one("MelSpectrogram", columns))
        return _apply_filters(self.spectrogram("MelSpectrogram", x), self.fb)


def _kwargs(api, name, given, defaults):
    if given is None:
        return dict(defaults)
    if not isinstance(given, dict):
        raise TypeError(f"{api}: '{name}' must be a dict, but got {type(given).__name__}")
    unknown = set(given) - set(defaults)
    if unknown:
        raise ValueError(f"{api}: '{name}' has unknown keys {sorted(unknown)}; expected some of {sorted(defaults)}")
    return {**defaults, **given}


def _cepstrum(x, dct, log, top_db=80.0):
    """log(x + 1e-6), or decibels floored 80 dB below the peak, then the DCT over axis -2; float32 whatever
    the input (MindSpore's MFCC and LFCC compute in float)."""
    x = x.astype(np.float32)
    spec = np.log(x.astype(np.float64) + 1e-6).astype(x.dtype) if log else amplitude_to_db(x, 10.0, 1e-10, 0.0,
                                                                                            top_db)
    return _apply_filters(spec, dct)


class MFCC(TensorOperation):
    """(..., time) -> (..., n_mfcc, frames): mel-frequency cepstral coefficients."""

    def __init__(self, sample_rate=16000, n_mfcc=40, dct_type=2, norm=NormMode.ORTHO, log_mels=False,
                 melkwargs=None):
        api = "MFCC"
        sample_rate = check_int(api, "sample_rate", sample_rate, 1)
        self.n_mfcc = check_int(api, "n_mfcc", n_mfcc, 1)
        if dct_type != 2:
            raise ValueError(f"{api}: 'dct_type' must be 2 (the only DCT MindSpore supports), but got {dct_type!r}")
        check_enum(api, "norm", norm, NormMode)
        self.log_mels = check_bool(api, "log_mels", log_mels)
        kwargs = _kwargs(api, "melkwargs", melkwargs, {**_SPECTROGRAM_DEFAULTS, "f_min": 0.0, "f_max": None,
                                                      "n_mels": 128, "norm": NormType.NONE,
                                                      "mel_scale": MelType.HTK})
        self.mel = MelSpectrogram(sample_rate=sample_rate, **kwargs)
        n_mels = self.mel.fb.shape[1]
        if self.n_mfcc > n_mels:
            raise ValueError(f"{api}: 'n_mfcc' must be at most n_mels={n_mels}, but got {self.n_mfcc}")
        self.dct = create_dct(self.n_mfcc, n_mels, norm)

    def _apply(self, *columns):
        return _cepstrum(self.mel._apply(*columns), self.dct, self.log_mels)


class LFCC(TensorOperation):
    """(..., time) -> (..., n_lfcc, frames): cepstral coefficients of a linearly filtered spectrogram."""

    def __init__(self, sample_rate=16000, n_filter=128, n_lfcc=40, f_min=0.0, f_max=None, dct_type=2,
                 norm=NormMode.ORTHO, log_lf=False, speckwargs=None):
        api = "LFCC"
        sample_rate = check_int(api, "sample_rate", sample_rate, 1)
        n_filter = check_int(api, "n_filter", n_filter, 1)
        self.n_lfcc = check_int(api, "n_lfcc", n_lfcc, 1)
        if self.n_lfcc > n_filter:
            raise ValueError(f"{api}: 'n_lfcc' must be at most n_filter={n_filter}, but got {self.n_lfcc}")
        _, _, f_min, f_max = _check_mel_args(api, 1, sample_rate, f_min, f_max)
        if dct_type != 2:
            raise ValueError(f"{api}: 'dct_type' must be 2 (the only DCT MindSpore supports), but got {dct_type!r}")
        check_enum(api, "norm", norm, NormMode)
        self.log_lf = check_bool(api, "log_lf", log_lf)
        kwargs = _kwargs(api, "speckwargs", speckwargs, _SPECTROGRAM_DEFAULTS)
        self.spectrogram = _SpectrogramArgs(api, **kwargs)
        self.fb = linear_fbanks(self.spectrogram.n_fft // 2 + 1, f_min, f_max, n_filter, sample_rate)
        self.dct = create_dct(self.n_lfcc, n_filter, norm)

    def _apply(self, *columns):
        x = float_waveform("LFCC", _one("LFCC", columns))
        return _cepstrum(_apply_filters(self.spectrogram("LFCC", x), self.fb), self.dct, self.log_lf)
