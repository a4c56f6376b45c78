"""sprout.dataset.audio: audio transforms (``mindspore.dataset.audio``) on NumPy arrays.

Every transform is callable eagerly on an array and usable in ``Dataset.map``. Waveforms are (..., time),
spectrograms (..., freq, time), complex spectra (..., 2) of real and imaginary parts, as in MindSpore.
"""
from sprout.dataset.audio import effects as _effects
from sprout.dataset.audio import features as _features
from sprout.dataset.audio import filters as _filters
from sprout.dataset.audio import masking as _masking
from sprout.dataset.audio import mel as _mel
from sprout.dataset.audio import resample as _resample
from sprout.dataset.audio import spectral as _spectral
from sprout.dataset.audio.effects import *  # noqa: F401,F403  (names listed in each module's __all__)
from sprout.dataset.audio.features import *  # noqa: F401,F403
from sprout.dataset.audio.filters import *  # noqa: F401,F403
from sprout.dataset.audio.masking import *  # noqa: F401,F403
from sprout.dataset.audio.mel import *  # noqa: F401,F403
from sprout.dataset.audio.resample import *  # noqa: F401,F403
from sprout.dataset.audio.spectral import *  # noqa: F401,F403
from sprout.dataset.audio.utils import (BorderType, DensityFunction, FadeShape, GainType, Interpolation, MelType,
                                        Modulation, NormMode, NormType, ResampleMethod, ScaleType, WindowType,
                                        create_dct, linear_fbanks, melscale_fbanks)

__all__ = (["BorderType", "DensityFunction", "FadeShape", "GainType", "Interpolation", "MelType", "Modulation",
            "NormMode", "NormType", "ResampleMethod", "ScaleType", "WindowType", "create_dct", "linear_fbanks",
            "melscale_fbanks"] + _effects.__all__ + _features.__all__ + _filters.__all__ + _masking.__all__
           + _mel.__all__ + _resample.__all__ + _spectral.__all__)
