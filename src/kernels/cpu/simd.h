// Vectorized inner loops for float and double, compiled for several instruction sets (SSE4, AVX2,
// AVX-512) with Highway and chosen at run time for the machine at hand. Callers pass contiguous runs;
// a stride of 0 on a binary operand means "broadcast this one value".
#pragma once

#include <cstdint>
#include <span>

#include "tensor/tensor.h"

namespace sprout {

enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Max, Min };
enum class UnaryOp : uint8_t { Neg, Exp, Log, Sqrt };
// SumSquares and SumAbs sum x * x and |x|: the 2- and 1-norms without a temporary the size of x.
enum class ReduceOp : uint8_t { Sum, Max, Min, SumSquares, SumAbs };
// The reductions that start from 0 and merge partial results by adding them.
constexpr bool is_sum(ReduceOp op) {
  return op == ReduceOp::Sum || op == ReduceOp::SumSquares || op == ReduceOp::SumAbs;
}

// Note [Streaming stores]
// An op that touches more bytes than the last-level cache holds gets nothing back from caching its
// output: by the time anyone reads it, it has been evicted. Plain stores still read every output line
// into the cache before writing it, and evict input lines to make room; non-temporal stores write
// whole lines around the caches instead. Measured on the 2-core Zen 4 host, two threads, float32:
// out = x * y, 4M elements (48 MB touched, L3 32 MB), 0.70 -> 0.38 ms; x * y + z as two such ops
// 2.19 -> 1.45 ms. Below the cache size they lose: -x over 4M elements (32 MB touched) 0.38 -> 0.60 ms,
// because the output would have stayed in L3 for the next use. The values are the same either way.
enum class Stores : uint8_t { Cached, Streaming };

// Streaming when an op reads and writes `bytes_touched` bytes in all, more than the last-level cache.
Stores stores_for(int64_t bytes_touched);
// The same for an op reading `inputs` and writing `out` (inline, answering small ops without looking
// up the cache size: every elementwise op asks, tiny ones too).
inline Stores stores_for(std::span<const Tensor> inputs, const Tensor& out) {
  constexpr size_t kBelowAnyLastLevelCache = size_t{1} << 20;
  size_t bytes = out.nbytes();
  for (const Tensor& t : inputs) bytes += t.nbytes();
  return bytes <= kBelowAnyLastLevelCache ? Stores::Cached : stores_for(static_cast<int64_t>(bytes));
}

// out[i] = a[i * sa] op b[i * sb], with sa, sb each 0 or 1. Max/Min propagate NaN.
void simd_binary(BinaryOp op, const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n,
                 Stores stores = Stores::Cached);
void simd_binary(BinaryOp op, const double* a, int64_t sa, const double* b, int64_t sb, double* out, int64_t n,
                 Stores stores = Stores::Cached);

// out[i] = op(x[i]).
void simd_unary(UnaryOp op, const float* x, float* out, int64_t n, Stores stores = Stores::Cached);
void simd_unary(UnaryOp op, const double* x, double* out, int64_t n, Stores stores = Stores::Cached);

// out[i] = x[i], written with streaming stores.
void simd_stream_copy(const float* x, float* out, int64_t n);
void simd_stream_copy(const double* x, double* out, int64_t n);

// Reduces x[0..n) (n > 0 for Max/Min). Sum uses several vector accumulators (a partly pairwise sum).
float simd_reduce(ReduceOp op, const float* x, int64_t n);
double simd_reduce(ReduceOp op, const double* x, int64_t n);

// The wrapping sum of x[0..n) (the baseline build summed int64 two lanes at a time: 1M elements, two
// threads, 0.15 -> 0.06 ms, PyTorch 0.056).
int64_t simd_sum(const int64_t* x, int64_t n);

// The first i < n with x[i] == value (for a NaN value, the first NaN), or -1. +0 and -0 are equal.
int64_t simd_index_of(const float* x, int64_t n, float value);
int64_t simd_index_of(const double* x, int64_t n, double value);

// out[j] = x[j] op x[stride + j] op ... op x[(rows - 1) stride + j] for j < n (rows > 0): reducing the
// columns of a row-major block, partial sums kept in registers.
void simd_reduce_columns(ReduceOp op, const float* x, int64_t rows, int64_t stride, float* out, int64_t n);
void simd_reduce_columns(ReduceOp op, const double* x, int64_t rows, int64_t stride, double* out, int64_t n);

}  // namespace sprout
