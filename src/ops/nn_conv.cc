// Convolutions: Conv2D and Conv3D, and the ops their gradients are made of, the BackpropInput ops
// (the transposed convolution, d/dx) and the BackpropFilter ops (d/dw). Each is linear in each of its
// tensor inputs, so the bprop rules of the three ops of a rank are the other two (Note [Conv2D
// geometry]). Operand order follows MindSpore: Conv2DBackpropInput(dout, weight), Conv2DBackpropFilter
// (dout, x), but Conv3DBackpropInput(weight, dout) and Conv3DBackpropFilter(x, dout).
#include "ops/nn_conv.h"

#include <memory>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

// The three ops of one spatial rank.
struct ConvFamily {
  int rank;
  const char *forward, *backprop_input, *backprop_filter;
  bool dout_first;  // position of the output gradient among the backward ops' two inputs
};
constexpr ConvFamily kConv2D{2, "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", true};
constexpr ConvFamily kConv3D{3, "Conv3D", "Conv3DBackpropInput", "Conv3DBackpropFilter", false};

void check_conv_dtypes(const OpDef& op, const TensorSpec& a, const TensorSpec& b) {
  check_dtype_in(op, 0, a, {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64});
  SPROUT_CHECK(a.dtype == b.dtype, TypeError, op.name, ": '", op.inputs[0], "' and '", op.inputs[1],
               "' must have the same dtype, but got ", name(a.dtype), " and ", name(b.dtype));
}

Shape conv_output_shape(const ConvGeometry& g) {
  Shape s{g.n, g.o};
  for (int i = 3 - g.rank; i < 3; ++i) s.push_back(g.out[i]);
  return s;
}

std::vector<TensorSpec> infer_forward(const OpDef& op, int rank, const ConvAttrs& a, std::span<const TensorSpec> in) {
  check_conv_dtypes(op, in[0], in[1]);
  return {TensorSpec{in[0].dtype, conv_output_shape(conv_geometry(op.name, rank, a, in[0].shape, in[1].shape))}};
}

// A backward op: `dout` is the forward output's gradient, `other` the weight (input gradient) or the
// input (filter gradient); `sizes` the shape of what it computes.
std::vector<TensorSpec> infer_backward(const OpDef& op, const ConvFamily& f, bool of_input, const ConvAttrs& a,
                                       std::span<const TensorSpec> in, const std::vector<int64_t>& sizes) {
  check_conv_dtypes(op, in[0], in[1]);
  const TensorSpec &dout = in[f.dout_first ? 0 : 1], &other = in[f.dout_first ? 1 : 0];
  ConvGeometry g = of_input ? conv_geometry(op.name, f.rank, a, sizes, other.shape)
                            : conv_geometry(op.name, f.rank, a, other.shape, sizes);
  Shape want = conv_output_shape(g);
  const char* dout_name = f.dout_first ? "out_backprop" : "dout";
  SPROUT_CHECK(dout.shape == want, ValueError, op.name, ": '", dout_name, "' has shape ", shape_str(dout.shape),
               ", but the convolution's output has shape ", shape_str(want));
  return {TensorSpec{in[0].dtype, Shape(sizes)}};
}

template <class A, const ConvFamily& F>
std::vector<TensorSpec> infer_conv(const OpDef& op, const A& a, std::span<const TensorSpec> in) {
  return infer_forward(op, F.rank, a, in);
}
std::vector<TensorSpec> infer_bp_input_2d(const OpDef& op, const Conv2DBackpropInputAttrs& a, std::span<const TensorSpec> in) {
  return infer_backward(op, kConv2D, true, a, in, a.input_sizes);
}
std::vector<TensorSpec> infer_bp_filter_2d(const OpDef& op, const Conv2DBackpropFilterAttrs& a, std::span<const TensorSpec> in) {
  return infer_backward(op, kConv2D, false, a, in, a.filter_sizes);
}
std::vector<TensorSpec> infer_bp_input_3d(const OpDef& op, const Conv3DBackpropInputAttrs& a, std::span<const TensorSpec> in) {
  return infer_backward(op, kConv3D, true, a, in, a.input_size);
}
std::vector<TensorSpec> infer_bp_filter_3d(const OpDef& op, const Conv3DBackpropFilterAttrs& a, std::span<const TensorSpec> in) {
  return infer_backward(op, kConv3D, false, a, in, a.filter_size);
}

using V = BpropBuilder::V;

std::vector<int64_t> dims(BpropBuilder& b, V v) {
  Shape s = b.spec(v).shape;
  return {s.begin(), s.end()};
}

// Emits one op of the family with the convolution attributes of the op being differentiated (copied
// by name) and, for a backward op, the size it computes (its trailing call attribute).
V emit_conv(BpropBuilder& b, const ConvFamily& f, const char* op, V dout_or_x, V other, std::vector<int64_t> sizes = {}) {
  const OpDef& def = OpRegistry::instance().get(op);
  const AttrSchema& from = *b.prim().def().attrs;
  Primitive prim(def);
  for (const AttrField& field : def.attrs->fields()) {
    int i = from.index_of(field.name);
    if (i >= 0 && !field.call_arg) prim = prim.with_attr(field.name, from.get(b.prim().attrs(), static_cast<size_t>(i)));
  }
  const bool backward = op != std::string_view(f.forward);
  if (backward) prim = prim.with_attr(def.attrs->fields().back().name, sizes);
  V in[] = {dout_or_x, other};
  if (backward && !f.dout_first) std::swap(in[0], in[1]);
  return b.emitter().emit(prim, in);
}

template <const ConvFamily& F>
std::vector<V> forward_bprop(BpropBuilder& b) {
  V x = b.input(0), w = b.input(1), dy = b.dout();
  return {b.wants(0) ? emit_conv(b, F, F.backprop_input, dy, w, dims(b, x)) : V{},
          b.wants(1) ? emit_conv(b, F, F.backprop_filter, dy, x, dims(b, w)) : V{}};
}

// dx = conv^T(dy, w) is bilinear: <conv^T(dy, w), g> = <dy, conv(g, w)>, so d dy = conv(g, w) and
// d w = filter-correlation of dy with g.
template <const ConvFamily& F>
std::vector<V> backprop_input_bprop(BpropBuilder& b) {
  V dy = b.input(F.dout_first ? 0 : 1), w = b.input(F.dout_first ? 1 : 0), g = b.dout();
  V d_dy = emit_conv(b, F, F.forward, g, w), d_w = emit_conv(b, F, F.backprop_filter, dy, g, dims(b, w));
  return F.dout_first ? std::vector<V>{d_dy, d_w} : std::vector<V>{d_w, d_dy};
}

// dw = corr(dy, x) is bilinear: <corr(dy, x), G> = <dy, conv(x, G)>, so d dy = conv(x, G) and
// d x = conv^T(dy, G).
template <const ConvFamily& F>
std::vector<V> backprop_filter_bprop(BpropBuilder& b) {
  V dy = b.input(F.dout_first ? 0 : 1), x = b.input(F.dout_first ? 1 : 0), g = b.dout();
  V d_dy = emit_conv(b, F, F.forward, x, g), d_x = emit_conv(b, F, F.backprop_input, dy, g, dims(b, x));
  return F.dout_first ? std::vector<V>{d_dy, d_x} : std::vector<V>{d_x, d_dy};
}

}  // namespace

SPROUT_REGISTER(nn_conv) {
  define_op<Conv2DOpAttrs>("Conv2D")
      .doc("2-d convolution (cross-correlation) of an NCHW input with an (O, C / group, kH, kW) filter.")
      .inputs({"x", "weight"})
      .outputs({"output"})
      .infer(infer_conv<Conv2DOpAttrs, kConv2D>)
      .bprop(bprop_rule(forward_bprop<kConv2D>));
  define_op<Conv2DBackpropInputAttrs>("Conv2DBackpropInput")
      .doc("Gradient of Conv2D with respect to its input (the transposed convolution).")
      .inputs({"out_backprop", "filter"})
      .outputs({"output"})
      .infer(infer_bp_input_2d)
      .bprop(bprop_rule(backprop_input_bprop<kConv2D>));
  // MindSpore's Conv2DTranspose is Conv2DBackpropInput under a second name (same attributes and inputs).
  define_op<Conv2DBackpropInputAttrs>("Conv2DTranspose")
      .doc("2-d transposed convolution: Conv2DBackpropInput as a layer (out_channel is the filter's first axis).")
      .inputs({"out_backprop", "filter"})
      .outputs({"output"})
      .infer(infer_bp_input_2d)
      .bprop(bprop_rule(backprop_input_bprop<kConv2D>));
  define_op<Conv2DBackpropFilterAttrs>("Conv2DBackpropFilter")
      .doc("Gradient of Conv2D with respect to its filter.")
      .inputs({"out_backprop", "input"})
      .outputs({"output"})
      .infer(infer_bp_filter_2d)
      .bprop(bprop_rule(backprop_filter_bprop<kConv2D>));
  define_op<Conv3DOpAttrs>("Conv3D")
      .doc("3-d convolution (cross-correlation) of an NCDHW input with an (O, C / group, kD, kH, kW) filter.")
      .inputs({"x", "weight"})
      .outputs({"output"})
      .infer(infer_conv<Conv3DOpAttrs, kConv3D>)
      .bprop(bprop_rule(forward_bprop<kConv3D>));
  define_op<Conv3DBackpropInputAttrs>("Conv3DBackpropInput")
      .doc("Gradient of Conv3D with respect to its input (the transposed convolution).")
      .inputs({"weight", "dout"})
      .outputs({"output"})
      .infer(infer_bp_input_3d)
      .bprop(bprop_rule(backprop_input_bprop<kConv3D>));
  define_op<Conv3DBackpropFilterAttrs>("Conv3DBackpropFilter")
      .doc("Gradient of Conv3D with respect to its filter.")
      .inputs({"x", "dout"})
      .outputs({"output"})
      .infer(infer_bp_filter_3d)
      .bprop(bprop_rule(backprop_filter_bprop<kConv3D>));
}

}  // namespace sprout
