#include "base/dtype.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace sprout {

namespace {
struct DTypeInfo {
  std::string_view name;
  size_t itemsize;
  DTypeKind kind;
  bool is_signed;
};

constexpr DTypeInfo info(DType t) {
  switch (t) {
    case DType::Bool: return {"Bool", 1, DTypeKind::Bool, false};
    case DType::Int8: return {"Int8", 1, DTypeKind::Integer, true};
    case DType::Int16: return {"Int16", 2, DTypeKind::Integer, true};
    case DType::Int32: return {"Int32", 4, DTypeKind::Integer, true};
    case DType::Int64: return {"Int64", 8, DTypeKind::Integer, true};
    case DType::UInt8: return {"UInt8", 1, DTypeKind::Integer, false};
    case DType::Float16: return {"Float16", 2, DTypeKind::Floating, true};
    case DType::BFloat16: return {"BFloat16", 2, DTypeKind::Floating, true};
    case DType::Float32: return {"Float32", 4, DTypeKind::Floating, true};
    case DType::Float64: return {"Float64", 8, DTypeKind::Floating, true};
  }
  return {"?", 0, DTypeKind::Bool, false};
}
}  // namespace

size_t itemsize(DType t) { return info(t).itemsize; }
std::string_view name(DType t) { return info(t).name; }
DTypeKind kind(DType t) { return info(t).kind; }
bool is_floating(DType t) { return kind(t) == DTypeKind::Floating; }
bool is_integral(DType t) { return kind(t) == DTypeKind::Integer; }
bool is_signed(DType t) { return info(t).is_signed; }

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

DType promote_types(DType a, DType b) {
  if (a == b) return a;
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
