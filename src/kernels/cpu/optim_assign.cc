// CPU kernels of Assign, AssignAdd, AssignSub. out[0] is the variable itself (Note [In-place updates]);
// 'value' may have another dtype and a broadcastable shape.
#include <type_traits>

#include "kernels/cpu/nn_act_common.h"
#include "base/parallel.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

void assign_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  convert_into(in[1].expand(out[0].shape()), out[0]);
}

// variable[i] = variable[i] (+ or -) value[i], in the compute type (float for the half types); a
// one-element value is read once, otherwise it is brought to the variable's dtype and shape first.
template <int kSign>
void accumulate_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& var = out[0];
  const Tensor& value = in[1];
  visit_dtype(var.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "AssignAdd/AssignSub kernel on Bool");
    } else {
      using C = compute_t<T>;
      T* pv = var.template data<T>();
      const int64_t n = var.numel();
      if (value.numel() == 1) {
        const C s = is_floating(value.dtype()) || is_floating(var.dtype()) ? static_cast<C>(value.element_as_double(0))
                                                                           : static_cast<C>(value.element_as_int(0));
        parallel_for(n, kParallelGrain, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) pv[i] = static_cast<T>(static_cast<C>(pv[i]) + kSign * s);
        });
        return;
      }
      const Tensor v = contiguous_as(value.expand(var.shape()), var.dtype());
      const T* px = v.template data<T>();
      parallel_for(n, kParallelGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) pv[i] = static_cast<T>(static_cast<C>(pv[i]) + kSign * static_cast<C>(px[i]));
      });
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_optim_assign) {
  register_kernel<NoAttrs>("Assign", Device::CPU, assign_kernel);
  register_kernel<NoAttrs>("AssignAdd", Device::CPU, accumulate_kernel<1>);
  register_kernel<NoAttrs>("AssignSub", Device::CPU, accumulate_kernel<-1>);
}

}  // namespace sprout
