// Array ops that walk one axis: Argmax, Argmin (indices of the extremum) and the scans CumSum, CumProd,
// Cummax and Cummin (running extremes with their positions).
#include "ops/array_attrs.h"
#include "ops/array_bprop.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

std::vector<TensorSpec> infer_arg(const OpDef& op, const ArgAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  SPROUT_CHECK(a.output_type == DType::Int32 || a.output_type == DType::Int64, TypeError, op.name,
               ": 'output_type' must be Int32 or Int64, but got ", name(a.output_type));
  const Shape& x = in[0].shape;
  if (x.empty()) {  // a 0-d tensor has one element: its index is 0
    normalize_axis(op.name, "axis", a.axis, 0);
    return {TensorSpec{a.output_type, Shape{}}};
  }
  int64_t axis = normalize_axis(op.name, "axis", a.axis, static_cast<int64_t>(x.size()));
  SPROUT_CHECK(x[axis] > 0, ValueError, op.name, ": cannot search axis ", a.axis, " of size 0 in 'input_x' of shape ",
               shape_str(x));
  Shape out = x;
  out.erase(out.begin() + axis);
  return {TensorSpec{a.output_type, std::move(out)}};
}

std::vector<TensorSpec> infer_cum(const OpDef& op, const CumAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  normalize_axis(op.name, "axis", a.axis, std::max<int64_t>(1, static_cast<int64_t>(in[0].shape.size())));
  return {in[0]};
}

Primitive cumsum_prim(const CumAttrs& a, bool reverse) {
  return make_prim("CumSum", {{"exclusive", a.exclusive}, {"reverse", reverse}, {"axis", a.axis}});
}

// Each input feeds every later output (earlier ones when reversed): the gradient is the scan of dout
// in the opposite direction.
std::vector<V> cumsum_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<CumAttrs>();
  return {b.emitter().emit(cumsum_prim(a, !a.reverse), std::array<V, 1>{b.dout()})};
}

// d out_i / d x_j = out_i / x_j for the j that out_i multiplies in: dx = reverse-scan(dout * out) / x.
// As in MindSpore, this assumes x has no zeros.
std::vector<V> cumprod_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<CumAttrs>();
  V scanned = b.emitter().emit(cumsum_prim(a, !a.reverse), std::array<V, 1>{b.mul(b.dout(), b.out())});
  return {b.div(scanned, b.input(0))};
}

// Cummax's indices are Int64 and Cummin's Int32, as MindSpore's primitives give them.
template <DType kIndex>
std::vector<TensorSpec> infer_cum_extreme(const OpDef& op, const CumExtremeAttrs& a, std::span<const TensorSpec> in) {
  normalize_axis(op.name, "axis", a.axis, std::max<int64_t>(1, static_cast<int64_t>(in[0].shape.size())));
  return {in[0], TensorSpec{kIndex, in[0].shape}};
}

// Each running extreme is one input element, named by its index: dout goes back there.
std::vector<V> cum_extreme_bprop(BpropBuilder& b) {
  const int64_t ndim = std::max<int64_t>(1, static_cast<int64_t>(b.spec(b.input(0)).shape.size()));
  const int64_t axis = normalize_axis(b.prim().name(), "axis", b.prim().attrs_as<CumExtremeAttrs>().axis, ndim);
  if (b.spec(b.input(0)).shape.empty()) return {b.dout(0)};
  return {scatter_back(b, b.out(1), b.dout(0), axis)};
}

}  // namespace

SPROUT_REGISTER(array_scan) {
  define_op<ArgAttrs>("Argmax")
      .doc("Index of the largest element along 'axis' (the first one on ties; NaN counts as largest).")
      .inputs({"input_x"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_arg)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {zeros_like(b, b.input(0))}; }));
  define_op<ArgAttrs>("Argmin")
      .doc("Index of the smallest element along 'axis' (the first one on ties; NaN counts as smallest).")
      .inputs({"input_x"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_arg)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {zeros_like(b, b.input(0))}; }));
  define_op<CumAttrs>("CumSum")
      .doc("Running sum along 'axis' (exclusive: without the element itself; reverse: from the end).")
      .inputs({"input"})
      .outputs({"output"})
      .infer(infer_cum)
      .bprop(bprop_rule(cumsum_bprop));
  define_op<CumExtremeAttrs>("Cummax")
      .doc("Running maximum along 'axis' and where it is (Int64; the latest of equal values; NaN counts as "
           "largest, so it propagates).")
      .inputs({"x"})
      .outputs({"y", "indices"})
      .non_differentiable({false, true})
      .infer(infer_cum_extreme<DType::Int64>)
      .bprop(bprop_rule(cum_extreme_bprop));
  define_op<CumExtremeAttrs>("Cummin")
      .doc("Running minimum along 'axis' and where it is (Int32; the latest of equal values; NaN propagates "
           "as in Cummax).")
      .inputs({"x"})
      .outputs({"y", "indices"})
      .non_differentiable({false, true})
      .infer(infer_cum_extreme<DType::Int32>)
      .bprop(bprop_rule(cum_extreme_bprop));
  define_op<CumAttrs>("CumProd")
      .doc("Running product along 'axis' (exclusive: without the element itself; reverse: from the end).")
      .inputs({"x"})
      .outputs({"y"})
      .infer(infer_cum)
      .bprop(bprop_rule(cumprod_bprop));
}

}  // namespace sprout
