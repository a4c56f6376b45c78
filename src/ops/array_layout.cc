// Array ops that move elements by position: GatherElements and its inverse TensorScatterElements,
// Roll, Meshgrid, Pad and Slice.
#include "ops/array_attrs.h"
#include "ops/array_bprop.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

// ---- GatherElements, TensorScatterElements --------------------------------------------------------

// index has the rank of data and fits inside it on every axis but `axis`.
void check_element_index(const OpDef& op, const Shape& data, const Shape& index, int64_t axis, const char* data_arg,
                         const char* index_arg) {
  SPROUT_CHECK(index.size() == data.size(), ValueError, op.name, ": '", index_arg, "' must have the rank of '",
               data_arg, "' (", data.size(), "), but got shape ", shape_str(index));
  for (size_t d = 0; d < data.size(); ++d)
    SPROUT_CHECK(static_cast<int64_t>(d) == axis || index[d] <= data[d], ValueError, op.name, ": '", index_arg,
                 "' of shape ", shape_str(index), " does not fit in '", data_arg, "' of shape ", shape_str(data),
                 " on axis ", d);
}

std::vector<TensorSpec> infer_gather_elements(const OpDef& op, const GatherElementsAttrs& a,
                                              std::span<const TensorSpec> in) {
  check_dtype_in(op, 1, in[1], {DType::Int32, DType::Int64});
  SPROUT_CHECK(!in[0].shape.empty(), ValueError, op.name, ": 'data' must have rank >= 1, but got a 0-d tensor");
  int64_t axis = normalize_axis(op.name, "dim", a.dim, static_cast<int64_t>(in[0].shape.size()));
  check_element_index(op, in[0].shape, in[1].shape, axis, "data", "index");
  return {TensorSpec{in[0].dtype, in[1].shape}};
}

std::vector<TensorSpec> infer_scatter_elements(const OpDef& op, const ScatterElementsAttrs& a,
                                               std::span<const TensorSpec> in) {
  check_dtype_in(op, 1, in[1], {DType::Int32, DType::Int64});
  SPROUT_CHECK(a.reduction == "none" || a.reduction == "add", ValueError, op.name,
               ": 'reduction' must be 'none' or 'add', but got '", a.reduction, "'");
  SPROUT_CHECK(in[0].dtype == in[2].dtype, TypeError, op.name, ": 'updates' must have the dtype of 'input_x' (",
               name(in[0].dtype), "), but got ", name(in[2].dtype));
  SPROUT_CHECK(in[1].shape == in[2].shape, ValueError, op.name, ": 'indices' and 'updates' must have the same shape, ",
               "but got ", shape_str(in[1].shape), " and ", shape_str(in[2].shape));
  SPROUT_CHECK(!in[0].shape.empty(), ValueError, op.name, ": 'input_x' must have rank >= 1, but got a 0-d tensor");
  int64_t axis = normalize_axis(op.name, "axis", a.axis, static_cast<int64_t>(in[0].shape.size()));
  check_element_index(op, in[0].shape, in[1].shape, axis, "input_x", "indices");
  return {in[0]};
}

V gather_elements(BpropBuilder& b, V data, V index, int64_t axis) {
  return emit_op(b, "GatherElements", {data, index}, {{"dim", axis}});
}

std::vector<V> gather_elements_bprop(BpropBuilder& b) {
  const int64_t ndim = static_cast<int64_t>(b.spec(b.input(0)).shape.size());
  const int64_t axis = normalize_axis("GatherElements", "dim", b.prim().attrs_as<GatherElementsAttrs>().dim, ndim);
  V dx = emit_op(b, "TensorScatterElements", {zeros_like(b, b.input(0)), b.input(1), b.dout()},
                 {{"axis", axis}, {"reduction", std::string("add")}});
  return {dx, V{}};
}

std::vector<V> scatter_elements_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<ScatterElementsAttrs>();
  const int64_t axis = normalize_axis("TensorScatterElements", "axis", a.axis,
                                      static_cast<int64_t>(b.spec(b.input(0)).shape.size()));
  V dupdates = gather_elements(b, b.dout(), b.input(1), axis);
  if (a.reduction == "add") return {b.dout(), V{}, dupdates};
  // Replaced elements get no gradient from x: scatter zeros over dout where the updates went.
  V dx = b.emitter().emit(b.prim(), std::array<V, 3>{b.dout(), b.input(1), zeros_like(b, b.input(2))});
  return {dx, V{}, dupdates};
}

// ---- Roll ------------------------------------------------------------------------------------------

std::vector<TensorSpec> infer_roll(const OpDef& op, const RollAttrs& a, std::span<const TensorSpec> in) {
  const int64_t ndim = static_cast<int64_t>(in[0].shape.size());
  if (a.axis.empty()) {
    SPROUT_CHECK(a.shift.size() == 1, ValueError, op.name, ": without 'axis', 'shift' must be one number, but got ",
                 shape_str(a.shift));
  } else {
    SPROUT_CHECK(a.shift.size() == a.axis.size(), ValueError, op.name, ": 'shift' ", shape_str(a.shift), " and 'axis' ",
                 shape_str(a.axis), " must have the same length");
    for (int64_t axis : a.axis) normalize_axis(op.name, "axis", axis, ndim);
  }
  return {in[0]};
}

// ---- Meshgrid --------------------------------------------------------------------------------------

// 'xy' swaps the first two output axes: input i varies along output axis meshgrid_axis(i).
int64_t meshgrid_axis(const MeshgridAttrs& a, size_t i, size_t n) {
  if (a.indexing == "xy" && n >= 2 && i < 2) return static_cast<int64_t>(1 - i);
  return static_cast<int64_t>(i);
}

std::vector<TensorSpec> infer_meshgrid(const OpDef& op, const MeshgridAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(a.indexing == "xy" || a.indexing == "ij", ValueError, op.name,
               ": 'indexing' must be 'xy' or 'ij', but got '", a.indexing, "'");
  SPROUT_CHECK(in.size() >= 2, ValueError, op.name, ": 'inputs' must hold at least 2 tensors, but got ", in.size());
  Shape out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    SPROUT_CHECK(in[i].shape.size() == 1, ValueError, op.name, ": every input must be 1-d, but input ", i,
                 " has shape ", shape_str(in[i].shape));
    SPROUT_CHECK(in[i].dtype == in[0].dtype, TypeError, op.name,
                 ": every input must have the same dtype, but input 0 is ", name(in[0].dtype), " and input ", i,
                 " is ", name(in[i].dtype));
    out[meshgrid_axis(a, i, in.size())] = in[i].shape[0];
  }
  return std::vector<TensorSpec>(in.size(), TensorSpec{in[0].dtype, out});
}

std::vector<V> meshgrid_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<MeshgridAttrs>();
  const size_t n = b.inputs().size();
  std::vector<V> grads;
  for (size_t i = 0; i < n; ++i) {
    if (!b.dout(i).valid()) {
      grads.push_back(zeros_like(b, b.input(i)));
      continue;
    }
    std::vector<int64_t> others;
    for (size_t d = 0; d < n; ++d)
      if (static_cast<int64_t>(d) != meshgrid_axis(a, i, n)) others.push_back(static_cast<int64_t>(d));
    grads.push_back(b.reduce_sum(b.dout(i), others, false));
  }
  return grads;
}

// ---- Pad, Slice -----------------------------------------------------------------------------------

std::vector<TensorSpec> infer_pad(const OpDef& op, const PadAttrs& a, std::span<const TensorSpec> in) {
  const Shape& x = in[0].shape;
  SPROUT_CHECK(a.paddings.size() == 2 * x.size(), ValueError, op.name, ": 'paddings' must hold a (before, after) ",
               "pair for each of the ", x.size(), " axes of 'input_x', but got ", a.paddings.size() / 2, " pairs");
  Shape out = x;
  for (size_t d = 0; d < x.size(); ++d) {
    SPROUT_CHECK(a.paddings[2 * d] >= 0 && a.paddings[2 * d + 1] >= 0, ValueError, op.name,
                 ": 'paddings' must be non-negative, but axis ", d, " has (", a.paddings[2 * d], ", ",
                 a.paddings[2 * d + 1], ")");
    out[d] += a.paddings[2 * d] + a.paddings[2 * d + 1];
  }
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

// The resolved (begin, size) of each axis.
std::vector<std::pair<int64_t, int64_t>> slice_bounds(const OpDef& op, const SliceAttrs& a, const Shape& x) {
  SPROUT_CHECK(a.begin.size() == x.size() && a.size.size() == x.size(), ValueError, op.name,
               ": 'begin' and 'size' must have one entry per axis of 'input_x' (", x.size(), "), but got ",
               shape_str(a.begin), " and ", shape_str(a.size));
  std::vector<std::pair<int64_t, int64_t>> out;
  for (size_t d = 0; d < x.size(); ++d) {
    int64_t begin = a.begin[d], size = a.size[d] == -1 ? x[d] - begin : a.size[d];
    SPROUT_CHECK(begin >= 0 && size >= 0 && begin + size <= x[d], ValueError, op.name, ": axis ", d, " of size ", x[d],
                 " cannot hold a slice starting at ", a.begin[d], " of size ", a.size[d]);
    out.emplace_back(begin, size);
  }
  return out;
}

std::vector<TensorSpec> infer_slice(const OpDef& op, const SliceAttrs& a, std::span<const TensorSpec> in) {
  Shape out;
  for (auto [begin, size] : slice_bounds(op, a, in[0].shape)) out.push_back(size);
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

std::vector<Tensor> view_slice(const SliceAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("Slice");
  Tensor out = in[0];
  int64_t d = 0;
  for (auto [begin, size] : slice_bounds(def, a, in[0].shape())) {
    out = out.slice(d, begin, begin + size, 1);
    ++d;
  }
  return {out};
}

std::vector<V> slice_bprop(BpropBuilder& b) {
  const Shape x = b.spec(b.input(0)).shape;
  std::vector<int64_t> paddings;
  size_t d = 0;
  for (auto [begin, size] : slice_bounds(b.prim().def(), b.prim().attrs_as<SliceAttrs>(), x)) {
    paddings.push_back(begin);
    paddings.push_back(x[d++] - begin - size);
  }
  return {emit_op(b, "Pad", {b.dout()}, {{"paddings", paddings}})};
}

std::vector<V> pad_bprop(BpropBuilder& b) {
  const Shape x = b.spec(b.input(0)).shape;
  const auto& p = b.prim().attrs_as<PadAttrs>().paddings;
  std::vector<int64_t> begin;
  for (size_t d = 0; d < x.size(); ++d) begin.push_back(p[2 * d]);
  return {emit_op(b, "Slice", {b.dout()}, {{"begin", begin}, {"size", std::vector<int64_t>(x.begin(), x.end())}})};
}

}  // namespace

SPROUT_REGISTER(array_layout) {
  define_op<GatherElementsAttrs>("GatherElements")
      .doc("out[i][j] = data[index[i][j]][j] for dim 0 (and so on for other dims); index int32/int64.")
      .inputs({"data", "index"})
      .outputs({"output"})
      .infer(infer_gather_elements)
      .bprop(bprop_rule(gather_elements_bprop));
  define_op<ScatterElementsAttrs>("TensorScatterElements")
      .doc("A copy of 'input_x' with each update written (or added) at its index along 'axis'.")
      .inputs({"input_x", "indices", "updates"})
      .outputs({"output"})
      .infer(infer_scatter_elements)
      .bprop(bprop_rule(scatter_elements_bprop));
  define_op<RollAttrs>("Roll")
      .doc("Shifts elements along axes, wrapping around (no axis: over the flattened tensor).")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_roll)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const auto& a = b.prim().attrs_as<RollAttrs>();
        std::vector<int64_t> back;
        for (int64_t s : a.shift) back.push_back(-s);
        return {emit_op(b, "Roll", {b.dout()}, {{"shift", back}, {"axis", a.axis}})};
      }));
  define_op<MeshgridAttrs>("Meshgrid")
      .doc("Coordinate grids from 1-d tensors: output i repeats input i along every other axis.")
      .inputs({"inputs"})
      .outputs({"outputs"})
      .variadic()
      .infer(infer_meshgrid)
      .bprop(bprop_rule(meshgrid_bprop));
  define_op<PadAttrs>("Pad")
      .doc("Pads with zeros: (before, after) elements per axis.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_pad)
      .bprop(bprop_rule(pad_bprop));
  define_op<SliceAttrs>("Slice")
      .doc("The block starting at 'begin' of extent 'size' (-1: to the end); a view.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_slice)
      .view(view_slice)
      .bprop(bprop_rule(slice_bprop));
}

}  // namespace sprout
