"""Primitive classes over the compact-factorization functions: ``ops.LuUnpack()``, ``ops.Geqrf()``,
``ops.Orgqr()`` (math_householder_lu_func.py)."""
from sprout.ops.function import math_householder_lu_func as _factor
from sprout.ops.function_primitives._attr_checks import check_bool
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["LuUnpack", "Geqrf", "Orgqr"]


class LuUnpack(Primitive):
    """``LuUnpack(unpack_data=True, unpack_pivots=True)(LU_data, LU_pivots)``: (P, L, U) with A = P L U
    (ops.lu_unpack)."""

    @prim_attr_register
    def __init__(self, unpack_data=True, unpack_pivots=True):
        check_bool("LuUnpack", "unpack_data", unpack_data)
        check_bool("LuUnpack", "unpack_pivots", unpack_pivots)
        self.init_prim_io_names(["LU_data", "LU_pivots"], ["pivots", "L", "U"])

    def __call__(self, LU_data, LU_pivots):
        return _factor.lu_unpack(LU_data, LU_pivots, self.unpack_data, self.unpack_pivots)


class Geqrf(Primitive):
    """``Geqrf()(x)``: (y, tau), x's Householder QR factorization in LAPACK's packed form (ops.geqrf)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x"], ["y", "tau"])

    def __call__(self, x):
        return _factor.geqrf(x)


class Orgqr(Primitive):
    """``Orgqr()(x, tau)``: the explicit Q of the Householder reflectors Geqrf packs (ops.orgqr)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["x", "tau"], ["y"])

    def __call__(self, x, tau):
        return _factor.orgqr(x, tau)
