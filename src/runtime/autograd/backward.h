// The eager backward pass (Note [Eager autodiff] in graph.h).
#pragma once

#include <span>
#include <vector>

#include "tensor/tensor.h"

namespace sprout {

// Gradients of sum_i <roots[i], sens[i]> with respect to each of `targets` (tensors made by track()).
// A target the roots do not depend on gets zeros. Only nodes on a path from a root to a target run.
std::vector<Tensor> backward(std::span<const Tensor> roots, std::span<const Tensor> sens,
                             std::span<const Tensor> targets);

}  // namespace sprout
