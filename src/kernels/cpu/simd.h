// Vectorized inner loops for float and double, compiled for several instruction sets (SSE4, AVX2,
// AVX-512) with Highway and chosen at run time for the machine at hand. Callers pass contiguous runs;
// a stride of 0 on a binary operand means "broadcast this one value".
#pragma once

#include <cstdint>

namespace sprout {

enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Max, Min };
enum class UnaryOp : uint8_t { Neg, Exp, Log, Sqrt };
enum class ReduceOp : uint8_t { Sum, Max, Min };

// out[i] = a[i * sa] op b[i * sb], with sa, sb each 0 or 1. Max/Min propagate NaN.
void simd_binary(BinaryOp op, const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n);
void simd_binary(BinaryOp op, const double* a, int64_t sa, const double* b, int64_t sb, double* out, int64_t n);

// out[i] = op(x[i]).
void simd_unary(UnaryOp op, const float* x, float* out, int64_t n);
void simd_unary(UnaryOp op, const double* x, double* out, int64_t n);

// Reduces x[0..n) (n > 0 for Max/Min). Sum uses several vector accumulators (a partly pairwise sum).
float simd_reduce(ReduceOp op, const float* x, int64_t n);
double simd_reduce(ReduceOp op, const double* x, int64_t n);

// out[j] = x[j] op x[stride + j] op ... op x[(rows - 1) stride + j] for j < n (rows > 0): reducing the
// columns of a row-major block, partial sums kept in registers.
void simd_reduce_columns(ReduceOp op, const float* x, int64_t rows, int64_t stride, float* out, int64_t n);
void simd_reduce_columns(ReduceOp op, const double* x, int64_t rows, int64_t stride, double* out, int64_t n);

}  // namespace sprout
