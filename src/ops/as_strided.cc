// AsStrided and its transpose AsStridedScatter. Python's basic indexing (ints, slices, None, ...)
// records itself as AsStrided while a gradient is being taken, so indexing is differentiable to any
// order: each op's gradient is the other.
#include "ops/as_strided.h"

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

void check_window(const OpDef& op, const AsStridedAttrs& a, std::span<const int64_t> input_shape) {
  SPROUT_CHECK(a.size.size() == a.stride.size(), ValueError, op.name, ": 'size' ", shape_str(a.size), " and 'stride' ",
               shape_str(a.stride), " must have the same length");
  check_shape(op.name, "size", a.size);
  int64_t total = numel(input_shape), lo = a.storage_offset, hi = a.storage_offset;
  bool empty = false;
  for (size_t d = 0; d < a.size.size(); ++d) {
    empty = empty || a.size[d] == 0;
    int64_t span = (a.size[d] - 1) * a.stride[d];
    (span < 0 ? lo : hi) += span;
  }
  SPROUT_CHECK(empty || (lo >= 0 && hi < total), ValueError, op.name, ": the window (size ", shape_str(a.size),
               ", stride ", shape_str(a.stride), ", offset ", a.storage_offset, ") reaches elements [", lo, ", ", hi,
               "] of an input with ", total, " elements");
}

std::vector<TensorSpec> infer_as_strided(const OpDef& op, const AsStridedAttrs& a, std::span<const TensorSpec> in) {
  check_window(op, a, in[0].shape);
  return {TensorSpec{in[0].dtype, Shape(a.size)}};
}

std::vector<TensorSpec> infer_scatter(const OpDef& op, const AsStridedScatterAttrs& a, std::span<const TensorSpec> in) {
  check_window(op, a, a.input_size);
  SPROUT_CHECK(std::equal(in[0].shape.begin(), in[0].shape.end(), a.size.begin(), a.size.end()), ValueError, op.name,
               ": 'x' has shape ", shape_str(in[0].shape), " but the window has size ", shape_str(a.size));
  return {TensorSpec{in[0].dtype, Shape(a.input_size)}};
}

std::vector<Tensor> view_as_strided(const AsStridedAttrs& a, std::span<const Tensor> in) {
  Tensor x = in[0].contiguous();
  return {x.as_strided(a.size, a.stride, x.offset() + a.storage_offset)};
}

using V = BpropBuilder::V;

}  // namespace

SPROUT_REGISTER(as_strided) {
  define_op<AsStridedAttrs>("AsStrided")
      .doc("A strided window over the row-major elements of x (a view of contiguous inputs).")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_as_strided)
      .view(view_as_strided)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const auto& a = b.prim().attrs_as<AsStridedAttrs>();
        const Shape& shape = b.spec(b.input(0)).shape;
        return {b.emitter().emit("AsStridedScatter", {b.dout()},
                                 {{"size", a.size}, {"stride", a.stride}, {"storage_offset", a.storage_offset},
                                  {"input_size", std::vector<int64_t>(shape.begin(), shape.end())}})};
      }));
  define_op<AsStridedScatterAttrs>("AsStridedScatter")
      .doc("Zeros of input_size with x added at the positions of the AsStrided window (its gradient).")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_scatter)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const auto& a = b.prim().attrs_as<AsStridedScatterAttrs>();
        return {b.emitter().emit("AsStrided", {b.dout()},
                                 {{"size", a.size}, {"stride", a.stride}, {"storage_offset", a.storage_offset}})};
      }));
}

}  // namespace sprout
