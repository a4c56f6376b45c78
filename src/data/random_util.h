// Draws used by random transforms, on top of Rng (Note [Seeds in the pipeline]).
#pragma once

#include <cmath>

#include "data/rng.h"

namespace sprout::data {

inline double uniform(Rng& rng, double low, double high) { return low + (high - low) * rng.uniform_real(); }

// Uniform integer in [low, high] (inclusive).
inline int64_t uniform_int(Rng& rng, int64_t low, int64_t high) {
  return low + static_cast<int64_t>(rng.uniform(static_cast<uint64_t>(high - low + 1)));
}

inline double normal(Rng& rng) {
  const double u1 = 1.0 - rng.uniform_real(), u2 = rng.uniform_real();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// Gamma(shape, 1) by Marsaglia and Tsang; shape < 1 through the boost u^(1/shape).
inline double gamma(Rng& rng, double shape) {
  if (shape < 1.0) return gamma(rng, shape + 1.0) * std::pow(1.0 - rng.uniform_real(), 1.0 / shape);
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = normal(rng);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1.0 - rng.uniform_real();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

inline double beta(Rng& rng, double a, double b) {
  const double x = gamma(rng, a), y = gamma(rng, b);
  return x / (x + y);
}

}  // namespace sprout::data
