// Attributes of the loss ops, shared with their kernels.
#pragma once

#include <string>
#include <tuple>

#include "ops/attrs.h"

namespace sprout {

// How an elementwise loss is reduced: 'none' keeps its shape, 'sum' and 'mean' give a 0-d tensor
// ('batchmean', KLDivLoss only: the sum divided by the first dimension).
enum class Reduction : uint8_t { None, Sum, Mean, BatchMean };
Reduction parse_reduction(std::string_view op, const std::string& reduction, bool allow_batchmean = false);

struct ReductionAttrs {
  std::string reduction = "mean";
  static constexpr auto fields() {
    return std::tuple{attr("reduction", &ReductionAttrs::reduction, "'none', 'mean' or 'sum'.")};
  }
};

struct KLDivLossAttrs {
  std::string reduction = "mean";
  static constexpr auto fields() {
    return std::tuple{attr("reduction", &KLDivLossAttrs::reduction, "'none', 'mean', 'sum' or 'batchmean'.")};
  }
};

struct SmoothL1LossAttrs {
  double beta = 1.0;
  std::string reduction = "none";
  static constexpr auto fields() {
    return std::tuple{attr("beta", &SmoothL1LossAttrs::beta, "Where the loss turns from quadratic to linear (> 0)."),
                      attr("reduction", &SmoothL1LossAttrs::reduction, "'none', 'mean' or 'sum'.")};
  }
};

struct NLLLossAttrs {
  std::string reduction = "mean";
  int64_t ignore_index = -100;
  static constexpr auto fields() {
    return std::tuple{attr("reduction", &NLLLossAttrs::reduction, "'none', 'mean' or 'sum'."),
                      attr("ignore_index", &NLLLossAttrs::ignore_index, "A label value that contributes nothing.")};
  }
};

// CrossEntropy and CrossEntropyGrad (Note [Cross entropy in one op]).
struct CrossEntropyAttrs {
  std::string reduction = "mean";
  int64_t ignore_index = -100;
  double label_smoothing = 0.0;
  static constexpr auto fields() {
    return std::tuple{attr("reduction", &CrossEntropyAttrs::reduction, "'none', 'mean' or 'sum'."),
                      attr("ignore_index", &CrossEntropyAttrs::ignore_index, "A label value that contributes nothing."),
                      attr("label_smoothing", &CrossEntropyAttrs::label_smoothing,
                           "The share of the target spread evenly over all classes, in [0, 1].")};
  }
};

struct SparseSoftmaxCrossEntropyAttrs {
  bool is_grad = false;
  static constexpr auto fields() {
    return std::tuple{attr("is_grad", &SparseSoftmaxCrossEntropyAttrs::is_grad,
                           "Return the gradient of the mean loss with respect to the features instead of the loss.")};
  }
};

}  // namespace sprout
