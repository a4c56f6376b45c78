// Running a FusedElementwise program (ir/fused.h), and which registry ops it can hold.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "ir/fused.h"
#include "tensor/tensor.h"

namespace sprout {

// The fused step of a registry op that takes no attributes, if it has one.
std::optional<FusedStep> fusible_step(std::string_view op);

// out (allocated with the program's shape and dtype) = program(inputs).
void run_fused_elementwise(const FusedElementwise& program, std::span<const Tensor> inputs, Tensor& out);

}  // namespace sprout
