// CPU kernels of the elementwise activations. Floating dtypes run the Highway loops of
// nn_act_simd.cc: contiguous float/double in place, anything else (strided views, float16,
// bfloat16) through small compute buffers, so every element gets the same arithmetic. Integer
// ReLU/ReLU6 are plain clamps. Work splits across threads by elements (transcendentals: small grain).
#include <limits>
#include <type_traits>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/nn_act_simd.h"
#include "kernels/cpu/transposed_operands.h"
#include "base/parallel.h"
#include "ops/nn_act.h"
#include "ops/op_def.h"
#include "tensor/nd_loop.h"

namespace sprout {
namespace {

void run_activation(Activation act, double alpha, const Tensor& x_in, const Tensor& o) {
  const Tensor x = in_row_order(x_in, o);
  NdLoop<2> loop(o.shape(), {std::span<const int64_t>(o.strides()), std::span<const int64_t>(x.strides())});
  const int64_t so = loop.inner_stride(0), sx = loop.inner_stride(1);
  const bool cheap = act == Activation::ReLU || act == Activation::ReLU6 || act == Activation::LeakyReLU ||
                     act == Activation::HSwish || act == Activation::HSigmoid;
  const int64_t grain = cheap ? kParallelGrain : kParallelGrain / 8;
  visit_dtype(o.dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* po = static_cast<T*>(o.raw_data());
    const T* px = static_cast<const T*>(x.raw_data());
    if constexpr (std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "activation kernel on Bool");
    } else if constexpr (std::is_integral_v<T>) {  // ReLU, ReLU6 (infer admits integers for no others)
      const T cap = act == Activation::ReLU6 ? T(6) : std::numeric_limits<T>::max();
      parallel_for(o.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
        loop.run_elements(begin, end, [&](const std::array<int64_t, 2>& off, int64_t n) {
          for (int64_t i = 0; i < n; ++i) {
            T v = px[off[1] + i * sx];
            po[off[0] + i * so] = v < T(0) ? T(0) : (v > cap ? cap : v);
          }
        });
      });
    } else {
      using C = act_compute_t<T>;
      parallel_for(o.numel(), grain, [&](int64_t begin, int64_t end) {
        loop.run_elements(begin, end, [&](const std::array<int64_t, 2>& off, int64_t n) {
          map_in_compute_type(px + off[1], sx, po + off[0], so, n,
                              [&](const C* in, C* out, int64_t m) { simd_activation(act, C(alpha), in, out, m); });
        });
      });
    }
  });
}

// m elements from `src` (stride `stride`) into a block in the compute type. A broadcast operand (stride 0,
// e.g. the gradient of a sum) is a fill, not m strided reads (GeLUGrad over 2M elements: 2.3 -> 0.9 ms).
template <class T, class C>
void gather_block(const T* src, int64_t stride, C* dst, int64_t m) {
  if (stride == 0) {
    std::fill(dst, dst + m, static_cast<C>(*src));
  } else {
    widen_run(src, stride, dst, m);
  }
}

// dx = dy * act'(x) over any layout and floating dtype (shapes are equal: infer checks).
void run_activation_grad(ActivationGrad act, const Tensor& dy, const Tensor& x, const Tensor& o) {
  NdLoop<3> loop(o.shape(), {std::span<const int64_t>(o.strides()), std::span<const int64_t>(dy.strides()),
                             std::span<const int64_t>(x.strides())});
  const int64_t so = loop.inner_stride(0), sd = loop.inner_stride(1), sx = loop.inner_stride(2);
  visit_dtype(o.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = act_compute_t<T>;
      T* po = static_cast<T*>(o.raw_data());
      const T* pd = static_cast<const T*>(dy.raw_data());
      const T* px = static_cast<const T*>(x.raw_data());
      const bool cheap = act == ActivationGrad::ReLU || act == ActivationGrad::SigmoidFromOutput;
      parallel_for(o.numel(), cheap ? kParallelGrain : kParallelGrain / 8, [&](int64_t b, int64_t e) {
        loop.run_elements(b, e, [&](const std::array<int64_t, 3>& off, int64_t n) {
          if constexpr (std::is_same_v<T, C>) {
            if (so == 1 && sd == 1 && sx == 1) return simd_activation_grad(act, pd + off[1], px + off[2], po + off[0], n);
          }
          C bd[kActBlock], bx[kActBlock], bo[kActBlock];
          if constexpr (std::is_same_v<T, C>) {
            if (so == 1 && sx == 1) {  // only dy strided or broadcast: x and dx in place
              for (int64_t i = 0; i < n; i += kActBlock) {
                const int64_t m = std::min(kActBlock, n - i);
                gather_block(pd + off[1] + i * sd, sd, bd, m);
                simd_activation_grad(act, bd, px + off[2] + i, po + off[0] + i, m);
              }
              return;
            }
          }
          for (int64_t i = 0; i < n; i += kActBlock) {
            const int64_t m = std::min(kActBlock, n - i);
            gather_block(pd + off[1] + i * sd, sd, bd, m);
            gather_block(px + off[2] + i * sx, sx, bx, m);
            simd_activation_grad(act, bd, bx, bo, m);
            narrow_run(bo, po + off[0] + i * so, so, m);
          }
        });
      });
    } else {
      SPROUT_ASSERT(false, "activation gradient kernel on ", name(o.dtype()));
    }
  });
}

template <ActivationGrad ACT>
void activation_grad_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  run_activation_grad(ACT, in[0], in[1], out[0]);
}

// SigmoidGrad takes (y, dy): the output first, as MindSpore.
void sigmoid_grad_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  run_activation_grad(ActivationGrad::SigmoidFromOutput, in[1], in[0], out[0]);
}

void gelu_grad_kernel(const GeLUAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_activation_grad(a.approximate == "none" ? ActivationGrad::GeLU : ActivationGrad::GeLUTanh, in[0], in[1], out[0]);
}

template <Activation ACT>
void activation_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  run_activation(ACT, 0.0, in[0], out[0]);
}

void leaky_relu_kernel(const LeakyReLUAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_activation(Activation::LeakyReLU, a.alpha, in[0], out[0]);
}

void elu_kernel(const EluAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_activation(Activation::Elu, a.alpha, in[0], out[0]);
}

void gelu_kernel(const GeLUAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_activation(a.approximate == "none" ? Activation::GeLU : Activation::GeLUTanh, 0.0, in[0], out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_act) {
  register_kernel<NoAttrs>("ReLU", Device::CPU, activation_kernel<Activation::ReLU>);
  register_kernel<NoAttrs>("ReLU6", Device::CPU, activation_kernel<Activation::ReLU6>);
  register_kernel<LeakyReLUAttrs>("LeakyReLU", Device::CPU, leaky_relu_kernel);
  register_kernel<EluAttrs>("Elu", Device::CPU, elu_kernel);
  register_kernel<GeLUAttrs>("GeLU", Device::CPU, gelu_kernel);
  register_kernel<NoAttrs>("SiLU", Device::CPU, activation_kernel<Activation::SiLU>);
  register_kernel<NoAttrs>("Mish", Device::CPU, activation_kernel<Activation::Mish>);
  register_kernel<NoAttrs>("HSwish", Device::CPU, activation_kernel<Activation::HSwish>);
  register_kernel<NoAttrs>("HSigmoid", Device::CPU, activation_kernel<Activation::HSigmoid>);
  register_kernel<NoAttrs>("Sigmoid", Device::CPU, activation_kernel<Activation::Sigmoid>);
  register_kernel<NoAttrs>("Softplus", Device::CPU, activation_kernel<Activation::Softplus>);
  register_kernel<NoAttrs>("ReluGrad", Device::CPU, activation_grad_kernel<ActivationGrad::ReLU>);
  register_kernel<GeLUAttrs>("GeLUGrad", Device::CPU, gelu_grad_kernel);
  register_kernel<NoAttrs>("SiLUGrad", Device::CPU, activation_grad_kernel<ActivationGrad::SiLU>);
  register_kernel<NoAttrs>("SigmoidGrad", Device::CPU, sigmoid_grad_kernel);
}

}  // namespace sprout
