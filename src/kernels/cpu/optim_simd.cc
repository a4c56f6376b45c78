// Highway implementation of optim_simd.h (Note [Highway dynamic dispatch] in simd.cc). The tail goes
// through padded buffers with the same vector code, so a value never depends on where it sits.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/optim_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>

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
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), b1 = hn::Set(d, static_cast<T>(s.beta1));
  const auto one_b1 = hn::Set(d, 1 - static_cast<T>(s.beta1)), one_b2 = hn::Set(d, 1 - static_cast<T>(s.beta2));
  const auto eps = hn::Set(d, static_cast<T>(s.eps));
  auto update = [&](T* pvar, T* pm, T* pv, const T* pg) {
    const auto gi = hn::LoadU(d, pg), m0 = hn::LoadU(d, pm), v0 = hn::LoadU(d, pv);
    const auto mi = hn::Add(m0, hn::Mul(hn::Sub(gi, m0), one_b1));
    const auto vi = hn::Add(v0, hn::Mul(hn::Sub(hn::Mul(gi, gi), v0), one_b2));
    hn::StoreU(mi, d, pm);
    hn::StoreU(vi, d, pv);
    const auto step = s.nesterov ? hn::Add(hn::Mul(mi, b1), hn::Mul(one_b1, gi)) : mi;
    hn::StoreU(hn::Sub(hn::LoadU(d, pvar), hn::Div(hn::Mul(lr, step), hn::Add(hn::Sqrt(vi), eps))), d, pvar);
  };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) update(var + i, m + i, v + i, g + i);
  if (i < n) {  // the tail through padded buffers, so it gets the same vector code
    const size_t rest = static_cast<size_t>(n - i) * sizeof(T);
    HWY_ALIGN T tvar[hn::MaxLanes(d)] = {}, tm[hn::MaxLanes(d)] = {}, tv[hn::MaxLanes(d)] = {},
                tg[hn::MaxLanes(d)] = {};
    std::memcpy(tvar, var + i, rest);
    std::memcpy(tm, m + i, rest);
    std::memcpy(tv, v + i, rest);
    std::memcpy(tg, g + i, rest);
    update(tvar, tm, tv, tg);
    std::memcpy(var + i, tvar, rest);
    std::memcpy(m + i, tm, rest);
    std::memcpy(v + i, tv, rest);
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
