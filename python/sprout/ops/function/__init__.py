"""The functional API (``ops.add``, ``ops.matmul`` ...), MindSpore 2.x names and arguments."""
from sprout.ops.function.array_func import *  # noqa: F401,F403
from sprout.ops.function.math_func import *  # noqa: F401,F403
from sprout.ops.function import array_func, math_func

__all__ = array_func.__all__ + math_func.__all__
