// CPU kernel of Dropout. Element i is kept when the uniform from Philox block i / 4, lane i % 4, is
// below keep_prob (Note [Dropout randomness]); blocks split across threads, so masks never depend on
// the thread count.
#include <atomic>
#include <random>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/nn_misc_philox.h"
#include "base/parallel.h"
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
      // Work in groups of kGroup Philox blocks (4 elements each), generated together.
      constexpr int kGroup = 16;
      const int64_t groups = (count + 4 * kGroup - 1) / (4 * kGroup);
      parallel_for(groups, kParallelGrain / 64, [&](int64_t b, int64_t e) {
        uint32_t bits[4][kGroup];
        for (int64_t g = b; g < e; ++g) {
          philox4x32_blocks<kGroup>(static_cast<uint64_t>(g) * kGroup, key, bits);
          const int64_t first = g * kGroup * 4, m = std::min<int64_t>(kGroup * 4, count - first);
          // Element first + t is word t % 4 of block t / 4. Branch-free: a kept flag of 1 or 0 scales
          // the value, since a random 50% branch would mispredict half the time.
          C keep_flag[kGroup * 4];
          for (int j = 0; j < kGroup; ++j)
            for (int w = 0; w < 4; ++w) keep_flag[4 * j + w] = static_cast<C>(uniform_from_bits(bits[w][j]) < keep);
          for (int64_t t = 0; t < m; ++t) {
            pm[first + t] = static_cast<T>(keep_flag[t]);
            po[first + t] = static_cast<T>(static_cast<C>(px[first + t]) * (scale * keep_flag[t]));
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
