// Einsum's attribute and its parsed equation, shared by the op record (infer, bprop) and the kernel.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "base/shape.h"
#include "ops/attrs.h"

namespace sprout {

struct EinsumAttrs {
  std::string equation;
  static constexpr auto fields() {
    return std::tuple{attr("equation", &EinsumAttrs::equation,
                           "Subscripts such as 'bij,bjk->bik': letters, ',', '...' and '->'.")};
  }
};

// An equation resolved against the operands' shapes. Labels are numbered; each has a letter (the
// axes of '...' get letters the equation does not use) and a size (an axis of size 1 broadcasts).
struct EinsumPlan {
  std::vector<std::vector<int>> inputs;  // the label of each axis of each operand
  std::vector<int> output;               // the label of each output axis
  std::string letters;                   // letters[label]
  std::vector<int64_t> sizes;            // sizes[label]

  std::string term(std::span<const int> labels) const;  // labels as letters
};

// TypeError (as MindSpore) naming `op` when the equation is malformed or does not fit the shapes.
EinsumPlan plan_einsum(std::string_view op, const std::string& equation, std::span<const Shape> shapes);

}  // namespace sprout
