// Adaptive pooling (Note [Adaptive pooling windows]). AdaptiveAvgPool2DGrad is linear in its input and
// AdaptiveAvgPool2D is its transpose, so each one's bprop is the other; the max-pooling gradient ops
// are likewise each other's transpose.
#include "ops/nn_pool_adaptive.h"

#include <algorithm>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

constexpr std::initializer_list<DType> kTypes = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

void check_pool_input(const OpDef& op, const char* arg, std::span<const int64_t> shape) {
  SPROUT_CHECK(shape.size() == 3 || shape.size() == 4, ValueError, op.name, ": '", arg,
               "' must be 3-d (C, H, W) or 4-d (N, C, H, W), but got shape ", shape_str(shape));
  check_shape(op.name, arg, shape);
  SPROUT_CHECK(shape[shape.size() - 2] > 0 && shape[shape.size() - 1] > 0, ValueError, op.name, ": '", arg,
               "' has an empty spatial size in shape ", shape_str(shape), "; there is nothing to pool");
}

Shape pooled_shape(const OpDef& op, const AdaptivePool2DAttrs& a, const Shape& x) {
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

std::vector<TensorSpec> infer_adaptive_avg_pool(const OpDef& op, const AdaptivePool2DAttrs& a,
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

std::vector<TensorSpec> infer_adaptive_max_pool(const OpDef& op, const AdaptivePool2DAttrs& a,
                                                std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kTypes);
  Shape out = pooled_shape(op, a, in[0].shape);
  return {TensorSpec{in[0].dtype, out}, TensorSpec{DType::Int64, out}};
}

// (y_grad, x) -> dx: y_grad has x's leading axes and the pooled plane size.
std::vector<TensorSpec> infer_adaptive_max_pool_grad(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_dtype_in(op, 1, in[1], kTypes);
  check_pool_input(op, "x", in[1].shape);
  const Shape &g = in[0].shape, &x = in[1].shape;
  SPROUT_CHECK(in[0].dtype == in[1].dtype && g.size() == x.size() && std::equal(g.begin(), g.end() - 2, x.begin()) &&
                   g[g.size() - 2] > 0 && g[g.size() - 1] > 0,
               ValueError, op.name, ": 'y_grad' ", spec_str(in[0]), " must match 'x' ", spec_str(in[1]),
               " in dtype and all but its (non-empty) last two axes");
  return {in[1]};
}

// (x, grad) -> the pooled shape: grad has x's shape.
std::vector<TensorSpec> infer_adaptive_max_pool_grad_grad(const OpDef& op, const AdaptivePool2DAttrs& a,
                                                          std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kTypes);
  SPROUT_CHECK(in[1] == in[0], ValueError, op.name, ": 'grad' ", spec_str(in[1]), " must match 'x' ", spec_str(in[0]));
  return {TensorSpec{in[0].dtype, pooled_shape(op, a, in[0].shape)}};
}

using V = BpropBuilder::V;

std::vector<int64_t> spatial(const Shape& s) { return {s[s.size() - 2], s[s.size() - 1]}; }

}  // namespace

SPROUT_REGISTER(nn_pool_adaptive) {
  define_op<AdaptivePool2DAttrs>("AdaptiveAvgPool2D")
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
  define_op<AdaptivePool2DAttrs>("AdaptiveMaxPool2D")
      .doc("2-d max pooling to a fixed output size; also returns each maximum's index in its plane.")
      .inputs({"input_x"})
      .outputs({"y", "argmax"})
      .non_differentiable({false, true})
      .infer(infer_adaptive_max_pool)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().emit("AdaptiveMaxPool2DGrad", {b.dout(0), b.input(0)})};
      }));
  define_op<NoAttrs>("AdaptiveMaxPool2DGrad")
      .doc("Gradient of AdaptiveMaxPool2D: each output's gradient goes to its window's first maximum in x.")
      .inputs({"y_grad", "x"})
      .outputs({"output"})
      .infer(infer_adaptive_max_pool_grad)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        V gather = b.emitter().emit("AdaptiveMaxPool2DGradGrad", {b.input(1), b.dout()},
                                    {{"output_size", spatial(b.spec(b.input(0)).shape)}});
        return {gather, b.emitter().zeros_like(b.input(1))};  // x only picks positions
      }));
  define_op<AdaptivePool2DAttrs>("AdaptiveMaxPool2DGradGrad")
      .doc("Gradient of AdaptiveMaxPool2DGrad: gathers `grad` at each window's first maximum in x.")
      .inputs({"x", "grad"})
      .outputs({"output"})
      .infer(infer_adaptive_max_pool_grad_grad)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().zeros_like(b.input(0)), b.emitter().emit("AdaptiveMaxPool2DGrad", {b.dout(), b.input(0)})};
      }));
}

}  // namespace sprout
