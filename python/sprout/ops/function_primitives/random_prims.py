"""Random primitives carried out by functional ops (``ops.StandardLaplace()``, ``ops.Cauchy(size)``,
``ops.RandomChoiceWithMask()`` ...). Seeds: (0, 0) draws from the global generator, as MindSpore's do."""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops import function as F
from sprout.ops.function import random_choice_func as _choice
from sprout.ops.function_primitives._attr_checks import FLOAT_DTYPES, check_bool, check_dtype, check_float, check_int
from sprout.ops.function_primitives.array_prims import int_argument, shape_argument
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["StandardLaplace", "Cauchy", "LogNormalReverse", "RandpermV2", "MultinomialWithReplacement",
           "RandomChoiceWithMask"]


def _seed(api, seed, seed2):
    check_int(api, "seed", seed, minimum=0)
    check_int(api, "seed2", seed2, minimum=0)
    return None if seed == 0 and seed2 == 0 else seed * 1000003 + seed2


class StandardLaplace(Primitive):
    """``StandardLaplace(seed=0, seed2=0)(shape)``: Float32 samples of the standard Laplace distribution."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        _seed("StandardLaplace", seed, seed2)
        self.init_prim_io_names(["shape"], ["output"])

    def __call__(self, shape):
        return F.standard_laplace(shape_argument("StandardLaplace", "shape", shape),
                                  _seed("StandardLaplace", self.seed, self.seed2))


class Cauchy(Primitive):
    """``Cauchy(size, median=0.0, sigma=1.0)()``: Float32 samples of shape `size` of the Cauchy distribution."""

    @prim_attr_register
    def __init__(self, size, median=0.0, sigma=1.0):
        if not isinstance(size, (tuple, list)) or not size or not all(
                isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in size):
            raise TypeError(f"Cauchy: 'size' must be a non-empty list of positive ints, but got {size!r}")
        check_float("Cauchy", "median", median)
        if check_float("Cauchy", "sigma", sigma) <= 0:
            raise ValueError(f"Cauchy: 'sigma' must be positive, but got {sigma}")

    def __call__(self):
        return F.zeros(tuple(self.size), mstype.float32).cauchy(float(self.median), float(self.sigma))


class LogNormalReverse(Primitive):
    """``LogNormalReverse(mean=1.0, std=2.0)(input)``: samples of exp(N(mean, std^2)) of input's shape and
    dtype."""

    @prim_attr_register
    def __init__(self, mean=1.0, std=2.0):
        check_float("LogNormalReverse", "mean", mean)
        if check_float("LogNormalReverse", "std", std) <= 0:
            raise ValueError(f"LogNormalReverse: 'std' must be positive, but got {std}")

    def __call__(self, input):
        if not isinstance(input, Tensor):
            raise TypeError(f"LogNormalReverse: 'input' must be a Tensor, but got {type(input).__name__}")
        check_dtype("LogNormalReverse", "input's dtype", input.dtype, FLOAT_DTYPES)
        return input.log_normal(float(self.mean), float(self.std))


class RandpermV2(Primitive):
    """``RandpermV2(seed=0, offset=0, dtype=ms.int64)(n)``: a random permutation of 0..n-1."""

    @prim_attr_register
    def __init__(self, seed=0, offset=0, dtype=mstype.int64):
        check_int("RandpermV2", "seed", seed, minimum=-1)
        check_int("RandpermV2", "offset", offset, minimum=0)

    def __call__(self, n):
        return F.randperm(int_argument("RandpermV2", "n", n), self.seed, self.offset, self.dtype)


class MultinomialWithReplacement(Primitive):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``: `numsamples` indices
    per row drawn with weights x."""

    @prim_attr_register
    def __init__(self, numsamples, replacement=False):
        check_int("MultinomialWithReplacement", "numsamples", numsamples, minimum=1)
        check_bool("MultinomialWithReplacement", "replacement", replacement)

    def __call__(self, x, seed, offset):
        return _choice.multinomial_with_replacement(x, seed, offset, self.numsamples, self.replacement)


class RandomChoiceWithMask(Primitive):
    """``RandomChoiceWithMask(count=256, seed=0, seed2=0)(input_x)``: (index, mask) of up to `count` True
    elements of a bool tensor chosen at random (see ops.choice_with_mask)."""

    @prim_attr_register
    def __init__(self, count=256, seed=0, seed2=0):
        check_int("RandomChoiceWithMask", "count", count, minimum=1)
        _seed("RandomChoiceWithMask", seed, seed2)

    def __call__(self, input_x):
        return _choice.choice_with_mask(input_x, self.count, _seed("RandomChoiceWithMask", self.seed, self.seed2))
