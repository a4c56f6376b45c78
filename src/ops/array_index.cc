// Array ops that select or place elements by index or mask: Select, MaskedFill, MaskedSelect, Gather,
// GatherNd, ScatterNd, TensorScatterUpdate, UnsortedSegmentSum, OneHot, and ScatterAdd (in place).
// Index values are data, so infer cannot see them: kernels check them (a ValueError names the op, the
// bad index and the valid range) before touching memory.
#include "ops/array_attrs.h"
#include "ops/array_bprop.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

void append(Shape& s, const int64_t* begin, const int64_t* end) {
  for (const int64_t* p = begin; p != end; ++p) s.push_back(*p);
}

void check_index_dtype(const OpDef& op, size_t input, const TensorSpec& spec) {
  check_dtype_in(op, input, spec, {DType::Int32, DType::Int64});
}

// ---- Select, MaskedFill, MaskedSelect -----------------------------------------------------------

std::vector<TensorSpec> infer_select(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_dtype_in(op, 0, in[0], {DType::Bool});
  SPROUT_CHECK(in[1].dtype == in[2].dtype, TypeError, op.name, ": 'x' and 'y' must have the same dtype, but got ",
               name(in[1].dtype), " and ", name(in[2].dtype));
  Shape s = broadcast_shapes(op.name, broadcast_shapes(op.name, in[0].shape, in[1].shape), in[2].shape);
  return {TensorSpec{in[1].dtype, std::move(s)}};
}

std::vector<V> select_bprop(BpropBuilder& b) {
  V cond = b.input(0), dout = b.dout();
  V zero = zeros_like(b, dout);
  V dx = select(b, cond, dout, zero), dy = select(b, cond, zero, dout);
  return {V{}, b.sum_to_shape(dx, b.spec(b.input(1)).shape), b.sum_to_shape(dy, b.spec(b.input(2)).shape)};
}

std::vector<TensorSpec> infer_masked_fill(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_dtype_in(op, 1, in[1], {DType::Bool});
  Shape s = broadcast_shapes(op.name, in[0].shape, in[1].shape);
  SPROUT_CHECK(numel(in[2].shape) == 1 && in[2].shape.size() <= s.size(), ValueError, op.name,
               ": 'value' must be a 0-d tensor or a number, but got shape ", shape_str(in[2].shape));
  return {TensorSpec{in[0].dtype, std::move(s)}};
}

std::vector<V> masked_fill_bprop(BpropBuilder& b) {
  V mask = b.input(1), dout = b.dout();
  V zero = zeros_like(b, dout);
  V dx = b.sum_to_shape(select(b, mask, zero, dout), b.spec(b.input(0)).shape);
  const TensorSpec value = b.spec(b.input(2));
  V dvalue = b.reshape(b.reduce_sum(select(b, mask, dout, zero), {}, false), value.shape);
  if (!is_floating(value.dtype)) return {dx, V{}, V{}};
  return {dx, V{}, b.cast(dvalue, value.dtype)};
}

std::vector<TensorSpec> infer_masked_select(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_dtype_in(op, 1, in[1], {DType::Bool});
  broadcast_shapes(op.name, in[0].shape, in[1].shape);
  return {TensorSpec{in[0].dtype, Shape{-1}}};  // the length is the number of True elements: dynamic
}

// The output length depends on the mask's values: count them, allocate, then run the kernel.
std::vector<Tensor> dispatch_masked_select(const NoAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("MaskedSelect");
  Shape s = broadcast_shapes(def.name, in[0].shape(), in[1].shape());
  Tensor mask = in[1].expand(s).contiguous();
  const bool* m = mask.data<bool>();
  int64_t count = 0;
  for (int64_t i = 0, n = mask.numel(); i < n; ++i) count += m[i];
  std::vector<Tensor> out{Tensor::empty(Shape{count}, in[0].dtype())};
  def.kernel(Device::CPU)(&a, in, out);
  return out;
}

// ---- NonZero ------------------------------------------------------------------------------------

std::vector<TensorSpec> infer_nonzero(const OpDef&, const NoAttrs&, std::span<const TensorSpec> in) {
  // One row per nonzero element: how many depends on the values.
  return {TensorSpec{DType::Int64, Shape{-1, static_cast<int64_t>(in[0].shape.size())}}};
}

// The output's length is the number of nonzero elements: count them, allocate, then run the kernel.
std::vector<Tensor> dispatch_nonzero(const NoAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("NonZero");
  const Tensor x = in[0].contiguous();
  int64_t count = 0;
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* p = static_cast<const T*>(x.raw_data());
    for (int64_t i = 0, n = x.numel(); i < n; ++i) count += static_cast<compute_t<T>>(p[i]) != 0;
  });
  std::vector<Tensor> out{Tensor::empty(Shape{count, x.ndim()}, DType::Int64)};
  def.kernel(Device::CPU)(&a, std::span<const Tensor>(&x, 1), out);
  return out;
}

// Output k came from the k-th True position of the (broadcast) mask. Numbering the True positions 1..k
// with a cumulative sum, gathering from [0, dout...] puts each gradient back and 0 everywhere else.
std::vector<V> masked_select_bprop(BpropBuilder& b) {
  const TensorSpec x = b.spec(b.input(0));
  const Shape s = broadcast_shapes("MaskedSelect", x.shape, b.spec(b.input(1)).shape);
  const std::vector<int64_t> flat{-1};
  V mask = b.cast(b.reshape(b.broadcast_to(b.input(1), s), flat), DType::Int64);
  V position = b.mul(emit_op(b, "CumSum", {mask}, {{"axis", int64_t{0}}}), mask);
  V padded = concat(b, std::array<V, 2>{b.emitter().constant(Tensor::zeros(Shape{1}, x.dtype)), b.dout()}, 0);
  V spread = b.reshape(emit_op(b, "Gather", {padded, position}, {{"axis", int64_t{0}}}), s);
  return {b.sum_to_shape(spread, x.shape), V{}};
}

// ---- Gather, UnsortedSegmentSum ----------------------------------------------------------------

std::vector<TensorSpec> infer_gather(const OpDef& op, const GatherAttrs& a, std::span<const TensorSpec> in) {
  check_index_dtype(op, 1, in[1]);
  const Shape& x = in[0].shape;
  SPROUT_CHECK(!x.empty(), ValueError, op.name, ": 'input_params' must have rank >= 1, but got a 0-d tensor");
  int64_t axis = normalize_axis(op.name, "axis", a.axis, static_cast<int64_t>(x.size()));
  Shape out(x.begin(), x.begin() + axis);
  append(out, in[1].shape.begin(), in[1].shape.end());
  append(out, x.begin() + axis + 1, x.end());
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

// dout is x[:axis] + indices.shape + x[axis+1:]. Moving the index axes to the front lets
// UnsortedSegmentSum add each slice into its row; the row axis then moves back to `axis`.
std::vector<V> gather_bprop(BpropBuilder& b) {
  const Shape x = b.spec(b.input(0)).shape;
  const int64_t ndim = static_cast<int64_t>(x.size());
  const int64_t axis = normalize_axis("Gather", "axis", b.prim().attrs_as<GatherAttrs>().axis, ndim);
  const int64_t r = static_cast<int64_t>(b.spec(b.input(1)).shape.size());
  std::vector<int64_t> front;
  for (int64_t d = axis; d < axis + r; ++d) front.push_back(d);
  for (int64_t d = 0; d < axis; ++d) front.push_back(d);
  for (int64_t d = axis + r; d < ndim - 1 + r; ++d) front.push_back(d);
  V moved = b.transpose(b.dout(), front);
  // Gather accepts negative indices (from the end); UnsortedSegmentSum would drop them: wrap them first.
  V ids = b.input(1);
  const DType id_type = b.spec(ids).dtype;
  V negative = b.mask(emit_op(b, "Less", {ids, b.scalar(0, id_type)}), ids);
  ids = b.add(ids, b.mul(negative, b.scalar(static_cast<double>(x[axis]), id_type)));
  V summed = emit_op(b, "UnsortedSegmentSum", {moved, ids}, {{"num_segments", x[axis]}});
  std::vector<int64_t> back;  // summed is [x[axis], x[:axis], x[axis+1:]]
  for (int64_t d = 1; d <= axis; ++d) back.push_back(d);
  back.push_back(0);
  for (int64_t d = axis + 1; d < ndim; ++d) back.push_back(d);
  return {b.transpose(summed, back), V{}};
}

std::vector<TensorSpec> infer_segment_sum(const OpDef& op, const SegmentAttrs& a, std::span<const TensorSpec> in) {
  check_index_dtype(op, 1, in[1]);
  const Shape &x = in[0].shape, &ids = in[1].shape;
  SPROUT_CHECK(ids.size() <= x.size() && std::equal(ids.begin(), ids.end(), x.begin()), ValueError, op.name,
               ": the shape of 'segment_ids' ", shape_str(ids), " must be a prefix of the shape of 'input_x' ",
               shape_str(x));
  SPROUT_CHECK(a.num_segments >= 0, ValueError, op.name, ": 'num_segments' must be non-negative, but got ",
               a.num_segments);
  Shape out{a.num_segments};
  append(out, x.begin() + static_cast<int64_t>(ids.size()), x.end());
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

// ---- GatherNd, ScatterNd, TensorScatterUpdate ---------------------------------------------------

// indices [..., k] address the first k axes of `shape`; the result is indices.shape[:-1] + shape[k:].
Shape nd_result_shape(const OpDef& op, const Shape& indices, const Shape& shape, std::string_view shape_arg) {
  SPROUT_CHECK(!indices.empty(), ValueError, op.name, ": 'indices' must have rank >= 1, but got a 0-d tensor");
  int64_t k = indices.back();
  SPROUT_CHECK(k <= static_cast<int64_t>(shape.size()), ValueError, op.name, ": 'indices' of shape ",
               shape_str(indices), " address ", k, " axes, but '", shape_arg, "' has shape ", shape_str(shape));
  Shape out(indices.begin(), indices.end() - 1);
  append(out, shape.begin() + k, shape.end());
  return out;
}

std::vector<TensorSpec> infer_gather_nd(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_index_dtype(op, 1, in[1]);
  return {TensorSpec{in[0].dtype, nd_result_shape(op, in[1].shape, in[0].shape, "input_x")}};
}

std::vector<TensorSpec> infer_scatter_nd(const OpDef& op, const ScatterNdAttrs& a, std::span<const TensorSpec> in) {
  check_index_dtype(op, 0, in[0]);
  check_shape(op.name, "shape", a.shape);
  Shape expected = nd_result_shape(op, in[0].shape, Shape(a.shape), "shape");
  SPROUT_CHECK(in[1].shape == expected, ValueError, op.name, ": 'updates' must have shape ", shape_str(expected),
               " for 'indices' of shape ", shape_str(in[0].shape), " and 'shape' ", shape_str(a.shape),
               ", but got ", shape_str(in[1].shape));
  return {TensorSpec{in[1].dtype, Shape(a.shape)}};
}

std::vector<TensorSpec> infer_tensor_scatter_update(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_index_dtype(op, 1, in[1]);
  SPROUT_CHECK(in[0].dtype == in[2].dtype, TypeError, op.name,
               ": 'updates' must have the dtype of 'input_x' (", name(in[0].dtype), "), but got ", name(in[2].dtype));
  Shape expected = nd_result_shape(op, in[1].shape, in[0].shape, "input_x");
  SPROUT_CHECK(in[2].shape == expected, ValueError, op.name, ": 'updates' must have shape ", shape_str(expected),
               " for 'indices' of shape ", shape_str(in[1].shape), " into 'input_x' of shape ", shape_str(in[0].shape),
               ", but got ", shape_str(in[2].shape));
  return {in[0]};
}

V gather_nd(BpropBuilder& b, V x, V indices) { return emit_op(b, "GatherNd", {x, indices}); }

// ---- OneHot ---------------------------------------------------------------------------------------

std::vector<TensorSpec> infer_one_hot(const OpDef& op, const OneHotAttrs& a, std::span<const TensorSpec> in) {
  check_index_dtype(op, 0, in[0]);
  SPROUT_CHECK(a.depth >= 0, ValueError, op.name, ": 'depth' must be non-negative, but got ", a.depth);
  SPROUT_CHECK(in[1].dtype == in[2].dtype, TypeError, op.name,
               ": 'on_value' and 'off_value' must have the same dtype, but got ", name(in[1].dtype), " and ",
               name(in[2].dtype));
  for (size_t i = 1; i < 3; ++i)
    SPROUT_CHECK(in[i].shape.empty(), ValueError, op.name, ": '", op.inputs[i],
                 "' must be a 0-d tensor, but got shape ", shape_str(in[i].shape));
  const int64_t ndim = static_cast<int64_t>(in[0].shape.size());
  SPROUT_CHECK(a.axis >= -1 && a.axis <= ndim, ValueError, op.name, ": 'axis' must be in [-1, ", ndim,
               "], but got ", a.axis);
  Shape out = in[0].shape;
  out.insert(out.begin() + (a.axis == -1 ? ndim : a.axis), a.depth);
  return {TensorSpec{in[1].dtype, std::move(out)}};
}

std::vector<V> one_hot_bprop(BpropBuilder& b) {
  const DType t = b.spec(b.out()).dtype;
  if (!is_floating(t)) return {V{}, V{}, V{}};
  const auto& a = b.prim().attrs_as<OneHotAttrs>();
  V hot = emit_op(b, "OneHot", {b.input(0), b.scalar(1, t), b.scalar(0, t)}, {{"axis", a.axis}, {"depth", a.depth}});
  V d_on = b.reduce_sum(b.mul(b.dout(), hot), {}, false);
  V d_off = b.sub(b.reduce_sum(b.dout(), {}, false), d_on);
  return {V{}, d_on, d_off};
}

// ---- ScatterAdd (in place) ------------------------------------------------------------------------

std::vector<TensorSpec> infer_scatter_add(const OpDef& op, const ScatterAddAttrs&, std::span<const TensorSpec> in) {
  check_index_dtype(op, 1, in[1]);
  SPROUT_CHECK(in[0].dtype == in[2].dtype, TypeError, op.name,
               ": 'updates' must have the dtype of 'input_x' (", name(in[0].dtype), "), but got ", name(in[2].dtype));
  SPROUT_CHECK(!in[0].shape.empty(), ValueError, op.name, ": 'input_x' must have rank >= 1, but got a 0-d tensor");
  Shape expected = in[1].shape;
  append(expected, in[0].shape.begin() + 1, in[0].shape.end());
  SPROUT_CHECK(in[2].shape == expected, ValueError, op.name, ": 'updates' must have shape indices.shape + ",
               "input_x.shape[1:] = ", shape_str(expected), ", but got ", shape_str(in[2].shape));
  return {in[0]};
}

// ScatterAdd updates 'input_x' itself (a Parameter, in MindSpore) and returns it: the kernel adds into
// the input's memory.
std::vector<Tensor> dispatch_scatter_add(const ScatterAddAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("ScatterAdd");
  std::vector<Tensor> out{in[0]};
  def.kernel(Device::CPU)(&a, in, out);
  in[0].bump_version();  // Note [In-place writes and saved values]
  return out;
}

}  // namespace

SPROUT_REGISTER(array_index) {
  define_op<NoAttrs>("Select")
      .doc("Picks x where 'cond' is True, else y, elementwise with broadcasting (ops.where).")
      .inputs({"cond", "x", "y"})
      .outputs({"output"})
      .infer(infer_select)
      .bprop(bprop_rule(select_bprop));
  define_op<NoAttrs>("MaskedFill")
      .doc("The input with 'value' written where 'mask' is True (mask broadcasts).")
      .inputs({"input", "mask", "value"})
      .outputs({"output"})
      .infer(infer_masked_fill)
      .bprop(bprop_rule(masked_fill_bprop));
  define_op<NoAttrs>("MaskedSelect")
      .doc("The elements where 'mask' is True, as a 1-d tensor (mask and input broadcast).")
      .inputs({"x", "mask"})
      .outputs({"output"})
      .infer(infer_masked_select)
      .view(dispatch_masked_select)
      .bprop(bprop_rule(masked_select_bprop));
  define_op<NoAttrs>("NonZero")
      .doc("The indices of the nonzero (True) elements, one Int64 row of coordinates each, in row-major order.")
      .inputs({"input"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_nonzero)
      .view(dispatch_nonzero)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {zeros_like(b, b.input(0))}; }));
  define_op<GatherAttrs>("Gather")
      .doc("Slices of 'input_params' along 'axis' at 'input_indices' (int32/int64; negative counts from the end).")
      .inputs({"input_params", "input_indices"})
      .outputs({"output"})
      .infer(infer_gather)
      .bprop(bprop_rule(gather_bprop));
  define_op<SegmentAttrs>("UnsortedSegmentSum")
      .doc("Sums the slices of 'input_x' that share a segment id; ids outside [0, num_segments) are dropped.")
      .inputs({"input_x", "segment_ids"})
      .outputs({"output"})
      .infer(infer_segment_sum)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {emit_op(b, "Gather", {b.dout(), b.input(1)}, {{"axis", int64_t{0}}}), V{}};
      }));
  define_op<NoAttrs>("GatherNd")
      .doc("Slices of 'input_x' at the coordinates in the last axis of 'indices'.")
      .inputs({"input_x", "indices"})
      .outputs({"output"})
      .infer(infer_gather_nd)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const Shape x = b.spec(b.input(0)).shape;
        return {emit_op(b, "ScatterNd", {b.input(1), b.dout()}, {{"shape", std::vector<int64_t>(x.begin(), x.end())}}),
                V{}};
      }));
  define_op<ScatterNdAttrs>("ScatterNd")
      .doc("Zeros of 'shape' with 'updates' added at 'indices' (duplicates accumulate).")
      .inputs({"indices", "updates"})
      .outputs({"output"})
      .infer(infer_scatter_nd)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {V{}, gather_nd(b, b.dout(), b.input(0))}; }));
  define_op<NoAttrs>("TensorScatterUpdate")
      .doc("A copy of 'input_x' with the slices at 'indices' replaced by 'updates'.")
      .inputs({"input_x", "indices", "updates"})
      .outputs({"output"})
      .infer(infer_tensor_scatter_update)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        V dx = emit_op(b, "TensorScatterUpdate", {b.dout(), b.input(1), zeros_like(b, b.input(2))});
        return {dx, V{}, gather_nd(b, b.dout(), b.input(1))};
      }));
  define_op<OneHotAttrs>("OneHot")
      .doc("'on_value' where an index equals the position along the new 'depth' axis, else 'off_value'.")
      .inputs({"indices", "on_value", "off_value"})
      .outputs({"output"})
      .infer(infer_one_hot)
      .bprop(bprop_rule(one_hot_bprop));
  define_op<ScatterAddAttrs>("ScatterAdd")
      .side_effect()
      .doc("Adds 'updates' into the rows of 'input_x' at 'indices', in place (duplicates accumulate); returns it.")
      .inputs({"input_x", "indices", "updates"})
      .outputs({"output"})
      .infer(infer_scatter_add)
      .view(dispatch_scatter_add)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.dout(), V{}, emit_op(b, "Gather", {b.dout(), b.input(1)}, {{"axis", int64_t{0}}})};
      }));
}

}  // namespace sprout
