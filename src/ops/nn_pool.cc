// 2-d pooling: MaxPool and AvgPool, and the ops their gradients are made of. Each gradient op takes
// (x_origin, out_origin, grad) as MindSpore's do. MaxPoolGrad routes each output's gradient to the
// first maximum of its window; MaxPoolGradGrad gathers from the same positions, so the two are each
// other's transpose and each one's bprop is the other. AvgPoolGrad spreads each gradient evenly over
// its window; it is linear in `grad` with AvgPool as its transpose. The gradients with respect to
// x_origin and out_origin are zero: they only choose positions (Note [Pool2D geometry]).
#include "ops/nn_pool.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

// (h, w) of an int, (h, w) or (1, 1, h, w), each in [minimum, 2^31 - 1].
std::pair<int64_t, int64_t> window_pair(std::string_view op, std::string_view arg, const std::vector<int64_t>& v,
                                        int64_t minimum = 1) {
  std::pair<int64_t, int64_t> hw;
  if (v.size() == 1) hw = {v[0], v[0]};
  else if (v.size() == 2) hw = {v[0], v[1]};
  else if (v.size() == 4 && v[0] == 1 && v[1] == 1) hw = {v[2], v[3]};
  else
    throw ValueError(str(op, ": '", arg, "' must be an int, a tuple of 2 ints or (1, 1, h, w), but got ", shape_str(v)));
  // Beyond 2^31 - 1 a window is certainly a mistake, and would overflow oneDNN's 32-bit window parameters.
  constexpr int64_t kMax = (int64_t{1} << 31) - 1;
  SPROUT_CHECK(hw.first >= minimum && hw.second >= minimum && hw.first <= kMax && hw.second <= kMax, ValueError, op,
               ": '", arg, "' must be in [", minimum, ", ", kMax, "], but got ", shape_str(v));
  return hw;
}

}  // namespace

Pool2DGeometry pool2d_geometry(std::string_view op, const Pool2DAttrs& a, std::span<const int64_t> x) {
  std::string mode = a.pad_mode;
  std::transform(mode.begin(), mode.end(), mode.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // Explicit padding is max pooling's (ops.max_pool2d); average pooling pads with zeros in Python, which
  // counts them as count_include_pad asks.
  const bool max_pool = op.starts_with("Max");
  SPROUT_CHECK(mode == "valid" || mode == "same" || (mode == "pad" && max_pool), ValueError, op,
               ": 'pad_mode' must be ", max_pool ? "'valid', 'same' or 'pad'" : "'valid' or 'same'", ", but got '",
               a.pad_mode, "'");
  const std::vector<int64_t>& pads = a.pad_list;
  SPROUT_CHECK(pads.size() == 4 && std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p >= 0; }), ValueError,
               op, ": 'pad_list' must be 4 non-negative ints (top, bottom, left, right), but got ", shape_str(pads));
  SPROUT_CHECK(mode == "pad" || std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; }), ValueError,
               op, ": 'pad_list' must be 0 unless pad_mode is 'pad', but got ", shape_str(pads), " with pad_mode '",
               a.pad_mode, "'");
  SPROUT_CHECK(a.data_format == "NCHW", ValueError, op, ": 'data_format' must be 'NCHW' on CPU, but got '",
               a.data_format, "'");
  SPROUT_CHECK(x.size() == 4, ValueError, op, ": 'x' must be 4-d (N, C, H, W), but got shape ", shape_str(x));
  check_shape(op, "x", x);
  auto [kh, kw] = window_pair(op, "kernel_size", a.kernel_size);
  auto [sh, sw] = window_pair(op, "strides", a.strides);
  Pool2DGeometry g{x[0], x[1], x[2], x[3], kh, kw, sh, sw, 0, 0, 0, 0, 0, 0};
  if (mode == "same") {
    g.oh = (g.h + sh - 1) / sh;
    g.ow = (g.w + sw - 1) / sw;
    int64_t ph = std::max<int64_t>(0, (g.oh - 1) * sh + kh - g.h), pw = std::max<int64_t>(0, (g.ow - 1) * sw + kw - g.w);
    g.pt = ph / 2, g.pb = ph - ph / 2, g.pl = pw / 2, g.pr = pw - pw / 2;
  } else {
    g.pt = pads[0], g.pb = pads[1], g.pl = pads[2], g.pr = pads[3];
    SPROUT_CHECK(g.h + g.pt + g.pb >= kh && g.w + g.pl + g.pr >= kw, ValueError, op, ": 'kernel_size' ",
                 shape_str(a.kernel_size), " is larger than the input's spatial size (", g.h, ", ", g.w, ")",
                 mode == "pad" ? str(" padded by ", shape_str(pads)) : std::string(" with pad_mode 'valid'"));
    g.oh = (g.h + g.pt + g.pb - kh) / sh + 1;
    g.ow = (g.w + g.pl + g.pr - kw) / sw + 1;
    // A window wholly in the padding would pool nothing: the first starts before the input's end only
    // if the padding before it is below the window, the last only if the padding after it allows.
    SPROUT_CHECK(g.pt < kh && g.pl < kw && (g.oh - 1) * sh < g.h + g.pt && (g.ow - 1) * sw < g.w + g.pl, ValueError,
                 op, ": 'pad_list' ", shape_str(pads), " leaves windows of (", kh, ", ", kw, ") with strides (", sh,
                 ", ", sw, ") wholly in the padding of a (", g.h, ", ", g.w, ") input");
  }
  // A window lying wholly in the padding would have nothing to pool; "same" never makes one, as
  // padding is below the window size, but a zero-sized input does.
  SPROUT_CHECK(g.oh > 0 && g.ow > 0, ValueError, op, ": the input's spatial size (", g.h, ", ", g.w,
               ") is empty; there is nothing to pool");
  return g;
}

// Note [Max pooling with argmax]
// MindSpore's MaxPoolWithArgmaxV2 is ops.max_pool2d's op when it returns indices or dilates its window
// (and what MindSpore's own files of nn.MaxPool2d, MaxPool3DWithArgmax of a depth-1 volume, load as).
// PyTorch's geometry: a window of k cells spaced by d spans d (k - 1) + 1; padding p on both sides of an
// axis, at most k / 2; out = floor((n + 2 p - span) / s) + 1, and ceil_mode rounds up while the last
// window still starts inside the input or its leading padding. The argmax is each window's first maximum
// (a NaN is the maximum) as a flat offset in its H x W plane, the index max_unpool2d takes. The
// gradient, MaxPoolGradWithArgmaxV2, adds each dy at its argmax; its own gradient gathers there
// (GatherElements over the flattened plane), so every order of derivative is exact. The kernels are the
// window-tap loops of MaxPool (Note [Max pooling by window taps]), which step by the dilation.
Pool2DGeometry max_pool_argmax_geometry(std::string_view op, const MaxPoolArgmaxAttrs& a, std::span<const int64_t> x) {
  SPROUT_CHECK(x.size() == 4, ValueError, op, ": 'x' must be 4-d (N, C, H, W), but got shape ", shape_str(x));
  check_shape(op, "x", x);
  SPROUT_CHECK(a.argmax_type == DType::Int32 || a.argmax_type == DType::Int64, TypeError, op,
               ": 'argmax_type' must be Int32 or Int64, but got ", name(a.argmax_type));
  SPROUT_CHECK(a.argmax_type == DType::Int64 || x[2] * x[3] <= std::numeric_limits<int32_t>::max(), ValueError, op,
               ": an int32 argmax cannot index planes of ", x[2], " x ", x[3], " elements; use argmax_type Int64");
  auto [kh, kw] = window_pair(op, "kernel_size", a.kernel_size);
  auto [sh, sw] = window_pair(op, "strides", a.strides);
  auto [dh, dw] = window_pair(op, "dilation", a.dilation);
  auto [ph, pw] = window_pair(op, "pads", a.pads, 0);
  // (output size, padding after) along one axis.
  auto axis = [&](const char* which, int64_t n, int64_t k, int64_t s, int64_t p, int64_t d) {
    SPROUT_CHECK(2 * p <= k, ValueError, op, ": 'pads' must be at most half the kernel size, but got ", p,
                 " for a window of ", k, " along the ", which);
    const int64_t span = d * (k - 1) + 1, room = n + 2 * p - span;
    SPROUT_CHECK(room >= 0, ValueError, op, ": a window of ", k, " cells at dilation ", d, " (", span,
                 " wide) is larger than the ", which, " of the padded input (", n, " + 2 * ", p, ")");
    int64_t out = (room + (a.ceil_mode ? s - 1 : 0)) / s + 1;
    if (a.ceil_mode && (out - 1) * s >= n + p) --out;
    return std::pair{out, std::max<int64_t>((out - 1) * s + span - n - p, 0)};
  };
  const auto [oh, pb] = axis("height", x[2], kh, sh, ph, dh);
  const auto [ow, pr] = axis("width", x[3], kw, sw, pw, dw);
  return Pool2DGeometry{x[0], x[1], x[2], x[3], kh, kw, sh, sw, oh, ow, ph, pb, pw, pr, dh, dw};
}

namespace {

std::vector<TensorSpec> infer_pool(const OpDef& op, const Pool2DAttrs& a, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kPool2DTypes);
  return {TensorSpec{in[0].dtype, pool2d_geometry(op.name, a, in[0].shape).pooled_shape()}};
}

// (x_origin, out_origin, grad): out_origin and grad have the pooled shape; the result has x's
// (`to_input`, the gradients) or the pooled shape (MaxPoolGradGrad).
template <bool TO_INPUT>
std::vector<TensorSpec> infer_pool_grad(const OpDef& op, const Pool2DAttrs& a, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], kPool2DTypes);
  Shape pooled = pool2d_geometry(op.name, a, in[0].shape).pooled_shape();
  for (size_t i = 1; i < 3; ++i) {
    SPROUT_CHECK(in[i].dtype == in[0].dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of '",
                 op.inputs[0], "' (", name(in[0].dtype), "), but got ", name(in[i].dtype));
    Shape want = TO_INPUT || i == 1 ? pooled : in[0].shape;
    SPROUT_CHECK(in[i].shape == want, ValueError, op.name, ": '", op.inputs[i], "' must have shape ", shape_str(want),
                 ", but got ", shape_str(in[i].shape));
  }
  return {TensorSpec{in[0].dtype, TO_INPUT ? in[0].shape : pooled}};
}

using V = BpropBuilder::V;

V emit_like(BpropBuilder& b, const char* op, std::initializer_list<V> inputs) {
  return b.emitter().emit(b.prim_like(op), std::span<const V>(inputs.begin(), inputs.size()));
}

// The bprop of a gradient op (x, y, grad) -> r that is linear in grad: `transpose` maps r's
// sensitivity back to grad's; x and y only pick positions.
BpropFn grad_op_bprop(const char* transpose) {
  return bprop_rule([transpose](BpropBuilder& b) -> std::vector<V> {
    V x = b.input(0), y = b.input(1);
    V dgrad = std::string_view(transpose) == "AvgPool" ? emit_like(b, transpose, {b.dout()})
                                                       : emit_like(b, transpose, {x, y, b.dout()});
    return {b.emitter().zeros_like(x), b.emitter().zeros_like(y), dgrad};
  });
}

void pool_grad_op(const char* name, const char* doc, decltype(&infer_pool_grad<true>) infer, const char* transpose) {
  define_op<Pool2DAttrs>(name)
      .doc(doc)
      .inputs({"x_origin", "out_origin", "grad"})
      .outputs({"output"})
      .infer(infer)
      .bprop(grad_op_bprop(transpose));
}

}  // namespace

SPROUT_REGISTER(nn_pool) {
  define_op<Pool2DAttrs>("MaxPool")
      .doc("2-d max pooling over windows of an NCHW input.")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_pool)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {emit_like(b, "MaxPoolGrad", {b.input(0), b.out(), b.dout()})};
      }));
  define_op<Pool2DAttrs>("AvgPool")
      .doc("2-d average pooling over windows of an NCHW input; padding is not counted.")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_pool)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {emit_like(b, "AvgPoolGrad", {b.input(0), b.out(), b.dout()})};
      }));
  pool_grad_op("MaxPoolGrad", "Gradient of MaxPool: each window's gradient goes to its first maximum.",
               infer_pool_grad<true>, "MaxPoolGradGrad");
  pool_grad_op("MaxPoolGradGrad", "Gradient of MaxPoolGrad: gathers `grad` at each window's first maximum.",
               infer_pool_grad<false>, "MaxPoolGrad");
  pool_grad_op("AvgPoolGrad", "Gradient of AvgPool: each window's gradient spread evenly over its cells.",
               infer_pool_grad<true>, "AvgPool");
}

}  // namespace sprout
