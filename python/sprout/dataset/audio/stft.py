"""The short-time Fourier transform and its inverse, as MindSpore's audio transforms compute them.

Complex arrays cross the transform boundary as MindSpore writes them, (..., 2) real arrays of real and
imaginary parts; inside, they are NumPy complex. Windows are periodic, float32 (MindSpore's), centred in
n_fft when shorter. The DFTs run in float64 and the result takes the input's float type.
"""
import math

import numpy as np

from sprout.dataset.audio.utils import BorderType, pad_last, window


def padded_window(window_type, win_length, n_fft):
    w = window(window_type, win_length).astype(np.float64)
    left = (n_fft - win_length) // 2
    return np.pad(w, (left, n_fft - win_length - left))


def stft(api, x, n_fft, hop_length, win_length, window_type, pad=0, center=True, pad_mode=BorderType.REFLECT,
         normalized=False, onesided=True):
    """(..., time) real -> (..., freq, frames) complex128."""
    lead, length = x.shape[:-1], x.shape[-1]
    x = x.reshape(-1, length).astype(np.float64)
    if pad:
        x = np.pad(x, ((0, 0), (pad, pad)))
    if center:
        half = n_fft // 2  # reflect padding longer than the waveform reflects again, as MindSpore's (NumPy's)
        x = pad_last(x, half, half, pad_mode)
    if n_fft > x.shape[-1]:
        raise ValueError(f"{api}: 'n_fft' must be at most the padded waveform length {x.shape[-1]}, but got {n_fft}")
    n_frames = 1 + (x.shape[-1] - n_fft) // hop_length
    frames = np.lib.stride_tricks.sliding_window_view(x, n_fft, axis=-1)[:, ::hop_length][:, :n_frames]
    w = padded_window(window_type, win_length, n_fft)
    spec = np.fft.rfft(frames * w, axis=-1)  # (batch, frames, n_fft // 2 + 1)
    if normalized:
        spec = spec / np.sqrt(np.sum(w * w))
    if not onesided:
        # MindSpore fills the upper half with the lower half mirrored, unconjugated; so do we.
        upper = spec[..., 1:n_fft - n_fft // 2][..., ::-1]
        spec = np.concatenate([spec, upper], axis=-1)
    return np.swapaxes(spec, -1, -2).reshape(lead + (spec.shape[-1], n_frames))


def istft(api, spec, n_fft, hop_length, win_length, window_type, center=True, length=0):
    """(batch, n_fft // 2 + 1, frames) complex -> (batch, samples): windowed overlap-add of the inverse DFTs,
    divided by the summed squared window where it is not tiny (MindSpore's ISTFT)."""
    if spec.shape[-2] != n_fft // 2 + 1 or n_fft != 2 * (spec.shape[-2] - 1):
        raise ValueError(f"{api}: the spectrogram has {spec.shape[-2]} frequency bins, but n_fft={n_fft} needs "
                         f"n_fft // 2 + 1 and an even n_fft")
    w = padded_window(window_type, win_length, n_fft)
    n_frames = spec.shape[-1]
    if length and hop_length:
        padded_length = length + n_fft if center else length
        n_frames = min(n_frames, math.ceil(padded_length / hop_length))
    frames = np.fft.irfft(spec[..., :n_frames], n=n_fft, axis=-2) * w[:, None]  # (batch, n_fft, frames)
    total = n_fft + hop_length * (n_frames - 1)
    y = np.zeros(spec.shape[:-2] + (total,))
    norm = np.zeros(total)
    w2 = (w.astype(np.float32) ** 2).astype(np.float64)
    for f in range(n_frames):
        y[..., f * hop_length:f * hop_length + n_fft] += frames[..., f]
        norm[f * hop_length:f * hop_length + n_fft] += w2
    nonzero = norm > np.finfo(np.float32).tiny
    y[..., nonzero] /= norm[nonzero]
    start = n_fft // 2 if center else 0
    if not length:
        return y[..., start:total - start] if center else y
    y = y[..., start:start + length]
    if y.shape[-1] < length:
        y = np.pad(y, [(0, 0)] * (y.ndim - 1) + [(0, length - y.shape[-1])])
    return y


def to_pairs(z, dtype):
    return np.stack([z.real, z.imag], axis=-1).astype(dtype)


def from_pairs(x):
    return x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)


def c_round(x):
    """C's round(): halves away from zero (NumPy's rounds them to even)."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def phase_vocoder(spec, rate, phase_advance):
    """(batch, freq, time) complex stretched in time by ``rate`` (torchaudio's phase_vocoder, as MindSpore's):
    magnitudes interpolated between neighbouring frames, phases accumulated."""
    if rate == 1.0:
        return spec
    n_time = spec.shape[-1]
    steps = []
    i = 0
    while i * rate < n_time:  # MindSpore's float arithmetic decides the last step
        steps.append(np.float32(i * rate) if spec.real.dtype == np.float32 else i * rate)
        i += 1
    steps = np.asarray(steps, np.float64)
    idx = steps.astype(np.int64)
    alphas = np.fmod(steps, 1.0)
    phase_0 = np.angle(spec[..., :1])
    spec = np.pad(spec, [(0, 0)] * (spec.ndim - 1) + [(0, 2)])
    s0, s1 = spec[..., idx], spec[..., idx + 1]
    pa = phase_advance.reshape(-1, 1)
    phase = np.angle(s1) - np.angle(s0) - pa
    phase = phase - 2 * np.pi * c_round(phase / (2 * np.pi)) + pa
    phase = np.cumsum(np.concatenate([phase_0, phase[..., :-1]], axis=-1), axis=-1)
    mag = alphas * np.abs(s1) + (1 - alphas) * np.abs(s0)
    return mag * np.exp(1j * phase)
