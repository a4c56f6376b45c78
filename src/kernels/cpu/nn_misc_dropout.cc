// CPU kernel of Dropout. Element i is kept when the uniform from Philox block i / 4, lane i % 4, is
// below keep_prob (Note [Dropout randomness]); blocks split across threads, so masks never depend on
// the thread count.
#include <atomic>
#include <random>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/nn_misc_philox.h"
#include "kernels/cpu/parallel.h"
#include "ops/nn_misc.h"
#include "ops/op_def.h"
#include "tensor/nd_loop.h"

namespace sprout {
namespace {

// Seeds for Seed0 = Seed1 = 0: fresh for every call, from the OS's entropy once and a counter after.
std::array<uint32_t, 2> fresh_key() {
  static std::atomic<uint64_t> calls{0};
  static const uint64_t base = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  return philox_key(base, calls.fetch_add(1) + 1);
}

void dropout_kernel(const DropoutAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& x = in[0];
  const int64_t count = x.numel();
  const auto key = a.Seed0 == 0 && a.Seed1 == 0 ? fresh_key()
                                                : philox_key(static_cast<uint64_t>(a.Seed0), static_cast<uint64_t>(a.Seed1));
  const float keep = static_cast<float>(a.keep_prob);
  Tensor xc = x.contiguous();  // element i of the mask belongs to logical element i
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = act_compute_t<T>;
      const C scale = static_cast<C>(1.0 / a.keep_prob);
      const T* px = xc.template data<T>();
      T* po = out[0].template data<T>();
      T* pm = out[1].template data<T>();
      const int64_t blocks = (count + 3) / 4;
      parallel_for(blocks, kParallelGrain / 16, [&](int64_t b, int64_t e) {
        for (int64_t blk = b; blk < e; ++blk) {
          const auto bits = philox4x32({static_cast<uint32_t>(blk), static_cast<uint32_t>(blk >> 32), 0, 0}, key);
          for (int64_t lane = 0, i = blk * 4; lane < 4 && i < count; ++lane, ++i) {
            const bool kept = uniform_from_bits(bits[lane]) < keep;
            pm[i] = static_cast<T>(kept ? C(1) : C(0));
            po[i] = static_cast<T>(kept ? static_cast<C>(px[i]) * scale : C(0));
          }
        }
      });
    } else {
      SPROUT_ASSERT(false, "Dropout kernel on ", name(x.dtype()));
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_misc_dropout) { register_kernel<DropoutAttrs>("Dropout", Device::CPU, dropout_kernel); }

}  // namespace sprout
