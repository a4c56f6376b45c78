// Layout ops. Reshape and Transpose return views in eager mode (no copy when the layout allows);
// Cast converts with C++ conversion semantics (float -> int truncates toward zero, as MindSpore).
#include "ops/array.h"

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

}  // namespace

SPROUT_REGISTER(array) {
  define_op<CastAttrs>("Cast")
      .doc("Converts to another dtype.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_cast);
  define_op<ReshapeAttrs>("Reshape")
      .doc("Same elements in a new shape; a view when the layout allows.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_reshape_op)
      .view(view_reshape);
  define_op<TransposeAttrs>("Transpose")
      .doc("Permutes the axes; a view.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_transpose)
      .view(view_transpose);
}

}  // namespace sprout
