// Highway implementation of simd.h. Note [Highway dynamic dispatch]
// foreach_target.h re-includes this file once per enabled instruction set; everything between
// HWY_BEFORE_NAMESPACE and HWY_AFTER_NAMESPACE is compiled for each. HWY_EXPORT builds a table of the
// variants and HWY_DYNAMIC_DISPATCH picks the best one the CPU supports on first call.
// The elementwise loops themselves are in simd_elementwise-inl.h, shared with simd_program.cc.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/cache_control.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "base/cpu_caches.h"
#include "kernels/cpu/simd.h"
#include "kernels/cpu/simd_elementwise-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <BinaryOp OP, class T>
HWY_INLINE void binary_dispatch_stores(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n,
                                       Stores stores) {
  if (stores == Stores::Streaming) return binary_loop_streaming<OP>(a, sa, b, sb, out, n);
  binary_loop<OP>(a, sa, b, sb, out, n);
}

template <class T>
void binary_impl(BinaryOp op, const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n, Stores stores) {
  switch (op) {
    case BinaryOp::Add: return binary_dispatch_stores<BinaryOp::Add>(a, sa, b, sb, out, n, stores);
    case BinaryOp::Sub: return binary_dispatch_stores<BinaryOp::Sub>(a, sa, b, sb, out, n, stores);
    case BinaryOp::Mul: return binary_dispatch_stores<BinaryOp::Mul>(a, sa, b, sb, out, n, stores);
    case BinaryOp::Div: return binary_dispatch_stores<BinaryOp::Div>(a, sa, b, sb, out, n, stores);
    case BinaryOp::Max: return binary_dispatch_stores<BinaryOp::Max>(a, sa, b, sb, out, n, stores);
    case BinaryOp::Min: return binary_dispatch_stores<BinaryOp::Min>(a, sa, b, sb, out, n, stores);
  }
}
void BinaryF32(BinaryOp op, const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n,
               Stores stores) {
  binary_impl(op, a, sa, b, sb, out, n, stores);
}
void BinaryF64(BinaryOp op, const double* a, int64_t sa, const double* b, int64_t sb, double* out, int64_t n,
               Stores stores) {
  binary_impl(op, a, sa, b, sb, out, n, stores);
}

template <class T>
void unary_impl(UnaryOp op, const T* x, T* out, int64_t n, Stores stores) {
  switch (op) {
    case UnaryOp::Neg: return unary_loop<UnaryOp::Neg>(x, out, n, stores);
    case UnaryOp::Exp: return unary_loop<UnaryOp::Exp>(x, out, n, stores);
    case UnaryOp::Log: return unary_loop<UnaryOp::Log>(x, out, n, stores);
    case UnaryOp::Sqrt: return unary_loop<UnaryOp::Sqrt>(x, out, n, stores);
  }
}
void UnaryF32(UnaryOp op, const float* x, float* out, int64_t n, Stores stores) { unary_impl(op, x, out, n, stores); }
void UnaryF64(UnaryOp op, const double* x, double* out, int64_t n, Stores stores) { unary_impl(op, x, out, n, stores); }

// Whole vectors streamed, the unaligned head and the tail copied with memcpy.
template <class T>
void stream_copy_impl(const T* x, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = elements_before_aligned(d, out, n);
  std::memcpy(out, x, static_cast<size_t>(i) * sizeof(T));
  for (; i + lanes <= n; i += lanes) hn::Stream(hn::LoadU(d, x + i), d, out + i);
  hwy::FlushStream();
  std::memcpy(out + i, x + i, static_cast<size_t>(n - i) * sizeof(T));
}
void StreamCopyF32(const float* x, float* out, int64_t n) { stream_copy_impl(x, out, n); }
void StreamCopyF64(const double* x, double* out, int64_t n) { stream_copy_impl(x, out, n); }

// Two partial results merged.
template <ReduceOp OP, class T>
HWY_INLINE T combine_scalar(T a, T b) {
  if constexpr (is_sum(OP)) return a + b;
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if constexpr (OP == ReduceOp::Max) return a > b ? a : b;
  return a < b ? a : b;
}

// A partial result and one more input element.
template <ReduceOp OP, class T>
HWY_INLINE T accumulate_scalar(T acc, T x) {
  if constexpr (OP == ReduceOp::SumSquares) return acc + x * x;
  if constexpr (OP == ReduceOp::SumAbs) return acc + std::abs(x);
  return combine_scalar<OP>(acc, x);
}

template <ReduceOp OP, class D, class V>
HWY_INLINE V combine(D d, V a, V b) {
  if constexpr (is_sum(OP)) return hn::Add(a, b);
  if constexpr (OP == ReduceOp::Max) return nan_max(d, a, b);
  if constexpr (OP == ReduceOp::Min) return nan_min(d, a, b);
}

template <ReduceOp OP, class D, class V>
HWY_INLINE V accumulate(D d, V acc, V x) {
  if constexpr (OP == ReduceOp::SumSquares) return hn::MulAdd(x, x, acc);
  if constexpr (OP == ReduceOp::SumAbs) return hn::Add(acc, hn::Abs(x));
  return combine<OP>(d, acc, x);
}

// The first element of a run as a partial result.
template <ReduceOp OP, class D, class V>
HWY_INLINE V lift(D, V x) {
  if constexpr (OP == ReduceOp::SumSquares) return hn::Mul(x, x);
  if constexpr (OP == ReduceOp::SumAbs) return hn::Abs(x);
  return x;
}

template <ReduceOp OP, class T>
HWY_INLINE T reduce_loop(const T* x, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const T identity = is_sum(OP) ? T(0) : x[0];
  auto a0 = hn::Set(d, identity), a1 = a0, a2 = a0, a3 = a0;
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    a0 = accumulate<OP>(d, a0, hn::LoadU(d, x + i));
    a1 = accumulate<OP>(d, a1, hn::LoadU(d, x + i + lanes));
    a2 = accumulate<OP>(d, a2, hn::LoadU(d, x + i + 2 * lanes));
    a3 = accumulate<OP>(d, a3, hn::LoadU(d, x + i + 3 * lanes));
  }
  for (; i + lanes <= n; i += lanes) a0 = accumulate<OP>(d, a0, hn::LoadU(d, x + i));
  auto acc = combine<OP>(d, combine<OP>(d, a0, a1), combine<OP>(d, a2, a3));
  T result;
  // Max and min without a NaN lane: the vector's own reduction (a lane-by-lane scalar merge checking each
  // lane for NaN made the max of each 1024-float row of a 1024 x 1024 matrix 1.7x slower than its sum).
  bool lane_by_lane = true;
  if constexpr (OP == ReduceOp::Max || OP == ReduceOp::Min) lane_by_lane = !hn::AllFalse(d, hn::IsNaN(acc));
  if (lane_by_lane) {
    HWY_ALIGN T lanes_out[hn::MaxLanes(d)];
    hn::Store(acc, d, lanes_out);
    result = lanes_out[0];
    for (int64_t j = 1; j < lanes; ++j) result = combine_scalar<OP>(result, lanes_out[j]);
  } else {
    result = hn::GetLane(OP == ReduceOp::Max ? hn::MaxOfLanes(d, acc) : hn::MinOfLanes(d, acc));
  }
  for (; i < n; ++i) result = accumulate_scalar<OP>(result, x[i]);
  return result;
}

template <class T>
T reduce_impl(ReduceOp op, const T* x, int64_t n) {
  switch (op) {
    case ReduceOp::Sum: return reduce_loop<ReduceOp::Sum>(x, n);
    case ReduceOp::Max: return reduce_loop<ReduceOp::Max>(x, n);
    case ReduceOp::Min: return reduce_loop<ReduceOp::Min>(x, n);
    case ReduceOp::SumSquares: return reduce_loop<ReduceOp::SumSquares>(x, n);
    case ReduceOp::SumAbs: return reduce_loop<ReduceOp::SumAbs>(x, n);
  }
  return T(0);
}
// An int64 sum, wrapping as integer sums do (vector adds wrap; the tail adds in unsigned arithmetic).
int64_t SumI64(const int64_t* x, int64_t n) {
  const hn::ScalableTag<int64_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto a0 = hn::Zero(d), a1 = a0, a2 = a0, a3 = a0;
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    a0 = hn::Add(a0, hn::LoadU(d, x + i));
    a1 = hn::Add(a1, hn::LoadU(d, x + i + lanes));
    a2 = hn::Add(a2, hn::LoadU(d, x + i + 2 * lanes));
    a3 = hn::Add(a3, hn::LoadU(d, x + i + 3 * lanes));
  }
  HWY_ALIGN int64_t lanes_out[hn::MaxLanes(d)];
  hn::Store(hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)), d, lanes_out);
  uint64_t total = 0;
  for (int64_t j = 0; j < lanes; ++j) total += static_cast<uint64_t>(lanes_out[j]);
  for (; i < n; ++i) total += static_cast<uint64_t>(x[i]);
  return static_cast<int64_t>(total);
}

float ReduceF32(ReduceOp op, const float* x, int64_t n) { return reduce_impl(op, x, n); }
double ReduceF64(ReduceOp op, const double* x, int64_t n) { return reduce_impl(op, x, n); }

// The first i with x[i] == value (a NaN value: the first NaN), else -1; a vector compared at a time.
template <class T>
int64_t index_of(const T* x, int64_t n, T value) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const bool nan = value != value;
  const auto v = hn::Set(d, value);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto xs = hn::LoadU(d, x + i);
    const intptr_t at = hn::FindFirstTrue(d, nan ? hn::IsNaN(xs) : hn::Eq(xs, v));
    if (at >= 0) return i + at;
  }
  for (; i < n; ++i)
    if (nan ? x[i] != x[i] : x[i] == value) return i;
  return -1;
}
int64_t IndexOfF32(const float* x, int64_t n, float value) { return index_of(x, n, value); }
int64_t IndexOfF64(const double* x, int64_t n, double value) { return index_of(x, n, value); }

// Columns in blocks of four vectors held in registers down all the rows, then one vector, then scalars:
// each input element is loaded once and each output stored once. (Tiles of rows, combined into `out`,
// measured slower except at a 4 KiB row stride.)
template <ReduceOp OP, class T>
HWY_INLINE void columns_loop(const T* x, int64_t rows, int64_t stride, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t j = 0;
  for (; j + 4 * lanes <= n; j += 4 * lanes) {
    const T* p = x + j;
    auto a0 = lift<OP>(d, hn::LoadU(d, p)), a1 = lift<OP>(d, hn::LoadU(d, p + lanes)),
         a2 = lift<OP>(d, hn::LoadU(d, p + 2 * lanes)), a3 = lift<OP>(d, hn::LoadU(d, p + 3 * lanes));
    for (int64_t r = 1; r < rows; ++r) {
      p += stride;
      a0 = accumulate<OP>(d, a0, hn::LoadU(d, p));
      a1 = accumulate<OP>(d, a1, hn::LoadU(d, p + lanes));
      a2 = accumulate<OP>(d, a2, hn::LoadU(d, p + 2 * lanes));
      a3 = accumulate<OP>(d, a3, hn::LoadU(d, p + 3 * lanes));
    }
    hn::StoreU(a0, d, out + j);
    hn::StoreU(a1, d, out + j + lanes);
    hn::StoreU(a2, d, out + j + 2 * lanes);
    hn::StoreU(a3, d, out + j + 3 * lanes);
  }
  for (; j + lanes <= n; j += lanes) {
    auto a = lift<OP>(d, hn::LoadU(d, x + j));
    for (int64_t r = 1; r < rows; ++r) a = accumulate<OP>(d, a, hn::LoadU(d, x + r * stride + j));
    hn::StoreU(a, d, out + j);
  }
  for (; j < n; ++j) {
    T a = is_sum(OP) ? accumulate_scalar<OP>(T(0), x[j]) : x[j];
    for (int64_t r = 1; r < rows; ++r) a = accumulate_scalar<OP>(a, x[r * stride + j]);
    out[j] = a;
  }
}

template <class T>
void columns_impl(ReduceOp op, const T* x, int64_t rows, int64_t stride, T* out, int64_t n) {
  switch (op) {
    case ReduceOp::Sum: return columns_loop<ReduceOp::Sum>(x, rows, stride, out, n);
    case ReduceOp::Max: return columns_loop<ReduceOp::Max>(x, rows, stride, out, n);
    case ReduceOp::Min: return columns_loop<ReduceOp::Min>(x, rows, stride, out, n);
    case ReduceOp::SumSquares: return columns_loop<ReduceOp::SumSquares>(x, rows, stride, out, n);
    case ReduceOp::SumAbs: return columns_loop<ReduceOp::SumAbs>(x, rows, stride, out, n);
  }
}
void ColumnsF32(ReduceOp op, const float* x, int64_t rows, int64_t stride, float* out, int64_t n) {
  columns_impl(op, x, rows, stride, out, n);
}
void ColumnsF64(ReduceOp op, const double* x, int64_t rows, int64_t stride, double* out, int64_t n) {
  columns_impl(op, x, rows, stride, out, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(BinaryF32);
HWY_EXPORT(BinaryF64);
HWY_EXPORT(UnaryF32);
HWY_EXPORT(UnaryF64);
HWY_EXPORT(StreamCopyF32);
HWY_EXPORT(StreamCopyF64);
HWY_EXPORT(ReduceF32);
HWY_EXPORT(ReduceF64);
HWY_EXPORT(SumI64);
HWY_EXPORT(IndexOfF32);
HWY_EXPORT(IndexOfF64);
HWY_EXPORT(ColumnsF32);
HWY_EXPORT(ColumnsF64);

void simd_binary(BinaryOp op, const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n,
                 Stores stores) {
  HWY_DYNAMIC_DISPATCH(BinaryF32)(op, a, sa, b, sb, out, n, stores);
}
void simd_binary(BinaryOp op, const double* a, int64_t sa, const double* b, int64_t sb, double* out, int64_t n,
                 Stores stores) {
  HWY_DYNAMIC_DISPATCH(BinaryF64)(op, a, sa, b, sb, out, n, stores);
}
void simd_unary(UnaryOp op, const float* x, float* out, int64_t n, Stores stores) {
  HWY_DYNAMIC_DISPATCH(UnaryF32)(op, x, out, n, stores);
}
void simd_unary(UnaryOp op, const double* x, double* out, int64_t n, Stores stores) {
  HWY_DYNAMIC_DISPATCH(UnaryF64)(op, x, out, n, stores);
}
void simd_stream_copy(const float* x, float* out, int64_t n) { HWY_DYNAMIC_DISPATCH(StreamCopyF32)(x, out, n); }
void simd_stream_copy(const double* x, double* out, int64_t n) { HWY_DYNAMIC_DISPATCH(StreamCopyF64)(x, out, n); }

Stores stores_for(int64_t bytes_touched) {
  return bytes_touched > last_level_cache_bytes() ? Stores::Streaming : Stores::Cached;
}
float simd_reduce(ReduceOp op, const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(ReduceF32)(op, x, n); }
double simd_reduce(ReduceOp op, const double* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(ReduceF64)(op, x, n); }
int64_t simd_sum(const int64_t* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(SumI64)(x, n); }
int64_t simd_index_of(const float* x, int64_t n, float value) { return HWY_DYNAMIC_DISPATCH(IndexOfF32)(x, n, value); }
int64_t simd_index_of(const double* x, int64_t n, double value) {
  return HWY_DYNAMIC_DISPATCH(IndexOfF64)(x, n, value);
}
void simd_reduce_columns(ReduceOp op, const float* x, int64_t rows, int64_t stride, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ColumnsF32)(op, x, rows, stride, out, n);
}
void simd_reduce_columns(ReduceOp op, const double* x, int64_t rows, int64_t stride, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ColumnsF64)(op, x, rows, stride, out, n);
}
}  // namespace sprout
#endif
