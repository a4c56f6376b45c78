// AdaptiveAvgPool2D and AdaptiveAvgPool2DGrad (Note [Adaptive pooling windows]). The gradient op is
// linear in its input and AdaptiveAvgPool2D is its transpose, so each one's bprop is the other.
#include "ops/nn_pool_adaptive.h"

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

constexpr std::initializer_list<DType> kTypes = {DType::Float16, DType::Float32, DType::Float64};

void check_pool_input(const OpDef& op, const char* arg, std::span<const int64_t> shape) {
  SPROUT_CHECK(shape.size() == 3 || shape.size() == 4, ValueError, op.name, ": '", arg,
               "' must be 3-d (C, H, W) or 4-d (N, C, H, W), but got shape ", shape_str(shape));
  check_shape(op.name, arg, shape);
  SPROUT_CHECK(shape[shape.size() - 2] > 0 && shape[shape.size() - 1] > 0, ValueError, op.name, ": '", arg,
               "' has an empty spatial size in shape ", shape_str(shape), "; there is nothing to pool");
}

Shape pooled_shape(const OpDef& op, const AdaptiveAvgPool2DAttrs& a, const Shape& x) {
  check_pool_input(op, "input_x", x);
  const auto& s = a.output_size;
  SPROUT_CHECK(s.size() == 1 || s.size() == 2, ValueError, op.name,
               ": 'output_size' must be an int or a tuple of 2 ints, but got ", shape_str(s));
  Shape out(x);
  for (size_t d = 0; d < 2; ++d) {
    int64_t v = s[s.size() == 1 ? 0 : d];
    SPROUT_CHECK(v > 0 || v == -1, ValueError, op.name, ": 'output_size' entries must be positive (or None), but got ",
                 shape_str(s));
    if (v > 0) out[x.size() - 2 + d] = v;
  }
  return out;
}

std::vector<TensorSpec> infer_adaptive_avg_pool(const OpDef& op, const AdaptiveAvgPool2DAttrs& a,
                                                std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kTypes);
  return {TensorSpec{in[0].dtype, pooled_shape(op, a, in[0].shape)}};
}

std::vector<TensorSpec> infer_adaptive_avg_pool_grad(const OpDef& op, const AdaptiveAvgPool2DGradAttrs& a,
                                                     std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kTypes);
  const Shape& g = in[0].shape;
  check_pool_input(op, "orig_input_shape", a.orig_input_shape);
  SPROUT_CHECK(g.size() == a.orig_input_shape.size() &&
                   std::equal(g.begin(), g.end() - 2, a.orig_input_shape.begin()) && g[g.size() - 2] > 0 &&
                   g[g.size() - 1] > 0,
               ValueError, op.name, ": 'input_grad' of shape ", shape_str(g),
               " must match 'orig_input_shape' ", shape_str(a.orig_input_shape), " except in its (non-empty) last two axes");
  return {TensorSpec{in[0].dtype, Shape(a.orig_input_shape)}};
}

using V = BpropBuilder::V;

std::vector<int64_t> spatial(const Shape& s) { return {s[s.size() - 2], s[s.size() - 1]}; }

}  // namespace

SPROUT_REGISTER(nn_pool_adaptive) {
  define_op<AdaptiveAvgPool2DAttrs>("AdaptiveAvgPool2D")
      .doc("2-d average pooling to a fixed output size (Note [Adaptive pooling windows]).")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_adaptive_avg_pool)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        Shape xs = b.spec(b.input(0)).shape;
        return {b.emitter().emit("AdaptiveAvgPool2DGrad", {b.dout()},
                                 {{"orig_input_shape", std::vector<int64_t>(xs.begin(), xs.end())}})};
      }));
  define_op<AdaptiveAvgPool2DGradAttrs>("AdaptiveAvgPool2DGrad")
      .doc("Gradient of AdaptiveAvgPool2D: each output's gradient spread evenly over its window.")
      .inputs({"input_grad"})
      .outputs({"output"})
      .infer(infer_adaptive_avg_pool_grad)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().emit("AdaptiveAvgPool2D", {b.dout()},
                                 {{"output_size", spatial(b.spec(b.input(0)).shape)}})};
      }));
}

}  // namespace sprout
