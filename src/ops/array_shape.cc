// Array ops that rearrange elements without computing on them: ExpandDims, Squeeze, Flatten, Concat,
// Stack, Split, SplitV, Tile, ReverseV2, Identity, Depend, StopGradient.
// Those whose output is a reinterpretation of the input's memory (ExpandDims, Squeeze, Split,
// ReverseV2 ...) are views in eager mode; the others have kernels in kernels/cpu/array_shape.cc.
#include "ops/array_attrs.h"
#include "ops/array_bprop.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

// ---- ExpandDims, Squeeze, Flatten --------------------------------------------------------------

std::vector<TensorSpec> infer_expand_dims(const OpDef& op, const ExpandDimsAttrs& a, std::span<const TensorSpec> in) {
  int64_t ndim = static_cast<int64_t>(in[0].shape.size());
  int64_t axis = normalize_axis(op.name, "axis", a.axis, ndim + 1);
  Shape out = in[0].shape;
  out.insert(out.begin() + axis, 1);
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

std::vector<Tensor> view_expand_dims(const ExpandDimsAttrs& a, std::span<const Tensor> in) {
  return {in[0].unsqueeze(a.axis)};
}

// Which axes Squeeze removes: the listed ones (each must have size 1), or every axis of size 1.
std::vector<bool> squeezed_axes(const OpDef& op, const SqueezeAttrs& a, const Shape& shape) {
  int64_t ndim = static_cast<int64_t>(shape.size());
  std::vector<bool> drop(shape.size(), false);
  if (a.axis.empty()) {
    for (size_t d = 0; d < shape.size(); ++d) drop[d] = shape[d] == 1;
    return drop;
  }
  for (int64_t axis : a.axis) {
    int64_t d = normalize_axis(op.name, "axis", axis, ndim);
    if (ndim == 0) continue;
    SPROUT_CHECK(shape[d] == 1, ValueError, op.name, ": cannot squeeze axis ", axis, " of 'input_x' with shape ",
                 shape_str(shape), ": its size is ", shape[d], ", not 1");
    drop[d] = true;
  }
  return drop;
}

std::vector<TensorSpec> infer_squeeze(const OpDef& op, const SqueezeAttrs& a, std::span<const TensorSpec> in) {
  std::vector<bool> drop = squeezed_axes(op, a, in[0].shape);
  return {TensorSpec{in[0].dtype, reduced_shape(in[0].shape, drop, false)}};
}

std::vector<Tensor> view_squeeze(const SqueezeAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("Squeeze");
  const Tensor& x = in[0];
  std::vector<bool> drop = squeezed_axes(def, a, x.shape());
  Shape shape;
  Strides strides;
  for (size_t d = 0; d < drop.size(); ++d) {
    if (drop[d]) continue;
    shape.push_back(x.shape()[d]);
    strides.push_back(x.strides()[d]);
  }
  return {x.as_strided(shape, strides, x.offset())};
}

Shape flatten_shape(const OpDef& op, const Shape& x) {
  SPROUT_CHECK(!x.empty(), ValueError, op.name, ": 'input_x' must have rank >= 1, but got a 0-d tensor");
  int64_t rest = 1;
  for (size_t d = 1; d < x.size(); ++d) rest *= x[d];
  return Shape{x[0], rest};
}

std::vector<TensorSpec> infer_flatten(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  return {TensorSpec{in[0].dtype, flatten_shape(op, in[0].shape)}};
}

std::vector<Tensor> view_flatten(const NoAttrs&, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("Flatten");
  return {in[0].reshape(flatten_shape(def, in[0].shape()))};
}

// The gradient of every op that only changes the shape: dout in the input's shape.
std::vector<V> reshape_back(BpropBuilder& b) { return {b.reshape(b.dout(), b.spec(b.input(0)).shape)}; }

// ---- Concat, Stack ------------------------------------------------------------------------------

std::vector<TensorSpec> infer_concat(const OpDef& op, const AxisAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(!in.empty(), ValueError, op.name, ": 'input_x' must hold at least one tensor, but got none");
  const Shape& first = in[0].shape;
  SPROUT_CHECK(!first.empty(), ValueError, op.name, ": cannot concatenate 0-d tensors; use ops.stack");
  int64_t axis = normalize_axis(op.name, "axis", a.axis, static_cast<int64_t>(first.size()));
  Shape out = first;
  for (size_t i = 1; i < in.size(); ++i) {
    const Shape& s = in[i].shape;
    bool same = s.size() == first.size();
    for (size_t d = 0; same && d < s.size(); ++d) same = static_cast<int64_t>(d) == axis || s[d] == first[d];
    SPROUT_CHECK(same, ValueError, op.name, ": all tensors must have the same shape except along axis ", axis,
                 ", but tensor 0 has shape ", shape_str(first), " and tensor ", i, " has shape ", shape_str(s));
    out[axis] += s[axis];
  }
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

std::vector<V> concat_bprop(BpropBuilder& b) {
  const int64_t ndim = static_cast<int64_t>(b.spec(b.out()).shape.size());
  const int64_t axis = normalize_axis("Concat", "axis", b.prim().attrs_as<AxisAttrs>().axis, ndim);
  std::vector<int64_t> sizes;
  for (V x : b.inputs()) sizes.push_back(b.spec(x).shape[axis]);
  return split_sizes(b, b.dout(), axis, sizes);
}

std::vector<TensorSpec> infer_stack(const OpDef& op, const AxisAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(!in.empty(), ValueError, op.name, ": 'input_x' must hold at least one tensor, but got none");
  for (size_t i = 1; i < in.size(); ++i)
    SPROUT_CHECK(in[i].shape == in[0].shape, ValueError, op.name,
                 ": all tensors must have the same shape, but tensor 0 has shape ", shape_str(in[0].shape),
                 " and tensor ", i, " has shape ", shape_str(in[i].shape));
  int64_t axis = normalize_axis(op.name, "axis", a.axis, static_cast<int64_t>(in[0].shape.size()) + 1);
  Shape out = in[0].shape;
  out.insert(out.begin() + axis, static_cast<int64_t>(in.size()));
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

std::vector<V> stack_bprop(BpropBuilder& b) {
  const int64_t ndim = static_cast<int64_t>(b.spec(b.out()).shape.size());
  const int64_t axis = normalize_axis("Stack", "axis", b.prim().attrs_as<AxisAttrs>().axis, ndim);
  std::vector<int64_t> ones(b.inputs().size(), 1);
  std::vector<V> parts = split_sizes(b, b.dout(), axis, ones);
  for (size_t i = 0; i < parts.size(); ++i) parts[i] = b.reshape(parts[i], b.spec(b.input(i)).shape);
  return parts;
}

// ---- Split, SplitV ------------------------------------------------------------------------------

std::vector<TensorSpec> split_specs(const TensorSpec& x, int64_t axis, const std::vector<int64_t>& sizes) {
  std::vector<TensorSpec> out;
  for (int64_t n : sizes) {
    Shape s = x.shape;
    s[axis] = n;
    out.push_back(TensorSpec{x.dtype, std::move(s)});
  }
  return out;
}

std::vector<Tensor> split_views(const Tensor& x, int64_t axis, const std::vector<int64_t>& sizes) {
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t n : sizes) {
    out.push_back(x.slice(axis, start, start + n, 1));
    start += n;
  }
  return out;
}

int64_t split_axis(const OpDef& op, std::string_view arg, int64_t axis, const Shape& x) {
  SPROUT_CHECK(!x.empty(), ValueError, op.name, ": cannot split a 0-d tensor");
  return normalize_axis(op.name, arg, axis, static_cast<int64_t>(x.size()));
}

std::vector<int64_t> equal_split_sizes(const OpDef& op, const SplitAttrs& a, const Shape& x) {
  int64_t axis = split_axis(op, "axis", a.axis, x);
  SPROUT_CHECK(a.output_num >= 1, ValueError, op.name, ": 'output_num' must be positive, but got ", a.output_num);
  SPROUT_CHECK(x[axis] % a.output_num == 0, ValueError, op.name, ": axis ", a.axis, " of 'input_x' with shape ",
               shape_str(x), " has size ", x[axis], ", which 'output_num' ", a.output_num, " does not divide");
  return std::vector<int64_t>(static_cast<size_t>(a.output_num), x[axis] / a.output_num);
}

std::vector<TensorSpec> infer_split(const OpDef& op, const SplitAttrs& a, std::span<const TensorSpec> in) {
  std::vector<int64_t> sizes = equal_split_sizes(op, a, in[0].shape);
  return split_specs(in[0], split_axis(op, "axis", a.axis, in[0].shape), sizes);
}

std::vector<Tensor> view_split(const SplitAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("Split");
  return split_views(in[0], split_axis(def, "axis", a.axis, in[0].shape()), equal_split_sizes(def, a, in[0].shape()));
}

std::vector<int64_t> splitv_sizes(const OpDef& op, const SplitVAttrs& a, const Shape& x) {
  int64_t axis = split_axis(op, "split_dim", a.split_dim, x);
  SPROUT_CHECK(a.num_split == static_cast<int64_t>(a.size_splits.size()), ValueError, op.name,
               ": 'num_split' must equal len('size_splits') = ", a.size_splits.size(), ", but got ", a.num_split);
  std::vector<int64_t> sizes = a.size_splits;
  int64_t known = 0, unknown = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1) {
      SPROUT_CHECK(unknown < 0, ValueError, op.name, ": 'size_splits' ", shape_str(a.size_splits),
                   " may hold -1 at most once");
      unknown = static_cast<int64_t>(i);
      continue;
    }
    SPROUT_CHECK(sizes[i] >= 0, ValueError, op.name, ": 'size_splits' ", shape_str(a.size_splits),
                 " must hold sizes >= 0 (or one -1)");
    known += sizes[i];
  }
  if (unknown >= 0) {
    SPROUT_CHECK(known <= x[axis], ValueError, op.name, ": 'size_splits' ", shape_str(a.size_splits),
                 " add up to more than the size ", x[axis], " of axis ", a.split_dim);
    sizes[static_cast<size_t>(unknown)] = x[axis] - known;
    known = x[axis];
  }
  SPROUT_CHECK(known == x[axis], ValueError, op.name, ": 'size_splits' ", shape_str(a.size_splits),
               " must add up to the size ", x[axis], " of axis ", a.split_dim, " of 'input_x' with shape ",
               shape_str(x));
  return sizes;
}

std::vector<TensorSpec> infer_splitv(const OpDef& op, const SplitVAttrs& a, std::span<const TensorSpec> in) {
  return split_specs(in[0], split_axis(op, "split_dim", a.split_dim, in[0].shape), splitv_sizes(op, a, in[0].shape));
}

std::vector<Tensor> view_splitv(const SplitVAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("SplitV");
  return split_views(in[0], split_axis(def, "split_dim", a.split_dim, in[0].shape()),
                     splitv_sizes(def, a, in[0].shape()));
}

// The gradient of a split is the concatenation of the parts' gradients (zeros for unused parts).
std::vector<V> split_bprop(BpropBuilder& b, int64_t axis) {
  std::vector<V> parts;
  for (size_t i = 0; i < b.outputs().size(); ++i)
    parts.push_back(b.dout(i).valid() ? b.dout(i) : b.emitter().zeros_like(b.out(i)));
  return {concat(b, parts, axis)};
}

// ---- Tile, ReverseV2 ----------------------------------------------------------------------------

std::vector<TensorSpec> infer_tile(const OpDef& op, const TileAttrs& a, std::span<const TensorSpec> in) {
  const Shape& x = in[0].shape;
  SPROUT_CHECK(a.multiples.size() >= x.size(), ValueError, op.name, ": 'multiples' ", shape_str(a.multiples),
               " must have at least as many entries as 'input_x' has axes (", x.size(), ")");
  Shape out(a.multiples.size());
  size_t lead = a.multiples.size() - x.size();
  for (size_t d = 0; d < out.size(); ++d) {
    SPROUT_CHECK(a.multiples[d] >= 0, ValueError, op.name, ": 'multiples' ", shape_str(a.multiples),
                 " must be non-negative");
    out[d] = a.multiples[d] * (d < lead ? 1 : x[d - lead]);
  }
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

// out viewed as [m0, s0, m1, s1, ...]: dout summed over every m axis.
std::vector<V> tile_bprop(BpropBuilder& b) {
  const auto& multiples = b.prim().attrs_as<TileAttrs>().multiples;
  const Shape x = b.spec(b.input(0)).shape;
  size_t lead = multiples.size() - x.size();
  std::vector<int64_t> split_shape, axes;
  for (size_t d = 0; d < multiples.size(); ++d) {
    axes.push_back(static_cast<int64_t>(split_shape.size()));
    split_shape.push_back(multiples[d]);
    split_shape.push_back(d < lead ? 1 : x[d - lead]);
  }
  V summed = b.reduce_sum(b.reshape(b.dout(), split_shape), axes, false);
  return {b.reshape(summed, x)};
}

std::vector<int64_t> reversed_axes(const OpDef& op, const ReverseV2Attrs& a, const Shape& x) {
  std::vector<bool> mask = reduced_axes_mask(op, a.axis, static_cast<int64_t>(x.size()));
  std::vector<int64_t> axes;
  for (size_t d = 0; d < mask.size() && !a.axis.empty(); ++d)
    if (mask[d]) axes.push_back(static_cast<int64_t>(d));
  return axes;
}

std::vector<TensorSpec> infer_reverse(const OpDef& op, const ReverseV2Attrs& a, std::span<const TensorSpec> in) {
  reversed_axes(op, a, in[0].shape);
  return {in[0]};
}

// A reversed axis is the same memory walked backwards: start at its last element, negate its stride.
std::vector<Tensor> view_reverse(const ReverseV2Attrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("ReverseV2");
  const Tensor& x = in[0];
  if (x.numel() == 0) return {x};
  Strides strides = x.strides();
  int64_t offset = x.offset();
  for (int64_t d : reversed_axes(def, a, x.shape())) {
    offset += (x.shape()[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  return {x.as_strided(x.shape(), strides, offset)};
}

// ---- Identity, Depend, StopGradient -------------------------------------------------------------

std::vector<Tensor> view_first(const NoAttrs&, std::span<const Tensor> in) { return {in[0]}; }

}  // namespace

SPROUT_REGISTER(array_shape) {
  define_op<ExpandDimsAttrs>("ExpandDims")
      .doc("Inserts an axis of size 1 at 'axis'; a view.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_expand_dims)
      .view(view_expand_dims)
      .bprop(bprop_rule(reshape_back));
  define_op<SqueezeAttrs>("Squeeze")
      .doc("Removes axes of size 1 (the listed ones, or all); a view.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_squeeze)
      .view(view_squeeze)
      .bprop(bprop_rule(reshape_back));
  define_op<NoAttrs>("Flatten")
      .doc("Keeps axis 0 and merges the others: shape (N, -1); a view when the layout allows.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_flatten)
      .view(view_flatten)
      .bprop(bprop_rule(reshape_back));
  define_op<AxisAttrs>("Concat")
      .doc("Joins a tuple of tensors along an existing axis; dtypes are promoted to a common one.")
      .inputs({"input_x"})
      .outputs({"output"})
      .variadic()
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_concat)
      .bprop(bprop_rule(concat_bprop));
  define_op<AxisAttrs>("Stack")
      .doc("Joins a tuple of same-shape tensors along a new axis; dtypes are promoted to a common one.")
      .inputs({"input_x"})
      .outputs({"output"})
      .variadic()
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_stack)
      .bprop(bprop_rule(stack_bprop));
  define_op<SplitAttrs>("Split")
      .doc("Splits along 'axis' into 'output_num' equal parts; views.")
      .inputs({"input_x"})
      .outputs({"output"})
      .tuple_output()
      .infer(infer_split)
      .view(view_split)
      .bprop(bprop_rule([](BpropBuilder& b) {
        const Shape& x = b.spec(b.input(0)).shape;
        return split_bprop(b, normalize_axis("Split", "axis", b.prim().attrs_as<SplitAttrs>().axis,
                                             static_cast<int64_t>(x.size())));
      }));
  define_op<SplitVAttrs>("SplitV")
      .doc("Splits along 'split_dim' into parts of the given sizes (one may be -1); views.")
      .inputs({"input_x"})
      .outputs({"output"})
      .tuple_output()
      .infer(infer_splitv)
      .view(view_splitv)
      .bprop(bprop_rule([](BpropBuilder& b) {
        const Shape& x = b.spec(b.input(0)).shape;
        return split_bprop(b, normalize_axis("SplitV", "split_dim", b.prim().attrs_as<SplitVAttrs>().split_dim,
                                             static_cast<int64_t>(x.size())));
      }));
  define_op<TileAttrs>("Tile")
      .doc("Repeats the input 'multiples[i]' times along axis i (leading axes added as needed).")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_tile)
      .bprop(bprop_rule(tile_bprop));
  define_op<ReverseV2Attrs>("ReverseV2")
      .doc("Reverses the order of elements along the given axes; a view with negative strides.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_reverse)
      .view(view_reverse)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().emit(b.prim(), std::span<const V>(std::array<V, 1>{b.dout()}))};
      }));
  define_op<NoAttrs>("Identity")
      .doc("A copy of the input (a new tensor, not a view).")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_same_as_first)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {b.dout()}; }));
  define_op<NoAttrs>("Depend")
      .doc("Returns 'value' unchanged; orders its computation after 'expr' in graph mode.")
      .inputs({"value", "expr"})
      .outputs({"output"})
      .infer(infer_same_as_first)
      .view(view_first)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.dout(), b.emitter().zeros_like(b.input(1))};
      }));
  define_op<NoAttrs>("StopGradient")
      .doc("Returns the input unchanged; no gradient flows back through it.")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_same_as_first)
      .view(view_first)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> { return {b.emitter().zeros_like(b.input(0))}; }));
}

}  // namespace sprout
