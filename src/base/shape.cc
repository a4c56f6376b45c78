#include "base/shape.h"

#include <algorithm>

#include "base/error.h"

namespace sprout {

int64_t numel(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Strides contiguous_strides(std::span<const int64_t> shape) {
  Strides strides(shape.size());
  int64_t step = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = step;
    step *= std::max<int64_t>(shape[i], 1);
  }
  return strides;
}

std::string shape_str(std::span<const int64_t> shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

Shape broadcast_shapes(std::string_view op, std::span<const int64_t> a, std::span<const int64_t> b) {
  size_t ndim = std::max(a.size(), b.size());
  Shape out(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    int64_t da = i < ndim - a.size() ? 1 : a[i - (ndim - a.size())];
    int64_t db = i < ndim - b.size() ? 1 : b[i - (ndim - b.size())];
    SPROUT_CHECK(da == db || da == 1 || db == 1, ValueError, op, ": shapes ", shape_str(a), " and ",
                 shape_str(b), " cannot broadcast: dimension ", i, " is ", da, " in one and ", db,
                 " in the other; each pair of dimensions must be equal or one of them 1");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

int64_t normalize_axis(std::string_view op, std::string_view arg, int64_t axis, int64_t ndim) {
  int64_t lo = ndim == 0 ? -1 : -ndim, hi = ndim == 0 ? 0 : ndim - 1;
  SPROUT_CHECK(axis >= lo && axis <= hi, ValueError, op, ": '", arg, "' must be in [", lo, ", ", hi,
               "] for a tensor of rank ", ndim, ", but got ", axis);
  return axis < 0 ? axis + std::max<int64_t>(ndim, 1) : axis;
}

void check_shape(std::string_view op, std::string_view arg, std::span<const int64_t> shape) {
  for (int64_t d : shape)
    SPROUT_CHECK(d >= 0, ValueError, op, ": '", arg, "' must have non-negative dimensions, but got ",
                 shape_str(shape));
}

}  // namespace sprout
