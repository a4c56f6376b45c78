// Building blocks shared by infer functions. Each raises a user error naming the op and argument.
#pragma once

#include <initializer_list>
#include <span>
#include <vector>

#include "ops/op_def.h"

namespace sprout {

// ValueError unless `in` has exactly op.inputs.size() entries.
void check_input_count(const OpDef& op, size_t given);

// TypeError unless the input's dtype is one of `allowed` (the message lists them).
void check_dtype_in(const OpDef& op, size_t input, const TensorSpec& spec, std::initializer_list<DType> allowed);
void check_floating(const OpDef& op, size_t input, const TensorSpec& spec);
void check_not_bool(const OpDef& op, size_t input, const TensorSpec& spec);

// Reduction axes: each normalized into [0, ndim), duplicates rejected; empty means all axes.
std::vector<bool> reduced_axes_mask(const OpDef& op, std::span<const int64_t> axes, int64_t ndim);
Shape reduced_shape(std::span<const int64_t> shape, const std::vector<bool>& mask, bool keep_dims);

// Infer functions used by many ops.
std::vector<TensorSpec> infer_same_as_first(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in);
std::vector<TensorSpec> infer_broadcast(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in);
std::vector<TensorSpec> infer_broadcast_bool(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in);

}  // namespace sprout
