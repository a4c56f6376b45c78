// Highway implementation of simd_select.h (Note [Highway dynamic dispatch] in simd.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_select.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>

#include "kernels/cpu/simd_select.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The lanes of `d` (unsigned 32- or 64-bit) whose bool byte is set, from lanes-many bytes at c.
template <class D>
HWY_INLINE hn::Mask<D> bool_mask(D d, const uint8_t* c) {
  using U = hn::TFromD<D>;
  if constexpr (sizeof(U) == 4) {
    const hn::Rebind<uint8_t, D> du8;
    return hn::Ne(hn::PromoteTo(d, hn::LoadU(du8, c)), hn::Zero(d));
  } else {
    const hn::Rebind<uint32_t, D> du32;
    const hn::Rebind<uint8_t, D> du8;
    return hn::Ne(hn::PromoteTo(d, hn::PromoteTo(du32, hn::LoadU(du8, c))), hn::Zero(d));
  }
}

template <class U>
HWY_INLINE void select_loop(const uint8_t* c, int64_t sc, const U* x, int64_t sx, const U* y, int64_t sy, U* out,
                            int64_t n) {
  const hn::ScalableTag<U> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto fixed_x = hn::Set(d, x[0]), fixed_y = hn::Set(d, y[0]);
  const auto fixed_c = hn::Ne(hn::Set(d, U(c[0])), hn::Zero(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto m = sc ? bool_mask(d, c + i) : fixed_c;
    const auto vx = sx ? hn::LoadU(d, x + i) : fixed_x;
    const auto vy = sy ? hn::LoadU(d, y + i) : fixed_y;
    hn::StoreU(hn::IfThenElse(m, vx, vy), d, out + i);
  }
  for (; i < n; ++i) out[i] = c[i * sc] ? x[i * sx] : y[i * sy];
}

bool Select(size_t size, const bool* c, int64_t sc, const void* x, int64_t sx, const void* y, int64_t sy, void* out,
            int64_t n) {
  const auto* flags = reinterpret_cast<const uint8_t*>(c);
  if (size == 4) {
    select_loop(flags, sc, static_cast<const uint32_t*>(x), sx, static_cast<const uint32_t*>(y), sy,
                static_cast<uint32_t*>(out), n);
    return true;
  }
  if (size == 8) {
    select_loop(flags, sc, static_cast<const uint64_t*>(x), sx, static_cast<const uint64_t*>(y), sy,
                static_cast<uint64_t*>(out), n);
    return true;
  }
  return false;
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(Select);

bool simd_select(size_t size, const bool* c, int64_t sc, const void* x, int64_t sx, const void* y, int64_t sy,
                 void* out, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(Select)(size, c, sc, x, sx, y, sy, out, n);
}
}  // namespace sprout
#endif
