// Highway implementation of simd.h. Note [Highway dynamic dispatch]
// foreach_target.h re-includes this file once per enabled instruction set; everything between
// HWY_BEFORE_NAMESPACE and HWY_AFTER_NAMESPACE is compiled for each. HWY_EXPORT builds a table of the
// variants and HWY_DYNAMIC_DISPATCH picks the best one the CPU supports on first call.
// Tails (n not a multiple of the vector width) go through a padded stack buffer with the same vector
// code, so every element of a tensor gets bit-identical treatment wherever it sits.
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
#include "kernels/cpu/simd_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D, class V>
HWY_INLINE V nan_max(D, V a, V b) {
  V r = hn::Max(a, b);
  r = hn::IfThenElse(hn::IsNaN(b), b, r);
  return hn::IfThenElse(hn::IsNaN(a), a, r);
}
template <class D, class V>
HWY_INLINE V nan_min(D, V a, V b) {
  V r = hn::Min(a, b);
  r = hn::IfThenElse(hn::IsNaN(b), b, r);
  return hn::IfThenElse(hn::IsNaN(a), a, r);
}

template <BinaryOp OP, class D, class V>
HWY_INLINE V apply_binary(D d, V a, V b) {
  if constexpr (OP == BinaryOp::Add) return hn::Add(a, b);
  if constexpr (OP == BinaryOp::Sub) return hn::Sub(a, b);
  if constexpr (OP == BinaryOp::Mul) return hn::Mul(a, b);
  if constexpr (OP == BinaryOp::Div) return hn::Div(a, b);
  if constexpr (OP == BinaryOp::Max) return nan_max(d, a, b);
  if constexpr (OP == BinaryOp::Min) return nan_min(d, a, b);
}

// The three contiguity cases get separate loops so the broadcast value is loaded once.
template <BinaryOp OP, class T>
HWY_INLINE void binary_loop(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto load_a = [&](int64_t i) { return sa ? hn::LoadU(d, a + i) : hn::Set(d, a[0]); };
  auto load_b = [&](int64_t i) { return sb ? hn::LoadU(d, b + i) : hn::Set(d, b[0]); };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(apply_binary<OP>(d, load_a(i), load_b(i)), d, out + i);
  if (i == n) return;
#if !HWY_MEM_OPS_MIGHT_FAULT
  // The tail (all of a tiny op) under a mask, where masked-off lanes can't fault (AVX-512): a
  // one-element `x + y` 10-15 ns faster than through the stack buffers below.
  const auto tail = hn::FirstN(d, static_cast<size_t>(n - i));
  const auto va = sa ? hn::MaskedLoad(tail, d, a + i) : hn::Set(d, a[0]);
  const auto vb = sb ? hn::MaskedLoad(tail, d, b + i) : hn::Set(d, b[0]);
  hn::BlendedStore(apply_binary<OP>(d, va, vb), tail, d, out + i);
#else
  HWY_ALIGN T ta[hn::MaxLanes(d)] = {}, tb[hn::MaxLanes(d)] = {}, to[hn::MaxLanes(d)];
  for (int64_t j = 0; j < n - i; ++j) {
    ta[j] = a[(i + j) * sa];
    tb[j] = b[(i + j) * sb];
  }
  hn::Store(apply_binary<OP>(d, hn::Load(d, ta), hn::Load(d, tb)), d, to);
  std::memcpy(out + i, to, static_cast<size_t>(n - i) * sizeof(T));
#endif
}

// The elements of out before its first vector-aligned address (Stream needs aligned addresses).
template <class D, class T>
HWY_INLINE int64_t elements_before_aligned(D d, const T* out, int64_t n) {
  const size_t bytes = hn::Lanes(d) * sizeof(T);
  const size_t misalign = reinterpret_cast<uintptr_t>(out) % bytes;
  return std::min<int64_t>(n, misalign ? static_cast<int64_t>((bytes - misalign) / sizeof(T)) : 0);
}

// Note [Streaming stores]: the same vectors as binary_loop, the aligned middle of out written around
// the caches; the unaligned head and the tail go through binary_loop.
template <BinaryOp OP, class T>
HWY_INLINE void binary_loop_streaming(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = elements_before_aligned(d, out, n);
  binary_loop<OP>(a, sa, b, sb, out, i);
  for (; i + lanes <= n; i += lanes) {
    const auto va = sa ? hn::LoadU(d, a + i) : hn::Set(d, a[0]);
    const auto vb = sb ? hn::LoadU(d, b + i) : hn::Set(d, b[0]);
    hn::Stream(apply_binary<OP>(d, va, vb), d, out + i);
  }
  hwy::FlushStream();
  binary_loop<OP>(a + i * sa, sa, b + i * sb, sb, out + i, n - i);
}

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

template <UnaryOp OP, class D, class V>
HWY_INLINE V apply_unary(D d, V x) {
  if constexpr (OP == UnaryOp::Neg) return hn::Neg(x);
  if constexpr (OP == UnaryOp::Exp) return exp_vec(d, x);
  if constexpr (OP == UnaryOp::Log) {
    if constexpr (sizeof(hn::TFromD<D>) == 4) return log_f32(d, x);
    else return hn::Log(d, x);
  }
  if constexpr (OP == UnaryOp::Sqrt) return hn::Sqrt(x);
}

// Highway's Exp and Log are accurate only inside their documented domain. Lanes outside it (overflow,
// underflow to subnormals, log of 0 / negatives / inf, NaN) are rare: the vectors of a block are checked
// with one compare each, folded into one mask, and only a block that holds such a lane is looked at
// again, its outside lanes redone with libm. Ordinary data costs a single pass with no branch per
// vector (a branch per vector made float32 exp 1.5x slower in cache), and edge values still match IEEE
// libm exactly.
// The smallest input the vector log takes: the smallest normal float (Note [Float32 log]); double's
// Highway Log handles subnormals.
template <class T>
constexpr T kLogLowest = sizeof(T) == 4 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::denorm_min();

template <UnaryOp OP, class D, class V>
HWY_INLINE auto in_domain(D d, V x) {
  using T = hn::TFromD<D>;
  if constexpr (OP == UnaryOp::Exp) {
    const T hi = sizeof(T) == 4 ? T(88.72283) : T(709.782712893384);
    const T lo = sizeof(T) == 4 ? T(-87.33654) : T(-708.3964185322641);
    return hn::And(hn::Lt(x, hn::Set(d, hi)), hn::Gt(x, hn::Set(d, lo)));
  } else {  // float32's log_f32 takes normal numbers only (Note [Float32 log])
    return hn::And(hn::Ge(x, hn::Set(d, kLogLowest<T>)), hn::Lt(x, hn::Set(d, std::numeric_limits<T>::infinity())));
  }
}

template <UnaryOp OP, class T>
HWY_INLINE void fix_outside_domain(const T* x, T* out, int64_t count) {
  for (int64_t j = 0; j < count; ++j) {
    const bool ok = OP == UnaryOp::Exp ? (x[j] < T(sizeof(T) == 4 ? 88.72283 : 709.782712893384) &&
                                          x[j] > T(sizeof(T) == 4 ? -87.33654 : -708.3964185322641))
                                       : (x[j] >= kLogLowest<T> && x[j] < std::numeric_limits<T>::infinity());
    if (!ok) out[j] = OP == UnaryOp::Exp ? std::exp(x[j]) : std::log(x[j]);
  }
}

// `count` elements, a whole number of vectors; with kStream, out is vector-aligned (Note [Streaming
// stores]).
template <UnaryOp OP, bool kStream = false, class T>
HWY_INLINE void unary_vectors(const T* x, T* out, int64_t count) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  constexpr bool kDomain =
      (OP == UnaryOp::Exp && !exp_vec_covers_all_inputs<hn::Vec<decltype(d)>>()) || OP == UnaryOp::Log;
  constexpr int64_t kBlockVectors = 16;
  for (int64_t b = 0; b < count; b += kBlockVectors * lanes) {
    const int64_t end = std::min(count, b + kBlockVectors * lanes);
    auto inside = hn::Eq(hn::Zero(d), hn::Zero(d));
    for (int64_t i = b; i < end; i += lanes) {
      const auto v = hn::LoadU(d, x + i);
      if constexpr (kStream) hn::Stream(apply_unary<OP>(d, v), d, out + i);
      else hn::StoreU(apply_unary<OP>(d, v), d, out + i);
      if constexpr (kDomain) inside = hn::And(inside, in_domain<OP>(d, v));
    }
    if constexpr (kDomain)
      if (!hn::AllTrue(d, inside)) fix_outside_domain<OP>(x + b, out + b, end - b);
  }
  if constexpr (kStream) hwy::FlushStream();
}

template <UnaryOp OP, class T>
HWY_INLINE void unary_loop(const T* x, T* out, int64_t n, Stores stores) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  if (stores == Stores::Streaming) {  // the unaligned head cached, then the aligned vectors streamed
    const int64_t head = elements_before_aligned(d, out, n);
    unary_loop<OP>(x, out, head, Stores::Cached);
    x += head, out += head, n -= head;
    const int64_t whole = n - n % lanes;
    unary_vectors<OP, true>(x, out, whole);
    x += whole, out += whole, n -= whole;
  }
  const int64_t whole = n - n % lanes;
  unary_vectors<OP>(x, out, whole);
  if (whole < n) {  // the tail through a padded buffer, so it gets the same vector code
    HWY_ALIGN T tx[hn::MaxLanes(d)], to[hn::MaxLanes(d)];
    std::fill(tx, tx + hn::MaxLanes(d), T(1));
    std::memcpy(tx, x + whole, static_cast<size_t>(n - whole) * sizeof(T));
    unary_vectors<OP>(tx, to, lanes);
    std::memcpy(out + whole, to, static_cast<size_t>(n - whole) * sizeof(T));
  }
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

template <ReduceOp OP, class T>
HWY_INLINE T combine_scalar(T a, T b) {
  if constexpr (OP == ReduceOp::Sum) return a + b;
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if constexpr (OP == ReduceOp::Max) return a > b ? a : b;
  return a < b ? a : b;
}

template <ReduceOp OP, class D, class V>
HWY_INLINE V combine(D d, V a, V b) {
  if constexpr (OP == ReduceOp::Sum) return hn::Add(a, b);
  if constexpr (OP == ReduceOp::Max) return nan_max(d, a, b);
  if constexpr (OP == ReduceOp::Min) return nan_min(d, a, b);
}

template <ReduceOp OP, class T>
HWY_INLINE T reduce_loop(const T* x, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const T identity = OP == ReduceOp::Sum ? T(0) : x[0];
  auto a0 = hn::Set(d, identity), a1 = a0, a2 = a0, a3 = a0;
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    a0 = combine<OP>(d, a0, hn::LoadU(d, x + i));
    a1 = combine<OP>(d, a1, hn::LoadU(d, x + i + lanes));
    a2 = combine<OP>(d, a2, hn::LoadU(d, x + i + 2 * lanes));
    a3 = combine<OP>(d, a3, hn::LoadU(d, x + i + 3 * lanes));
  }
  for (; i + lanes <= n; i += lanes) a0 = combine<OP>(d, a0, hn::LoadU(d, x + i));
  auto acc = combine<OP>(d, combine<OP>(d, a0, a1), combine<OP>(d, a2, a3));
  HWY_ALIGN T lanes_out[hn::MaxLanes(d)];
  hn::Store(acc, d, lanes_out);
  T result = lanes_out[0];
  for (int64_t j = 1; j < lanes; ++j) result = combine_scalar<OP>(result, lanes_out[j]);
  for (; i < n; ++i) result = combine_scalar<OP>(result, x[i]);
  return result;
}

template <class T>
T reduce_impl(ReduceOp op, const T* x, int64_t n) {
  switch (op) {
    case ReduceOp::Sum: return reduce_loop<ReduceOp::Sum>(x, n);
    case ReduceOp::Max: return reduce_loop<ReduceOp::Max>(x, n);
    case ReduceOp::Min: return reduce_loop<ReduceOp::Min>(x, n);
  }
  return T(0);
}
float ReduceF32(ReduceOp op, const float* x, int64_t n) { return reduce_impl(op, x, n); }
double ReduceF64(ReduceOp op, const double* x, int64_t n) { return reduce_impl(op, x, n); }

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
    auto a0 = hn::LoadU(d, p), a1 = hn::LoadU(d, p + lanes), a2 = hn::LoadU(d, p + 2 * lanes),
         a3 = hn::LoadU(d, p + 3 * lanes);
    for (int64_t r = 1; r < rows; ++r) {
      p += stride;
      a0 = combine<OP>(d, a0, hn::LoadU(d, p));
      a1 = combine<OP>(d, a1, hn::LoadU(d, p + lanes));
      a2 = combine<OP>(d, a2, hn::LoadU(d, p + 2 * lanes));
      a3 = combine<OP>(d, a3, hn::LoadU(d, p + 3 * lanes));
    }
    hn::StoreU(a0, d, out + j);
    hn::StoreU(a1, d, out + j + lanes);
    hn::StoreU(a2, d, out + j + 2 * lanes);
    hn::StoreU(a3, d, out + j + 3 * lanes);
  }
  for (; j + lanes <= n; j += lanes) {
    auto a = hn::LoadU(d, x + j);
    for (int64_t r = 1; r < rows; ++r) a = combine<OP>(d, a, hn::LoadU(d, x + r * stride + j));
    hn::StoreU(a, d, out + j);
  }
  for (; j < n; ++j) {
    T a = x[j];
    for (int64_t r = 1; r < rows; ++r) a = combine_scalar<OP>(a, x[r * stride + j]);
    out[j] = a;
  }
}

template <class T>
void columns_impl(ReduceOp op, const T* x, int64_t rows, int64_t stride, T* out, int64_t n) {
  switch (op) {
    case ReduceOp::Sum: return columns_loop<ReduceOp::Sum>(x, rows, stride, out, n);
    case ReduceOp::Max: return columns_loop<ReduceOp::Max>(x, rows, stride, out, n);
    case ReduceOp::Min: return columns_loop<ReduceOp::Min>(x, rows, stride, out, n);
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
void simd_reduce_columns(ReduceOp op, const float* x, int64_t rows, int64_t stride, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ColumnsF32)(op, x, rows, stride, out, n);
}
void simd_reduce_columns(ReduceOp op, const double* x, int64_t rows, int64_t stride, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ColumnsF64)(op, x, rows, stride, out, n);
}
}  // namespace sprout
#endif
