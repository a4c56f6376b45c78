"""MindSpore's nn cells of special functions: LGamma, DiGamma, IGamma and LBeta. LGamma, DiGamma and IGamma
are the ops functions (ops.lgamma, ops.digamma, ops.igamma) as cells; LBeta = lgamma(x) + lgamma(y) -
lgamma(x + y) is computed as MindSpore's is (in float64), with Stirling's series where an argument reaches 8, so that
the large terms cancel analytically rather than in floating point. Compositions of ops: gradients and graph
mode come for free."""
import math
from fractions import Fraction

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.ops.function._prims import prim

_F64 = mstype.float64
_lgamma = prim("Lgamma")


def _check_float(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    if x.dtype not in mstype.float_type:
        raise TypeError(f"{api}: '{arg}' must be a floating-point tensor, but got {x.dtype}")
    return x


class LGamma(Cell):
    """log(|Gamma(x)|), elementwise (ops.lgamma)."""

    def construct(self, x):
        return ops.lgamma(_check_float("LGamma", "x", x))


class DiGamma(Cell):
    """The digamma function psi(x) = Gamma'(x) / Gamma(x), elementwise (ops.digamma)."""

    def construct(self, x):
        return ops.digamma(_check_float("DiGamma", "x", x))


class IGamma(Cell):
    """The lower regularized incomplete gamma function P(a, x) (ops.igamma)."""

    def construct(self, a, x):
        return ops.igamma(a, x)


# lgamma(x) - Stirling's formula = sum over k of B_2k / (2k (2k - 1) x^(2k - 1)); eight terms reach float64
# accuracy for x >= 8 (the ninth is below 1e-15 there). MindSpore uses a float32 minimax fit in their place.
_CORRECTION = tuple(float(Fraction(b) / (2 * k * (2 * k - 1))) for k, b in enumerate(
    (Fraction(1, 6), Fraction(-1, 30), Fraction(1, 42), Fraction(-1, 30), Fraction(5, 66), Fraction(-691, 2730),
     Fraction(7, 6), Fraction(-3617, 510)), start=1))


def _c(value):
    return Tensor(float(value), _F64)


def _log_gamma_correction(x):
    inv = ops.div(_c(1), x)
    inv2 = ops.mul(inv, inv)
    accum = _c(_CORRECTION[-1])
    for c in reversed(_CORRECTION[:-1]):
        accum = ops.add(ops.mul(accum, inv2), _c(c))
    return ops.mul(accum, inv)


class LBeta(Cell):
    """log(|Beta(x, y)|) = lgamma(x) + lgamma(y) - lgamma(x + y), elementwise with broadcasting; `x` and `y`
    share a floating dtype. Accurate for large arguments, where the three lgammas nearly cancel."""

    def construct(self, x, y):
        _check_float("LBeta", "x", x)
        _check_float("LBeta", "y", y)
        if x.dtype != y.dtype:
            raise TypeError(f"LBeta: 'x' and 'y' must have the same dtype, but got {x.dtype} and {y.dtype}")
        dtype = x.dtype
        x64 = x if dtype == _F64 else ops.cast(x, _F64)
        y64 = y if dtype == _F64 else ops.cast(y, _F64)
        less = ops.less(x64, y64)
        small = prim("Select")(less, x64, y64)
        large = prim("Select")(less, y64, x64)
        # Guards: the Stirling branches see arguments >= 8 only (a select passes a zero gradient to the
        # untaken side, but zero times an infinite derivative there would be NaN).
        small_big = ops.maximum(small, _c(8))
        large_big = ops.maximum(large, _c(8))
        # Both arguments >= 8.
        two_large = ops.add(ops.add(ops.sub(_c(0.5 * math.log(2 * math.pi)), ops.mul(_c(0.5), ops.log(large_big))),
                                    ops.sub(ops.add(_log_gamma_correction(small_big),
                                                    _log_gamma_correction(large_big)),
                                            _log_gamma_correction(ops.add(small_big, large_big)))),
                            ops.sub(ops.mul(ops.sub(small_big, _c(0.5)),
                                            ops.log(ops.div(small_big, ops.add(small_big, large_big)))),
                                    ops.mul(large_big, ops.log1p(ops.div(small_big, large_big)))))
        # Only the larger argument >= 8: lgamma(small) + (lgamma(large) - lgamma(small + large)) by Stirling.
        ratio = ops.div(small, large_big)
        cancelled = ops.add(ops.sub(ops.mul(ops.neg(ops.sub(ops.add(small, large_big), _c(0.5))), ops.log1p(ratio)),
                                    ops.mul(small, ops.log(large_big))), small)
        difference = ops.add(ops.sub(_log_gamma_correction(large_big),
                                     _log_gamma_correction(ops.add(small, large_big))), cancelled)
        one_large = ops.add(_lgamma(small), difference)
        both_small = ops.sub(ops.add(_lgamma(small), _lgamma(large)), _lgamma(ops.add(small, large)))
        out = prim("Select")(ops.less(large, _c(8)), both_small, one_large)
        out = prim("Select")(ops.less(small, _c(8)), out, two_large)
        return out if dtype == _F64 else ops.cast(out, dtype)


__all__ = ["LGamma", "DiGamma", "IGamma", "LBeta"]
