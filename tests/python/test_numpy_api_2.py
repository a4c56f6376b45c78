"""sprout.numpy's math functions (mindspore.numpy.math_ops) against NumPy: values and MindSpore's result
dtypes on small inputs, bad input, compiled code (ms.jit) and gradients against finite differences."""
import numpy as np
import pytest

import sprout as ms
import sprout.numpy as mnp
from finite_differences import check_grad

RNG = np.random.default_rng(0)
F = RNG.standard_normal((2, 3)).astype(np.float32)
G = RNG.standard_normal((2, 3)).astype(np.float32)
P = (np.abs(F) + 0.5).astype(np.float32)  # positive
U = np.clip(F / 4, -0.9, 0.9).astype(np.float32)  # inside (-1, 1)
I = np.array([[1, -2, 3], [4, 0, -6]], np.int32)
J = np.array([[3, 5, -2], [2, 7, 4]], np.int32)
NANS = np.array([[1.0, np.nan, 3.0], [np.nan, 2.0, -1.0]], np.float32)
T = ms.Tensor


def close(got, want, rtol=1e-5, atol=1e-6, dtype=None):
    got_np = got.asnumpy() if isinstance(got, ms.Tensor) else np.asarray(got)
    np.testing.assert_allclose(got_np, want, rtol=rtol, atol=atol)
    if dtype is not None:
        assert got.dtype == dtype, (got.dtype, dtype)


# (name, sprout call, NumPy reference, expected dtype)
ELEMENTWISE = [
    ("add", lambda: mnp.add(T(F), T(G)), F + G, ms.float32),
    ("add_scalar_int", lambda: mnp.add(T(I), 2), I + 2, ms.int32),
    ("add_list", lambda: mnp.add([1, 2], [3.5, 4]), [4.5, 6.0], ms.float32),
    ("add_dtype", lambda: mnp.add(T(I), 1, dtype=ms.float32), I + 1.0, ms.float32),
    ("subtract", lambda: mnp.subtract(T(F), T(G)), F - G, ms.float32),
    ("multiply", lambda: mnp.multiply(T(F), T(I)), F * I, ms.float32),
    ("divide_ints", lambda: mnp.divide(T(I), 4), I / 4, ms.float32),
    ("true_divide", lambda: mnp.true_divide(T(F), T(P)), F / P, ms.float32),
    ("power", lambda: mnp.power(T(P), T(G)), P ** G, ms.float32),
    ("power_int", lambda: mnp.power(T(I), 2), I ** 2, ms.int32),
    ("float_power", lambda: mnp.float_power(T(I), 2), np.float_power(I, 2), ms.float32),
    ("floor_divide", lambda: mnp.floor_divide(T(I), 4), I // 4, ms.int32),
    ("remainder", lambda: mnp.remainder(T(I), 4), np.remainder(I, 4), ms.int32),
    ("remainder_float", lambda: mnp.remainder(T(F), -0.7), np.remainder(F, np.float32(-0.7)), ms.float32),
    ("mod", lambda: mnp.mod(T(I), -3), np.mod(I, -3), ms.int32),
    ("fmod", lambda: mnp.fmod(T(I), 4), np.fmod(I, 4), ms.int32),
    ("fmod_float", lambda: mnp.fmod(T(F), 0.7), np.fmod(F, np.float32(0.7)), ms.float32),
    ("absolute", lambda: mnp.absolute(T(I)), np.abs(I), ms.int32),
    ("abs", lambda: mnp.abs(T(F)), np.abs(F), ms.float32),
    ("fabs", lambda: mnp.fabs(T(F)), np.fabs(F), ms.float32),
    ("sign", lambda: mnp.sign(T(F)), np.sign(F), ms.float32),
    ("sign_int", lambda: mnp.sign(T(I)), np.sign(I), ms.float32),
    ("copysign", lambda: mnp.copysign(T(F), T(G)), np.copysign(F, G), ms.float32),
    ("positive", lambda: mnp.positive(T(I)), I, ms.int32),
    ("negative", lambda: mnp.negative(T(F)), -F, ms.float32),
    ("reciprocal", lambda: mnp.reciprocal(T(P)), 1 / P, ms.float32),
    ("reciprocal_int", lambda: mnp.reciprocal(T(J)), np.reciprocal(J), ms.int32),
    ("square", lambda: mnp.square(T(I)), I * I, ms.int32),
    ("sqrt", lambda: mnp.sqrt(T(P)), np.sqrt(P), ms.float32),
    ("cbrt", lambda: mnp.cbrt(T(F)), np.cbrt(F), ms.float32),
    ("cbrt_zero", lambda: mnp.cbrt(T(I)), np.cbrt(I), ms.float32),
    ("exp", lambda: mnp.exp(T(F)), np.exp(F), ms.float32),
    ("exp2", lambda: mnp.exp2(T(F)), np.exp2(F), ms.float32),
    ("expm1", lambda: mnp.expm1(T(F)), np.expm1(F), ms.float32),
    ("log", lambda: mnp.log(T(P)), np.log(P), ms.float32),
    ("log2", lambda: mnp.log2(T(P)), np.log2(P), ms.float32),
    ("log10", lambda: mnp.log10(T(P)), np.log10(P), ms.float32),
    ("log1p", lambda: mnp.log1p(T(P)), np.log1p(P), ms.float32),
    ("logaddexp", lambda: mnp.logaddexp(T(F), T(G)), np.logaddexp(F, G), ms.float32),
    ("logaddexp2", lambda: mnp.logaddexp2(T(F), T(G)), np.logaddexp2(F, G), ms.float32),
    ("maximum", lambda: mnp.maximum(T(F), T(G)), np.maximum(F, G), ms.float32),
    ("maximum_nan", lambda: mnp.maximum(T(NANS), 2.0), np.maximum(NANS, 2.0), ms.float32),
    ("maximum_scalar_takes_dtype", lambda: mnp.maximum(2.5, T(I)), np.maximum(2, I), ms.int32),
    ("minimum", lambda: mnp.minimum(T(NANS), T(F)), np.minimum(NANS, F), ms.float32),
    ("clip", lambda: mnp.clip(T(F), -0.5, 0.5), np.clip(F, -0.5, 0.5), ms.float32),
    ("clip_upper_only", lambda: mnp.clip(T(I), None, 2), np.clip(I, None, 2), ms.int32),
    ("heaviside", lambda: mnp.heaviside(T(I), 0.5), np.heaviside(I, 0.5), ms.float32),
    ("hypot", lambda: mnp.hypot(T(F), T(G)), np.hypot(F, G), ms.float32),
    ("floor", lambda: mnp.floor(T(F)), np.floor(F), ms.float32),
    ("ceil", lambda: mnp.ceil(T(F)), np.ceil(F), ms.float32),
    ("ceil_int", lambda: mnp.ceil(T(I)), I, ms.float32),
    ("fix", lambda: mnp.fix(T(F * 3)), np.fix(F * 3), ms.float32),
    ("trunc", lambda: mnp.trunc(T(F * 3)), np.trunc(F * 3), ms.float32),
    ("rint", lambda: mnp.rint(T(np.array([0.5, 1.5, 2.5, -0.5], np.float32))), [0, 2, 2, -0.0], ms.float32),
    ("round", lambda: mnp.round(T(F), 2), np.round(F, 2), ms.float32),
    ("around_int", lambda: mnp.around(T(I)), I, ms.int32),
    ("deg2rad", lambda: mnp.deg2rad(T(I)), np.deg2rad(I), ms.float32),
    ("radians", lambda: mnp.radians(T(F)), np.radians(F), ms.float32),
    ("rad2deg", lambda: mnp.rad2deg(T(F)), np.rad2deg(F), ms.float32),
    ("gcd", lambda: mnp.gcd(T(I), T(J)), np.gcd(I, J), ms.int32),
    ("lcm", lambda: mnp.lcm(T(I), 4), np.lcm(I, 4), ms.int32),
    ("sin", lambda: mnp.sin(T(F)), np.sin(F), ms.float32),
    ("sin_int8_in_float16", lambda: mnp.sin(T(np.array([1, 2], np.int8))), np.sin([1, 2]), ms.float16),
    ("cos", lambda: mnp.cos(T(I)), np.cos(I), ms.float32),
    ("tan", lambda: mnp.tan(T(U)), np.tan(U), ms.float32),
    ("arcsin", lambda: mnp.arcsin(T(U)), np.arcsin(U), ms.float32),
    ("arccos", lambda: mnp.arccos(T(U)), np.arccos(U), ms.float32),
    ("arctan", lambda: mnp.arctan(T(F)), np.arctan(F), ms.float32),
    ("sinh", lambda: mnp.sinh(T(F)), np.sinh(F), ms.float32),
    ("cosh", lambda: mnp.cosh(T(F)), np.cosh(F), ms.float32),
    ("tanh", lambda: mnp.tanh(T(F)), np.tanh(F), ms.float32),
    ("arcsinh", lambda: mnp.arcsinh(T(F)), np.arcsinh(F), ms.float32),
    ("arccosh", lambda: mnp.arccosh(T(P + 1)), np.arccosh(P + 1), ms.float32),
    ("arctanh", lambda: mnp.arctanh(T(U)), np.arctanh(U), ms.float32),
    ("arctan2", lambda: mnp.arctan2(T(F), T(I)), np.arctan2(F, I), ms.float32),
    ("bitwise_and", lambda: mnp.bitwise_and(T(I), T(J)), I & J, ms.int32),
    ("bitwise_or", lambda: mnp.bitwise_or(T(I), 3), I | 3, ms.int32),
    ("bitwise_xor", lambda: mnp.bitwise_xor(T(I), T(J)), I ^ J, ms.int32),
    ("invert", lambda: mnp.invert(T(I)), ~I, ms.int32),
    ("bitwise_not_bool", lambda: mnp.bitwise_not(T(np.array([True, False]))), [False, True], ms.bool_),
]


@pytest.mark.parametrize("name,call,want,dtype", ELEMENTWISE, ids=[c[0] for c in ELEMENTWISE])
def test_elementwise_match_numpy(name, call, want, dtype):
    close(call(), np.asarray(want, np.float64), rtol=2e-3 if dtype == ms.float16 else 1e-5, dtype=dtype)


def test_divmod_returns_floor_quotient_and_remainder():
    q, r = mnp.divmod(T(I), 4)
    close(q, I // 4, dtype=ms.int32)
    close(r, I % 4, dtype=ms.int32)


def test_integer_remainder_by_zero_is_zero():
    close(mnp.remainder(T(I), 0), np.zeros_like(I), dtype=ms.int32)


REDUCTIONS = [
    ("sum", lambda: mnp.sum(T(F), axis=1), F.sum(1), ms.float32),
    ("sum_int_in_int64", lambda: mnp.sum(T(I)), I.sum(), ms.int64),
    ("sum_keepdims_initial", lambda: mnp.sum(T(F), 0, keepdims=True, initial=2.0), F.sum(0, keepdims=True) + 2, None),
    ("mean", lambda: mnp.mean(T(F), axis=(0, 1), keepdims=True), F.mean(keepdims=True), ms.float32),
    ("mean_dtype", lambda: mnp.mean(T(F), 0, dtype=ms.float64), F.mean(0), ms.float64),
    ("mean_int_truncates", lambda: mnp.mean(T(I), 1), np.trunc(I.mean(1)), ms.int32),
    ("amax", lambda: mnp.amax(T(F), 0), F.max(0), ms.float32),
    ("max_initial", lambda: mnp.max(T(F), 1, initial=0.5), np.max(F, 1, initial=0.5), ms.float32),
    ("amin_where", lambda: mnp.amin(T(F), 1, initial=9.0, where=T(np.array([True, False, True]))),
     np.min(F, 1, initial=9.0, where=[True, False, True]), ms.float32),
    ("min", lambda: mnp.min(T(I)), I.min(), ms.int32),
    ("nanmax", lambda: mnp.nanmax(T(NANS), 1), np.nanmax(NANS, 1), ms.float32),
    ("nanmin", lambda: mnp.nanmin(T(NANS), 0, keepdims=True), np.nanmin(NANS, 0, keepdims=True), ms.float32),
    ("nansum", lambda: mnp.nansum(T(NANS), 0), np.nansum(NANS, 0), ms.float32),
    ("nanmean", lambda: mnp.nanmean(T(NANS), 1), np.nanmean(NANS, 1), ms.float32),
    ("nanvar", lambda: mnp.nanvar(T(NANS), ddof=1), np.nanvar(NANS, ddof=1), ms.float32),
    ("nanstd", lambda: mnp.nanstd(T(NANS), 1, keepdims=True), np.nanstd(NANS, 1, keepdims=True), ms.float32),
    ("std", lambda: mnp.std(T(F), 0, ddof=1), F.std(0, ddof=1), ms.float32),
    ("var", lambda: mnp.var(T(I)), I.var(), ms.float32),
    ("ptp", lambda: mnp.ptp(T(F), 1), np.ptp(F, 1), ms.float32),
    ("average", lambda: mnp.average(T(F), 1, weights=T(P)), np.average(F, 1, weights=P), ms.float32),
    ("average_1d_weights", lambda: mnp.average(T(F), 0, weights=T(np.array([1.0, 3.0], np.float32))),
     np.average(F, 0, weights=[1.0, 3.0]), ms.float32),
    ("count_nonzero", lambda: mnp.count_nonzero(T(I), 0), np.count_nonzero(I, 0), ms.int32),
    ("cumsum_flat", lambda: mnp.cumsum(T(I)), np.cumsum(I), ms.int32),
    ("cumsum_int8_in_int32", lambda: mnp.cumsum(T(I.astype(np.int8)), 1), np.cumsum(I, 1), ms.int32),
    ("nancumsum", lambda: mnp.nancumsum(T(NANS), 1), np.nancumsum(NANS, 1), ms.float32),
    ("cumprod", lambda: mnp.cumprod(T(F), 1), np.cumprod(F, 1), ms.float32),
    ("cumprod_int8_in_int32", lambda: mnp.cumprod(T(I.astype(np.int8))), np.cumprod(I), ms.int32),
    ("argmax", lambda: mnp.argmax(T(F)), np.argmax(F), None),
    ("argmin_axis", lambda: mnp.argmin(T(I), 0), np.argmin(I, 0), None),
    ("norm", lambda: mnp.norm(T(F)), np.linalg.norm(F), ms.float32),
    ("norm_vector_ord", lambda: mnp.norm(T(F), 3, axis=1), np.linalg.norm(F, 3, axis=1), ms.float32),
    ("norm_inf_matrix", lambda: mnp.norm(T(F), np.inf), np.linalg.norm(F, np.inf), ms.float32),
    ("norm_1_matrix_keepdims", lambda: mnp.norm(T(F), 1, (0, 1), True), np.linalg.norm(F, 1, (0, 1), True), None),
    ("norm_nuc", lambda: mnp.norm(T(F), "nuc"), np.linalg.norm(F, "nuc"), ms.float32),
    ("norm_2_matrix", lambda: mnp.norm(T(F), 2), np.linalg.norm(F, 2), ms.float32),
]


@pytest.mark.parametrize("name,call,want,dtype", REDUCTIONS, ids=[c[0] for c in REDUCTIONS])
def test_reductions_match_numpy(name, call, want, dtype):
    close(call(), np.asarray(want, np.float64), rtol=1e-5, atol=1e-5, dtype=dtype)


def test_empty_reductions():
    empty = T(np.zeros((0, 3), np.float32))
    close(mnp.mean(empty, 0), np.full(3, np.nan))
    close(mnp.amax(empty, 0, initial=5.0), np.full(3, 5.0))
    close(mnp.count_nonzero(T(np.zeros((0,), np.float32))), 0, dtype=ms.int32)


def test_average_returned_gives_sum_of_weights():
    avg, total = mnp.average(T(F), 1, returned=True)
    close(avg, F.mean(1))
    close(total, [3.0, 3.0])


def z0(v):
    """2-component vectors with a zero z (NumPy 2 deprecates its 2-D cross products)."""
    return np.concatenate([v, np.zeros(v.shape[:-1] + (1,), v.dtype)], -1)


A3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
B3 = RNG.standard_normal((5, 4, 2)).astype(np.float32)
PRODUCTS = [
    ("dot_matrix", lambda: mnp.dot(T(F), T(G.T)), F @ G.T),
    ("dot_vectors", lambda: mnp.dot(T(F[0]), T(G[0])), F[0] @ G[0]),
    ("dot_nd", lambda: mnp.dot(T(A3), T(B3)), np.dot(A3, B3)),
    ("dot_scalar", lambda: mnp.dot(T(F), T(np.float32(2))), F * 2),
    ("dot_mixed_dtypes", lambda: mnp.dot(T(F), T(J.T)), F @ J.T),
    ("inner", lambda: mnp.inner(T(A3), T(F[:, :1].repeat(4, 1))), np.inner(A3, F[:, :1].repeat(4, 1))),
    ("outer", lambda: mnp.outer(T(F), T(G[0])), np.outer(F, G[0])),
    ("tensordot_int", lambda: mnp.tensordot(T(A3), T(B3.transpose(1, 2, 0)[:, :, :3]), 1),
     np.tensordot(A3, B3.transpose(1, 2, 0)[:, :, :3], 1)),
    ("tensordot_pairs", lambda: mnp.tensordot(T(A3), T(B3), ([2], [1])), np.tensordot(A3, B3, ([2], [1]))),
    ("tensordot_full", lambda: mnp.tensordot(T(F), T(G)), np.tensordot(F, G)),
    ("tensordot_zero", lambda: mnp.tensordot(T(F), T(G[0]), 0), np.tensordot(F, G[0], 0)),
    ("matmul_broadcast", lambda: mnp.matmul(T(A3), T(B3[:1])), A3 @ B3[:1]),
    ("matmul_vector", lambda: mnp.matmul(T(F[0]), T(G.T)), F[0] @ G.T),
    ("kron", lambda: mnp.kron(T(F), T(I)), np.kron(F, I)),
    ("kron_ranks", lambda: mnp.kron(T(F[0]), T(A3)), np.kron(F[0], A3)),
    ("cross3", lambda: mnp.cross(T(F), T(G)), np.cross(F, G)),
    ("cross2", lambda: mnp.cross(T(F[:, :2]), T(G[:, :2])), np.cross(z0(F[:, :2]), z0(G[:, :2]))[:, 2]),
    ("cross23", lambda: mnp.cross(T(F[:, :2]), T(G)), np.cross(z0(F[:, :2]), G)),
    ("cross32_axisc", lambda: mnp.cross(T(F.T), T(G[:, :2].T), axisa=0, axisb=0, axisc=0),
     np.cross(F, z0(G[:, :2])).T),
    ("multi_dot", lambda: mnp.multi_dot([T(F[0]), T(G.T), T(F), T(G[1])]),
     np.linalg.multi_dot([F[0], G.T, F, G[1]])),
    ("matrix_power", lambda: mnp.matrix_power(T(A3[:, :3, :3]), 5), np.linalg.matrix_power(A3[:, :3, :3], 5)),
    ("matrix_power_zero", lambda: mnp.matrix_power(T(A3[:, :3, :3]), 0), np.linalg.matrix_power(A3[:, :3, :3], 0)),
]


@pytest.mark.parametrize("name,call,want", PRODUCTS, ids=[c[0] for c in PRODUCTS])
def test_products_match_numpy(name, call, want):
    close(call(), np.asarray(want, np.float64), rtol=1e-4, atol=1e-5)


X4 = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
V3 = np.array([0.0, 1.0, 0.5], np.float32)
PH = np.array([0.0, 3.5, 7.0, 0.2, -4.0], np.float32)
SERIES = [
    ("diff", lambda: mnp.diff(T(F)), np.diff(F)),
    ("diff_n2_axis0", lambda: mnp.diff(T(A3), 2, axis=1), np.diff(A3, 2, axis=1)),
    ("diff_prepend_append", lambda: mnp.diff(T(F), prepend=1.0, append=T(G[:, :1])),
     np.diff(F, prepend=1.0, append=G[:, :1])),
    ("diff_bool", lambda: mnp.diff(T(np.array([True, False, False, True]))), [True, False, True]),
    ("ediff1d", lambda: mnp.ediff1d(T(I), to_end=[7, 8], to_begin=-1), np.ediff1d(I, to_end=[7, 8], to_begin=-1)),
    ("trapz", lambda: mnp.trapz(T(F)), np.trapezoid(F)),
    ("trapz_dx_axis", lambda: mnp.trapz(T(F), dx=0.5, axis=0), np.trapezoid(F, dx=0.5, axis=0)),
    ("trapz_x", lambda: mnp.trapz(T(F), x=T(np.array([0.0, 1.0, 3.0], np.float32))), np.trapezoid(F, x=[0, 1, 3])),
    ("gradient_1d", lambda: mnp.gradient(T(X4 ** 2)), np.gradient(X4 ** 2)),
    ("gradient_axis_spacing", lambda: mnp.gradient(T(A3), 0.5, axis=2), np.gradient(A3, 0.5, axis=2)),
    ("gradient_edge_order_2", lambda: mnp.gradient(T(X4 ** 3), edge_order=2), np.gradient(X4 ** 3, edge_order=2)),
    ("unwrap", lambda: mnp.unwrap(T(PH)), np.unwrap(PH)),
    ("unwrap_discont", lambda: mnp.unwrap(T(PH), discont=4.0), np.unwrap(PH, discont=4.0)),
    ("convolve_full", lambda: mnp.convolve(T(X4), T(V3)), np.convolve(X4, V3)),
    ("convolve_same_short_first", lambda: mnp.convolve(T(V3), T(X4), "same"), np.convolve(V3, X4, "same")),
    ("convolve_valid", lambda: mnp.convolve(T(X4), T(V3), "valid"), np.convolve(X4, V3, "valid")),
    ("correlate_valid", lambda: mnp.correlate(T(X4), T(V3)), np.correlate(X4, V3)),
    ("correlate_full", lambda: mnp.correlate(T(X4), T(V3), "full"), np.correlate(X4, V3, "full")),
    ("correlate_same", lambda: mnp.correlate(T(X4), T(V3), "same"), np.correlate(X4, V3, "same")),
    ("correlate_short_first_full", lambda: mnp.correlate(T(V3), T(X4), "full"), np.correlate(V3, X4, "full")),
    ("correlate_short_first_same", lambda: mnp.correlate(T(V3), T(X4), "same"), np.correlate(V3, X4, "same")),
    ("correlate_short_first_valid", lambda: mnp.correlate(T(V3[:2]), T(X4)), np.correlate(V3[:2], X4)),
    ("polyadd", lambda: mnp.polyadd([1, 2], [9, 5, 4]), np.polyadd([1, 2], [9, 5, 4])),
    ("polysub", lambda: mnp.polysub(T(X4), T(V3)), np.polysub(X4, V3)),
    ("polymul", lambda: mnp.polymul(T(X4), T(V3)), np.convolve(X4, V3)),  # leading zeros kept, as MindSpore
    ("polyval", lambda: mnp.polyval(T(X4), T(F)), np.polyval(X4, F)),
    ("polyder", lambda: mnp.polyder(T(X4), 2), np.polyder(X4, 2)),
    ("polyint", lambda: mnp.polyint(T(X4), 2, k=[1.0, 2.0]), np.polyint(X4, 2, k=[1.0, 2.0])),
]


@pytest.mark.parametrize("name,call,want", SERIES, ids=[c[0] for c in SERIES])
def test_series_match_numpy(name, call, want):
    close(call(), np.asarray(want, np.float64), rtol=1e-5, atol=1e-5)


H = np.array([0.5, 1.5, 2.5, 2.7, 0.1, 1.0], np.float32)
W = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 0.5], np.float32)
S2 = np.stack([H, np.array([1.0, 0.2, 2.0, 0.1, 0.7, 1.9], np.float32)], 1)
M = RNG.standard_normal((3, 5)).astype(np.float32)
STATISTICS = [
    ("cov", lambda: mnp.cov(T(M)), np.cov(M)),
    ("cov_rowvar_bias", lambda: mnp.cov(T(M), rowvar=False, bias=True), np.cov(M, rowvar=False, bias=True)),
    ("cov_y", lambda: mnp.cov(T(M[0]), T(M[1])), np.cov(M[0], M[1])),
    ("cov_weights", lambda: mnp.cov(T(M), fweights=[1, 2, 3, 1, 2], aweights=[0.5, 1.0, 2.0, 1.5, 1.0]),
     np.cov(M, fweights=[1, 2, 3, 1, 2], aweights=[0.5, 1.0, 2.0, 1.5, 1.0])),
    ("cov_single_variable", lambda: mnp.cov(T(M[0]), ddof=0), np.cov(M[0], ddof=0)),
    ("corrcoef", lambda: mnp.corrcoef(T(M)), np.corrcoef(M)),
    ("searchsorted", lambda: mnp.searchsorted(T(X4), T(np.array([[0.0, 2.0], [2.5, 9.0]], np.float32))),
     np.searchsorted(X4, [[0.0, 2.0], [2.5, 9.0]])),
    ("searchsorted_right_sorter", lambda: mnp.searchsorted([3.0, 1.0, 2.0], [2.0, 0.0], "right",
                                                           T(np.array([1, 2, 0], np.int32))),
     np.searchsorted([3.0, 1.0, 2.0], [2.0, 0.0], "right", [1, 2, 0])),
    ("digitize", lambda: mnp.digitize(T(H), T(np.array([0.0, 1.0, 2.5, 4.0], np.float32))),
     np.digitize(H, [0.0, 1.0, 2.5, 4.0])),
    ("digitize_right_decreasing", lambda: mnp.digitize(T(H), T(np.array([4.0, 2.5, 1.0, 0.0], np.float32)), True),
     np.digitize(H, [4.0, 2.5, 1.0, 0.0], True)),
    ("bincount", lambda: mnp.bincount(T(np.array([0, 1, 1, 3, 2, 1, 7], np.int32))),
     np.bincount([0, 1, 1, 3, 2, 1, 7])),
    ("bincount_weights_minlength", lambda: mnp.bincount(T(np.array([0, 1, 1, 3], np.int32)), T(W[:4]), 6),
     np.bincount([0, 1, 1, 3], W[:4], 6)),
    ("interp", lambda: mnp.interp(T(np.array([0.0, 1.5, 2.5, 3.0, 5.0], np.float32)), [1.0, 2.0, 3.0], [3.0, 2.0, 0.0]),
     np.interp([0.0, 1.5, 2.5, 3.0, 5.0], [1.0, 2.0, 3.0], [3.0, 2.0, 0.0])),
    ("interp_left_right", lambda: mnp.interp(T(np.array([0.0, 1.5, 5.0], np.float32)), [1.0, 2.0, 3.0],
                                             [3.0, 2.0, 0.0], -1.0, 9.5),
     np.interp([0.0, 1.5, 5.0], [1.0, 2.0, 3.0], [3.0, 2.0, 0.0], -1.0, 9.5)),
    ("ravel_multi_index", lambda: mnp.ravel_multi_index(T(np.array([[3, 6, 6], [4, 5, 1]], np.int32)), (7, 6)),
     np.ravel_multi_index([[3, 6, 6], [4, 5, 1]], (7, 6))),
    ("ravel_multi_index_f_wrap", lambda: mnp.ravel_multi_index(T(np.array([[3, 6, 6], [4, 5, 1]], np.int32)),
                                                               (4, 4), "wrap", "F"),
     np.ravel_multi_index([[3, 6, 6], [4, 5, 1]], (4, 4), "wrap", "F")),
]


@pytest.mark.parametrize("name,call,want", STATISTICS, ids=[c[0] for c in STATISTICS])
def test_statistics_match_numpy(name, call, want):
    close(call(), np.asarray(want, np.float64), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kwargs", [dict(bins=4), dict(bins=3, weights=True), dict(bins=4, density=True),
                                    dict(bins=[0.0, 1.0, 2.0, 3.0]), dict(bins=3, range=(0, 2))])
def test_histogram_matches_numpy(kwargs):
    kwargs = dict(kwargs)
    weighted = kwargs.pop("weights", False)
    count, edges = mnp.histogram(T(H), weights=T(W) if weighted else None, **kwargs)
    want_count, want_edges = np.histogram(H, weights=W if weighted else None, **kwargs)
    close(count, want_count, rtol=1e-5, dtype=ms.float32)
    close(edges, want_edges, rtol=1e-5)


def test_histogramdd_and_histogram2d_match_numpy():
    count, edges = mnp.histogramdd(T(S2), bins=(2, 3), range=[(0, 3), (0, 2)], density=True)
    want, want_edges = np.histogramdd(S2, bins=(2, 3), range=[(0, 3), (0, 2)], density=True)
    close(count, want, rtol=1e-5)
    for e, w in zip(edges, want_edges):
        close(e, w, rtol=1e-6)
    count, x_edges, y_edges = mnp.histogram2d(T(S2[:, 0]), T(S2[:, 1]), bins=2, weights=T(W))
    want, wx, wy = np.histogram2d(S2[:, 0], S2[:, 1], bins=2, weights=W)
    close(count, want)
    close(x_edges, wx, rtol=1e-6)
    close(y_edges, wy, rtol=1e-6)


def test_dtype_queries():
    assert mnp.promote_types(ms.int32, ms.float16) == ms.float16
    assert mnp.promote_types("float32", ms.float64) == ms.float64
    assert mnp.promote_types(np.int8, ms.uint8) == ms.int16
    assert mnp.result_type(1, 2.0, ms.int8) == ms.float32
    assert mnp.result_type(T(I), True) == ms.int32
    assert mnp.result_type("int16", T(np.array([1], np.int8))) == ms.int16


BAD_INPUT = [
    (lambda: mnp.add(np.ones(2), 1), TypeError, "add: 'x1'"),
    (lambda: mnp.add("a", 1), TypeError, "array-like"),
    (lambda: mnp.add(T(F), 1, dtype="nonsense"), TypeError, "dtype"),
    (lambda: mnp.sign(T(np.array([True]))), TypeError, "bool"),
    (lambda: mnp.clip(T(F), None, None), ValueError, "xmin"),
    (lambda: mnp.around(T(F), -1), ValueError, "decimals"),
    (lambda: mnp.around(T(F), 1.5), TypeError, "decimals"),
    (lambda: mnp.gcd(T(F), 2.0), TypeError, "integer"),
    (lambda: mnp.fix([1.5]), TypeError, "fix: 'x' must be a Tensor"),
    (lambda: mnp.mean(T(F), axis=2), ValueError, "out of range"),
    (lambda: mnp.mean(T(F), axis=(0, 0)), ValueError, "twice"),
    (lambda: mnp.sum(T(F), axis=1.5), TypeError, "'axis' must be an int"),
    (lambda: mnp.amax(T(F), where=T(np.array([True, False, True]))), ValueError, "initial"),
    (lambda: mnp.amax(T(F), initial=T(F)), TypeError, "initial"),
    (lambda: mnp.amax(T(np.zeros((0, 3), np.float32)), 0), ValueError, "initial"),
    (lambda: mnp.nanmax(T(F), keepdims="yes"), TypeError, "keepdims"),
    (lambda: mnp.average(T(F), weights=T(np.ones(3, np.float32))), TypeError, "axis"),
    (lambda: mnp.average(T(F), axis=1, weights=T(np.ones(2, np.float32))), ValueError, "weights"),
    (lambda: mnp.norm(T(F), ord="bad"), ValueError, "ord"),
    (lambda: mnp.norm(T(A3), ord=1), ValueError, "1-D or 2-D"),
    (lambda: mnp.norm(T(F), ord=3), ValueError, "matrix norm"),
    (lambda: mnp.norm(T(F), ord="fro", axis=1), ValueError, "matrix norm"),
    (lambda: mnp.dot(T(F), T(F)), ValueError, "not aligned"),
    (lambda: mnp.dot(T(F), 2.0), TypeError, "dot: 'b'"),
    (lambda: mnp.inner(T(F), T(F[:, :2])), ValueError, "last dimensions"),
    (lambda: mnp.tensordot(T(F), T(G), 3), ValueError, "axes"),
    (lambda: mnp.tensordot(T(F), T(G), ([0], [1])), ValueError, "summed axes must match"),
    (lambda: mnp.matmul(T(F), T(F)), ValueError, "MatMul"),
    (lambda: mnp.cross(T(F[:, :1]), T(G)), ValueError, "2 or 3 components"),
    (lambda: mnp.multi_dot([T(F)]), ValueError, "at least 2"),
    (lambda: mnp.multi_dot([T(F), T(G), T(F)]), ValueError, "not aligned"),
    (lambda: mnp.matrix_power(T(F), 2), ValueError, "square"),
    (lambda: mnp.matrix_power(T(F[:, :2]), -1), ValueError, "'n' must be >= 0"),
    (lambda: mnp.diff(T(F), n=3), ValueError, "'n'"),
    (lambda: mnp.diff(T(F), n=-1), ValueError, "'n'"),
    (lambda: mnp.gradient(T(X4), edge_order=3), ValueError, "edge_order"),
    (lambda: mnp.gradient(T(X4), T(X4)), TypeError, "spacings"),
    (lambda: mnp.gradient(T(F), 1.0, 2.0, 3.0), TypeError, "spacing"),
    (lambda: mnp.unwrap(T(PH), discont="x"), TypeError, "discont"),
    (lambda: mnp.convolve(T(X4), T(V3), "bad"), ValueError, "mode"),
    (lambda: mnp.correlate(T(F), T(V3)), ValueError, "1-D"),
    (lambda: mnp.convolve([], T(V3)), ValueError, "empty"),
    (lambda: mnp.polyval(T(F), 1.0), ValueError, "1-D"),
    (lambda: mnp.polyint(T(X4), 2, k=[1.0, 2.0, 3.0]), ValueError, "'k'"),
    (lambda: mnp.polyder(T(X4), -1), ValueError, "'m'"),
    (lambda: mnp.cov(T(A3)), ValueError, "at most 2"),
    (lambda: mnp.cov(T(M), fweights=[0.5, 1, 1, 1, 1]), TypeError, "fweights"),
    (lambda: mnp.cov(T(M), aweights=[1.0, 2.0]), ValueError, "aweights"),
    (lambda: mnp.cov(T(M), rowvar=1), TypeError, "rowvar"),
    (lambda: mnp.searchsorted(T(X4), 1.0, side="middle"), ValueError, "side"),
    (lambda: mnp.searchsorted(T(F), 1.0), ValueError, "1-D"),
    (lambda: mnp.digitize(T(H), T(F)), ValueError, "bins"),
    (lambda: mnp.bincount(T(H)), TypeError, "integer"),
    (lambda: mnp.bincount(T(I)), ValueError, "1-D"),
    (lambda: mnp.histogram(T(H), bins=0), TypeError, "bins"),
    (lambda: mnp.histogram(T(H), range=(3, 1)), ValueError, "range"),
    (lambda: mnp.histogramdd(T(H), bins=2), ValueError, "2-D"),
    (lambda: mnp.histogramdd(T(S2), bins=(2, 3, 4)), ValueError, "bins"),
    (lambda: mnp.interp(T(H), [1.0, 2.0], [1.0]), ValueError, "fp"),
    (lambda: mnp.ravel_multi_index(T(np.array([[3], [9]], np.int32)), (4, 4), "raise"), ValueError, "out of range"),
    (lambda: mnp.ravel_multi_index(T(np.array([[3], [9]], np.int32)), (4, 4), "bad"), ValueError, "mode"),
    (lambda: mnp.ravel_multi_index(T(np.array([[3.0]], np.float32)), (4,)), TypeError, "integers"),
    (lambda: mnp.promote_types("nonsense", ms.int32), TypeError, "type1"),
    (lambda: mnp.result_type(object()), TypeError, "result_type"),
]


@pytest.mark.parametrize("call,error,words", BAD_INPUT, ids=[f"bad{i}" for i in range(len(BAD_INPUT))])
def test_bad_input_is_refused_with_a_message(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_compiled_code_matches_eager():
    def body(x, y, n):
        a = mnp.add(mnp.multiply(x, y), mnp.sqrt(mnp.abs(x)))
        b = mnp.sum(mnp.tensordot(x, y, ([1], [1])), axis=0) + mnp.nanmean(x, 1) + mnp.amax(x, 1, initial=0.0)
        c = mnp.cumsum(mnp.remainder(n, 3)) + mnp.argmax(x)
        d = mnp.convolve(x[0], y[0]) + mnp.polyval(x[1], 0.5)
        e = mnp.histogram(x, bins=3, range=(-2, 2))[0] + mnp.bincount(mnp.clip(n[0], 0, 5), length=3)
        f = mnp.cross(x, y) + mnp.kron(x[0], y[0])[:3] + mnp.gradient(x, axis=1)
        g = mnp.interp(x, [-1.0, 0.0, 1.0], [0.0, 1.0, 4.0]) + mnp.digitize(x, T(np.array([-1.0, 0.0, 1.0])))
        h = mnp.cov(x) + mnp.std(y, 0)[:2] + mnp.trapz(x) + mnp.unwrap(x * 3)[:, 0] + mnp.norm(x, "nuc")
        return a, b, c, d, e, f, g, h
    eager = body(T(F), T(G), T(I))
    compiled = ms.jit(body)(T(F), T(G), T(I))
    for e, c in zip(eager, compiled):
        close(c, e.asnumpy(), rtol=1e-5, atol=1e-5)


def test_bincount_needs_length_in_compiled_code():
    with pytest.raises(ValueError, match="length"):
        ms.jit(lambda x: mnp.bincount(x))(T(np.array([0, 1], np.int32)))


D = np.array([[0.3, -1.2, 0.8], [1.5, 0.4, -0.7]])
E = np.array([[0.9, 0.2, -0.5], [-0.3, 1.1, 0.6]])
GRADIENTS = [
    ("hypot_logaddexp", lambda x, y: mnp.hypot(x, y) + mnp.logaddexp(x, y) + mnp.arctan2(x, y)),
    ("cbrt_copysign_heaviside", lambda x, y: mnp.cbrt(x) * mnp.copysign(x, y) + mnp.maximum(x, y)),
    ("reductions", lambda x, y: mnp.average(x, 1, weights=mnp.exp(y)) + mnp.std(x, 1) + mnp.nanvar(y, 1, dtype=ms.float64)
     + mnp.amax(x, 1, initial=0.0) + mnp.norm(x, axis=1) + mnp.ptp(y, 1)),
    ("products", lambda x, y: mnp.dot(x, y.T) + mnp.inner(x, y) + mnp.tensordot(x, y, ([1], [1]))
     + mnp.outer(x[0], y[1])[:2, :2] + mnp.matrix_power(mnp.matmul(x, y.T), 3)),
    ("kron_cross", lambda x, y: mnp.kron(x, y)[:, :3] + mnp.cross(x, y)[0]),
    ("series", lambda x, y: mnp.convolve(x[0], y[0])[:3] + mnp.correlate(x[1], y[1], "same")
     + mnp.polyval(x[0], y[1]) + mnp.trapz(x, mnp.cumsum(mnp.exp(y[1]))).sum()
     + mnp.diff(x, prepend=0.0)[1] + mnp.gradient(y, axis=1)[0]),
    ("statistics", lambda x, y: mnp.cov(x, y).sum() + mnp.corrcoef(x)[0, 1]
     + mnp.interp(y, [-1.0, 0.0, 1.0, 2.0], [1.0, -1.0, 0.5, 2.0])),
    ("cumprod_unwrap", lambda x, y: mnp.cumprod(x, 1) + mnp.unwrap(y * 4)),
]


@pytest.mark.parametrize("name,fn", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradients_match_finite_differences(name, fn):
    check_grad(fn, D, E, rtol=1e-5, atol=1e-7)
