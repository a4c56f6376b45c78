"""``sprout.numpy``: MindSpore's NumPy-style API (``mindspore.numpy``): NumPy's function names and
arguments on Sprout tensors, built on sprout.ops, so each runs eagerly, compiles and differentiates.

One module per family, as MindSpore's: array_creations, array_ops, logic_ops, math_ops and dtypes; each
lists its functions in ``__all__``.
"""
from sprout.numpy import array_creations, array_ops, dtypes, logic_ops, math_ops
from sprout.numpy.array_creations import *  # noqa: F401,F403
from sprout.numpy.array_ops import *  # noqa: F401,F403
from sprout.numpy.dtypes import *  # noqa: F401,F403
from sprout.numpy.logic_ops import *  # noqa: F401,F403
from sprout.numpy.math_ops import *  # noqa: F401,F403

__all__ = (array_creations.__all__ + array_ops.__all__ + dtypes.__all__ + logic_ops.__all__ + math_ops.__all__)
