// Shapes, strides and the rules that relate them: broadcasting and axis normalization.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/small_vector.h"

namespace sprout {

using Shape = SmallVector<int64_t, 6>;
using Strides = SmallVector<int64_t, 6>;  // in elements, not bytes

int64_t numel(std::span<const int64_t> shape);
Strides contiguous_strides(std::span<const int64_t> shape);
std::string shape_str(std::span<const int64_t> shape);  // "(2, 3)", "()" for a scalar

// NumPy broadcasting of two shapes; a ValueError names `op` and both shapes when they don't match.
Shape broadcast_shapes(std::string_view op, std::span<const int64_t> a, std::span<const int64_t> b);

// Maps a possibly negative axis into [0, ndim); a ValueError names op, argument and the range.
int64_t normalize_axis(std::string_view op, std::string_view arg, int64_t axis, int64_t ndim);

// Checks every dimension is non-negative; a ValueError names op and argument otherwise.
void check_shape(std::string_view op, std::string_view arg, std::span<const int64_t> shape);

}  // namespace sprout
