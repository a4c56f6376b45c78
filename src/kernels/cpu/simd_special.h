// Vectorized special functions in double precision (Highway, dispatched at run time like simd.h): the
// gamma family and the inverse error function. Float inputs are converted to double by the caller, which
// makes float32 results correctly rounded nearly everywhere at half the lanes' speed.
//
// Note [Special functions by series]
// Each function is one formula on the whole vector, its branches selects over lanes, and each branch is
// evaluated only when some lane needs it:
// - lgamma: Lanczos' sum (g = 7, 9 terms, relative error below 1e-15 for z >= 1/2) as one fraction, so a
//   single division; reflection log(pi / |sin(pi x)|) - lgamma(1 - x) below 1/2.
// - digamma: psi(z) = psi(z + 10) - sum 1/(z + i), the sum as P'(z) / P(z) with P = prod (z + i), and the
//   asymptotic series of psi at z + 10 >= 10.5; reflection psi(1 - x) - pi cot(pi x) below 1/2.
// - polygamma(n >= 1): (-1)^(n+1) n! zeta(n + 1, z), the Hurwitz zeta by ten terms and Euler-Maclaurin;
//   reflection (-1)^n psi^(n)(1 - x) - pi^(n+1) P_n(cot(pi x)) below 1/2.
// - erfinv: M. Giles' single-precision approximation ("Approximating the erfinv function", GPU Computing
//   Gems, 2011), then two Halley steps on erf(x) - y (its residual taken through erfc near +-1, where
//   1 - |y| is exact): float64 accuracy.
// Edges are set by masks, as PyTorch and MindSpore give them: lgamma is +inf at the poles and +-inf;
// digamma -inf at 0, NaN at the negative integers and -inf; polygamma (-1)^(n+1) inf at the poles and 0
// at +inf; erfinv +-inf at +-1 and NaN outside [-1, 1].
// They replace compositions of float64 tensor ops, a pass over memory per step of the formula: 1M float32,
// two threads, Zen 4: lgamma 26.8 -> 3.7 ms (PyTorch 3.4), digamma 32 -> 2.9 (13.3), erfinv 76 -> 6.0 (1.0,
// PyTorch's float32 formula without the Newton step, a few ulp).
#pragma once

#include <cstdint>
#include <vector>

namespace sprout {

enum class SpecialOp : uint8_t { Lgamma, Digamma, Erfinv };

// out[i] = op(x[i]); out may alias x.
void simd_special(SpecialOp op, const double* x, double* out, int64_t n);

// What one order n >= 1 of polygamma needs besides x: made once per kernel call (P_n takes O(n^2) to build).
struct PolygammaPlan {
  int64_t order = 1;
  double scale = 1;                // (-1)^(n+1) n!
  std::vector<double> zeta_tail;   // B_2k / (2k)! (s)(s+1)...(s+2k-2), k = 1 .. 9, for s = n + 1
  std::vector<double> cot_poly;    // P_n, lowest power first: d^n/dx^n cot(pi x) = pi^n P_n(cot(pi x))
  double cot_scale = 1;            // pi^(n+1)
  explicit PolygammaPlan(int64_t n);
};

// out[i] = the plan's order of derivative of digamma at x[i]; out may alias x.
void simd_polygamma(const PolygammaPlan& plan, const double* x, double* out, int64_t n);

}  // namespace sprout
