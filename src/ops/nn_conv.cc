// 2-d convolution: Conv2D and the two ops its gradient is made of, Conv2DBackpropInput (the
// transposed convolution, d/dx) and Conv2DBackpropFilter (d/dw). Each of the three is linear in
// each of its tensor inputs, so their bprop rules are the other two ops (Note [Conv2D geometry]).
#include "ops/nn_conv.h"

#include <algorithm>
#include <cctype>
#include <memory>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// (h, w) from an int, an (h, w) pair or MindSpore's NCHW 4-tuple (1, 1, h, w).
std::pair<int64_t, int64_t> spatial_pair(std::string_view op, std::string_view arg, const std::vector<int64_t>& v,
                                         bool allow_nchw_form) {
  std::pair<int64_t, int64_t> hw;
  if (v.size() == 1) hw = {v[0], v[0]};
  else if (v.size() == 2) hw = {v[0], v[1]};
  else if (v.size() == 4 && allow_nchw_form && v[0] == 1 && v[1] == 1) hw = {v[2], v[3]};
  else
    throw ValueError(str(op, ": '", arg, "' must be an int or a tuple of 2 ints",
                         allow_nchw_form ? " (or (1, 1, h, w))" : "", ", but got ", shape_str(v)));
  SPROUT_CHECK(hw.first > 0 && hw.second > 0, ValueError, op, ": '", arg, "' must be positive, but got ",
               shape_str(v));
  return hw;
}

// Output size and (before, after) padding of one spatial dimension.
struct Dim {
  int64_t out, before, after;
};

Dim conv_dim(std::string_view mode, int64_t in, int64_t k, int64_t s, int64_t d, int64_t before, int64_t after) {
  int64_t span = d * (k - 1) + 1;  // extent of the dilated kernel
  if (mode == "same") {
    int64_t out = (in + s - 1) / s;
    int64_t needed = std::max<int64_t>(0, (out - 1) * s + span - in);
    return {out, needed / 2, needed - needed / 2};
  }
  int64_t padded = in + before + after;
  return {padded >= span ? (padded - span) / s + 1 : 0, before, after};
}

}  // namespace

Conv2DGeometry conv2d_geometry(std::string_view op, const Conv2DAttrs& a, std::span<const int64_t> x,
                               std::span<const int64_t> w) {
  SPROUT_CHECK(a.mode == 1, ValueError, op, ": 'mode' must be 1, but got ", a.mode);
  SPROUT_CHECK(a.data_format == "NCHW", ValueError, op, ": 'data_format' must be 'NCHW' on CPU, but got '",
               a.data_format, "'");
  const std::string mode = lower(a.pad_mode);
  SPROUT_CHECK(mode == "valid" || mode == "same" || mode == "pad", ValueError, op,
               ": 'pad_mode' must be one of 'valid', 'same', 'pad', but got '", a.pad_mode, "'");
  SPROUT_CHECK(x.size() == 4, ValueError, op, ": 'x' must be 4-d (N, C, H, W), but got shape ", shape_str(x));
  SPROUT_CHECK(w.size() == 4, ValueError, op, ": 'weight' must be 4-d (C_out, C_in / group, kH, kW), but got shape ",
               shape_str(w));
  check_shape(op, "x", x);
  check_shape(op, "weight", w);
  SPROUT_CHECK(a.group >= 1, ValueError, op, ": 'group' must be >= 1, but got ", a.group);
  SPROUT_CHECK(a.out_channel == w[0], ValueError, op, ": 'out_channel' is ", a.out_channel,
               " but 'weight' of shape ", shape_str(w), " has ", w[0], " output channels");
  SPROUT_CHECK(w[0] > 0 && w[0] % a.group == 0, ValueError, op, ": 'out_channel' (", w[0],
               ") must be a positive multiple of 'group' (", a.group, ")");
  SPROUT_CHECK(x[1] == w[1] * a.group, ValueError, op, ": 'x' of shape ", shape_str(x), " has ", x[1],
               " channels, but 'weight' of shape ", shape_str(w), " with group=", a.group, " expects ", w[1] * a.group);
  auto [kh, kw] = spatial_pair(op, "kernel_size", a.kernel_size, false);
  SPROUT_CHECK(kh == w[2] && kw == w[3], ValueError, op, ": 'kernel_size' is ", shape_str(a.kernel_size),
               " but 'weight' has shape ", shape_str(w));
  auto [sh, sw] = spatial_pair(op, "stride", a.stride, true);
  auto [dh, dw] = spatial_pair(op, "dilation", a.dilation, true);
  SPROUT_CHECK(a.pad.size() == 1 || a.pad.size() == 4, ValueError, op,
               ": 'pad' must be an int or a tuple of 4 ints (top, bottom, left, right), but got ", shape_str(a.pad));
  int64_t pt = a.pad[0], pb = a.pad[a.pad.size() == 4 ? 1 : 0];
  int64_t pl = a.pad[a.pad.size() == 4 ? 2 : 0], pr = a.pad[a.pad.size() == 4 ? 3 : 0];
  SPROUT_CHECK(pt >= 0 && pb >= 0 && pl >= 0 && pr >= 0, ValueError, op, ": 'pad' must be non-negative, but got ",
               shape_str(a.pad));
  SPROUT_CHECK(mode == "pad" || (pt == 0 && pb == 0 && pl == 0 && pr == 0), ValueError, op,
               ": 'pad' must be 0 unless pad_mode is 'pad', but got pad=", shape_str(a.pad), " with pad_mode '",
               a.pad_mode, "'");
  Dim hd = conv_dim(mode, x[2], kh, sh, dh, pt, pb), wd = conv_dim(mode, x[3], kw, sw, dw, pl, pr);
  SPROUT_CHECK(hd.out > 0 && wd.out > 0, ValueError, op, ": the input's spatial size (", x[2], ", ", x[3],
               ") with padding is smaller than the dilated kernel (", dh * (kh - 1) + 1, ", ", dw * (kw - 1) + 1,
               "); the output would be empty");
  return Conv2DGeometry{x[0], x[1], x[2], x[3], w[0], kh, kw, hd.out, wd.out, sh, sw, dh, dw,
                        hd.before, hd.after, wd.before, wd.after, a.group};
}

namespace {

void check_conv_dtypes(const OpDef& op, const TensorSpec& a, const TensorSpec& b) {
  check_dtype_in(op, 0, a, {DType::Float16, DType::Float32, DType::Float64});
  SPROUT_CHECK(a.dtype == b.dtype, TypeError, op.name, ": '", op.inputs[0], "' and '", op.inputs[1],
               "' must have the same dtype, but got ", name(a.dtype), " and ", name(b.dtype));
}

Shape conv_output_shape(const Conv2DGeometry& g) { return Shape{g.n, g.o, g.oh, g.ow}; }

// The backward ops receive the forward output's gradient; its shape must be the forward output's.
void check_dout(const OpDef& op, const Conv2DGeometry& g, const TensorSpec& dout) {
  Shape want = conv_output_shape(g);
  SPROUT_CHECK(dout.shape == want, ValueError, op.name, ": 'out_backprop' has shape ", shape_str(dout.shape),
               ", but the convolution's output has shape ", shape_str(want));
}

std::vector<TensorSpec> infer_conv2d(const OpDef& op, const Conv2DOpAttrs& a, std::span<const TensorSpec> in) {
  check_conv_dtypes(op, in[0], in[1]);
  return {TensorSpec{in[0].dtype, conv_output_shape(conv2d_geometry(op.name, a, in[0].shape, in[1].shape))}};
}

std::vector<TensorSpec> infer_backprop_input(const OpDef& op, const Conv2DBackpropInputAttrs& a,
                                             std::span<const TensorSpec> in) {
  check_conv_dtypes(op, in[0], in[1]);
  check_dout(op, conv2d_geometry(op.name, a, a.input_sizes, in[1].shape), in[0]);
  return {TensorSpec{in[0].dtype, Shape(a.input_sizes)}};
}

std::vector<TensorSpec> infer_backprop_filter(const OpDef& op, const Conv2DBackpropFilterAttrs& a,
                                              std::span<const TensorSpec> in) {
  check_conv_dtypes(op, in[0], in[1]);
  check_dout(op, conv2d_geometry(op.name, a, in[1].shape, a.filter_sizes), in[0]);
  return {TensorSpec{in[0].dtype, Shape(a.filter_sizes)}};
}

using V = BpropBuilder::V;

std::vector<int64_t> dims(BpropBuilder& b, V v) {
  Shape s = b.spec(v).shape;
  return {s.begin(), s.end()};
}

V conv2d(BpropBuilder& b, const Conv2DAttrs& a, V x, V w) {
  static const OpDef& def = OpRegistry::instance().get("Conv2D");
  auto attrs = std::make_shared<Conv2DOpAttrs>();
  static_cast<Conv2DAttrs&>(*attrs) = a;
  V in[] = {x, w};
  return b.emitter().emit(Primitive(def, attrs), in);
}

V backprop_input(BpropBuilder& b, const Conv2DAttrs& a, V dout, V w, std::vector<int64_t> input_sizes) {
  static const OpDef& def = OpRegistry::instance().get("Conv2DBackpropInput");
  auto attrs = std::make_shared<Conv2DBackpropInputAttrs>();
  static_cast<Conv2DAttrs&>(*attrs) = a;
  attrs->input_sizes = std::move(input_sizes);
  V in[] = {dout, w};
  return b.emitter().emit(Primitive(def, attrs), in);
}

V backprop_filter(BpropBuilder& b, const Conv2DAttrs& a, V dout, V x, std::vector<int64_t> filter_sizes) {
  static const OpDef& def = OpRegistry::instance().get("Conv2DBackpropFilter");
  auto attrs = std::make_shared<Conv2DBackpropFilterAttrs>();
  static_cast<Conv2DAttrs&>(*attrs) = a;
  attrs->filter_sizes = std::move(filter_sizes);
  V in[] = {dout, x};
  return b.emitter().emit(Primitive(def, attrs), in);
}

// y = conv(x, w): dx = conv^T(dy, w), dw = filter-correlation of dy with x.
std::vector<V> conv2d_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<Conv2DOpAttrs>();
  V x = b.input(0), w = b.input(1), dy = b.dout();
  return {backprop_input(b, a, dy, w, dims(b, x)), backprop_filter(b, a, dy, x, dims(b, w))};
}

// dx = conv^T(dy, w) is bilinear: <conv^T(dy, w), g> = <dy, conv(g, w)>, so d dy = conv(g, w) and
// d w = filter-correlation of dy with g.
std::vector<V> backprop_input_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<Conv2DBackpropInputAttrs>();
  V dy = b.input(0), w = b.input(1), g = b.dout();
  return {conv2d(b, a, g, w), backprop_filter(b, a, dy, g, dims(b, w))};
}

// dw = corr(dy, x) is bilinear: <corr(dy, x), G> = <dy, conv(x, G)>, so d dy = conv(x, G) and
// d x = conv^T(dy, G).
std::vector<V> backprop_filter_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<Conv2DBackpropFilterAttrs>();
  V dy = b.input(0), x = b.input(1), g = b.dout();
  return {conv2d(b, a, x, g), backprop_input(b, a, dy, g, dims(b, x))};
}

}  // namespace

SPROUT_REGISTER(nn_conv) {
  define_op<Conv2DOpAttrs>("Conv2D")
      .doc("2-d convolution (cross-correlation) of an NCHW input with an (O, C / group, kH, kW) filter.")
      .inputs({"x", "weight"})
      .outputs({"output"})
      .infer(infer_conv2d)
      .bprop(bprop_rule(conv2d_bprop));
  define_op<Conv2DBackpropInputAttrs>("Conv2DBackpropInput")
      .doc("Gradient of Conv2D with respect to its input (the transposed convolution).")
      .inputs({"out_backprop", "filter"})
      .outputs({"output"})
      .infer(infer_backprop_input)
      .bprop(bprop_rule(backprop_input_bprop));
  // MindSpore's Conv2DTranspose is Conv2DBackpropInput under a second name (same attributes and inputs).
  define_op<Conv2DBackpropInputAttrs>("Conv2DTranspose")
      .doc("2-d transposed convolution: Conv2DBackpropInput as a layer (out_channel is the filter's first axis).")
      .inputs({"out_backprop", "filter"})
      .outputs({"output"})
      .infer(infer_backprop_input)
      .bprop(bprop_rule(backprop_input_bprop));
  define_op<Conv2DBackpropFilterAttrs>("Conv2DBackpropFilter")
      .doc("Gradient of Conv2D with respect to its filter.")
      .inputs({"out_backprop", "input"})
      .outputs({"output"})
      .infer(infer_backprop_filter)
      .bprop(bprop_rule(backprop_filter_bprop));
}

}  // namespace sprout
