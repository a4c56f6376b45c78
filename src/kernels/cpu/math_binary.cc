// CPU kernels of FloorDiv, FloorMod, Mod, Atan2 and the logical ops (ops/math_binary.cc).
// Float remainders follow NumPy's divmod exactly (divmod.h; contiguous float and double rows in SIMD,
// Note [Vector fmod]). Atan2 and Hypot of float and double run in SIMD (simd_math.h).
#include <cmath>
#include <type_traits>

#include "kernels/cpu/divmod.h"
#include "kernels/cpu/math_loops.h"
#include "kernels/cpu/simd_math.h"
#include "kernels/cpu/unit_strides.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

template <Division OP>
void division_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "division kernel on Bool");
    } else {
      using C = compute_t<T>;
      for_each_broadcast_row<3>(in, out[0], kParallelGrain / 4, [](auto p, auto s, int64_t n) {
        T* o = reinterpret_cast<T*>(p[0]);
        const T* a = reinterpret_cast<const T*>(p[1]);
        const T* b = reinterpret_cast<const T*>(p[2]);
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          if (s[0] == 1 && is_unit_or_zero(s[1]) && is_unit_or_zero(s[2]))
            return simd_divide(OP, a, s[1], b, s[2], o, n);
        }
        for (int64_t i = 0; i < n; ++i)
          o[i * s[0]] = static_cast<T>(divide<OP, C>(static_cast<C>(a[i * s[1]]), static_cast<C>(b[i * s[2]])));
      });
    }
  });
}

// A float binary op with vector loops for contiguous or broadcast float and double rows (simd_math.h's
// atan2 and hypot); half types and strided rows through blocks staged in the compute type.
template <class Simd>
void float_binary_kernel(std::span<const Tensor> in, const Tensor& out, Simd simd) {
  visit_dtype(out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = compute_t<T>;
      for_each_broadcast_row<3>(in, out, kParallelGrain / 8, [&](auto p, auto s, int64_t n) {
        T* o = reinterpret_cast<T*>(p[0]);
        const T* a = reinterpret_cast<const T*>(p[1]);
        const T* b = reinterpret_cast<const T*>(p[2]);
        if constexpr (std::is_same_v<T, C>) {
          if (s[0] == 1 && is_unit_or_zero(s[1]) && is_unit_or_zero(s[2])) return simd(a, s[1], b, s[2], o, n);
        }
        constexpr int64_t kBlock = 256;
        C ba[kBlock], bb[kBlock];
        for (int64_t i = 0; i < n; i += kBlock) {
          const int64_t m = std::min(kBlock, n - i);
          for (int64_t j = 0; j < m; ++j) {
            ba[j] = static_cast<C>(a[(i + j) * s[1]]);
            bb[j] = static_cast<C>(b[(i + j) * s[2]]);
          }
          simd(ba, 1, bb, 1, ba, m);
          for (int64_t j = 0; j < m; ++j) o[(i + j) * s[0]] = static_cast<T>(ba[j]);
        }
      });
    } else {
      SPROUT_ASSERT(false, "float binary kernel on a non-floating dtype");
    }
  });
}

void atan2_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  float_binary_kernel(in, out[0], [](const auto* a, int64_t sa, const auto* b, int64_t sb, auto* o, int64_t n) {
    simd_atan2(a, sa, b, sb, o, n);
  });
}

void hypot_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  float_binary_kernel(in, out[0], [](const auto* a, int64_t sa, const auto* b, int64_t sb, auto* o, int64_t n) {
    simd_hypot(a, sa, b, sb, o, n);
  });
}

enum class Logic { And, Or, Xor };

template <Logic OP>
void logical_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  for_each_broadcast_row<3>(in, out[0], kParallelGrain, [](auto p, auto s, int64_t n) {
    bool* o = reinterpret_cast<bool*>(p[0]);
    const bool* a = reinterpret_cast<const bool*>(p[1]);
    const bool* b = reinterpret_cast<const bool*>(p[2]);
    for (int64_t i = 0; i < n; ++i) {
      bool x = a[i * s[1]], y = b[i * s[2]];
      o[i * s[0]] = OP == Logic::And ? (x && y) : OP == Logic::Or ? (x || y) : (x != y);
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_math_binary) {
  register_kernel<NoAttrs>("FloorDiv", Device::CPU, division_kernel<Division::FloorDiv>);
  register_kernel<NoAttrs>("FloorMod", Device::CPU, division_kernel<Division::FloorMod>);
  register_kernel<NoAttrs>("Mod", Device::CPU, division_kernel<Division::Mod>);
  register_kernel<NoAttrs>("Atan2", Device::CPU, atan2_kernel);
  register_kernel<NoAttrs>("Hypot", Device::CPU, hypot_kernel);
  register_kernel<NoAttrs>("LogicalAnd", Device::CPU, logical_kernel<Logic::And>);
  register_kernel<NoAttrs>("LogicalOr", Device::CPU, logical_kernel<Logic::Or>);
  register_kernel<NoAttrs>("LogicalXor", Device::CPU, logical_kernel<Logic::Xor>);
}

}  // namespace sprout
