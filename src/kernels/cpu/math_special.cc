// CPU kernels of the special functions (ops/math_special.cc): every floating dtype computed in double by
// simd_special.h, contiguous double rows directly, the others through a block staged on the stack.
#include <type_traits>

#include "kernels/cpu/math_loops.h"
#include "kernels/cpu/simd_special.h"
#include "ops/math_special.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// The series cost some 100 instructions per element: split across threads from a few thousand elements.
constexpr int64_t kGrain = kParallelGrain / 16;

// Runs fn(double* x, double* out, n) over in[0]'s elements into out[0].
template <class Fn>
void special_rows(std::span<const Tensor> in, Tensor& out, Fn&& fn) {
  visit_dtype(out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (!std::is_floating_point_v<compute_t<T>>) {
      SPROUT_ASSERT(false, "special function kernel on ", name(out.dtype()), ": the policy lets no such input in");
    } else {
      for_each_broadcast_row<2>(in, out, kGrain, [&](auto ptrs, auto strides, int64_t n) {
        T* o = reinterpret_cast<T*>(ptrs[0]);
        const T* x = reinterpret_cast<const T*>(ptrs[1]);
        if constexpr (std::is_same_v<T, double>) {
          if (strides[0] == 1 && strides[1] == 1) return fn(x, o, n);
        }
        run_staged<T, double>(x, strides[1], o, strides[0], n, [&](double* buf, int64_t m) { fn(buf, buf, m); });
      });
    }
  });
}

template <SpecialOp OP>
void special_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  special_rows(in, out[0], [](const double* x, double* o, int64_t n) { simd_special(OP, x, o, n); });
}

void polygamma_kernel(const PolygammaAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const PolygammaPlan plan(a.n);
  special_rows(in, out[0], [&plan](const double* x, double* o, int64_t n) { simd_polygamma(plan, x, o, n); });
}

}  // namespace

SPROUT_REGISTER(cpu_math_special) {
  register_kernel<NoAttrs>("Lgamma", Device::CPU, special_kernel<SpecialOp::Lgamma>);
  register_kernel<NoAttrs>("Digamma", Device::CPU, special_kernel<SpecialOp::Digamma>);
  register_kernel<NoAttrs>("Erfinv", Device::CPU, special_kernel<SpecialOp::Erfinv>);
  register_kernel<PolygammaAttrs>("Polygamma", Device::CPU, polygamma_kernel);
}

}  // namespace sprout
