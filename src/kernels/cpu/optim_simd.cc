// Highway implementation of optim_simd.h (Note [Highway dynamic dispatch] in simd.cc). Each element is
// computed with the same operations in the same order by the vector body and the scalar tail (no
// contracted multiply-adds), so a value never depends on where it sits.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/optim_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cmath>

#include "kernels/cpu/optim_simd.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

template <class T>
void adam_loop(const AdamStep& s, T* var, T* m, T* v, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const T lr = static_cast<T>(s.lr), b1 = static_cast<T>(s.beta1), b2 = static_cast<T>(s.beta2);
  const T eps = static_cast<T>(s.eps), one_b1 = 1 - b1, one_b2 = 1 - b2;
  const auto vlr = hn::Set(d, lr), vb1 = hn::Set(d, b1), veps = hn::Set(d, eps);
  const auto vone_b1 = hn::Set(d, one_b1), vone_b2 = hn::Set(d, one_b2);
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto gi = hn::LoadU(d, g + i), m0 = hn::LoadU(d, m + i), v0 = hn::LoadU(d, v + i);
    const auto mi = hn::Add(m0, hn::Mul(hn::Sub(gi, m0), vone_b1));
    const auto vi = hn::Add(v0, hn::Mul(hn::Sub(hn::Mul(gi, gi), v0), vone_b2));
    hn::StoreU(mi, d, m + i);
    hn::StoreU(vi, d, v + i);
    const auto step = s.nesterov ? hn::Add(hn::Mul(mi, vb1), hn::Mul(vone_b1, gi)) : mi;
    const auto update = hn::Div(hn::Mul(vlr, step), hn::Add(hn::Sqrt(vi), veps));
    hn::StoreU(hn::Sub(hn::LoadU(d, var + i), update), d, var + i);
  }
  for (; i < n; ++i) {
    const T gi = g[i];
    const T mi = m[i] + (gi - m[i]) * one_b1, vi = v[i] + (gi * gi - v[i]) * one_b2;
    m[i] = mi;
    v[i] = vi;
    const T step = s.nesterov ? mi * b1 + one_b1 * gi : mi;
    var[i] -= lr * step / (std::sqrt(vi) + eps);
  }
}

}  // namespace

void AdamF32(const AdamStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  adam_loop(s, var, m, v, g, n);
}
void AdamF64(const AdamStep& s, double* var, double* m, double* v, const double* g, int64_t n) {
  adam_loop(s, var, m, v, g, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(AdamF32);
HWY_EXPORT(AdamF64);

void simd_adam(const AdamStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdamF32)(s, var, m, v, g, n);
}
void simd_adam(const AdamStep& s, double* var, double* m, double* v, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdamF64)(s, var, m, v, g, n);
}
}  // namespace sprout
#endif
