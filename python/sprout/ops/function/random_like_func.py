"""Random samples shaped like a tensor or scaled from a standard distribution: randn_like and laplace
(MindSpore 2.x signatures, with the `seed` argument they still take)."""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops.function._prims import prim
from sprout.ops.function.random_func import standard_laplace, standard_normal

__all__ = ["randn_like", "laplace"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def randn_like(input, seed=None, *, dtype=None):
    """Standard normal samples of input's shape; Float32 unless `dtype` (a floating-point type) says otherwise,
    whatever input's dtype (as MindSpore 2.10's)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"randn_like: 'input' must be a Tensor, but got {type(input).__name__}")
    dtype = mstype.float32 if dtype is None else dtype
    if dtype not in _FLOATS:
        raise ValueError(f"randn_like: 'dtype' must be a floating-point type, but got {dtype}")
    z = standard_normal(tuple(input.shape), seed)
    return z if dtype == mstype.float32 else prim("Cast")(z, dtype)


def laplace(shape, mean, lambda_param, seed=None):
    """Float32 samples of the Laplace distribution with location `mean` and scale `lambda_param` (density
    exp(-|x - mean| / lambda) / (2 lambda)); the output has `shape` broadcast with mean's and lambda's shapes."""
    for arg, value in (("mean", mean), ("lambda_param", lambda_param)):
        if not isinstance(value, Tensor):
            raise TypeError(f"laplace: '{arg}' must be a Tensor, but got {type(value).__name__}")
        if value.dtype != mstype.float32:
            raise TypeError(f"laplace: '{arg}' must be a float32 tensor, but got {value.dtype}")
    return prim("Add")(prim("Mul")(standard_laplace(shape, seed), lambda_param), mean)
