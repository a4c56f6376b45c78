"""Features over time (``mindspore.dataset.audio``'s ComputeDeltas, SlidingWindowCmn, DetectPitchFrequency)."""
import math

import numpy as np

from sprout.dataset.audio.utils import (BorderType, check_bool, check_enum, check_float, check_int, float_only,
                                        float_waveform, pad_last)
from sprout.dataset.transforms.transforms import TensorOperation, _one

__all__ = ["ComputeDeltas", "SlidingWindowCmn", "DetectPitchFrequency"]


class ComputeDeltas(TensorOperation):
    """(..., freq, time) -> the same shape: d_t = sum_n n (c_{t+n} - c_{t-n}) / (2 sum_n n^2), n = 1 .. N,
    N = (win_length - 1) // 2, the ends padded by ``pad_mode``."""

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE):
        self.win_length = check_int("ComputeDeltas", "win_length", win_length, 3)
        self.pad_mode = check_enum("ComputeDeltas", "pad_mode", pad_mode, BorderType)

    def _apply(self, *columns):
        x = float_waveform("ComputeDeltas", _one("ComputeDeltas", columns), min_rank=2)
        n = (self.win_length - 1) // 2
        padded = pad_last(x.astype(np.float64), n, n, self.pad_mode)
        length = x.shape[-1]
        out = sum(k * padded[..., n + k:n + k + length] for k in range(-n, n + 1))
        return (out / (n * (n + 1) * (2 * n + 1) / 3)).astype(x.dtype)


class SlidingWindowCmn(TensorOperation):
    """(..., frames, feats): each frame minus the mean of a window of frames around it (to its left unless
    ``center``), divided by their standard deviation when ``norm_vars`` (Kaldi's apply-cmvn-sliding)."""

    def __init__(self, cmn_window=600, min_cmn_window=100, center=False, norm_vars=False):
        self.cmn_window = check_int("SlidingWindowCmn", "cmn_window", cmn_window, 0)
        self.min_cmn_window = check_int("SlidingWindowCmn", "min_cmn_window", min_cmn_window, 0)
        self.center = check_bool("SlidingWindowCmn", "center", center)
        self.norm_vars = check_bool("SlidingWindowCmn", "norm_vars", norm_vars)

    def _bounds(self, i, n):
        if self.center:
            start = i - self.cmn_window // 2
            end = start + self.cmn_window
        else:
            start, end = i - self.cmn_window, i + 1
        if start < 0:
            end -= start
            start = 0
        if not self.center and end > i:
            end = max(i + 1, self.min_cmn_window)
        if end > n:
            start = max(0, start - (end - n))
            end = n
        return start, end

    def _apply(self, *columns):
        x = float_waveform("SlidingWindowCmn", _one("SlidingWindowCmn", columns), min_rank=2)
        frames = x.astype(np.float64)
        n = x.shape[-2]
        # Window sums from prefix sums: one subtraction per frame.
        zero = np.zeros(frames.shape[:-2] + (1, frames.shape[-1]))
        csum = np.concatenate([zero, np.cumsum(frames, axis=-2)], axis=-2)
        csq = np.concatenate([zero, np.cumsum(frames * frames, axis=-2)], axis=-2)
        out = np.empty_like(frames)
        for i in range(n):
            start, end = self._bounds(i, n)
            count = end - start
            total = csum[..., end, :] - csum[..., start, :]
            out[..., i, :] = frames[..., i, :] - total / count
            if self.norm_vars:
                if count == 1:
                    out[..., i, :] = 0.0
                else:
                    variance = (csq[..., end, :] - csq[..., start, :]) / count - total * total / count ** 2
                    out[..., i, :] /= np.sqrt(variance)
        return out.astype(x.dtype)


class DetectPitchFrequency(TensorOperation):
    """(..., time) float -> (..., frames) float32 pitch in Hz: per frame the lag of highest normalized
    cross-correlation (preferring a lag in the first half within 1 %), median-smoothed over ``win_length``."""

    def __init__(self, sample_rate, frame_time=0.01, win_length=30, freq_low=85, freq_high=3400):
        api = "DetectPitchFrequency"
        self.sample_rate = check_int(api, "sample_rate", sample_rate)
        if self.sample_rate == 0:
            raise ValueError(f"{api}: 'sample_rate' must not be 0")
        self.frame_time = check_float(api, "frame_time", frame_time, 0.0, low_open=True)
        self.win_length = check_int(api, "win_length", win_length, 1)
        self.freq_low = check_int(api, "freq_low", freq_low, 1)
        self.freq_high = check_int(api, "freq_high", freq_high, 1)

    def _apply(self, *columns):
        api = "DetectPitchFrequency"
        x = float_only(api, _one(api, columns))
        signal = x.reshape(-1, x.shape[-1]).astype(np.float64)
        length = signal.shape[-1]
        lags = math.ceil(self.sample_rate / self.freq_low)
        frame = math.ceil(float(np.float32(self.sample_rate * self.frame_time)))
        n_frames = math.ceil(length / frame)
        signal = np.pad(signal, ((0, 0), (0, lags + n_frames * frame - length)))
        s1 = signal[:, :n_frames * frame].reshape(len(signal), n_frames, frame)
        nccf = np.empty((len(signal), n_frames, lags))
        norm1 = np.sum(s1 * s1, axis=-1)
        for lag in range(1, lags + 1):
            s2 = signal[:, lag:lag + n_frames * frame].reshape(s1.shape)
            norm2 = np.sum(s2 * s2, axis=-1)
            ok = (norm1 != 0) & (norm2 != 0)
            with np.errstate(invalid="ignore", divide="ignore"):
                nccf[..., lag - 1] = np.where(ok, np.sum(s1 * s2, axis=-1) / norm1 / norm2, 0.0)
        lag_min = math.ceil(self.sample_rate / self.freq_high)
        if lag_min >= lags:
            raise ValueError(f"{api}: sample_rate / freq_high must be below sample_rate / freq_low, but got "
                             f"freq_low={self.freq_low} and freq_high={self.freq_high}")
        indices = self._best_lags(nccf, lag_min, lags)
        pad = (self.win_length - 1) // 2
        padded = np.concatenate([np.repeat(indices[:, :1], pad, axis=1), indices], axis=1)
        out_length = n_frames + pad - self.win_length + 1
        if out_length < 1:
            raise ValueError(f"{api}: 'win_length' {self.win_length} exceeds the {n_frames} frames of the waveform")
        windows = np.lib.stride_tricks.sliding_window_view(padded, self.win_length, axis=-1)[:, :out_length]
        smoothed = np.sort(windows, axis=-1)[..., pad]
        freq = (self.sample_rate / (1e-9 + smoothed)).astype(np.float32)
        return freq.reshape(x.shape[:-1] + (out_length,))

    @staticmethod
    def _best_lags(nccf, lag_min, lags):
        """MindSpore's scan: the best lag above lag_min, and the best one seen in the first half while it rises."""
        best_val = nccf[..., lag_min].copy()
        half_val = best_val.copy()
        best = np.full(best_val.shape, lag_min)
        half = best.copy()
        for lag in range(lag_min + 1, lags):
            better = nccf[..., lag] > best_val
            best_val = np.where(better, nccf[..., lag], best_val)
            best = np.where(better, lag, best)
            if lag < lags // 2:
                half_val = np.where(better, nccf[..., lag], half_val)
                half = np.where(better, lag, half)
        return np.where(half_val > best_val * 0.99, half, best) + 1
