// Ordering ops: Sort, TopK (values and Int32 indices), Unique (sorted distinct values and, for each
// input element, the position of its value among them) and SearchSorted (insertion points in sorted rows).
#include "ops/array_attrs.h"
#include "ops/array_bprop.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

std::vector<TensorSpec> infer_sort(const OpDef& op, const SortAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  normalize_axis(op.name, "axis", a.axis, std::max<int64_t>(1, static_cast<int64_t>(in[0].shape.size())));
  return {in[0], TensorSpec{DType::Int32, in[0].shape}};
}

std::vector<TensorSpec> infer_top_k(const OpDef& op, const TopKAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  const Shape& x = in[0].shape;
  SPROUT_CHECK(!x.empty(), ValueError, op.name, ": 'input_x' must have rank >= 1, but got a 0-d tensor");
  SPROUT_CHECK(a.k >= 0 && a.k <= x.back(), ValueError, op.name, ": 'k' must be in [0, ", x.back(),
               "] for 'input_x' of shape ", shape_str(x), ", but got ", a.k);
  Shape out = x;
  out.back() = a.k;
  return {TensorSpec{in[0].dtype, out}, TensorSpec{DType::Int32, out}};
}

std::vector<TensorSpec> infer_unique(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  SPROUT_CHECK(in[0].shape.size() == 1, ValueError, op.name, ": 'input_x' must be 1-d, but got shape ",
               shape_str(in[0].shape), "; flatten it first");
  return {TensorSpec{in[0].dtype, Shape{-1}}, TensorSpec{DType::Int32, in[0].shape}};  // y's length is dynamic
}

// y's length is the number of distinct values: the kernel computes it and allocates the outputs.
std::vector<Tensor> dispatch_unique(const NoAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("Unique");
  std::vector<Tensor> out{Tensor(), Tensor::empty(in[0].shape(), DType::Int32)};
  def.kernel(Device::CPU)(&a, in, out);  // the kernel fills out[0] with a tensor of the right length
  return out;
}

std::vector<TensorSpec> infer_search_sorted(const OpDef& op, const SearchSortedAttrs& a, std::span<const TensorSpec> in) {
  check_not_bool(op, 0, in[0]);
  const Shape &seq = in[0].shape, &values = in[1].shape;
  SPROUT_CHECK(!seq.empty(), ValueError, op.name, ": 'sorted_sequence' must have rank >= 1, but got a 0-d tensor");
  SPROUT_CHECK(a.dtype == DType::Int32 || a.dtype == DType::Int64, TypeError, op.name,
               ": 'dtype' must be Int32 or Int64, but got ", name(a.dtype));
  if (seq.size() > 1)
    SPROUT_CHECK(values.size() == seq.size() && std::equal(seq.begin(), seq.end() - 1, values.begin()), ValueError,
                 op.name, ": 'sorted_sequence' of shape ", shape_str(seq), " and 'values' of shape ", shape_str(values),
                 " must match in every dimension but the last");
  return {TensorSpec{a.dtype, values}};
}

}  // namespace

SPROUT_REGISTER(array_sort) {
  define_op<SortAttrs>("Sort")
      .doc("Sorts along 'axis' (stable; NaN last); returns the values and their Int32 source indices.")
      .inputs({"x"})
      .outputs({"y", "indices"})
      .non_differentiable({false, true})
      .infer(infer_sort)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const int64_t ndim = std::max<int64_t>(1, static_cast<int64_t>(b.spec(b.input(0)).shape.size()));
        const int64_t axis = normalize_axis("Sort", "axis", b.prim().attrs_as<SortAttrs>().axis, ndim);
        return {scatter_back(b, b.out(1), b.dout(0), axis)};
      }));
  define_op<TopKAttrs>("TopK")
      .doc("The k largest values along the last axis (largest first; ties keep the lower index) and their Int32 "
           "indices.")
      .inputs({"input_x"})
      .outputs({"values", "indices"})
      .non_differentiable({false, true})
      .infer(infer_top_k)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const int64_t last = static_cast<int64_t>(b.spec(b.input(0)).shape.size()) - 1;
        return {scatter_back(b, b.out(1), b.dout(0), last)};
      }));
  define_op<SearchSortedAttrs>("SearchSorted")
      .doc("For each value, the index in the innermost row of 'sorted_sequence' (ascending, NaN last) where "
           "inserting it keeps the row sorted: before equal values, or after them with 'right'. A 1-d sequence "
           "serves every value.")
      .inputs({"sorted_sequence", "values"})
      .outputs({"positions"})
      .non_differentiable({true})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_search_sorted)
      .bprop(bprop_rule([](BpropBuilder&) -> std::vector<V> { return {V{}, V{}}; }));
  define_op<NoAttrs>("Unique")
      .doc("The distinct values of a 1-d tensor in ascending order, and each element's position among them.")
      .inputs({"input_x"})
      .outputs({"output", "idx"})
      .non_differentiable({true, true})
      .infer(infer_unique)
      .view(dispatch_unique)
      .bprop(bprop_rule([](BpropBuilder&) -> std::vector<V> { return {V{}}; }));
}

}  // namespace sprout
