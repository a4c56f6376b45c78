// CPU kernel of Lamb (formula in src/ops/optim.cc). The trust ratio needs ||var|| and ||r|| of the
// whole tensor before var can move, so this is two passes: the first updates m and v and sums the
// squares, the second recomputes r from the new m, v and the old var (cheaper than storing it) and
// steps. The sums are taken per fixed block of kNormBlock elements and added in block order, so the
// result does not depend on the thread count.
#include <cmath>
#include <vector>

#include "kernels/cpu/optim_loops.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

constexpr int64_t kNormBlock = 8192;

struct LambScalars {
  double lr, beta1, beta2, eps, decay, bias1, bias2;  // bias_k = 1 - beta_k^t
};

template <class T>
void lamb(const LambScalars& s, T* var, T* m, T* v, const T* grad, int64_t n) {
  using C = act_compute_t<T>;
  const C b1 = static_cast<C>(s.beta1), b2 = static_cast<C>(s.beta2), e = static_cast<C>(s.eps);
  const C d = static_cast<C>(s.decay), inv1 = static_cast<C>(1 / s.bias1), inv2 = static_cast<C>(1 / s.bias2);
  auto r_of = [&](C mi, C vi, C w) { return mi * inv1 / (std::sqrt(vi * inv2) + e) + d * w; };
  const int64_t blocks = (n + kNormBlock - 1) / kNormBlock;
  std::vector<double> w2(static_cast<size_t>(blocks)), r2(static_cast<size_t>(blocks));
  parallel_for(blocks, std::max<int64_t>(1, kParallelGrain / kNormBlock), [&](int64_t b0, int64_t b1e) {
    for (int64_t b = b0; b < b1e; ++b) {
      double sw = 0, sr = 0;
      for (int64_t i = b * kNormBlock, end = std::min(n, i + kNormBlock); i < end; ++i) {
        const C g = static_cast<C>(grad[i]), w = static_cast<C>(var[i]);
        const C mi = b1 * static_cast<C>(m[i]) + (1 - b1) * g, vi = b2 * static_cast<C>(v[i]) + (1 - b2) * g * g;
        m[i] = static_cast<T>(mi);
        v[i] = static_cast<T>(vi);
        // r from the values as stored, so the second pass recomputes exactly this r.
        const C r = r_of(static_cast<C>(m[i]), static_cast<C>(v[i]), w);
        sw += static_cast<double>(w) * w;
        sr += static_cast<double>(r) * r;
      }
      w2[static_cast<size_t>(b)] = sw;
      r2[static_cast<size_t>(b)] = sr;
    }
  });
  double wn = 0, rn = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    wn += w2[static_cast<size_t>(b)];
    rn += r2[static_cast<size_t>(b)];
  }
  wn = std::sqrt(wn);
  rn = std::sqrt(rn);
  const C step = static_cast<C>(s.lr * (wn > 0 && rn > 0 ? wn / rn : 1.0));
  parallel_for(n, kParallelGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const C w = static_cast<C>(var[i]);
      var[i] = static_cast<T>(w - step * r_of(static_cast<C>(m[i]), static_cast<C>(v[i]), w));
    }
  });
}

void lamb_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const double beta1 = scalar_of(in[4]), beta2 = scalar_of(in[5]), t = scalar_of(in[8]);
  SPROUT_CHECK(t >= 1, ValueError, "Lamb: 'global_step' must be >= 1 (the step t of the bias corrections 1 - beta^t), ",
               "but got ", t);
  const LambScalars s{scalar_of(in[3]), beta1, beta2, scalar_of(in[6]), scalar_of(in[7]),
                      1 - std::pow(beta1, t), 1 - std::pow(beta2, t)};
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      lamb<T>(s, out[0].template data<T>(), out[1].template data<T>(), out[2].template data<T>(),
              in[9].template data<T>(), out[0].numel());
    } else {
      SPROUT_ASSERT(false, "Lamb kernel on ", name(out[0].dtype()));
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_optim_lamb) { register_kernel<NoAttrs>("Lamb", Device::CPU, lamb_kernel); }

}  // namespace sprout
