// Highway implementation of simd_nary.h (Note [Highway dynamic dispatch] in simd.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_nary.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <array>
#include <cstring>

#include "kernels/cpu/simd_nary.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[i] = fn(operand vectors) over n elements, operand k read at i * strides[k] (0 or 1); the tail goes
// through padded copies.
template <size_t K, class T, class Fn>
HWY_INLINE void nary_loop(const std::array<const T*, K>& x, const std::array<int64_t, K>& strides, T* out,
                          int64_t n, Fn fn) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto load = [&](size_t k, int64_t i) { return strides[k] ? hn::LoadU(d, x[k] + i) : hn::Set(d, x[k][0]); };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    if constexpr (K == 3) hn::StoreU(fn(load(0, i), load(1, i), load(2, i)), d, out + i);
    else hn::StoreU(fn(load(0, i), load(1, i), load(2, i), load(3, i)), d, out + i);
  }
  if (i < n) {
    HWY_ALIGN T copies[K][hn::MaxLanes(d)] = {};
    for (size_t k = 0; k < K; ++k)
      for (int64_t j = i; j < n; ++j) copies[k][j - i] = x[k][j * strides[k]];
    auto tail = [&](size_t k) { return hn::Load(d, copies[k]); };
    HWY_ALIGN T result[hn::MaxLanes(d)];
    if constexpr (K == 3) hn::Store(fn(tail(0), tail(1), tail(2)), d, result);
    else hn::Store(fn(tail(0), tail(1), tail(2), tail(3)), d, result);
    std::memcpy(out + i, result, static_cast<size_t>(n - i) * sizeof(T));
  }
}

template <class T>
void lerp_impl(const T* s, int64_t ss, const T* e, int64_t se, const T* w, int64_t sw, T* out, int64_t n) {
  nary_loop<3>(std::array<const T*, 3>{s, e, w}, {ss, se, sw}, out, n,
               [](auto start, auto end, auto weight) { return hn::Add(start, hn::Mul(weight, hn::Sub(end, start))); });
}

template <class T>
void addcmul_impl(const T* a, int64_t sa, const T* x1, int64_t s1, const T* x2, int64_t s2, const T* v,
                  int64_t sv, T* out, int64_t n) {
  nary_loop<4>(std::array<const T*, 4>{a, x1, x2, v}, {sa, s1, s2, sv}, out, n,
               [](auto base, auto p, auto q, auto value) { return hn::Add(base, hn::Mul(hn::Mul(value, p), q)); });
}

void LerpF32(const float* s, int64_t ss, const float* e, int64_t se, const float* w, int64_t sw, float* out,
             int64_t n) {
  lerp_impl(s, ss, e, se, w, sw, out, n);
}
void LerpF64(const double* s, int64_t ss, const double* e, int64_t se, const double* w, int64_t sw, double* out,
             int64_t n) {
  lerp_impl(s, ss, e, se, w, sw, out, n);
}
void AddcmulF32(const float* a, int64_t sa, const float* x1, int64_t s1, const float* x2, int64_t s2,
                const float* v, int64_t sv, float* out, int64_t n) {
  addcmul_impl(a, sa, x1, s1, x2, s2, v, sv, out, n);
}
void AddcmulF64(const double* a, int64_t sa, const double* x1, int64_t s1, const double* x2, int64_t s2,
                const double* v, int64_t sv, double* out, int64_t n) {
  addcmul_impl(a, sa, x1, s1, x2, s2, v, sv, out, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(LerpF32);
HWY_EXPORT(LerpF64);
HWY_EXPORT(AddcmulF32);
HWY_EXPORT(AddcmulF64);

void simd_lerp(const float* s, int64_t ss, const float* e, int64_t se, const float* w, int64_t sw, float* out,
               int64_t n) {
  HWY_DYNAMIC_DISPATCH(LerpF32)(s, ss, e, se, w, sw, out, n);
}
void simd_lerp(const double* s, int64_t ss, const double* e, int64_t se, const double* w, int64_t sw, double* out,
               int64_t n) {
  HWY_DYNAMIC_DISPATCH(LerpF64)(s, ss, e, se, w, sw, out, n);
}
void simd_addcmul(const float* a, int64_t sa, const float* x1, int64_t s1, const float* x2, int64_t s2,
                  const float* v, int64_t sv, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AddcmulF32)(a, sa, x1, s1, x2, s2, v, sv, out, n);
}
void simd_addcmul(const double* a, int64_t sa, const double* x1, int64_t s1, const double* x2, int64_t s2,
                  const double* v, int64_t sv, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AddcmulF64)(a, sa, x1, s1, x2, s2, v, sv, out, n);
}
}  // namespace sprout
#endif
