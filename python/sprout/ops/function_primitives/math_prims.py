"""Special and elementwise math primitives carried out by functional ops: the Bessel functions
(``ops.BesselJ0()`` ...), Zeta, Betainc, the gamma family (Igamma, Igammac, Mvlgamma),
NextAfter, PopulationCount, TruncateDiv/TruncateMod, the no-NaN products and quotients, and MindSpore's
Primitive names of elementwise functions Sprout has (Hypot, Xlogy, Rint, Acosh, Cross ...).

Most take no constructor arguments: ``_primitive`` makes each of those from its function, input and output
names, which MindSpore's records list (``prim.input_names``)."""
from sprout.common import dtype as mstype
from sprout.common.tensor import Tensor
from sprout.ops import function as F
from sprout.ops.function import math_special_more_func as _more
from sprout.ops.function._prims import prim
from sprout.ops.function_primitives._attr_checks import check_bool, check_float, check_int
from sprout.ops.primitive import Primitive, prim_attr_register


def _primitive(name, function, inputs, outputs, doc):
    """A Primitive class `name` without constructor arguments whose call runs `function` on its inputs."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(list(inputs), list(outputs))

    def __call__(self, *args):
        if len(args) != len(inputs):
            raise TypeError(f"{name}: takes {len(inputs)} input(s) ({', '.join(inputs)}), but got {len(args)}")
        return function(*args)

    __init__.__qualname__ = f"{name}.__init__"
    __call__.__qualname__ = f"{name}.__call__"
    return type(name, (Primitive,), {"__init__": __init__, "__call__": __call__, "__doc__": doc,
                                     "__module__": __name__})


def _tensor(api, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"{api}: '{arg}' must be a Tensor, but got {type(x).__name__}")
    return x


def _div_no_nan(x1, x2):
    """x1 / x2, and 0 where x2 is 0 (whatever x1 is)."""
    if not isinstance(x2, Tensor):
        quotient = F.div(x1, x2 if x2 != 0 else 1)
        return F.zeros_like(quotient) if x2 == 0 else quotient
    zero = F.equal(x2, 0)
    quotient = F.div(x1, F.where(zero, F.ones_like(x2), x2))  # guard: no inf or NaN, not even in the gradient
    return F.where(zero, F.zeros_like(quotient), quotient)


def _mul_no_nan(x, y):
    """x * y, and 0 where y is 0 (even where x is inf or NaN)."""
    product = F.mul(x, y)
    zero = F.equal(y, 0)
    return F.where(zero, F.zeros_like(product), product)


def _rint(x):
    """Rounds to the nearest integer, halves to the even one (floating-point inputs only, as MindSpore)."""
    _tensor("Rint", "x", x)
    if x.dtype not in mstype.float_type:
        raise TypeError(f"Rint: 'x' must be a float16, float32 or float64 tensor, but got {x.dtype}")
    return prim("Round")(x)


def _squared_difference(x, y):
    """(x - y)^2, broadcast and promoted as ops.sub."""
    difference = F.sub(x, y)
    return F.mul(difference, difference)


_BESSEL = {
    "BesselI0": (F.bessel_i0, "the modified Bessel function of the first kind of order 0"),
    "BesselI0e": (F.bessel_i0e, "the exponentially scaled modified Bessel function I0, e^-|x| I0(x)"),
    "BesselI1": (F.bessel_i1, "the modified Bessel function of the first kind of order 1"),
    "BesselI1e": (F.bessel_i1e, "the exponentially scaled modified Bessel function I1, e^-|x| I1(x)"),
    "BesselJ0": (F.bessel_j0, "the Bessel function of the first kind of order 0"),
    "BesselJ1": (F.bessel_j1, "the Bessel function of the first kind of order 1"),
    "BesselK0": (F.bessel_k0, "the modified Bessel function of the second kind of order 0"),
    "BesselK0e": (F.bessel_k0e, "the exponentially scaled modified Bessel function K0, e^x K0(x)"),
    "BesselK1": (F.bessel_k1, "the modified Bessel function of the second kind of order 1"),
    "BesselK1e": (F.bessel_k1e, "the exponentially scaled modified Bessel function K1, e^x K1(x)"),
    "BesselY0": (F.bessel_y0, "the Bessel function of the second kind of order 0"),
    "BesselY1": (F.bessel_y1, "the Bessel function of the second kind of order 1"),
}
for _name, (_fn, _what) in _BESSEL.items():
    globals()[_name] = _primitive(_name, _fn, ("x",), ("output",), f"``{_name}()(x)``: {_what}, elementwise.")

# name: (function, inputs, outputs, what it computes)
_ELEMENTWISE = {
    "Zeta": (_more.zeta, ("x", "q"), ("z",), "the Hurwitz zeta function zeta(x, q)"),
    "Betainc": (_more.betainc, ("a", "b", "x"), ("z",), "the regularized incomplete beta function I_x(a, b)"),
    "NextAfter": (_more.nextafter, ("x1", "x2"), ("output",), "the float next to x1 in the direction of x2"),
    "PopulationCount": (_more.population_count, ("input",), ("output",), "the number of set bits, as uint8"),
    "TruncateDiv": (_more.truncate_div, ("x", "y"), ("output",), "x / y rounded towards zero"),
    "TruncateMod": (_more.truncate_mod, ("x", "y"), ("output",), "the remainder of x / y rounded towards zero"),
    "Igamma": (F.igamma, ("a", "x"), ("z",), "the regularized lower incomplete gamma function P(a, x)"),
    "Igammac": (F.igammac, ("a", "x"), ("z",), "the regularized upper incomplete gamma function Q(a, x)"),
    "Heaviside": (F.heaviside, ("x", "values"), ("y",), "the Heaviside step, `values` where x is 0"),
    "Xdivy": (F.xdivy, ("x", "y"), ("output",), "x / y, and 0 where x is 0"),
    "Xlogy": (F.xlogy, ("input", "other"), ("output",), "input * log(other), and 0 where input is 0"),
    "DivNoNan": (_div_no_nan, ("x1", "x2"), ("y",), "x1 / x2, and 0 where x2 is 0"),
    "MulNoNan": (_mul_no_nan, ("x", "y"), ("output",), "x * y, and 0 where y is 0 (even for an inf or NaN x)"),
    "Inv": (F.inv, ("x",), ("output",), "1 / x"),
    "Rint": (_rint, ("x",), ("output",), "x rounded to the nearest integer, halves to even"),
    "Sinc": (F.sinc, ("input",), ("output",), "sin(pi x) / (pi x), 1 at 0"),
    "Fmax": (F.fmax, ("x1", "x2"), ("y",), "the larger of x1 and x2, ignoring a NaN"),
    "SquaredDifference": (_squared_difference, ("x", "y"), ("output",), "(x - y)^2"),
    "Acosh": (F.acosh, ("input",), ("output",), "the inverse hyperbolic cosine"),
    "Asinh": (F.asinh, ("input",), ("output",), "the inverse hyperbolic sine"),
    "Atanh": (F.atanh, ("input",), ("output",), "the inverse hyperbolic tangent"),
}
for _name, (_fn, _inputs, _outputs, _what) in _ELEMENTWISE.items():
    globals()[_name] = _primitive(_name, _fn, _inputs, _outputs,
                                  f"``{_name}()({', '.join(_inputs)})``: {_what}, elementwise.")


class Mvlgamma(Primitive):
    """``Mvlgamma(p)(x)``: the multivariate log-gamma function of dimension p, elementwise."""

    @prim_attr_register
    def __init__(self, p):
        check_int("Mvlgamma", "p", p, minimum=1)
        self.init_prim_io_names(["x"], ["y"])

    def __call__(self, x):
        return F.mvlgamma(x, self.p)


class Logit(Primitive):
    """``Logit(eps=-1.0)(input)``: log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps >= 0."""

    @prim_attr_register
    def __init__(self, eps=-1.0):
        if isinstance(eps, bool) or not isinstance(eps, float):
            raise TypeError(f"Logit: 'eps' must be a float, but got {eps!r}")
        self.init_prim_io_names(["input"], ["output"])

    def __call__(self, input):
        return F.logit(input, self.eps if self.eps >= 0 else None)


class IsClose(Primitive):
    """``IsClose(rtol=1e-05, atol=1e-08, equal_nan=False)(input, other)``: |input - other| <= atol + rtol *
    |other|, elementwise."""

    @prim_attr_register
    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=False):
        check_float("IsClose", "rtol", rtol)
        check_float("IsClose", "atol", atol)
        check_bool("IsClose", "equal_nan", equal_nan)
        self.init_prim_io_names(["input", "other"], ["output"])

    def __call__(self, input, other):
        return F.isclose(input, other, self.rtol, self.atol, self.equal_nan)


_CROSS_DEFAULT_DIM = -65530  # MindSpore's "no dim given": the first axis of length 3


class Cross(Primitive):
    """``Cross(dim=-65530)(input, other)``: the cross product along `dim` (by default the first axis of
    length 3)."""

    @prim_attr_register
    def __init__(self, dim=_CROSS_DEFAULT_DIM):
        check_int("Cross", "dim", dim)
        self.init_prim_io_names(["input", "other"], ["output"])

    def __call__(self, input, other):
        return F.cross(input, other, None if self.dim == _CROSS_DEFAULT_DIM else self.dim)


__all__ = list(_BESSEL) + list(_ELEMENTWISE) + ["Mvlgamma", "Logit", "IsClose", "Cross"]
