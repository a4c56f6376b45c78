#include "ops/infer_util.h"

namespace sprout {

void check_input_count(const OpDef& op, size_t given) {
  SPROUT_CHECK(op.variadic || given == op.inputs.size(), ValueError, op.name, ": expects ", op.inputs.size(),
               " tensor input", op.inputs.size() == 1 ? "" : "s", ", but got ", given);
}

namespace {
std::string input_name(const OpDef& op, size_t i) {
  return i < op.inputs.size() ? "'" + op.inputs[i] + "'" : str("input ", i);
}
}  // namespace

void check_dtype_in(const OpDef& op, size_t input, const TensorSpec& spec, std::initializer_list<DType> allowed) {
  for (DType t : allowed)
    if (t == spec.dtype) return;
  std::string names;
  for (DType t : allowed) names += (names.empty() ? "" : ", ") + std::string(name(t));
  throw TypeError(str(op.name, ": ", input_name(op, input), " must have dtype in [", names, "], but got ",
                      name(spec.dtype)));
}

void check_floating(const OpDef& op, size_t input, const TensorSpec& spec) {
  SPROUT_CHECK(is_floating(spec.dtype), TypeError, op.name, ": ", input_name(op, input),
               " must be a floating-point tensor (Float16, BFloat16, Float32, Float64), but got ",
               name(spec.dtype));
}

void check_not_bool(const OpDef& op, size_t input, const TensorSpec& spec) {
  SPROUT_CHECK(spec.dtype != DType::Bool, TypeError, op.name, ": ", input_name(op, input),
               " must be a numeric tensor, but got Bool");
}

std::vector<bool> reduced_axes_mask(const OpDef& op, std::span<const int64_t> axes, int64_t ndim) {
  std::vector<bool> mask(static_cast<size_t>(ndim), axes.empty());
  for (int64_t a : axes) {
    int64_t d = normalize_axis(op.name, "axis", a, ndim);
    if (ndim == 0) continue;
    SPROUT_CHECK(!mask[d], ValueError, op.name, ": 'axis' has duplicate entries for axis ", d, ": ",
                 shape_str(axes));
    mask[d] = true;
  }
  return mask;
}

Shape reduced_shape(std::span<const int64_t> shape, const std::vector<bool>& mask, bool keep_dims) {
  Shape out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!mask[d]) out.push_back(shape[d]);
    else if (keep_dims) out.push_back(1);
  }
  return out;
}

std::vector<TensorSpec> infer_same_as_first(const OpDef&, const NoAttrs&, std::span<const TensorSpec> in) {
  return {in[0]};
}

std::vector<TensorSpec> infer_broadcast(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  return {TensorSpec{in[0].dtype, broadcast_shapes(op.name, in[0].shape, in[1].shape)}};
}

std::vector<TensorSpec> infer_broadcast_bool(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  return {TensorSpec{DType::Bool, broadcast_shapes(op.name, in[0].shape, in[1].shape)}};
}

}  // namespace sprout
