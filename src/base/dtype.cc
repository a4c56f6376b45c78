#include "base/dtype.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace sprout {

std::optional<DType> dtype_from_name(std::string_view text) {
  for (int i = 0; i < kNumDTypes; ++i) {
    auto t = static_cast<DType>(i);
    std::string_view n = name(t);
    if (n.size() == text.size() &&
        std::equal(n.begin(), n.end(), text.begin(),
                   [](char a, char b) { return std::tolower(a) == std::tolower(b); }))
      return t;
  }
  return std::nullopt;
}

DType default_dtype(DTypeKind k) {
  switch (k) {
    case DTypeKind::Bool: return DType::Bool;
    case DTypeKind::Integer: return DType::Int64;
    case DTypeKind::Floating: return DType::Float32;
  }
  return DType::Float32;
}

namespace {
constexpr bool is_wide_unsigned(DType t) { return t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64; }
}  // namespace

bool can_promote(DType a, DType b) {
  if (a == b || a == DType::Bool || b == DType::Bool) return true;
  return !is_wide_unsigned(a) && !is_wide_unsigned(b);
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  SPROUT_CHECK(can_promote(a, b), TypeError, "implicit conversion between ", name(a), " and ", name(b),
               " is not supported (MindSpore converts UInt16, UInt32 and UInt64 only with Bool); cast one of them "
               "with astype first");
  DTypeKind ka = kind(a), kb = kind(b);
  if (ka != kb) return ka > kb ? a : b;
  if (ka == DTypeKind::Floating) {
    // float16 and bfloat16 cannot hold each other's values: meet in float32.
    if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16))
      return DType::Float32;
    return itemsize(a) >= itemsize(b) ? a : b;
  }
  // Integers: mixing signed and unsigned needs a signed type wider than the unsigned one.
  bool sa = is_signed(a), sb = is_signed(b);
  if (sa == sb) return itemsize(a) >= itemsize(b) ? a : b;
  DType u = sa ? b : a, s = sa ? a : b;
  if (itemsize(s) > itemsize(u)) return s;
  return itemsize(u) == 1 ? DType::Int16 : DType::Int64;
}

}  // namespace sprout
