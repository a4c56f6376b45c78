// Vectorized elementary functions for float and double (Highway, dispatched at run time like simd.h).
//
// Note [Vector math domains]
// Highway's contrib math is accurate (a few ulp) inside a documented range and undefined outside it
// (sin of 1e6, expm1 of 200, log1p of -2, NaN ...). Every op below declares the range its vector
// formula is exact in; a block whose lanes all lie inside it (the normal case) never leaves SIMD code,
// and the rare lanes outside it are recomputed with libm, so edge values (inf, NaN, poles, huge
// arguments) are exactly IEEE's. erf and erfc, which Highway lacks, are Sprout's own (Chebyshev pieces
// from scripts/gen_erf_coefficients.py) and follow the same rule.
#pragma once

#include <cstdint>

namespace sprout {

enum class MathOp : uint8_t {
  Abs, Sign, Square, Reciprocal, Rsqrt, Floor, Ceil, Round, Trunc,
  Expm1, Log1p, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Erf, Erfc,
};

// out[i] = op(x[i]); out may alias x.
void simd_math(MathOp op, const float* x, float* out, int64_t n);
void simd_math(MathOp op, const double* x, double* out, int64_t n);

// out[i] = atan2(y[i * sy], x[i * sx]), sy and sx each 0 (broadcast one value) or 1; out may alias y or x.
void simd_atan2(const float* y, int64_t sy, const float* x, int64_t sx, float* out, int64_t n);
void simd_atan2(const double* y, int64_t sy, const double* x, int64_t sx, double* out, int64_t n);

// out[i] = pow(x[i], e) for the exponents Note [Powers by a scalar] has vector formulas for (any finite
// e for float); returns false, writing nothing, for the others. out may alias x.
bool simd_pow_scalar(const float* x, float e, float* out, int64_t n);
bool simd_pow_scalar(const double* x, double e, double* out, int64_t n);

// out[i] = pow(x[i * sx], e[i * se]) in float32, sx and se each 0 (one value broadcast) or 1 (Note [Powers
// by a scalar]'s general formula); out may alias x or e.
void simd_pow(const float* x, int64_t sx, const float* e, int64_t se, float* out, int64_t n);

// out[i] = hypot(x[i * sx], y[i * sy]), sx and sy each 0 or 1; out may alias x or y.
void simd_hypot(const float* x, int64_t sx, const float* y, int64_t sy, float* out, int64_t n);
void simd_hypot(const double* x, int64_t sx, const double* y, int64_t sy, double* out, int64_t n);

// out[i] = x[i], with NaN, +inf and -inf replaced by nan, posinf and neginf (NanToNum); out may alias x.
void simd_nan_to_num(const float* x, float* out, int64_t n, float nan, float posinf, float neginf);
void simd_nan_to_num(const double* x, double* out, int64_t n, double nan, double posinf, double neginf);

// The libm definition of each op: the reference the vector code is fixed up with, and the scalar
// path of strided or integer inputs.
double math_scalar(MathOp op, double x);
float math_scalar(MathOp op, float x);

}  // namespace sprout
