// What the softmax-based loss kernels share (nn_loss.cc, nn_loss_cross_entropy.cc): checked class
// indices, the compute type of a dtype, and a row's max and sum of exponentials.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/nn_act_simd.h"
#include "kernels/cpu/simd.h"

namespace sprout {

// The class indices as int64, checked to lie in [0, classes) (or equal `ignore`, when given).
inline std::vector<int64_t> read_labels(std::string_view op, const Tensor& labels, int64_t classes,
                                        std::optional<int64_t> ignore = std::nullopt) {
  Tensor l = contiguous_as(labels, DType::Int64);
  const int64_t* p = l.data<int64_t>();
  std::vector<int64_t> out(p, p + l.numel());
  for (size_t n = 0; n < out.size(); ++n)
    SPROUT_CHECK((out[n] >= 0 && out[n] < classes) || (ignore && out[n] == *ignore), ValueError, op,
                 ": 'labels' must be class indices in [0, ", classes, ")",
                 ignore ? str(" or ignore_index ", *ignore) : std::string(), ", but labels[", n, "] is ", out[n]);
  return out;
}

// Runs fn with C the compute type of the floating dtype t.
template <class Fn>
inline void with_compute_type(DType t, Fn&& fn) {
  if (t == DType::Float64) fn(double{});
  else fn(float{});
}

// A row's maximum and sum(exp(row - max)): its log-sum-exp is max + log(sum), its softmax
// exp(row - max) / sum. exp(row - max) is left in `scratch` (length n) when given.
template <class C>
struct RowExp {
  C max, sum;
  C log_sum_exp() const { return max + std::log(sum); }
};

template <class C>
inline RowExp<C> row_exp(const C* row, int64_t n, C* scratch) {
  const C max = simd_reduce(ReduceOp::Max, row, n);
  return {max, simd_exp_shifted_sum(row, max, scratch, n)};
}

}  // namespace sprout
