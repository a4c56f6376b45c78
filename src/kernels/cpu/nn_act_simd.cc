// Highway implementation of nn_act_simd.h (Note [Highway dynamic dispatch] in simd.cc; Note
// [Activation edge values] in nn_act_simd.h). Tails go through a padded buffer with the same vector
// code, so an element's result never depends on where it sits in the tensor.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_act_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "kernels/cpu/nn_act_simd.h"
#include "kernels/cpu/simd_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// x * gate, where a zero gate (x -> -inf) gives 0 rather than the NaN of -inf * 0.
template <class D, class V>
HWY_INLINE V gated(D d, V x, V gate) {
  return hn::IfThenZeroElse(hn::Eq(gate, hn::Zero(d)), hn::Mul(x, gate));
}

// Note [Normal CDF tail]
// Phi(-a) for 0 <= a <= 20 (the lower tail of the standard normal CDF) is erfc(a / sqrt 2) / 2, here
// Numerical Recipes' Chebyshev fit t exp(P(t) - a^2 / 2 - ln 2), t = 1 / (1 + a / (2 sqrt 2)), relative
// error < 1.2e-7 everywhere (refitting P in t, or with another scale in t, needs as many terms for
// float's precision). The tail, not 1 + erf(x), keeps relative accuracy far into the lower tail, where
// that sum would cancel. Beyond a = 20 the tail underflows to 0 (Phi(-20) ~ 3e-89), so callers clamp
// there, which keeps exp's argument finite and lets exp skip its own clamp. Float only; double goes
// through std::erfc.
// GeLU is bound by its instruction count (about one 512-bit op per cycle on Zen 4), so every op counts:
// ln 2 is folded into P's constant, a^2 / 2 into one FMA with P, and gelu() below ends in one FMA. One
// thread, 4M floats: 2.83 -> 2.25 ms (PyTorch 2.20-2.27), and the largest error over [-8, 0) fell from
// 92 to 34 ulp (the fused square). t's reciprocal is an estimate refined by one Newton step rather than a
// division, which Intel cores issue once per 16 cycles at 512 bits: GeLU over 4M floats on one Emerald
// Rapids thread took 2.0-2.1x an exp, now 1.5-1.8x (PyTorch's 1.5x), with the same largest errors.
template <class D, class V>
HWY_INLINE V normal_lower_tail(D d, V a) {
  const V one = hn::Set(d, 1.0f);
  const V denominator = hn::MulAdd(a, hn::Set(d, 0.35355339059327373f), one);  // in [1, 8.1]
  const V r0 = hn::ApproximateReciprocal(denominator);
  const V t = hn::MulAdd(r0, hn::NegMulAdd(denominator, r0, one), r0);  // one Newton step
  V p = hn::Set(d, 0.17087277f);
  for (float c : {-0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f, -0.18628806f, 0.09678418f, 0.37409196f,
                  1.00002368f, -1.26551223f - 0.69314718f})
    p = hn::MulAdd(p, t, hn::Set(d, c));
  return hn::Mul(t, exp_flush(d, hn::NegMulAdd(hn::Mul(a, hn::Set(d, 0.5f)), a, p)));
}

// Phi(x), the standard normal CDF, from its lower tail (Note [Normal CDF tail]).
template <class D, class V>
HWY_INLINE V normal_cdf(D d, V x) {
  const V tail = normal_lower_tail(d, hn::Min(hn::Abs(x), hn::Set(d, 20.0f)));
  return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), tail, hn::Sub(hn::Set(d, 1.0f), tail));
}

// x Phi(x) = max(x, 0) - |x| Phi(-|x|), one FMA from the tail. |x| is clamped to 20 in the product
// so that inf times the tail's 0 is 0, not NaN; a NaN x stays NaN through max(x, 0), which is written
// as a select so that it does not depend on how Max treats NaN.
template <class D, class V>
HWY_INLINE V gelu(D d, V x) {
  const V a = hn::Min(hn::Abs(x), hn::Set(d, 20.0f));
  const V positive_part = hn::IfThenZeroElse(hn::Lt(x, hn::Zero(d)), x);
  return hn::NegMulAdd(a, normal_lower_tail(d, a), positive_part);
}

template <Activation ACT, class D, class V>
HWY_INLINE V apply(D d, V x, V alpha) {
  using T = hn::TFromD<D>;
  const V zero = hn::Zero(d), one = hn::Set(d, 1), three = hn::Set(d, 3), six = hn::Set(d, 6);
  if constexpr (ACT == Activation::ReLU) return hn::Max(x, zero);
  if constexpr (ACT == Activation::ReLU6) return hn::Min(hn::Max(x, zero), six);
  if constexpr (ACT == Activation::LeakyReLU) return hn::IfThenElse(hn::Gt(x, zero), x, hn::Mul(alpha, x));
  if constexpr (ACT == Activation::Elu) {
    V neg = hn::Mul(alpha, hn::Expm1(d, hn::Max(x, hn::Set(d, -100))));  // expm1(-100) is -1 in any precision
    return hn::IfThenElse(hn::Gt(x, zero), x, neg);
  }
  if constexpr (ACT == Activation::GeLU) return gelu(d, x);
  if constexpr (ACT == Activation::GeLUTanh) {
    // 0.5 x (1 + tanh(u)) = x * sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3).
    V x3 = hn::Mul(hn::Mul(x, x), x);
    V two_u = hn::Mul(hn::Set(d, T(1.5957691216057308)), hn::MulAdd(hn::Set(d, T(0.044715)), x3, x));
    return gated(d, x, sigmoid(d, two_u));
  }
  if constexpr (ACT == Activation::SiLU) return gated(d, x, sigmoid(d, x));
  if constexpr (ACT == Activation::Mish) {
    // tanh(softplus(x)) = n / (n + 2) with n = e^x (e^x + 2); for x > 20 it is 1 in double precision.
    const V cut = hn::Set(d, 20);
    V e = exp_flush(d, hn::Min(x, cut));
    V n = hn::Mul(e, hn::Add(e, hn::Set(d, 2)));
    V r = gated(d, x, hn::Div(n, hn::Add(n, hn::Set(d, 2))));
    return hn::IfThenElse(hn::Gt(x, cut), x, r);
  }
  if constexpr (ACT == Activation::HSwish) return gated(d, x, hn::Div(hn::Min(hn::Max(hn::Add(x, three), zero), six), six));
  if constexpr (ACT == Activation::HSigmoid) return hn::Div(hn::Min(hn::Max(hn::Add(x, three), zero), six), six);
  if constexpr (ACT == Activation::Sigmoid) return sigmoid(d, x);
  if constexpr (ACT == Activation::Softplus) {
    // max(x, 0) + log1p(exp(-|x|)): exact for large |x|, no overflow.
    return hn::Add(hn::Max(x, zero), hn::Log1p(d, exp_flush(d, hn::Neg(hn::Abs(x)))));
  }
  (void)one;
}

// Note [Activation loops four vectors wide]
// Each activation is one long dependency chain per vector (a polynomial, an exp, a division), about
// 100 cycles of latency for 40 instructions: one vector at a time, the out-of-order window could not
// hold enough iterations to hide it. Four independent vectors per iteration, interleaved by GCC's
// pre-allocation scheduler (-fschedule-insns for this file, CMakeLists.txt; without it the chains stay
// in source order and nothing changes), keep the FMA units busy. One thread, 4M floats, alternating
// builds: gelu 3.40 -> 2.83 ms, gelu tanh 2.14 -> 1.87, softplus 3.41 -> 2.84, silu 1.64 -> 1.50,
// sigmoid 1.36 -> 1.26, mish 1.74 -> 1.62; relu and elu unchanged. Every element still goes through
// the same vector code, so results do not depend on position.
//
// The loops' lambdas are forced inline (SPROUT_INLINE_LAMBDA): a call per vector leaves nothing to
// interleave, and GCC's inlining limits dropped GeLU's lambda once this file grew (2.84 -> 3.57 ms).
#ifndef SPROUT_INLINE_LAMBDA
#define SPROUT_INLINE_LAMBDA __attribute__((always_inline))
#endif

// Stores at(i), the result vector for elements i .. i + lanes, into out + i for every whole vector, four
// per iteration; returns where the tail starts. `copied(i)`, when given, says the four vectors from i are
// their own results (ELU's positive inputs): those are stored as they are, without computing at(i).
template <class D, class At, class Copied = std::nullptr_t>
HWY_INLINE int64_t store_vectors(D d, int64_t n, hn::TFromD<D>* out, At at, Copied copied = nullptr,
                                 const hn::TFromD<D>* in = nullptr) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    if constexpr (!std::is_same_v<Copied, std::nullptr_t>) {
      if (copied(i)) {
        if (in != out) std::memcpy(out + i, in + i, static_cast<size_t>(4 * lanes) * sizeof(*out));
        continue;
      }
    }
    const auto r0 = at(i), r1 = at(i + lanes), r2 = at(i + 2 * lanes), r3 = at(i + 3 * lanes);
    hn::StoreU(r0, d, out + i);
    hn::StoreU(r1, d, out + i + lanes);
    hn::StoreU(r2, d, out + i + 2 * lanes);
    hn::StoreU(r3, d, out + i + 3 * lanes);
  }
  for (; i + lanes <= n; i += lanes) hn::StoreU(at(i), d, out + i);
  return i;
}

template <Activation ACT, class T>
HWY_INLINE void activation_loop(T alpha, const T* x, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const auto va = hn::Set(d, alpha);
  // Every activation maps NaN to NaN; Min/Max may not, so NaN lanes are restored at the end (GeLU keeps
  // NaN by itself).
  auto run = [&](auto v) SPROUT_INLINE_LAMBDA {
    if constexpr (ACT == Activation::GeLU) return apply<ACT>(d, v, va);
    else return hn::IfThenElse(hn::IsNaN(v), v, apply<ACT>(d, v, va));
  };
  auto at = [&](int64_t i) SPROUT_INLINE_LAMBDA { return run(hn::LoadU(d, x + i)); };
  int64_t i;
  if constexpr (ACT == Activation::Elu) {
    // ELU is x itself where x > 0: a group of four vectors without a lane <= 0 (or NaN) skips expm1, whose
    // groups stay four wide (a branch per vector broke their interleaving: mixed signs 1.22 -> 1.56 ms).
    // 4M positive floats, 2 threads: 1.27 -> 0.4 ms.
    const size_t lanes = hn::Lanes(d);
    auto copied = [&](int64_t j) SPROUT_INLINE_LAMBDA {
      const auto zero = hn::Zero(d);
      auto positive = hn::And(hn::Gt(hn::LoadU(d, x + j), zero), hn::Gt(hn::LoadU(d, x + j + lanes), zero));
      positive = hn::And(positive, hn::Gt(hn::LoadU(d, x + j + 2 * lanes), zero));
      return hn::AllTrue(d, hn::And(positive, hn::Gt(hn::LoadU(d, x + j + 3 * lanes), zero)));
    };
    i = store_vectors(d, n, out, at, copied, x);
  } else {
    i = store_vectors(d, n, out, at);
  }
  if (i < n) {
    HWY_ALIGN T tx[hn::MaxLanes(d)] = {}, to[hn::MaxLanes(d)];
    std::memcpy(tx, x + i, static_cast<size_t>(n - i) * sizeof(T));
    hn::Store(run(hn::Load(d, tx)), d, to);
    std::memcpy(out + i, to, static_cast<size_t>(n - i) * sizeof(T));
  }
}

template <class T>
void activation_impl(Activation act, T alpha, const T* x, T* out, int64_t n) {
  switch (act) {
    case Activation::ReLU: return activation_loop<Activation::ReLU>(alpha, x, out, n);
    case Activation::ReLU6: return activation_loop<Activation::ReLU6>(alpha, x, out, n);
    case Activation::LeakyReLU: return activation_loop<Activation::LeakyReLU>(alpha, x, out, n);
    case Activation::Elu: return activation_loop<Activation::Elu>(alpha, x, out, n);
    case Activation::GeLU:
      if constexpr (sizeof(T) == 4) {
        return activation_loop<Activation::GeLU>(alpha, x, out, n);
      } else {  // the float erfc fit is not accurate enough for double
        for (int64_t i = 0; i < n; ++i) {
          T phi = T(0.5) * std::erfc(-x[i] * T(0.70710678118654752440));
          out[i] = phi == T(0) && !std::isnan(x[i]) ? T(0) : x[i] * phi;
        }
        return;
      }
    case Activation::GeLUTanh: return activation_loop<Activation::GeLUTanh>(alpha, x, out, n);
    case Activation::SiLU: return activation_loop<Activation::SiLU>(alpha, x, out, n);
    case Activation::Mish: return activation_loop<Activation::Mish>(alpha, x, out, n);
    case Activation::HSwish: return activation_loop<Activation::HSwish>(alpha, x, out, n);
    case Activation::HSigmoid: return activation_loop<Activation::HSigmoid>(alpha, x, out, n);
    case Activation::Sigmoid: return activation_loop<Activation::Sigmoid>(alpha, x, out, n);
    case Activation::Softplus: return activation_loop<Activation::Softplus>(alpha, x, out, n);
  }
}
void ActivationF32(Activation act, float alpha, const float* x, float* out, int64_t n) {
  activation_impl(act, alpha, x, out, n);
}
void ActivationF64(Activation act, double alpha, const double* x, double* out, int64_t n) {
  activation_impl(act, alpha, x, out, n);
}

// act'(x), written from the same pieces as the forward so edge values agree with it.
template <ActivationGrad ACT, class D, class V>
HWY_INLINE V derivative(D d, V x) {
  using T = hn::TFromD<D>;
  const V one = hn::Set(d, 1);
  if constexpr (ACT == ActivationGrad::GeLU) {
    // Phi(x) + x phi(x); x phi(x) -> 0 at both infinities (exp_flush gives 0, not inf * 0).
    V density = hn::Mul(hn::Set(d, T(0.3989422804014327)), exp_flush(d, hn::Mul(hn::Set(d, T(-0.5)), hn::Mul(x, x))));
    return hn::Add(normal_cdf(d, x), gated(d, x, density));
  }
  if constexpr (ACT == ActivationGrad::GeLUTanh) {
    // d/dx x s, s = sigmoid(w), w = k (x + c x^3), k = 2 sqrt(2/pi): s + x s (1 - s) k (1 + 3 c x^2).
    const V k = hn::Set(d, T(1.5957691216057308)), c = hn::Set(d, T(0.044715));
    V x2 = hn::Mul(x, x);
    V s = sigmoid(d, hn::Mul(k, hn::MulAdd(hn::Mul(c, x2), x, x)));
    V dw = hn::Mul(k, hn::MulAdd(hn::Mul(hn::Set(d, T(3)), c), x2, one));
    // Where s (1 - s) is 0 the term is 0, also when dw has overflowed to inf (|x| > 1e19).
    V s1 = hn::Mul(s, hn::Sub(one, s));
    return hn::Add(s, hn::IfThenZeroElse(hn::Eq(s1, hn::Zero(d)), hn::Mul(hn::Mul(x, s1), dw)));
  }
  if constexpr (ACT == ActivationGrad::SigmoidFromOutput) return hn::Mul(x, hn::Sub(one, x));  // x is y here
  if constexpr (ACT == ActivationGrad::SiLU) {
    V s = sigmoid(d, x);  // s (1 + x (1 - s))
    return hn::Add(s, gated(d, x, hn::Mul(s, hn::Sub(one, s))));
  }
}

template <ActivationGrad ACT, class T>
HWY_INLINE void activation_grad_loop(const T* dy, const T* x, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  auto run = [&](auto vdy, auto vx) SPROUT_INLINE_LAMBDA {
    if constexpr (ACT == ActivationGrad::ReLU) {
      return hn::IfThenElseZero(hn::Gt(vx, hn::Zero(d)), vdy);  // dy where x > 0, else 0 (NaN x included)
    } else {
      return hn::IfThenElse(hn::IsNaN(vx), vx, hn::Mul(vdy, derivative<ACT>(d, vx)));
    }
  };
  auto at = [&](int64_t i) SPROUT_INLINE_LAMBDA { return run(hn::LoadU(d, dy + i), hn::LoadU(d, x + i)); };
  const int64_t i = store_vectors(d, n, out, at);
  if (i < n) {
    HWY_ALIGN T tdy[hn::MaxLanes(d)] = {}, tx[hn::MaxLanes(d)] = {}, to[hn::MaxLanes(d)];
    std::memcpy(tdy, dy + i, static_cast<size_t>(n - i) * sizeof(T));
    std::memcpy(tx, x + i, static_cast<size_t>(n - i) * sizeof(T));
    hn::Store(run(hn::Load(d, tdy), hn::Load(d, tx)), d, to);
    std::memcpy(out + i, to, static_cast<size_t>(n - i) * sizeof(T));
  }
}

template <class T>
void activation_grad_impl(ActivationGrad act, const T* dy, const T* x, T* out, int64_t n) {
  switch (act) {
    case ActivationGrad::ReLU: return activation_grad_loop<ActivationGrad::ReLU>(dy, x, out, n);
    case ActivationGrad::GeLU:
      if constexpr (sizeof(T) == 4) {
        return activation_grad_loop<ActivationGrad::GeLU>(dy, x, out, n);
      } else {  // the float erfc fit is not accurate enough for double
        for (int64_t i = 0; i < n; ++i) {
          const T phi = T(0.5) * std::erfc(-x[i] * T(0.70710678118654752440));
          const T density = T(0.3989422804014327) * std::exp(T(-0.5) * x[i] * x[i]);
          out[i] = std::isnan(x[i]) ? x[i] : dy[i] * (phi + (density == T(0) ? T(0) : x[i] * density));
        }
        return;
      }
    case ActivationGrad::GeLUTanh: return activation_grad_loop<ActivationGrad::GeLUTanh>(dy, x, out, n);
    case ActivationGrad::SiLU: return activation_grad_loop<ActivationGrad::SiLU>(dy, x, out, n);
    case ActivationGrad::SigmoidFromOutput: return activation_grad_loop<ActivationGrad::SigmoidFromOutput>(dy, x, out, n);
  }
}
void ActivationGradF32(ActivationGrad act, const float* dy, const float* x, float* out, int64_t n) {
  activation_grad_impl(act, dy, x, out, n);
}
void ActivationGradF64(ActivationGrad act, const double* dy, const double* x, double* out, int64_t n) {
  activation_grad_impl(act, dy, x, out, n);
}

// Note [Softmax rows pipelined]
// A softmax row's max pass is the one that waits for memory (the row's first touch) while its exp pass
// is compute-bound; one after the other, neither overlaps the other. So the exp loop of row r also
// takes the max of row r + 1, whose loads then stream in under the exp arithmetic. That max may ignore
// NaN (x86's max returns its second operand when either is NaN), which saves the two compares and
// blends per vector of a NaN-propagating max: a NaN in a row makes that row's sum, and so every output
// of the row, NaN whatever the shift. Measured on the 2-core Zen 4 host, float32 softmax, with the upper
// clamp dropped from exp_flush: (4096, 1024) two threads 0.73-0.79 -> 0.59-0.66 ms, one thread
// 1.49-1.55 -> 1.29-1.33 ms; (64, 1024), in L2, one thread 25-27 -> 19-21 us. Also scaling row r - 1
// inside that loop (instead of a pass of its own) was slower: 1.40-1.45 ms on one thread.
template <bool NEXT, class T>
T exp_shifted_sum_loop(const T* x, T shift, T* out, int64_t n, const T* next, T* next_max) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto vs = hn::Set(d, shift);
  auto s0 = hn::Zero(d), s1 = hn::Zero(d);
  auto m0 = hn::Set(d, -std::numeric_limits<T>::infinity()), m1 = m0;
  int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    auto e0 = exp_flush(d, hn::Sub(hn::LoadU(d, x + i), vs));
    auto e1 = exp_flush(d, hn::Sub(hn::LoadU(d, x + i + lanes), vs));
    if (out) {
      hn::StoreU(e0, d, out + i);
      hn::StoreU(e1, d, out + i + lanes);
    }
    s0 = hn::Add(s0, e0);
    s1 = hn::Add(s1, e1);
    if constexpr (NEXT) {
      m0 = hn::Max(m0, hn::LoadU(d, next + i));
      m1 = hn::Max(m1, hn::LoadU(d, next + i + lanes));
    }
  }
  T sum = hn::GetLane(hn::SumOfLanes(d, hn::Add(s0, s1)));
  if constexpr (NEXT) {
    T max = hn::GetLane(hn::MaxOfLanes(d, hn::Max(m0, m1)));
    for (int64_t j = i; j < n; ++j) max = next[j] > max ? next[j] : max;
    *next_max = max;
  }
  for (; i < n; i += lanes) {
    int64_t m = std::min(lanes, n - i);
    HWY_ALIGN T tx[hn::MaxLanes(d)], to[hn::MaxLanes(d)];
    std::fill(tx, tx + hn::MaxLanes(d), shift);  // padding lanes become exp(0) = 1, not summed
    std::memcpy(tx, x + i, static_cast<size_t>(m) * sizeof(T));
    hn::Store(exp_flush(d, hn::Sub(hn::Load(d, tx), vs)), d, to);
    for (int64_t j = 0; j < m; ++j) sum += to[j];
    if (out) std::memcpy(out + i, to, static_cast<size_t>(m) * sizeof(T));
  }
  return sum;
}
template <class T>
T exp_shifted_sum_impl(const T* x, T shift, T* out, int64_t n, const T* next, T* next_max) {
  if (next) return exp_shifted_sum_loop<true>(x, shift, out, n, next, next_max);
  return exp_shifted_sum_loop<false>(x, shift, out, n, next, next_max);
}
float ExpShiftedSumF32(const float* x, float shift, float* out, int64_t n, const float* next, float* next_max) {
  return exp_shifted_sum_impl(x, shift, out, n, next, next_max);
}
double ExpShiftedSumF64(const double* x, double shift, double* out, int64_t n, const double* next,
                        double* next_max) {
  return exp_shifted_sum_impl(x, shift, out, n, next, next_max);
}

template <class T>
void scaled_exp_shifted_impl(const T* x, T shift, T scale, const T* w, T w_scale, T* out, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto vs = hn::Set(d, shift), vk = hn::Set(d, scale), vw = hn::Set(d, w_scale);
  auto term = [&](auto xv, auto wv) { return hn::NegMulAdd(vw, wv, hn::Mul(vk, exp_flush(d, hn::Sub(xv, vs)))); };
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(term(hn::LoadU(d, x + i), w ? hn::LoadU(d, w + i) : hn::Zero(d)), d, out + i);
  if (i < n) {
    HWY_ALIGN T tx[hn::MaxLanes(d)] = {}, tw[hn::MaxLanes(d)] = {}, to[hn::MaxLanes(d)];
    std::memcpy(tx, x + i, static_cast<size_t>(n - i) * sizeof(T));
    if (w) std::memcpy(tw, w + i, static_cast<size_t>(n - i) * sizeof(T));
    hn::Store(term(hn::Load(d, tx), hn::Load(d, tw)), d, to);
    std::memcpy(out + i, to, static_cast<size_t>(n - i) * sizeof(T));
  }
}
void ScaledExpShiftedF32(const float* x, float shift, float scale, const float* w, float w_scale, float* out,
                         int64_t n) {
  scaled_exp_shifted_impl(x, shift, scale, w, w_scale, out, n);
}
void ScaledExpShiftedF64(const double* x, double shift, double scale, const double* w, double w_scale, double* out,
                         int64_t n) {
  scaled_exp_shifted_impl(x, shift, scale, w, w_scale, out, n);
}

template <class T>
void exp_shifted_accumulate_impl(const T* x, const T* shift, T* out, T* sum, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    auto e = exp_flush(d, hn::Sub(hn::LoadU(d, x + i), hn::LoadU(d, shift + i)));
    hn::StoreU(e, d, out + i);
    hn::StoreU(hn::Add(hn::LoadU(d, sum + i), e), d, sum + i);
  }
  if (i < n) {
    HWY_ALIGN T tx[hn::MaxLanes(d)] = {}, ts[hn::MaxLanes(d)] = {}, to[hn::MaxLanes(d)];
    std::memcpy(tx, x + i, static_cast<size_t>(n - i) * sizeof(T));
    std::memcpy(ts, shift + i, static_cast<size_t>(n - i) * sizeof(T));
    hn::Store(exp_flush(d, hn::Sub(hn::Load(d, tx), hn::Load(d, ts))), d, to);
    for (int64_t j = 0; j < n - i; ++j) {
      out[i + j] = to[j];
      sum[i + j] += to[j];
    }
  }
}
void ExpShiftedAccumulateF32(const float* x, const float* shift, float* out, float* sum, int64_t n) {
  exp_shifted_accumulate_impl(x, shift, out, sum, n);
}
void ExpShiftedAccumulateF64(const double* x, const double* shift, double* out, double* sum, int64_t n) {
  exp_shifted_accumulate_impl(x, shift, out, sum, n);
}

template <class T>
void softmax_grad_rows_impl(const T* y, const T* dy, T* dx, int64_t rows, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t r = 0; r < rows; ++r) {
    const T *yr = y + r * n, *dyr = dy + r * n;
    T* dxr = dx + r * n;
    auto a0 = hn::Zero(d), a1 = hn::Zero(d);
    int64_t i = 0;
    for (; i + 2 * lanes <= n; i += 2 * lanes) {
      a0 = hn::MulAdd(hn::LoadU(d, dyr + i), hn::LoadU(d, yr + i), a0);
      a1 = hn::MulAdd(hn::LoadU(d, dyr + i + lanes), hn::LoadU(d, yr + i + lanes), a1);
    }
    T s = hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1)));
    for (; i < n; ++i) s += dyr[i] * yr[i];
    const auto vs = hn::Set(d, s);
    for (i = 0; i + lanes <= n; i += lanes)
      hn::StoreU(hn::Mul(hn::Sub(hn::LoadU(d, dyr + i), vs), hn::LoadU(d, yr + i)), d, dxr + i);
    for (; i < n; ++i) dxr[i] = (dyr[i] - s) * yr[i];
  }
}
void SoftmaxGradRowsF32(const float* y, const float* dy, float* dx, int64_t rows, int64_t n) {
  softmax_grad_rows_impl(y, dy, dx, rows, n);
}
void SoftmaxGradRowsF64(const double* y, const double* dy, double* dx, int64_t rows, int64_t n) {
  softmax_grad_rows_impl(y, dy, dx, rows, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(ActivationF32);
HWY_EXPORT(ActivationF64);
HWY_EXPORT(ActivationGradF32);
HWY_EXPORT(ActivationGradF64);
HWY_EXPORT(ExpShiftedSumF32);
HWY_EXPORT(ExpShiftedSumF64);
HWY_EXPORT(ScaledExpShiftedF32);
HWY_EXPORT(ScaledExpShiftedF64);
HWY_EXPORT(ExpShiftedAccumulateF32);
HWY_EXPORT(ExpShiftedAccumulateF64);
HWY_EXPORT(SoftmaxGradRowsF32);
HWY_EXPORT(SoftmaxGradRowsF64);

void simd_activation(Activation act, float alpha, const float* x, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ActivationF32)(act, alpha, x, out, n);
}
void simd_activation(Activation act, double alpha, const double* x, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ActivationF64)(act, alpha, x, out, n);
}
void simd_activation_grad(ActivationGrad act, const float* dy, const float* x, float* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ActivationGradF32)(act, dy, x, out, n);
}
void simd_activation_grad(ActivationGrad act, const double* dy, const double* x, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ActivationGradF64)(act, dy, x, out, n);
}
void simd_scaled_exp_shifted(const float* x, float shift, float scale, const float* w, float w_scale, float* out,
                             int64_t n) {
  HWY_DYNAMIC_DISPATCH(ScaledExpShiftedF32)(x, shift, scale, w, w_scale, out, n);
}
void simd_scaled_exp_shifted(const double* x, double shift, double scale, const double* w, double w_scale,
                             double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ScaledExpShiftedF64)(x, shift, scale, w, w_scale, out, n);
}
float simd_exp_shifted_sum(const float* x, float shift, float* out, int64_t n, const float* next,
                           float* next_max) {
  return HWY_DYNAMIC_DISPATCH(ExpShiftedSumF32)(x, shift, out, n, next, next_max);
}
double simd_exp_shifted_sum(const double* x, double shift, double* out, int64_t n, const double* next,
                            double* next_max) {
  return HWY_DYNAMIC_DISPATCH(ExpShiftedSumF64)(x, shift, out, n, next, next_max);
}
void simd_exp_shifted_accumulate(const float* x, const float* shift, float* out, float* sum, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ExpShiftedAccumulateF32)(x, shift, out, sum, n);
}
void simd_exp_shifted_accumulate(const double* x, const double* shift, double* out, double* sum, int64_t n) {
  HWY_DYNAMIC_DISPATCH(ExpShiftedAccumulateF64)(x, shift, out, sum, n);
}
void simd_softmax_grad_rows(const float* y, const float* dy, float* dx, int64_t rows, int64_t n) {
  HWY_DYNAMIC_DISPATCH(SoftmaxGradRowsF32)(y, dy, dx, rows, n);
}
void simd_softmax_grad_rows(const double* y, const double* dy, double* dx, int64_t rows, int64_t n) {
  HWY_DYNAMIC_DISPATCH(SoftmaxGradRowsF64)(y, dy, dx, rows, n);
}
}  // namespace sprout
#endif
