// CPU kernels of the elementwise random ops (Note [Random ops]). Element i of the output is a function
// of the key and its own stream words only: StandardNormal, UniformReal and Bernoulli use word i,
// UniformInt words 2i and 2i + 1.
#include <cmath>
#include <numbers>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/random_util.h"
#include "kernels/cpu/simd_math.h"
#include "ops/op_def.h"
#include "ops/random.h"

namespace sprout {
namespace {

// Box-Muller on the pair of words (2k, 2k + 1): element 2k takes the cosine branch, 2k + 1 the sine,
// so every word pair yields two independent normals. r = sqrt(-2 log(1 - v)) with v the 24-bit uniform
// in [0, 1): log1p(-v) is exact for these v and finite. The logs, sines and cosines of a run go through
// the SIMD math (in float, the output's precision), four times faster than libm one at a time.
void standard_normal_kernel(const RandomShapeAttrs& a, std::span<const Tensor>, std::span<Tensor> out) {
  float* po = out[0].data<float>();
  const int64_t n = out[0].numel();
  for_each_word(n + (n & 1), random_key(a.seed, a.seed2, a.seed == 0 && a.seed2 == 0),
                [&](int64_t first, const uint32_t* w, int64_t m) {
                  constexpr int kPairs = 32;  // for_each_word's runs hold at most 64 words
                  float r[kPairs], angle[kPairs], c[kPairs], s[kPairs];
                  const int64_t pairs = m / 2;
                  for (int64_t k = 0; k < pairs; ++k) {
                    r[k] = -uniform_from_bits(w[2 * k]);
                    angle[k] = 2 * std::numbers::pi_v<float> * uniform_from_bits(w[2 * k + 1]);
                  }
                  simd_math(MathOp::Log1p, r, r, pairs);
                  simd_math(MathOp::Cos, angle, c, pairs);
                  simd_math(MathOp::Sin, angle, s, pairs);
                  for (int64_t k = 0; k < pairs; ++k) {
                    const float radius = std::sqrt(-2 * r[k]);
                    po[first + 2 * k] = radius * c[k];
                    if (first + 2 * k + 1 < n) po[first + 2 * k + 1] = radius * s[k];
                  }
                });
}

void uniform_real_kernel(const RandomShapeAttrs& a, std::span<const Tensor>, std::span<Tensor> out) {
  float* po = out[0].data<float>();
  for_each_word(out[0].numel(), random_key(a.seed, a.seed2, a.seed == 0 && a.seed2 == 0),
                [&](int64_t first, const uint32_t* w, int64_t m) {
                  for (int64_t t = 0; t < m; ++t) po[first + t] = uniform_from_bits(w[t]);
                });
}

int64_t scalar_value(const Tensor& t) {
  return t.dtype() == DType::Int64 ? *t.data<int64_t>() : static_cast<int64_t>(*t.data<int32_t>());
}

// minval and maxval are data (Note [Random ops]): checked here, before drawing.
void uniform_int_kernel(const UniformIntAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t minval = scalar_value(in[0]), maxval = scalar_value(in[1]);
  SPROUT_CHECK(minval < maxval, ValueError, "UniformInt: 'minval' must be less than 'maxval', but got minval=", minval,
               " and maxval=", maxval);
  SPROUT_CHECK(minval >= INT32_MIN && maxval - 1 <= INT32_MAX, ValueError,
               "UniformInt: 'minval' and 'maxval' must bound Int32 values, but got minval=", minval, " and maxval=",
               maxval);
  int32_t* po = out[0].data<int32_t>();
  const uint64_t range = static_cast<uint64_t>(maxval - minval);
  for_each_word(2 * out[0].numel(), random_key(a.seed, a.seed2, a.seed == 0 && a.seed2 == 0),
                [&](int64_t first, const uint32_t* w, int64_t m) {
                  for (int64_t t = 0; t < m; t += 2)
                    po[(first + t) / 2] = static_cast<int32_t>(minval + static_cast<int64_t>(below(w[t], w[t + 1], range)));
                });
}

// y[i] = (uniform_i < p[i]) in x's dtype; p must lie in [0, 1] (checked first: it is data).
void bernoulli_kernel(const BernoulliAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& y = out[0];
  const Tensor p = contiguous_as(in[1].expand(y.shape()), DType::Float64);
  const double* pp = p.data<double>();
  const int64_t n = y.numel();
  for (int64_t i = 0; i < n; ++i)
    SPROUT_CHECK(pp[i] >= 0 && pp[i] <= 1, ValueError, "Bernoulli: 'p' must hold probabilities in [0, 1], but element ",
                 i, " is ", pp[i]);
  const auto key = random_key(a.seed, a.offset, a.seed == -1);
  visit_dtype(y.dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* py = y.template data<T>();
    for_each_word(n, key, [&](int64_t first, const uint32_t* w, int64_t m) {
      // All 32 bits of the word (not the 24-bit float uniform): p is resolved to 2^-32.
      for (int64_t t = 0; t < m; ++t)
        py[first + t] = static_cast<T>(static_cast<double>(w[t]) * (1.0 / 4294967296.0) < pp[first + t] ? 1 : 0);
    });
  });
}

}  // namespace

SPROUT_REGISTER(cpu_random) {
  register_kernel<RandomShapeAttrs>("StandardNormal", Device::CPU, standard_normal_kernel);
  register_kernel<RandomShapeAttrs>("UniformReal", Device::CPU, uniform_real_kernel);
  register_kernel<UniformIntAttrs>("UniformInt", Device::CPU, uniform_int_kernel);
  register_kernel<BernoulliAttrs>("Bernoulli", Device::CPU, bernoulli_kernel);
}

}  // namespace sprout
