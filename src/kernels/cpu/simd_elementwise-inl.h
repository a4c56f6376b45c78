// The elementwise vector loops shared by simd.cc (one op per call) and simd_program.cc (a fused
// program, a few vectors of each step at a time): the same vectors either way, so a fused chain gives
// bit-identical results to its ops run one by one. Compiled per target: include it after hwy/highway.h
// in a file that foreach_target.h re-includes (the guard toggles with HWY_TARGET_TOGGLE).
// Tails (n not a multiple of the vector width) go through masked or padded vectors of the same code,
// so every element of a tensor gets the same treatment wherever it sits.
#if defined(SPROUT_KERNELS_CPU_SIMD_ELEMENTWISE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SPROUT_KERNELS_CPU_SIMD_ELEMENTWISE_INL_H_
#undef SPROUT_KERNELS_CPU_SIMD_ELEMENTWISE_INL_H_
#else
#define SPROUT_KERNELS_CPU_SIMD_ELEMENTWISE_INL_H_
#endif

#include <hwy/highway.h>
#include <hwy/cache_control.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

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

// Note [Streaming stores]: the same vectors as binary_loop, `count` elements (whole vectors) written
// around the caches to a vector-aligned out. The caller issues hwy::FlushStream() once it is done.
template <BinaryOp OP, class T>
HWY_INLINE void binary_vectors_streamed(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t count) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t i = 0; i < count; i += lanes) {
    const auto va = sa ? hn::LoadU(d, a + i) : hn::Set(d, a[0]);
    const auto vb = sb ? hn::LoadU(d, b + i) : hn::Set(d, b[0]);
    hn::Stream(apply_binary<OP>(d, va, vb), d, out + i);
  }
}

// The aligned middle of out streamed; the unaligned head and the tail go through binary_loop.
template <BinaryOp OP, class T>
HWY_INLINE void binary_loop_streaming(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t head = elements_before_aligned(d, out, n);
  const int64_t whole = (n - head) - (n - head) % lanes;
  binary_loop<OP>(a, sa, b, sb, out, head);
  binary_vectors_streamed<OP>(a + head * sa, sa, b + head * sb, sb, out + head, whole);
  hwy::FlushStream();
  const int64_t done = head + whole;
  binary_loop<OP>(a + done * sa, sa, b + done * sb, sb, out + done, n - done);
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

// `count` elements, a whole number of vectors; with kStream, out is vector-aligned and the caller
// issues hwy::FlushStream() once it is done (Note [Streaming stores]).
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
    hwy::FlushStream();
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

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#endif  // SPROUT_KERNELS_CPU_SIMD_ELEMENTWISE_INL_H_
