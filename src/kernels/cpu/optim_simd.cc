// Highway implementation of optim_simd.h (Note [Highway dynamic dispatch] in simd.cc). The tail goes
// through padded buffers with the same vector code, so a value never depends on where it sits.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/optim_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <array>
#include <cstring>
#include <type_traits>

#include "kernels/cpu/optim_simd.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

// Calls update(u, r) for each vector (of tag d) of the n elements, u[k] pointing at that vector of the k-th
// state (which update loads and stores) and r[k] at that vector of the k-th read-only input.
template <class D, size_t NU, size_t NR, class Update>
HWY_INLINE void for_each_vector_of(D d, std::array<hn::TFromD<D>*, NU> u, std::array<const hn::TFromD<D>*, NR> r,
                                   int64_t n, Update&& update) {
  using T = hn::TFromD<D>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    std::array<T*, NU> pu;
    std::array<const T*, NR> pr;
    for (size_t k = 0; k < NU; ++k) pu[k] = u[k] + i;
    for (size_t k = 0; k < NR; ++k) pr[k] = r[k] + i;
    update(pu, pr);
  }
  if (i == n) return;
  const size_t tail_bytes = static_cast<size_t>(n - i) * sizeof(T);
  HWY_ALIGN T bu[NU][hn::MaxLanes(d)] = {}, br[NR][hn::MaxLanes(d)] = {};
  std::array<T*, NU> pu;
  std::array<const T*, NR> pr;
  for (size_t k = 0; k < NU; ++k) {
    std::memcpy(bu[k], u[k] + i, tail_bytes);
    pu[k] = bu[k];
  }
  for (size_t k = 0; k < NR; ++k) {
    std::memcpy(br[k], r[k] + i, tail_bytes);
    pr[k] = br[k];
  }
  update(pu, pr);
  for (size_t k = 0; k < NU; ++k) std::memcpy(u[k] + i, bu[k], tail_bytes);
}

// for_each_vector_of with full vectors of T.
template <class T, size_t NU, size_t NR, class Update>
HWY_INLINE void for_each_vector(std::array<T*, NU> u, std::array<const T*, NR> r, int64_t n, Update&& update) {
  for_each_vector_of(hn::ScalableTag<T>(), u, r, n, update);
}

template <class T>
void gradient_descent_loop(double alpha, T* var, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const auto a = hn::Set(d, static_cast<T>(alpha));
  for_each_vector<T, 1, 1>({var}, {g}, n, [&](auto u, auto r) {
    hn::StoreU(hn::Sub(hn::LoadU(d, u[0]), hn::Mul(a, hn::LoadU(d, r[0]))), d, u[0]);
  });
}

template <class T>
void momentum_loop(const MomentumStep& s, T* var, T* acc, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), mu = hn::Set(d, static_cast<T>(s.momentum));
  const auto scale = hn::Set(d, static_cast<T>(s.gradient_scale));
  for_each_vector<T, 2, 1>({var, acc}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::Mul(scale, hn::LoadU(d, r[0]));
    const auto a = hn::Add(hn::Mul(mu, hn::LoadU(d, u[1])), gi);
    hn::StoreU(a, d, u[1]);
    const auto step = s.nesterov ? hn::Add(gi, hn::Mul(mu, a)) : a;
    hn::StoreU(hn::Sub(hn::LoadU(d, u[0]), hn::Mul(lr, step)), d, u[0]);
  });
}

template <class T>
void sgd_loop(const SgdStep& s, T* var, T* accum, T* stat, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), mu = hn::Set(d, static_cast<T>(s.momentum));
  const auto undamped = hn::Set(d, 1 - static_cast<T>(s.dampening)), decay = hn::Set(d, static_cast<T>(s.weight_decay));
  for_each_vector<T, 3, 1>({var, accum, stat}, {g}, n, [&](auto u, auto r) {
    const auto w = hn::LoadU(d, u[0]);
    auto gi = hn::LoadU(d, r[0]);
    if (s.weight_decay != 0) gi = hn::Add(gi, hn::Mul(decay, w));
    if (s.momentum > 0) {
      const auto first = hn::Gt(hn::LoadU(d, u[2]), hn::Zero(d));
      const auto a = hn::IfThenElse(first, gi, hn::Add(hn::Mul(mu, hn::LoadU(d, u[1])), hn::Mul(undamped, gi)));
      hn::StoreU(a, d, u[1]);
      hn::StoreU(hn::Zero(d), d, u[2]);
      gi = s.nesterov ? hn::Add(gi, hn::Mul(mu, a)) : a;
    }
    hn::StoreU(hn::Sub(w, hn::Mul(lr, gi)), d, u[0]);
  });
}

template <class T>
void adam_loop(const AdamStep& s, T* var, T* m, T* v, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), b1 = hn::Set(d, static_cast<T>(s.beta1));
  const auto one_b1 = hn::Set(d, 1 - static_cast<T>(s.beta1)), one_b2 = hn::Set(d, 1 - static_cast<T>(s.beta2));
  const auto eps = hn::Set(d, static_cast<T>(s.eps));
  for_each_vector<T, 3, 1>({var, m, v}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::LoadU(d, r[0]), m0 = hn::LoadU(d, u[1]), v0 = hn::LoadU(d, u[2]);
    const auto mi = hn::Add(m0, hn::Mul(hn::Sub(gi, m0), one_b1));
    const auto vi = hn::Add(v0, hn::Mul(hn::Sub(hn::Mul(gi, gi), v0), one_b2));
    hn::StoreU(mi, d, u[1]);
    hn::StoreU(vi, d, u[2]);
    const auto step = s.nesterov ? hn::Add(hn::Mul(mi, b1), hn::Mul(one_b1, gi)) : mi;
    hn::StoreU(hn::Sub(hn::LoadU(d, u[0]), hn::Div(hn::Mul(lr, step), hn::Add(hn::Sqrt(vi), eps))), d, u[0]);
  });
}

template <class T>
void adamax_loop(const AdaMaxStep& s, T* var, T* m, T* v, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const T beta1 = static_cast<T>(s.beta1);
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), b1 = hn::Set(d, beta1), one_b1 = hn::Set(d, 1 - beta1);
  const auto b2 = hn::Set(d, static_cast<T>(s.beta2)), eps = hn::Set(d, static_cast<T>(s.eps));
  for_each_vector<T, 3, 1>({var, m, v}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::LoadU(d, r[0]);
    const auto mi = hn::Add(hn::Mul(b1, hn::LoadU(d, u[1])), hn::Mul(one_b1, gi));
    const auto vi = hn::Max(hn::Mul(b2, hn::LoadU(d, u[2])), hn::Abs(gi));
    hn::StoreU(mi, d, u[1]);
    hn::StoreU(vi, d, u[2]);
    hn::StoreU(hn::Sub(hn::LoadU(d, u[0]), hn::Div(hn::Mul(lr, mi), hn::Add(vi, eps))), d, u[0]);
  });
}

template <class T>
void adadelta_loop(const AdadeltaStep& s, T* var, T* accum, T* accum_update, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const T rho = static_cast<T>(s.rho);
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), r0 = hn::Set(d, rho), r1 = hn::Set(d, 1 - rho);
  const auto eps = hn::Set(d, static_cast<T>(s.eps));
  for_each_vector<T, 3, 1>({var, accum, accum_update}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::LoadU(d, r[0]), au = hn::LoadU(d, u[2]);
    const auto a = hn::Add(hn::Mul(r0, hn::LoadU(d, u[1])), hn::Mul(hn::Mul(r1, gi), gi));
    const auto update = hn::Mul(hn::Div(hn::Sqrt(hn::Add(au, eps)), hn::Sqrt(hn::Add(a, eps))), gi);
    hn::StoreU(a, d, u[1]);
    hn::StoreU(hn::Add(hn::Mul(r0, au), hn::Mul(hn::Mul(r1, update), update)), d, u[2]);
    hn::StoreU(hn::Sub(hn::LoadU(d, u[0]), hn::Mul(lr, update)), d, u[0]);
  });
}

template <class T>
void adam_weight_decay_loop(const AdamWeightDecayStep& s, T* var, T* m, T* v, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const T beta1 = static_cast<T>(s.beta1), beta2 = static_cast<T>(s.beta2);
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), b1 = hn::Set(d, beta1), b2 = hn::Set(d, beta2);
  const auto one_b1 = hn::Set(d, 1 - beta1), one_b2 = hn::Set(d, 1 - beta2);
  const auto eps = hn::Set(d, static_cast<T>(s.eps)), decay = hn::Set(d, static_cast<T>(s.decay));
  for_each_vector<T, 3, 1>({var, m, v}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::LoadU(d, r[0]), w = hn::LoadU(d, u[0]);
    const auto mi = hn::Add(hn::Mul(b1, hn::LoadU(d, u[1])), hn::Mul(one_b1, gi));
    const auto vi = hn::Add(hn::Mul(b2, hn::LoadU(d, u[2])), hn::Mul(hn::Mul(one_b2, gi), gi));
    hn::StoreU(mi, d, u[1]);
    hn::StoreU(vi, d, u[2]);
    const auto step = hn::Add(hn::Div(mi, hn::Add(hn::Sqrt(vi), eps)), hn::Mul(decay, w));
    hn::StoreU(hn::Sub(w, hn::Mul(lr, step)), d, u[0]);
  });
}

// RMSProp's step once the mean square is known: mom = momentum mom + lr g / sqrt(denominator), var -= mom.
template <class D, class V>
HWY_INLINE void rmsprop_step(D d, V lr, V mu, V gi, V denominator, hn::TFromD<D>* var, hn::TFromD<D>* mom) {
  const V mo = hn::Add(hn::Mul(mu, hn::LoadU(d, mom)), hn::Div(hn::Mul(lr, gi), hn::Sqrt(denominator)));
  hn::StoreU(mo, d, mom);
  hn::StoreU(hn::Sub(hn::LoadU(d, var), mo), d, var);
}

template <class T>
void rmsprop_loop(const RmsPropStep& s, T* var, T* ms, T* mom, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const T rho = static_cast<T>(s.decay);
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), r0 = hn::Set(d, rho), r1 = hn::Set(d, 1 - rho);
  const auto mu = hn::Set(d, static_cast<T>(s.momentum)), eps = hn::Set(d, static_cast<T>(s.eps));
  for_each_vector<T, 3, 1>({var, ms, mom}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::LoadU(d, r[0]);
    const auto si = hn::Add(hn::Mul(r0, hn::LoadU(d, u[1])), hn::Mul(hn::Mul(r1, gi), gi));
    hn::StoreU(si, d, u[1]);
    rmsprop_step(d, lr, mu, gi, hn::Add(si, eps), u[0], u[2]);
  });
}

template <class T>
void centered_rmsprop_loop(const RmsPropStep& s, T* var, T* mg, T* ms, T* mom, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const T rho = static_cast<T>(s.decay);
  const auto lr = hn::Set(d, static_cast<T>(s.lr)), r0 = hn::Set(d, rho), r1 = hn::Set(d, 1 - rho);
  const auto mu = hn::Set(d, static_cast<T>(s.momentum)), eps = hn::Set(d, static_cast<T>(s.eps));
  for_each_vector<T, 4, 1>({var, mg, ms, mom}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::LoadU(d, r[0]);
    const auto gm = hn::Add(hn::Mul(r0, hn::LoadU(d, u[1])), hn::Mul(r1, gi));
    const auto si = hn::Add(hn::Mul(r0, hn::LoadU(d, u[2])), hn::Mul(hn::Mul(r1, gi), gi));
    hn::StoreU(gm, d, u[1]);
    hn::StoreU(si, d, u[2]);
    rmsprop_step(d, lr, mu, gi, hn::Add(hn::Sub(si, hn::Mul(gm, gm)), eps), u[0], u[3]);
  });
}

template <class T>
void adagrad_loop(const AdagradStep& s, T* var, T* acc, const T* g, int64_t n) {
  const hn::ScalableTag<T> d;
  const auto lr = hn::Set(d, static_cast<T>(s.lr));
  for_each_vector<T, 2, 1>({var, acc}, {g}, n, [&](auto u, auto r) {
    const auto gi = hn::LoadU(d, r[0]);
    auto a = hn::LoadU(d, u[1]);
    if (s.update_slots) {
      a = hn::Add(a, hn::Mul(gi, gi));
      hn::StoreU(a, d, u[1]);
    }
    hn::StoreU(hn::Sub(hn::LoadU(d, u[0]), hn::Div(hn::Mul(lr, gi), hn::Sqrt(a))), d, u[0]);
  });
}

// Lamb's vectors have as many lanes as a vector of doubles, so that each widens to one for the sums.
template <class T>
using LambTag = hn::Rebind<T, hn::ScalableTag<double>>;

template <class T>
struct LambConstants {
  using V = hn::Vec<LambTag<T>>;
  V b1, one_b1, b2, one_b2, inv1, inv2, eps, decay;

  explicit LambConstants(const LambStep& s) {
    const LambTag<T> d;
    const T beta1 = static_cast<T>(s.beta1), beta2 = static_cast<T>(s.beta2);
    b1 = hn::Set(d, beta1), one_b1 = hn::Set(d, 1 - beta1), b2 = hn::Set(d, beta2), one_b2 = hn::Set(d, 1 - beta2);
    inv1 = hn::Set(d, static_cast<T>(1 / s.bias1)), inv2 = hn::Set(d, static_cast<T>(1 / s.bias2));
    eps = hn::Set(d, static_cast<T>(s.eps)), decay = hn::Set(d, static_cast<T>(s.decay));
  }

  // The update direction, one expression for both passes (MulAdd pins the rounding of its last step).
  V direction(V m, V v, V w) const {
    return hn::MulAdd(decay, w, hn::Div(hn::Mul(m, inv1), hn::Add(hn::Sqrt(hn::Mul(v, inv2)), eps)));
  }
};

template <class V>
HWY_INLINE hn::Vec<hn::ScalableTag<double>> widened(V v) {
  if constexpr (std::is_same_v<hn::TFromV<V>, double>) {
    return v;
  } else {
    return hn::PromoteTo(hn::ScalableTag<double>(), v);
  }
}

template <class T>
void lamb_moments_loop(const LambStep& s, const T* var, T* m, T* v, const T* g, int64_t n, double sums[2]) {
  const LambTag<T> d;
  const hn::ScalableTag<double> dd;
  const LambConstants<T> c(s);
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto w2 = hn::Zero(dd), r2 = hn::Zero(dd);
  // One vector at `at`, its first `count` lanes counted in the sums (the tail's others are padding).
  auto update = [&](const T* pvar, T* pm, T* pv, const T* pg, size_t count) {
    const auto gi = hn::LoadU(d, pg), w = hn::LoadU(d, pvar);
    const auto mi = hn::Add(hn::Mul(c.b1, hn::LoadU(d, pm)), hn::Mul(c.one_b1, gi));
    const auto vi = hn::Add(hn::Mul(c.b2, hn::LoadU(d, pv)), hn::Mul(hn::Mul(c.one_b2, gi), gi));
    hn::StoreU(mi, d, pm);
    hn::StoreU(vi, d, pv);
    const auto counted = hn::FirstN(dd, count);
    const auto ww = widened(w), rw = widened(c.direction(mi, vi, w));
    w2 = hn::Add(w2, hn::IfThenElseZero(counted, hn::Mul(ww, ww)));
    r2 = hn::Add(r2, hn::IfThenElseZero(counted, hn::Mul(rw, rw)));
  };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) update(var + i, m + i, v + i, g + i, static_cast<size_t>(lanes));
  if (i < n) {
    const size_t rest = static_cast<size_t>(n - i);
    HWY_ALIGN T tvar[hn::MaxLanes(d)] = {}, tm[hn::MaxLanes(d)] = {}, tv[hn::MaxLanes(d)] = {}, tg[hn::MaxLanes(d)] = {};
    std::memcpy(tvar, var + i, rest * sizeof(T));
    std::memcpy(tm, m + i, rest * sizeof(T));
    std::memcpy(tv, v + i, rest * sizeof(T));
    std::memcpy(tg, g + i, rest * sizeof(T));
    update(tvar, tm, tv, tg, rest);
    std::memcpy(m + i, tm, rest * sizeof(T));
    std::memcpy(v + i, tv, rest * sizeof(T));
  }
  sums[0] += hn::GetLane(hn::SumOfLanes(dd, w2));
  sums[1] += hn::GetLane(hn::SumOfLanes(dd, r2));
}

template <class T>
void lamb_step_loop(const LambStep& s, double step, T* var, const T* m, const T* v, int64_t n) {
  const LambTag<T> d;
  const LambConstants<T> c(s);
  const auto vstep = hn::Set(d, static_cast<T>(step));
  for_each_vector_of(d, std::array<T*, 1>{var}, std::array<const T*, 2>{m, v}, n, [&](auto u, auto r) {
    const auto w = hn::LoadU(d, u[0]);
    hn::StoreU(hn::Sub(w, hn::Mul(vstep, c.direction(hn::LoadU(d, r[0]), hn::LoadU(d, r[1]), w))), d, u[0]);
  });
}

}  // namespace

// The per-target entry points HWY_EXPORT tabulates, one per optimizer and element type.
void GradientDescentF32(double alpha, float* var, const float* g, int64_t n) { gradient_descent_loop(alpha, var, g, n); }
void GradientDescentF64(double alpha, double* var, const double* g, int64_t n) { gradient_descent_loop(alpha, var, g, n); }
void MomentumF32(const MomentumStep& s, float* var, float* acc, const float* g, int64_t n) {
  momentum_loop(s, var, acc, g, n);
}
void MomentumF64(const MomentumStep& s, double* var, double* acc, const double* g, int64_t n) {
  momentum_loop(s, var, acc, g, n);
}
void SgdF32(const SgdStep& s, float* var, float* accum, float* stat, const float* g, int64_t n) {
  sgd_loop(s, var, accum, stat, g, n);
}
void SgdF64(const SgdStep& s, double* var, double* accum, double* stat, const double* g, int64_t n) {
  sgd_loop(s, var, accum, stat, g, n);
}
void AdamF32(const AdamStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  adam_loop(s, var, m, v, g, n);
}
void AdamF64(const AdamStep& s, double* var, double* m, double* v, const double* g, int64_t n) {
  adam_loop(s, var, m, v, g, n);
}
void AdaMaxF32(const AdaMaxStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  adamax_loop(s, var, m, v, g, n);
}
void AdaMaxF64(const AdaMaxStep& s, double* var, double* m, double* v, const double* g, int64_t n) {
  adamax_loop(s, var, m, v, g, n);
}
void AdadeltaF32(const AdadeltaStep& s, float* var, float* accum, float* accum_update, const float* g, int64_t n) {
  adadelta_loop(s, var, accum, accum_update, g, n);
}
void AdadeltaF64(const AdadeltaStep& s, double* var, double* accum, double* accum_update, const double* g,
                 int64_t n) {
  adadelta_loop(s, var, accum, accum_update, g, n);
}
void AdamWeightDecayF32(const AdamWeightDecayStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  adam_weight_decay_loop(s, var, m, v, g, n);
}
void AdamWeightDecayF64(const AdamWeightDecayStep& s, double* var, double* m, double* v, const double* g, int64_t n) {
  adam_weight_decay_loop(s, var, m, v, g, n);
}
void RmsPropF32(const RmsPropStep& s, float* var, float* ms, float* mom, const float* g, int64_t n) {
  rmsprop_loop(s, var, ms, mom, g, n);
}
void RmsPropF64(const RmsPropStep& s, double* var, double* ms, double* mom, const double* g, int64_t n) {
  rmsprop_loop(s, var, ms, mom, g, n);
}
void CenteredRmsPropF32(const RmsPropStep& s, float* var, float* mg, float* ms, float* mom, const float* g, int64_t n) {
  centered_rmsprop_loop(s, var, mg, ms, mom, g, n);
}
void CenteredRmsPropF64(const RmsPropStep& s, double* var, double* mg, double* ms, double* mom, const double* g,
                        int64_t n) {
  centered_rmsprop_loop(s, var, mg, ms, mom, g, n);
}
void LambMomentsF32(const LambStep& s, const float* var, float* m, float* v, const float* g, int64_t n, double* sums) {
  lamb_moments_loop(s, var, m, v, g, n, sums);
}
void LambMomentsF64(const LambStep& s, const double* var, double* m, double* v, const double* g, int64_t n,
                    double* sums) {
  lamb_moments_loop(s, var, m, v, g, n, sums);
}
void LambStepF32(const LambStep& s, double step, float* var, const float* m, const float* v, int64_t n) {
  lamb_step_loop(s, step, var, m, v, n);
}
void LambStepF64(const LambStep& s, double step, double* var, const double* m, const double* v, int64_t n) {
  lamb_step_loop(s, step, var, m, v, n);
}
void AdagradF32(const AdagradStep& s, float* var, float* acc, const float* g, int64_t n) {
  adagrad_loop(s, var, acc, g, n);
}
void AdagradF64(const AdagradStep& s, double* var, double* acc, const double* g, int64_t n) {
  adagrad_loop(s, var, acc, g, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(GradientDescentF32);
HWY_EXPORT(GradientDescentF64);
HWY_EXPORT(MomentumF32);
HWY_EXPORT(MomentumF64);
HWY_EXPORT(SgdF32);
HWY_EXPORT(SgdF64);
HWY_EXPORT(AdamF32);
HWY_EXPORT(AdamF64);
HWY_EXPORT(AdaMaxF32);
HWY_EXPORT(AdaMaxF64);
HWY_EXPORT(AdadeltaF32);
HWY_EXPORT(AdadeltaF64);
HWY_EXPORT(AdamWeightDecayF32);
HWY_EXPORT(AdamWeightDecayF64);
HWY_EXPORT(RmsPropF32);
HWY_EXPORT(RmsPropF64);
HWY_EXPORT(CenteredRmsPropF32);
HWY_EXPORT(CenteredRmsPropF64);
HWY_EXPORT(LambMomentsF32);
HWY_EXPORT(LambMomentsF64);
HWY_EXPORT(LambStepF32);
HWY_EXPORT(LambStepF64);
HWY_EXPORT(AdagradF32);
HWY_EXPORT(AdagradF64);

void simd_gradient_descent(double alpha, float* var, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(GradientDescentF32)(alpha, var, g, n);
}
void simd_gradient_descent(double alpha, double* var, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(GradientDescentF64)(alpha, var, g, n);
}
void simd_momentum(const MomentumStep& s, float* var, float* acc, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(MomentumF32)(s, var, acc, g, n);
}
void simd_momentum(const MomentumStep& s, double* var, double* acc, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(MomentumF64)(s, var, acc, g, n);
}
void simd_sgd(const SgdStep& s, float* var, float* accum, float* stat, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(SgdF32)(s, var, accum, stat, g, n);
}
void simd_sgd(const SgdStep& s, double* var, double* accum, double* stat, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(SgdF64)(s, var, accum, stat, g, n);
}
void simd_adam(const AdamStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdamF32)(s, var, m, v, g, n);
}
void simd_adam(const AdamStep& s, double* var, double* m, double* v, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdamF64)(s, var, m, v, g, n);
}
void simd_adamax(const AdaMaxStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdaMaxF32)(s, var, m, v, g, n);
}
void simd_adamax(const AdaMaxStep& s, double* var, double* m, double* v, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdaMaxF64)(s, var, m, v, g, n);
}
void simd_adadelta(const AdadeltaStep& s, float* var, float* accum, float* accum_update, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdadeltaF32)(s, var, accum, accum_update, g, n);
}
void simd_adadelta(const AdadeltaStep& s, double* var, double* accum, double* accum_update, const double* g,
                   int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdadeltaF64)(s, var, accum, accum_update, g, n);
}
void simd_adam_weight_decay(const AdamWeightDecayStep& s, float* var, float* m, float* v, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdamWeightDecayF32)(s, var, m, v, g, n);
}
void simd_adam_weight_decay(const AdamWeightDecayStep& s, double* var, double* m, double* v, const double* g,
                            int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdamWeightDecayF64)(s, var, m, v, g, n);
}
void simd_rmsprop(const RmsPropStep& s, float* var, float* ms, float* mom, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(RmsPropF32)(s, var, ms, mom, g, n);
}
void simd_rmsprop(const RmsPropStep& s, double* var, double* ms, double* mom, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(RmsPropF64)(s, var, ms, mom, g, n);
}
void simd_centered_rmsprop(const RmsPropStep& s, float* var, float* mg, float* ms, float* mom, const float* g,
                           int64_t n) {
  HWY_DYNAMIC_DISPATCH(CenteredRmsPropF32)(s, var, mg, ms, mom, g, n);
}
void simd_centered_rmsprop(const RmsPropStep& s, double* var, double* mg, double* ms, double* mom, const double* g,
                           int64_t n) {
  HWY_DYNAMIC_DISPATCH(CenteredRmsPropF64)(s, var, mg, ms, mom, g, n);
}
void simd_lamb_moments(const LambStep& s, const float* var, float* m, float* v, const float* g, int64_t n,
                       double sums[2]) {
  HWY_DYNAMIC_DISPATCH(LambMomentsF32)(s, var, m, v, g, n, sums);
}
void simd_lamb_moments(const LambStep& s, const double* var, double* m, double* v, const double* g, int64_t n,
                       double sums[2]) {
  HWY_DYNAMIC_DISPATCH(LambMomentsF64)(s, var, m, v, g, n, sums);
}
void simd_lamb_step(const LambStep& s, double step, float* var, const float* m, const float* v, int64_t n) {
  HWY_DYNAMIC_DISPATCH(LambStepF32)(s, step, var, m, v, n);
}
void simd_lamb_step(const LambStep& s, double step, double* var, const double* m, const double* v, int64_t n) {
  HWY_DYNAMIC_DISPATCH(LambStepF64)(s, step, var, m, v, n);
}
void simd_adagrad(const AdagradStep& s, float* var, float* acc, const float* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdagradF32)(s, var, acc, g, n);
}
void simd_adagrad(const AdagradStep& s, double* var, double* acc, const double* g, int64_t n) {
  HWY_DYNAMIC_DISPATCH(AdagradF64)(s, var, acc, g, n);
}
}  // namespace sprout
#endif
