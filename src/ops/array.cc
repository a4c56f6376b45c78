// Layout ops. Reshape and Transpose return views in eager mode (no copy when the layout allows);
// Cast converts with C++ conversion semantics (float -> int truncates toward zero, as MindSpore).
#include "ops/array.h"

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

std::vector<TensorSpec> infer_cast(const OpDef&, const CastAttrs& a, std::span<const TensorSpec> in) {
  return {TensorSpec{a.dst_type, in[0].shape}};
}

std::vector<TensorSpec> infer_reshape_op(const OpDef& op, const ReshapeAttrs& a, std::span<const TensorSpec> in) {
  return {TensorSpec{in[0].dtype, infer_reshape(op.name, a.shape, numel(in[0].shape))}};
}

std::vector<Tensor> view_reshape(const ReshapeAttrs& a, std::span<const Tensor> in) { return {in[0].reshape(a.shape)}; }

std::vector<TensorSpec> infer_transpose(const OpDef& op, const TransposeAttrs& a, std::span<const TensorSpec> in) {
  const Shape& s = in[0].shape;
  SPROUT_CHECK(a.perm.size() == s.size(), ValueError, op.name, ": 'perm' must have ", s.size(),
               " entries for 'input_x' of shape ", shape_str(s), ", but got ", shape_str(a.perm));
  Shape out(s.size());
  std::vector<bool> seen(s.size(), false);
  for (size_t i = 0; i < s.size(); ++i) {
    int64_t d = normalize_axis(op.name, "perm", a.perm[i], static_cast<int64_t>(s.size()));
    SPROUT_CHECK(!seen[d], ValueError, op.name, ": 'perm' must be a permutation of the axes, but got ",
                 shape_str(a.perm));
    seen[d] = true;
    out[i] = s[d];
  }
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

std::vector<Tensor> view_transpose(const TransposeAttrs& a, std::span<const Tensor> in) { return {in[0].permute(a.perm)}; }

Shape broadcast_target(const OpDef& op, const BroadcastToAttrs& a, const Shape& x) {
  SPROUT_CHECK(a.shape.size() >= x.size(), ValueError, op.name, ": 'shape' ", shape_str(a.shape),
               " has lower rank than 'input_x' of shape ", shape_str(x));
  Shape out(a.shape);
  size_t lead = out.size() - x.size();
  for (size_t d = 0; d < out.size(); ++d) {
    int64_t have = d < lead ? 1 : x[d - lead];
    if (out[d] == -1) {
      SPROUT_CHECK(d >= lead, ValueError, op.name, ": -1 in 'shape' ", shape_str(a.shape),
                   " must be at a dimension the input has");
      out[d] = have;
    }
    SPROUT_CHECK(have == out[d] || have == 1, ValueError, op.name, ": cannot broadcast 'input_x' of shape ",
                 shape_str(x), " to ", shape_str(a.shape), ": dimension ", d, " is ", have, ", expected ", out[d],
                 " or 1");
  }
  return out;
}

std::vector<TensorSpec> infer_broadcast_to(const OpDef& op, const BroadcastToAttrs& a, std::span<const TensorSpec> in) {
  return {TensorSpec{in[0].dtype, broadcast_target(op, a, in[0].shape)}};
}

std::vector<Tensor> view_broadcast_to(const BroadcastToAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("BroadcastTo");
  return {in[0].expand(broadcast_target(def, a, in[0].shape()))};
}

using V = BpropBuilder::V;

}  // namespace

SPROUT_REGISTER(array) {
  define_op<CastAttrs>("Cast")
      .doc("Converts to another dtype.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_cast)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        DType from = b.spec(b.input(0)).dtype;
        if (!is_floating(from)) return {V{}};  // no gradient flows into integers
        return {b.cast(b.dout(), from)};
      }));
  define_op<ReshapeAttrs>("Reshape")
      .doc("Same elements in a new shape; a view when the layout allows.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_reshape_op)
      .view(view_reshape)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.reshape(b.dout(), b.spec(b.input(0)).shape)};
      }));
  define_op<TransposeAttrs>("Transpose")
      .doc("Permutes the axes; a view.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_transpose)
      .view(view_transpose)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const auto& perm = b.prim().attrs_as<TransposeAttrs>().perm;
        int64_t n = static_cast<int64_t>(perm.size());
        std::vector<int64_t> inverse(perm.size());
        for (int64_t i = 0; i < n; ++i) inverse[static_cast<size_t>(perm[i] < 0 ? perm[i] + n : perm[i])] = i;
        return {b.transpose(b.dout(), inverse)};
      }));
  define_op<BroadcastToAttrs>("BroadcastTo")
      .doc("Broadcasts to a shape (NumPy rules); a view with zero strides.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_broadcast_to)
      .view(view_broadcast_to)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.sum_to_shape(b.dout(), b.spec(b.input(0)).shape)};
      }));
}

}  // namespace sprout
