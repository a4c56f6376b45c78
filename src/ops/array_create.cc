// Array ops that create values: OnesLike, ZerosLike, Ones, Zeros, Fill, Eye, Range, LinSpace, and the
// triangle masks Tril and Triu. Shapes, sizes and bounds are attributes, so every output shape is
// known from attributes and input specs alone.
#include <cmath>

#include "ops/array_attrs.h"
#include "ops/array_bprop.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

std::vector<TensorSpec> infer_shape_type(const OpDef& op, const ShapeTypeAttrs& a, std::span<const TensorSpec>) {
  check_shape(op.name, "shape", a.shape);
  return {TensorSpec{a.type, Shape(a.shape)}};
}

std::vector<TensorSpec> infer_fill(const OpDef& op, const FillAttrs& a, std::span<const TensorSpec>) {
  check_shape(op.name, "shape", a.shape);
  return {TensorSpec{a.type, Shape(a.shape)}};
}

std::vector<TensorSpec> infer_eye(const OpDef& op, const EyeAttrs& a, std::span<const TensorSpec>) {
  SPROUT_CHECK(a.n >= 0 && a.m >= 0, ValueError, op.name, ": 'n' and 'm' must be non-negative, but got n=", a.n,
               ", m=", a.m);
  return {TensorSpec{a.t, Shape{a.n, a.m}}};
}

std::vector<TensorSpec> infer_range(const OpDef& op, const RangeAttrs& a, std::span<const TensorSpec>) {
  SPROUT_CHECK(a.dtype != DType::Bool, TypeError, op.name, ": 'dtype' must be numeric, but got Bool");
  SPROUT_CHECK(a.delta != 0, ValueError, op.name, ": 'delta' must not be 0");
  SPROUT_CHECK((a.limit - a.start) * a.delta >= 0, ValueError, op.name, ": 'delta' ", a.delta,
               " points away from 'limit' ", a.limit, " starting at 'start' ", a.start);
  double count = std::ceil((a.limit - a.start) / a.delta);
  SPROUT_CHECK(count <= static_cast<double>(a.maxlen), ValueError, op.name, ": the range has ", count,
               " elements, more than 'maxlen' ", a.maxlen);
  return {TensorSpec{a.dtype, Shape{static_cast<int64_t>(count)}}};
}

std::vector<TensorSpec> infer_linspace(const OpDef& op, const LinSpaceAttrs& a, std::span<const TensorSpec> in) {
  for (size_t i = 0; i < 2; ++i) {
    check_floating(op, i, in[i]);
    SPROUT_CHECK(in[i].shape.empty(), ValueError, op.name, ": '", op.inputs[i],
                 "' must be a 0-d tensor, but got shape ", shape_str(in[i].shape));
  }
  SPROUT_CHECK(in[0].dtype == in[1].dtype, TypeError, op.name,
               ": 'start' and 'stop' must have the same dtype, but got ", name(in[0].dtype), " and ", name(in[1].dtype));
  SPROUT_CHECK(a.num >= 1, ValueError, op.name, ": 'num' must be positive, but got ", a.num);
  return {TensorSpec{in[0].dtype, Shape{a.num}}};
}

// out[i] = start + (stop - start) * i / (num - 1): each bound's gradient is dout weighted by its share.
std::vector<V> linspace_bprop(BpropBuilder& b) {
  const TensorSpec out = b.spec(b.out());
  const int64_t num = out.shape[0];
  Tensor w = Tensor::empty(out.shape, DType::Float64);
  for (int64_t i = 0; i < num; ++i)
    w.data<double>()[i] = num == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(num - 1);
  V stop_share = b.cast(b.emitter().constant(w), out.dtype);
  V d_stop = b.reduce_sum(b.mul(b.dout(), stop_share), {}, false);
  V d_start = b.sub(b.reduce_sum(b.dout(), {}, false), d_stop);
  return {d_start, d_stop};
}

std::vector<TensorSpec> infer_triangle(const OpDef& op, const DiagonalAttrs&, std::span<const TensorSpec> in) {
  SPROUT_CHECK(in[0].shape.size() >= 2, ValueError, op.name, ": 'x' must have rank >= 2, but got shape ",
               shape_str(in[0].shape));
  return {in[0]};
}

BpropFn no_inputs_bprop() {
  return [](Emitter&, const BpropArgs&) { return std::vector<V>{}; };
}

}  // namespace

SPROUT_REGISTER(array_create) {
  define_op<NoAttrs>("OnesLike")
      .doc("A tensor of ones with the input's shape and dtype.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_same_as_first)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {zeros_like(b, b.input(0))}; }));
  define_op<NoAttrs>("ZerosLike")
      .doc("A tensor of zeros with the input's shape and dtype.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_same_as_first)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {zeros_like(b, b.input(0))}; }));
  define_op<ShapeTypeAttrs>("Ones")
      .doc("A tensor of ones: Ones()(shape, type).")
      .outputs({"output"})
      .infer(infer_shape_type)
      .bprop(no_inputs_bprop());
  define_op<ShapeTypeAttrs>("Zeros")
      .doc("A tensor of zeros: Zeros()(shape, type).")
      .outputs({"output"})
      .infer(infer_shape_type)
      .bprop(no_inputs_bprop());
  define_op<FillAttrs>("Fill")
      .doc("A tensor whose elements all equal 'value': Fill()(type, shape, value).")
      .outputs({"output"})
      .infer(infer_fill)
      .bprop(no_inputs_bprop());
  define_op<EyeAttrs>("Eye")
      .doc("An n x m matrix with ones on the main diagonal: Eye()(n, m, t).")
      .outputs({"output"})
      .infer(infer_eye)
      .bprop(no_inputs_bprop());
  define_op<RangeAttrs>("Range")
      .doc("Values from 'start' up to (not including) 'limit' in steps of 'delta': Range()(start, limit, delta).")
      .outputs({"output"})
      .infer(infer_range)
      .bprop(no_inputs_bprop());
  define_op<LinSpaceAttrs>("LinSpace")
      .doc("'num' evenly spaced values from 'start' to 'stop', both included (0-d floating tensors).")
      .inputs({"start", "stop"})
      .outputs({"output"})
      .infer(infer_linspace)
      .bprop(bprop_rule(linspace_bprop));
  define_op<DiagonalAttrs>("Tril")
      .doc("Keeps the lower triangle of the last two axes (below and on 'diagonal'), zeroes the rest.")
      .inputs({"x"})
      .outputs({"y"})
      .infer(infer_triangle)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().emit(b.prim(), std::array<V, 1>{b.dout()})};
      }));
  define_op<DiagonalAttrs>("Triu")
      .doc("Keeps the upper triangle of the last two axes (above and on 'diagonal'), zeroes the rest.")
      .inputs({"x"})
      .outputs({"y"})
      .infer(infer_triangle)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().emit(b.prim(), std::array<V, 1>{b.dout()})};
      }));
}

}  // namespace sprout
