#include "ops/bprop_builder.h"

namespace sprout {

BpropBuilder::V BpropBuilder::sum_to_shape(V grad, std::span<const int64_t> target) {
  Shape shape = spec(grad).shape;
  if (std::equal(shape.begin(), shape.end(), target.begin(), target.end())) return grad;
  std::vector<int64_t> axes;
  size_t lead = shape.size() - target.size();
  for (size_t d = 0; d < shape.size(); ++d)
    if (d < lead || (target[d - lead] == 1 && shape[d] != 1)) axes.push_back(static_cast<int64_t>(d));
  V summed = axes.empty() ? grad : reduce_sum(grad, axes, true);
  return reshape(summed, target);
}

std::vector<BpropBuilder::V> BpropBuilder::binary_input_grads(V dx, V dy) {
  auto to_input = [&](V g, size_t i) { return g.valid() && wants(i) ? sum_to_shape(g, spec(input(i)).shape) : V{}; };
  return {to_input(dx, 0), to_input(dy, 1)};
}

}  // namespace sprout
