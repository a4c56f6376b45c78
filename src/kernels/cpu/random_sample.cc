// CPU kernels of the sampling ops (Note [Random ops]): Multinomial and RandomCategorical draw indices
// by inverting each row's cumulative weights, sample s of the output using stream words 2s and 2s + 1
// (a 53-bit uniform); Randperm and RandomShuffle use a Fisher-Yates shuffle whose step i takes the
// words of Philox block i.
#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/random_util.h"
#include "ops/op_def.h"
#include "ops/random.h"

namespace sprout {
namespace {

// Draws samples from the rows of `weights` (rows x k, non-negative, each row with a positive sum)
// into out (rows x samples). upper_bound on the running sums never lands on a zero-weight category.
void sample_rows(const char* op, const std::vector<double>& weights, int64_t rows, int64_t k, int64_t samples,
                 std::array<uint32_t, 2> key, const Tensor& out) {
  std::vector<double> cdf(weights.size());
  for (int64_t r = 0; r < rows; ++r) {
    double total = 0;
    for (int64_t c = 0; c < k; ++c) {
      const double w = weights[r * k + c];
      SPROUT_CHECK(w >= 0 && std::isfinite(w), ValueError, op, ": row ", r, " has weight ", w, " at category ", c,
                   "; weights must be finite and non-negative");
      cdf[r * k + c] = total += w;
    }
    SPROUT_CHECK(total > 0, ValueError, op, ": row ", r, " has no positive weight");
  }
  visit_dtype(out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      T* po = out.template data<T>();
      for_each_word(2 * rows * samples, key, [&](int64_t first, const uint32_t* w, int64_t m) {
        for (int64_t t = 0; t < m; t += 2) {
          const int64_t s = (first + t) / 2, r = s / samples;
          const double* row = cdf.data() + r * k;
          const double target = uniform53(w[t], w[t + 1]) * row[k - 1];
          const int64_t c = std::upper_bound(row, row + k, target) - row;
          po[s] = static_cast<T>(std::min(c, k - 1));  // rounding can put target at the total
        }
      });
    } else {
      SPROUT_ASSERT(false, op, " kernel on ", name(out.dtype()));
    }
  });
}

std::vector<double> as_doubles(const Tensor& x) {
  const Tensor d = contiguous_as(x, DType::Float64);
  return std::vector<double>(d.data<double>(), d.data<double>() + d.numel());
}

void multinomial_kernel(const MultinomialAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& x = in[0];
  const int64_t k = x.shape().back(), rows = x.numel() / k;
  sample_rows("Multinomial", as_doubles(x), rows, k, a.num_samples,
              random_key(a.seed, a.seed2, a.seed == 0 && a.seed2 == 0), out[0]);
}

// softmax(logits) weights each row: exp(logit - row max), which sample_rows normalizes.
void random_categorical_kernel(const RandomCategoricalAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& x = in[0];
  const int64_t k = x.shape().back(), rows = x.numel() / k;
  std::vector<double> w = as_doubles(x);
  for (int64_t r = 0; r < rows; ++r) {
    double top = -INFINITY;
    for (int64_t c = 0; c < k; ++c) top = std::max(top, w[r * k + c]);
    SPROUT_CHECK(std::isfinite(top), ValueError, "RandomCategorical: row ", r, " of 'logits' has no finite maximum (",
                 top, ")");
    for (int64_t c = 0; c < k; ++c) w[r * k + c] = std::exp(w[r * k + c] - top);
  }
  sample_rows("RandomCategorical", w, rows, k, a.num_sample, random_key(a.seed, 0, a.seed == 0), out[0]);
}

// A uniformly random permutation of 0 .. n - 1: Fisher-Yates, step i swapping i with a uniform j in
// [0, i] from the first two words of Philox block i. Serial: each step depends on the previous ones.
std::vector<int64_t> permutation(int64_t n, std::array<uint32_t, 2> key) {
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  for (int64_t i = n - 1; i > 0; --i) {
    const auto w = philox4x32({static_cast<uint32_t>(i), static_cast<uint32_t>(static_cast<uint64_t>(i) >> 32), 0, 0}, key);
    std::swap(perm[i], perm[static_cast<int64_t>(below(w[0], w[1], static_cast<uint64_t>(i) + 1))]);
  }
  return perm;
}

void randperm_kernel(const RandpermAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t n = in[0].element_as_int(0);
  SPROUT_CHECK(n >= 0 && n <= a.max_length, ValueError, "Randperm: 'n' must be in [0, max_length = ", a.max_length,
               "], but got ", n);
  const std::vector<int64_t> perm = permutation(n, random_key(a.seed, a.seed2, a.seed == 0 && a.seed2 == 0));
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      SPROUT_CHECK(n == 0 || static_cast<int64_t>(static_cast<T>(n - 1)) == n - 1, ValueError, "Randperm: 'n' = ", n,
                   " does not fit in 'dtype' ", name(out[0].dtype()));
      T* po = out[0].template data<T>();
      for (int64_t i = 0; i < a.max_length; ++i) po[i] = static_cast<T>(i < n ? perm[i] : a.pad);
    } else {
      SPROUT_ASSERT(false, "Randperm kernel on ", name(out[0].dtype()));
    }
  });
}

void random_shuffle_kernel(const RandomShuffleAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  if (x.shape().empty()) return out[0].copy_from(x);
  const int64_t rows = x.shape()[0];
  const std::vector<int64_t> perm = permutation(rows, random_key(a.seed, a.seed2, a.seed == 0 && a.seed2 == 0));
  const size_t row_bytes = rows == 0 ? 0 : x.nbytes() / static_cast<size_t>(rows);
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out[0].raw_data());
  parallel_for(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, static_cast<int64_t>(row_bytes))),
               [&](int64_t b, int64_t e) {
                 for (int64_t r = b; r < e; ++r) std::memcpy(dst + r * row_bytes, src + perm[r] * row_bytes, row_bytes);
               });
}

}  // namespace

SPROUT_REGISTER(cpu_random_sample) {
  register_kernel<MultinomialAttrs>("Multinomial", Device::CPU, multinomial_kernel);
  register_kernel<RandomCategoricalAttrs>("RandomCategorical", Device::CPU, random_categorical_kernel);
  register_kernel<RandpermAttrs>("Randperm", Device::CPU, randperm_kernel);
  register_kernel<RandomShuffleAttrs>("RandomShuffle", Device::CPU, random_shuffle_kernel);
}

}  // namespace sprout
