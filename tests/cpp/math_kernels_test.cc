// The vector math of simd_math.h against libm, over sweeps that cross every piece boundary, every
// tail length and the in-place case; the broad NumPy comparison lives in the Python tests.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/simd_math.h"

namespace sprout {
namespace {

struct Case {
  MathOp op;
  const char* name;
  double low, high;
  double max_ulp;  // against libm, float32 and float64 alike
};

const Case kCases[] = {
    {MathOp::Expm1, "expm1", -120, 100, 6},   {MathOp::Log1p, "log1p", -0.999, 1e6, 4},
    {MathOp::Sin, "sin", -50000, 50000, 4},   {MathOp::Cos, "cos", -50000, 50000, 4},
    {MathOp::Tan, "tan", -1.5, 1.5, 8},       {MathOp::Asin, "asin", -1.2, 1.2, 3},
    {MathOp::Acos, "acos", -1.2, 1.2, 3},     {MathOp::Atan, "atan", -1e6, 1e6, 4},
    {MathOp::Sinh, "sinh", -100, 100, 6},     {MathOp::Cosh, "cosh", -100, 100, 6},
    {MathOp::Tanh, "tanh", -30, 30, 6},       {MathOp::Erf, "erf", -12, 12, 3},
    {MathOp::Erfc, "erfc", -6, 30, 7},        {MathOp::Rsqrt, "rsqrt", 1e-6, 1e6, 2},
    {MathOp::Round, "round", -10.5, 10.5, 0},
};

// Distance in units of the last place of the expected value (0 when both are NaN or equal).
template <class T>
double ulp_error(T got, T want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e9;
  if (got == want) return 0;
  if (std::isinf(want) || std::isinf(got)) return 1e9;
  T ulp = std::nextafter(std::fabs(want), std::numeric_limits<T>::infinity()) - std::fabs(want);
  if (std::fabs(want) < std::numeric_limits<T>::min()) ulp = std::numeric_limits<T>::denorm_min();
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) / static_cast<double>(ulp);
}

template <class T>
void check_case(const Case& c) {
  const int n = 20011;  // odd: every vector width leaves a tail
  std::vector<T> x(n), out(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<T>(c.low + (c.high - c.low) * i / (n - 1));
  x[0] = std::numeric_limits<T>::infinity();
  x[1] = -std::numeric_limits<T>::infinity();
  x[2] = std::numeric_limits<T>::quiet_NaN();
  x[3] = T(0);
  x[4] = -T(0);
  simd_math(c.op, x.data(), out.data(), n);
  double worst = 0;
  int worst_at = 0;
  for (int i = 0; i < n; ++i) {
    double e = ulp_error(out[i], math_scalar(c.op, x[i]));
    if (e > worst) worst = e, worst_at = i;
  }
  EXPECT_LE(worst, c.max_ulp) << c.name << (sizeof(T) == 4 ? " float" : " double") << " at x=" << x[worst_at]
                              << ": got " << out[worst_at] << ", libm " << math_scalar(c.op, x[worst_at]);
  std::vector<T> in_place(x);
  simd_math(c.op, in_place.data(), in_place.data(), n);
  for (int i = 0; i < n; ++i)
    ASSERT_TRUE(in_place[i] == out[i] || (std::isnan(in_place[i]) && std::isnan(out[i]))) << c.name << " in place";
}

TEST(SimdMath, MatchesLibmWithinAFewUlp) {
  for (const Case& c : kCases) {
    check_case<float>(c);
    check_case<double>(c);
  }
}

TEST(SimdMath, Atan2QuadrantsAxesAndBroadcast) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> y = {0.0, -0.0, 0.0, -0.0, 1.0, -1.0, inf, -inf, 3.0, -2.0, 0.5, 1e-300, 7.0};
  std::vector<double> x = {1.0, 1.0, -1.0, -1.0, 0.0, -0.0, inf, -inf, -4.0, -5.0, 2.0, -1e300, 1e-5};
  std::vector<double> out(y.size());
  simd_atan2(y.data(), 1, x.data(), 1, out.data(), static_cast<int64_t>(y.size()));
  for (size_t i = 0; i < y.size(); ++i) {
    EXPECT_LE(ulp_error(out[i], std::atan2(y[i], x[i])), 2) << "atan2(" << y[i] << ", " << x[i] << ")";
    EXPECT_EQ(std::signbit(out[i]), std::signbit(std::atan2(y[i], x[i])));
  }
  float one = 1.0f;
  std::vector<float> xs = {1.0f, -1.0f, 0.0f, 2.0f, -3.0f}, outs(xs.size());
  simd_atan2(&one, 0, xs.data(), 1, outs.data(), static_cast<int64_t>(xs.size()));
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_LE(ulp_error(outs[i], std::atan2(1.0f, xs[i])), 2);
}

}  // namespace
}  // namespace sprout
