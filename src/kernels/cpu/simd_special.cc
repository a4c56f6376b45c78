// Highway implementation of simd_special.h (Note [Highway dynamic dispatch] in simd.cc;
// Note [Special functions by series] in simd_special.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_special.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <vector>

#include "kernels/cpu/simd_erf-inl.h"
#include "kernels/cpu/simd_exp-inl.h"
#include "kernels/cpu/simd_special.h"

#ifndef SPROUT_KERNELS_CPU_SIMD_SPECIAL_CONSTANTS
#define SPROUT_KERNELS_CPU_SIMD_SPECIAL_CONSTANTS  // once, though foreach_target.h re-includes this file
namespace sprout::special_constants {

// Lanczos' coefficients for g = 7 and 9 terms.
inline constexpr double kLanczosG = 7.0;
inline constexpr double kLanczos[9] = {
    0.99999999999980993,  676.5203681218851,     -1259.1392167224028,  771.32342877765313, -176.61502916214059,
    12.507343278686905,   -0.13857109526572012,  9.9843695780195716e-6, 1.5056327351493116e-7};

// B_2k / (2k) for k = 1 .. 9: psi(y) ~ log y - 1/(2y) - sum of them times y^-2k.
inline constexpr double kDigammaAsymptotic[9] = {
    1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132, -691.0 / 32760, 1.0 / 12, -3617.0 / 8160,
    43867.0 / 14364};

// The Bernoulli numbers B_2 .. B_18, for the Euler-Maclaurin tail of the Hurwitz zeta function.
inline constexpr double kBernoulli[9] = {1.0 / 6,       -1.0 / 30, 1.0 / 42,       -1.0 / 30,   5.0 / 66,
                                         -691.0 / 2730, 7.0 / 6,   -3617.0 / 510, 43867.0 / 798};

// Giles' single-precision erfinv: a polynomial in w - 2.5 for w = -log(1 - y^2) < 5, in sqrt(w) - 3 above.
inline constexpr double kGilesCentral[9] = {1.50140941,      0.246640727,   -0.00417768164,
                                            -0.00125372503,  0.00021858087, -4.39150654e-06,
                                            -3.5233877e-06,  3.43273939e-07, 2.81022636e-08};
inline constexpr double kGilesTail[9] = {2.83297682,     1.00167406,     0.00943887047,
                                         -0.0076224613,  0.00573950773,  -0.00367342844,
                                         0.00134934322,  0.000100950558, -0.000200214257};

}  // namespace sprout::special_constants
#endif

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using M = hn::Mask<D>;

constexpr double kPi = std::numbers::pi;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kShift = 10;  // digamma and polygamma move z >= 1/2 to z + 10, where their tails converge fast

// p[0] + p[1] t + ... by Horner's rule, for a coefficient list known only at run time.
HWY_INLINE V horner_list(D d, const std::vector<double>& p, V t) {
  V acc = hn::Set(d, p.back());
  for (size_t k = p.size() - 1; k-- > 0;) acc = hn::MulAdd(acc, t, hn::Set(d, p[k]));
  return acc;
}

// x - round(x), in [-1/2, 1/2]: sin(pi x) and cot(pi x) taken of it are exact at the integers and keep
// their accuracy for large |x|, where pi * x would round.
HWY_INLINE V reduced_turn(V x) { return hn::Sub(x, hn::Round(x)); }

// The nonpositive integers (and -inf): the poles of the gamma family.
HWY_INLINE M poles(D d, V x) { return hn::And(hn::Le(x, hn::Zero(d)), hn::Eq(x, hn::Round(x))); }

// log Gamma(z) for z >= 1/2 by Lanczos' formula, in two parts: lgamma_vec keeps them apart so that the
// reflection takes one logarithm, of |sin(pi x)| * series. The sum c0 + sum c_i / (z - 1 + i) is one fraction
// N / D (N <- N a + c D, D <- D a). Beyond 1e15 the sum is c0 + O(1/z), well below an ulp of the result, so z
// is clamped there for the fraction, whose degree-8 denominator then stays finite.
struct LanczosParts {
  V head;    // 0.5 log(2 pi) + (z - 1/2) log(t) - t, t = z + g - 1/2
  V series;  // c0 + sum c_i / (z - 1 + i); log Gamma(z) = head + log(series)
};

HWY_INLINE LanczosParts lanczos_parts(D d, V z) {
  namespace sc = special_constants;
  const V zm1 = hn::Sub(z, hn::Set(d, 1.0));
  const V clamped = hn::Min(zm1, hn::Set(d, 1e15));
  V num = hn::Set(d, sc::kLanczos[0]), den = hn::Set(d, 1.0);
  for (int i = 1; i < 9; ++i) {
    const V a = hn::Add(clamped, hn::Set(d, double(i)));
    num = hn::MulAdd(num, a, hn::Mul(hn::Set(d, sc::kLanczos[i]), den));
    den = hn::Mul(den, a);
  }
  const V t = hn::Add(zm1, hn::Set(d, sc::kLanczosG + 0.5));
  const V log_root_two_pi_minus_t = hn::Sub(hn::Set(d, 0.5 * std::log(2 * kPi)), t);
  const V head = hn::MulAdd(hn::Add(zm1, hn::Set(d, 0.5)), hn::Log(d, t), log_root_two_pi_minus_t);
  return {head, hn::Div(num, den)};
}

HWY_INLINE V lgamma_vec(D d, V x) {
  const M left = hn::Lt(x, hn::Set(d, 0.5));
  const V z = hn::IfThenElse(left, hn::Sub(hn::Set(d, 1.0), x), x);
  const auto [head, series] = lanczos_parts(d, z);
  V out;
  if (hn::AllFalse(d, left)) {
    out = hn::Add(head, hn::Log(d, series));
  } else {  // log|Gamma(x)| = log(pi / |sin(pi x)|) - log Gamma(1 - x) = log(pi) - head - log(|sin| series)
    const V sine = hn::Abs(hn::Sin(d, hn::Mul(reduced_turn(x), hn::Set(d, kPi))));
    const V log_term = hn::Log(d, hn::IfThenElse(left, hn::Mul(sine, series), series));
    const V reflected = hn::Sub(hn::Sub(hn::Set(d, std::log(kPi)), head), log_term);
    out = hn::IfThenElse(left, reflected, hn::Add(head, log_term));
  }
  out = hn::IfThenElse(hn::Or(poles(d, x), hn::Eq(x, hn::Set(d, kInf))), hn::Set(d, kInf), out);
  return hn::IfThenElse(hn::IsNaN(x), x, out);
}

// psi(z) for z >= 1/2: below 10, psi(z + 10) - P'(z) / P(z) with P(z) = prod over i < 10 of (z + i).
HWY_INLINE V digamma_right(D d, V z) {
  const V ten = hn::Set(d, double(kShift));
  const M shifted = hn::Lt(z, ten);
  const V y = hn::IfThenElse(shifted, hn::Add(z, ten), z);
  const V inv = hn::Div(hn::Set(d, 1.0), y), inv2 = hn::Mul(inv, inv);
  const V tail = horner(d, special_constants::kDigammaAsymptotic, inv2);
  V out = hn::Sub(hn::NegMulAdd(hn::Set(d, 0.5), inv, hn::Log(d, y)), hn::Mul(tail, inv2));
  if (!hn::AllFalse(d, shifted)) {
    const V zs = hn::Min(z, ten);  // the other lanes are not read: keep P finite there
    V p = hn::Set(d, 1.0), dp = hn::Zero(d);
    for (int i = 0; i < kShift; ++i) {
      const V a = hn::Add(zs, hn::Set(d, double(i)));
      dp = hn::MulAdd(dp, a, p);
      p = hn::Mul(p, a);
    }
    out = hn::IfThenElse(shifted, hn::Sub(out, hn::Div(dp, p)), out);
  }
  return out;
}

HWY_INLINE V digamma_vec(D d, V x) {
  const M left = hn::Lt(x, hn::Set(d, 0.5));
  V out = digamma_right(d, hn::IfThenElse(left, hn::Sub(hn::Set(d, 1.0), x), x));
  if (!hn::AllFalse(d, left)) {  // psi(x) = psi(1 - x) - pi cot(pi x)
    const V angle = hn::Mul(reduced_turn(x), hn::Set(d, kPi));
    const V cot = hn::Div(hn::Cos(d, angle), hn::Sin(d, angle));
    out = hn::IfThenElse(left, hn::NegMulAdd(hn::Set(d, kPi), cot, out), out);
  }
  const V at_pole = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Set(d, -kInf), hn::Set(d, kNaN));
  out = hn::IfThenElse(poles(d, x), at_pole, out);
  out = hn::IfThenElse(hn::Eq(x, hn::Set(d, kInf)), x, out);
  return hn::IfThenElse(hn::IsNaN(x), x, out);
}

// r^s for an integer s >= 1, by squaring.
HWY_INLINE V power(V r, int64_t s) {
  V out = r;
  bool started = false;
  for (int bit = 62; bit >= 0; --bit) {
    if (started) out = hn::Mul(out, out);
    if ((s >> bit) & 1) {
      out = started ? hn::Mul(out, r) : r;
      started = true;
    }
  }
  return out;
}

// (-1)^(n+1) n! zeta(n + 1, z) for z >= 1/2: ten terms, then Euler-Maclaurin at y = z + 10:
// y^(1-s)/(s-1) + y^-s/2 + sum over k of B_2k/(2k)! (s)_(2k-1) y^-(s+2k-1).
HWY_INLINE V polygamma_right(D d, V z, const PolygammaPlan& plan) {
  const int64_t s = plan.order + 1;
  V sum = hn::Zero(d);
  for (int i = 0; i < kShift; ++i)
    sum = hn::Add(sum, power(hn::Div(hn::Set(d, 1.0), hn::Add(z, hn::Set(d, double(i)))), s));
  const V y = hn::Add(z, hn::Set(d, double(kShift)));
  const V inv = hn::Div(hn::Set(d, 1.0), y), inv2 = hn::Mul(inv, inv);
  const V y_s = power(inv, s), y_s1 = hn::Mul(y_s, y);
  const V tail = hn::Mul(hn::Mul(y_s1, inv2), horner_list(d, plan.zeta_tail, inv2));
  sum = hn::Add(sum, hn::MulAdd(y_s1, hn::Set(d, 1.0 / double(s - 1)), hn::MulAdd(y_s, hn::Set(d, 0.5), tail)));
  return hn::Mul(sum, hn::Set(d, plan.scale));
}

HWY_INLINE V polygamma_vec(D d, V x, const PolygammaPlan& plan) {
  const M left = hn::Lt(x, hn::Set(d, 0.5));
  V out = polygamma_right(d, hn::IfThenElse(left, hn::Sub(hn::Set(d, 1.0), x), x), plan);
  if (!hn::AllFalse(d, left)) {  // psi^(n)(x) = (-1)^n psi^(n)(1 - x) - pi^(n+1) P_n(cot(pi x))
    const V angle = hn::Mul(reduced_turn(x), hn::Set(d, kPi));
    const V cot = hn::Div(hn::Cos(d, angle), hn::Sin(d, angle));
    const V mirrored = plan.order % 2 == 1 ? hn::Neg(out) : out;
    const V reflected = hn::NegMulAdd(hn::Set(d, plan.cot_scale), horner_list(d, plan.cot_poly, cot), mirrored);
    out = hn::IfThenElse(left, reflected, out);
  }
  out = hn::IfThenElse(poles(d, x), hn::Set(d, plan.order % 2 == 1 ? kInf : -kInf), out);
  out = hn::IfThenElse(hn::Eq(x, hn::Set(d, kInf)), hn::Zero(d), out);
  return hn::IfThenElse(hn::Or(hn::IsNaN(x), hn::Eq(x, hn::Set(d, -kInf))), hn::Set(d, kNaN), out);
}

HWY_INLINE V erfinv_vec(D d, V y) {
  namespace sc = special_constants;
  const V one = hn::Set(d, 1.0), ay = hn::Abs(y);
  const M inside = hn::Lt(ay, one);
  const V v = hn::IfThenElseZero(inside, y), av = hn::Abs(v);
  const V w = hn::Neg(hn::Log(d, hn::Mul(hn::Sub(one, av), hn::Add(one, av))));
  const M central = hn::Lt(w, hn::Set(d, 5.0)), tail = hn::Lt(w, hn::Set(d, 16.0));
  V x = hn::Mul(horner(d, sc::kGilesCentral, hn::Sub(w, hn::Set(d, 2.5))), v);
  if (!hn::AllTrue(d, central)) {
    const V root = hn::Sqrt(hn::Max(w, hn::Set(d, 5.0)));
    x = hn::IfThenElse(central, x, hn::Mul(horner(d, sc::kGilesTail, hn::Sub(root, hn::Set(d, 3.0))), v));
    if (!hn::AllTrue(d, tail)) {
      // Past w = 16 (|y| > 1 - 6e-8, beyond float32 and Giles' fit) erfc(x) ~ exp(-x^2) / (x sqrt(pi)) gives
      // x^2 ~ t - log(pi t) / 2 with t = -log(1 - |y|): within 1e-3, which the Halley steps make exact.
      const V t = hn::Add(hn::Max(w, hn::Set(d, 16.0)), hn::Set(d, std::log(2.0)));
      const V far = hn::Sqrt(hn::NegMulAdd(hn::Set(d, 0.5), hn::Log(d, hn::Mul(t, hn::Set(d, kPi))), t));
      x = hn::IfThenElse(tail, x, hn::CopySign(far, v));
    }
  }
  // Halley steps: e -> C e^3, so one takes Giles' 4e-7 to double precision; the far guess (1e-3) takes two.
  const M near_one = hn::Gt(av, hn::Set(d, 0.5));
  const int steps = hn::AllTrue(d, tail) ? 1 : 2;
  for (int step = 0; step < steps; ++step) {
    // The residual erf(x) - y; near +-1 as +-((1 - |y|) - erfc(|x|)), whose small terms keep their digits.
    // exp(-x^2) once, for erfc's tail and erf' alike. Its rounding of x^2 (a relative error of x^2 ulp,
    // which erf_vec's exp_neg_square avoids) moves x by that over 2x: below an ulp of x.
    const V gauss = exp_vec(d, hn::Neg(hn::Mul(x, x)));
    const auto [small_erf, erfc_tail] = erf_pieces(d, x, &gauss);
    const M small = hn::Lt(hn::Abs(x), one);
    const V erf = hn::IfThenElse(small, small_erf, hn::CopySign(hn::Sub(one, erfc_tail), x));
    const V erfc_abs = hn::IfThenElse(small, hn::Sub(one, hn::Abs(small_erf)), erfc_tail);
    const V far_residual = hn::Mul(hn::Sub(hn::Sub(one, av), erfc_abs), hn::CopySign(one, v));
    const V residual = hn::IfThenElse(near_one, far_residual, hn::Sub(erf, v));
    const V u = hn::Div(hn::Mul(residual, hn::Set(d, std::sqrt(kPi) / 2)), gauss);  // residual / erf'(x)
    x = hn::Sub(x, hn::Div(u, hn::MulAdd(x, u, one)));  // Halley's step: erf'' / erf' = -2x
  }
  const V edge = hn::IfThenElse(hn::Eq(ay, one), hn::CopySign(hn::Set(d, kInf), y), hn::Set(d, kNaN));
  return hn::IfThenElse(inside, x, edge);
}

// Runs fn over x in whole vectors, the tail padded with 1/2 (inside every function's domain).
template <class Fn>
HWY_INLINE void special_loop(const double* x, double* out, int64_t n, Fn&& fn) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(fn(d, hn::LoadU(d, x + i)), d, out + i);
  if (i < n) {
    HWY_ALIGN double padded[hn::MaxLanes(d)];
    std::fill(padded, padded + lanes, 0.5);
    std::memcpy(padded, x + i, static_cast<size_t>(n - i) * sizeof(double));
    hn::Store(fn(d, hn::Load(d, padded)), d, padded);
    std::memcpy(out + i, padded, static_cast<size_t>(n - i) * sizeof(double));
  }
}

void Special(SpecialOp op, const double* x, double* out, int64_t n) {
  switch (op) {
    case SpecialOp::Lgamma: return special_loop(x, out, n, [](D d, V v) { return lgamma_vec(d, v); });
    case SpecialOp::Digamma: return special_loop(x, out, n, [](D d, V v) { return digamma_vec(d, v); });
    case SpecialOp::Erfinv: return special_loop(x, out, n, [](D d, V v) { return erfinv_vec(d, v); });
  }
}

void Polygamma(const PolygammaPlan& plan, const double* x, double* out, int64_t n) {
  special_loop(x, out, n, [&plan](D d, V v) { return polygamma_vec(d, v, plan); });
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(Special);
HWY_EXPORT(Polygamma);

void simd_special(SpecialOp op, const double* x, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(Special)(op, x, out, n);
}
void simd_polygamma(const PolygammaPlan& plan, const double* x, double* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(Polygamma)(plan, x, out, n);
}

PolygammaPlan::PolygammaPlan(int64_t n) : order(n) {
  const double s = double(n + 1);
  scale = std::tgamma(double(n) + 1) * (n % 2 == 1 ? 1.0 : -1.0);
  double rising = s, factorial = 1;
  for (int k = 1; k <= 9; ++k) {
    factorial *= (2.0 * k - 1) * (2.0 * k);
    zeta_tail.push_back(special_constants::kBernoulli[k - 1] / factorial * rising);
    rising *= (s + 2 * k - 1) * (s + 2 * k);
  }
  cot_poly = {0.0, 1.0};  // P_0(c) = c; P_(k+1)(c) = -(1 + c^2) P_k'(c)
  for (int64_t k = 0; k < n; ++k) {
    std::vector<double> next(cot_poly.size() + 1, 0.0);
    for (size_t j = 1; j < cot_poly.size(); ++j) {
      const double derivative = double(j) * cot_poly[j];  // the coefficient of c^(j-1) in P_k'
      next[j - 1] -= derivative;
      next[j + 1] -= derivative;
    }
    cot_poly = std::move(next);
  }
  cot_scale = std::pow(std::numbers::pi, double(n + 1));
}
}  // namespace sprout
#endif
