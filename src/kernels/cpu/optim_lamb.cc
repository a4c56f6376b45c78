// CPU kernel of Lamb (formula in src/ops/optim.cc). The trust ratio needs ||var|| and ||r|| of the
// whole tensor before var can move, so this is two passes: the first updates m and v and sums the
// squares, the second recomputes r from the new m, v and the old var (cheaper than storing it) and
// steps. The sums are taken per fixed block of kNormBlock elements and added in block order, so the
// result does not depend on the thread count.
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/cpu/optim_loops.h"
#include "kernels/cpu/optim_simd.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// The update direction r = m / bias1 / (sqrt(v / bias2) + eps) + decay * var in the compute type C of the
// half types (their scalar loops), its constants converted once.
template <class C>
struct LambDirection {
  C inv1, inv2, eps, decay;

  explicit LambDirection(const LambStep& s)
      : inv1(static_cast<C>(1 / s.bias1)), inv2(static_cast<C>(1 / s.bias2)), eps(static_cast<C>(s.eps)),
        decay(static_cast<C>(s.decay)) {}

  C operator()(C m, C v, C w) const { return m * inv1 / (std::sqrt(v * inv2) + eps) + decay * w; }
};

constexpr int64_t kNormBlock = 8192;

template <class T>
constexpr bool kVectorized = std::is_same_v<T, float> || std::is_same_v<T, double>;

// The first pass over elements [begin, end): m and v updated, the squares of var and r added to sums.
// Float32 and Float64 take the vector loops of optim_simd.cc; the half types this scalar loop, in float.
template <class T>
void lamb_moments(const LambStep& s, const T* var, T* m, T* v, const T* grad, int64_t begin, int64_t end,
                  double sums[2]) {
  if constexpr (kVectorized<T>) {
    simd_lamb_moments(s, var + begin, m + begin, v + begin, grad + begin, end - begin, sums);
  } else {
    using C = act_compute_t<T>;
    const C b1 = static_cast<C>(s.beta1), b2 = static_cast<C>(s.beta2);
    const LambDirection<C> direction(s);
    for (int64_t i = begin; i < end; ++i) {
      const C g = static_cast<C>(grad[i]), w = static_cast<C>(var[i]);
      m[i] = static_cast<T>(b1 * static_cast<C>(m[i]) + (1 - b1) * g);
      v[i] = static_cast<T>(b2 * static_cast<C>(v[i]) + (1 - b2) * g * g);
      // r from the values as stored, so the second pass recomputes exactly this r.
      const C r = direction(static_cast<C>(m[i]), static_cast<C>(v[i]), w);
      sums[0] += static_cast<double>(w) * w;
      sums[1] += static_cast<double>(r) * r;
    }
  }
}

template <class T>
void lamb_step(const LambStep& s, double step, T* var, const T* m, const T* v, int64_t begin, int64_t end) {
  if constexpr (kVectorized<T>) {
    simd_lamb_step(s, step, var + begin, m + begin, v + begin, end - begin);
  } else {
    using C = act_compute_t<T>;
    const C c_step = static_cast<C>(step);
    const LambDirection<C> direction(s);
    for (int64_t i = begin; i < end; ++i) {
      const C w = static_cast<C>(var[i]);
      var[i] = static_cast<T>(w - c_step * direction(static_cast<C>(m[i]), static_cast<C>(v[i]), w));
    }
  }
}

template <class T>
void lamb(const LambStep& s, double lr, T* var, T* m, T* v, const T* grad, int64_t n) {
  const int64_t blocks = (n + kNormBlock - 1) / kNormBlock;
  std::vector<double> w2(static_cast<size_t>(blocks)), r2(static_cast<size_t>(blocks));
  parallel_for(blocks, std::max<int64_t>(1, kParallelGrain / kNormBlock), [&](int64_t b0, int64_t b1e) {
    for (int64_t b = b0; b < b1e; ++b) {
      double sums[2] = {0, 0};
      lamb_moments(s, var, m, v, grad, b * kNormBlock, std::min(n, (b + 1) * kNormBlock), sums);
      w2[static_cast<size_t>(b)] = sums[0];
      r2[static_cast<size_t>(b)] = sums[1];
    }
  });
  double wn = 0, rn = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    wn += w2[static_cast<size_t>(b)];
    rn += r2[static_cast<size_t>(b)];
  }
  wn = std::sqrt(wn);
  rn = std::sqrt(rn);
  const double step = lr * (wn > 0 && rn > 0 ? wn / rn : 1.0);
  parallel_for(n, kParallelGrain, [&](int64_t begin, int64_t end) { lamb_step(s, step, var, m, v, begin, end); });
}

void lamb_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const double beta1 = scalar_of(in[4]), beta2 = scalar_of(in[5]), t = scalar_of(in[8]);
  SPROUT_CHECK(t >= 1, ValueError, "Lamb: 'global_step' must be >= 1 (the step t of the bias corrections 1 - beta^t), ",
               "but got ", t);
  const LambStep s{beta1, beta2, scalar_of(in[6]), scalar_of(in[7]), 1 - std::pow(beta1, t), 1 - std::pow(beta2, t)};
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      lamb<T>(s, scalar_of(in[3]), out[0].template data<T>(), out[1].template data<T>(), out[2].template data<T>(),
              in[9].template data<T>(), out[0].numel());
    } else {
      SPROUT_ASSERT(false, "Lamb kernel on ", name(out[0].dtype()));
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_optim_lamb) { register_kernel<NoAttrs>("Lamb", Device::CPU, lamb_kernel); }

}  // namespace sprout
