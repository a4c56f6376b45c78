// Cast between any two dtypes. Float -> integer truncates toward zero; NaN becomes 0 and values
// beyond the target's range saturate (C++ leaves both undefined; a defined answer is kinder).
#include <cmath>
#include <limits>
#include <type_traits>

#include "base/parallel.h"
#include "kernels/cpu/simd_cast.h"
#include "kernels/cpu/simd_half.h"
#include "ops/array.h"
#include "ops/op_def.h"
#include "tensor/nd_loop.h"

namespace sprout {
namespace {

template <class To, class From>
To convert(From value) {
  using CF = compute_t<From>;
  using CT = compute_t<To>;
  CF v = static_cast<CF>(value);
  if constexpr (std::is_floating_point_v<CF> && std::is_integral_v<CT> && !std::is_same_v<CT, bool>) {
    if (std::isnan(v)) return To(0);
    if (v <= static_cast<CF>(std::numeric_limits<CT>::min())) return std::numeric_limits<CT>::min();
    if (v >= static_cast<CF>(std::numeric_limits<CT>::max())) return std::numeric_limits<CT>::max();
  }
  return static_cast<To>(static_cast<CT>(v));
}

void cast_kernel(const CastAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor &x = in[0], &o = out[0];
  NdLoop<2> loop(o.shape(), {std::span<const int64_t>(o.strides()), std::span<const int64_t>(x.strides())});
  const int64_t so = loop.inner_stride(0), sx = loop.inner_stride(1);
  visit_dtype(x.dtype(), [&](auto from_zero) {
    using From = decltype(from_zero);
    visit_dtype(o.dtype(), [&](auto to_zero) {
      using To = decltype(to_zero);
      const From* px = static_cast<const From*>(x.raw_data());
      To* po = static_cast<To*>(o.raw_data());
      parallel_for(o.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
        loop.run_elements(begin, end, [&](const std::array<int64_t, 2>& off, int64_t n) {
          if constexpr (kHasSimdCast<To, From>) {
            if (so == 1 && sx == 1) return simd_cast(px + off[1], po + off[0], n);
          } else if constexpr (is_half_v<From> && std::is_same_v<To, float>) {
            if (so == 1 && sx == 1) return simd_widen(px + off[1], po + off[0], n);
          } else if constexpr (std::is_same_v<From, float> && is_half_v<To>) {
            if (so == 1 && sx == 1) return simd_narrow(px + off[1], po + off[0], n);
          }
          for (int64_t i = 0; i < n; ++i) po[off[0] + i * so] = convert<To, From>(px[off[1] + i * sx]);
        });
      });
    });
  });
}

}  // namespace

SPROUT_REGISTER(cpu_cast) { register_kernel<CastAttrs>("Cast", Device::CPU, cast_kernel); }

}  // namespace sprout
