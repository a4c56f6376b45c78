// Element types. Names follow MindSpore (Float32, Int64, Bool ...) so printed tensors and error
// messages read the same as there.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "base/error.h"
#include "base/half.h"

namespace sprout {

enum class DType : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  Float16,
  BFloat16,
  Float32,
  Float64,
  // Appended, not placed after UInt8, so every older dtype keeps its number (the inference API's
  // ElementType mirrors these numbers).
  UInt16,
  UInt32,
  UInt64,
};
inline constexpr int kNumDTypes = 13;

// Category in the promotion lattice: bool < integer < floating.
enum class DTypeKind : uint8_t { Bool, Integer, Floating };

namespace detail {
struct DTypeInfo {
  std::string_view name;
  size_t itemsize;
  DTypeKind kind;
  bool is_signed;
};

// A table in the header: itemsize() is on every tensor's data access and every kernel's setup, and a
// table lookup inlines to one load.
inline constexpr DTypeInfo kDTypeInfo[kNumDTypes] = {
    {"Bool", 1, DTypeKind::Bool, false},         {"Int8", 1, DTypeKind::Integer, true},
    {"Int16", 2, DTypeKind::Integer, true},      {"Int32", 4, DTypeKind::Integer, true},
    {"Int64", 8, DTypeKind::Integer, true},      {"UInt8", 1, DTypeKind::Integer, false},
    {"Float16", 2, DTypeKind::Floating, true},   {"BFloat16", 2, DTypeKind::Floating, true},
    {"Float32", 4, DTypeKind::Floating, true},   {"Float64", 8, DTypeKind::Floating, true},
    {"UInt16", 2, DTypeKind::Integer, false},    {"UInt32", 4, DTypeKind::Integer, false},
    {"UInt64", 8, DTypeKind::Integer, false},
};
constexpr const DTypeInfo& dtype_info(DType t) { return kDTypeInfo[static_cast<int>(t)]; }
static_assert(dtype_info(DType::Float64).name == "Float64" && dtype_info(DType::BFloat16).itemsize == 2 &&
                  dtype_info(DType::UInt64).name == "UInt64",
              "kDTypeInfo follows the order of DType");
}  // namespace detail

constexpr size_t itemsize(DType t) { return detail::dtype_info(t).itemsize; }
constexpr std::string_view name(DType t) { return detail::dtype_info(t).name; }  // "Float32"
std::optional<DType> dtype_from_name(std::string_view name);  // accepts "Float32" and "float32"
constexpr DTypeKind kind(DType t) { return detail::dtype_info(t).kind; }
constexpr bool is_floating(DType t) { return kind(t) == DTypeKind::Floating; }
constexpr bool is_integral(DType t) { return kind(t) == DTypeKind::Integer; }  // signed or unsigned, not bool
constexpr bool is_signed(DType t) { return detail::dtype_info(t).is_signed; }

// MindSpore converts UInt16, UInt32 and UInt64 implicitly only to themselves and from Bool: any other
// mix with them (uint32 + int32, uint16 + float32, uint16 + uint32) is a TypeError there, and here.
bool can_promote(DType a, DType b);

// Result type of a binary op on two tensors (MindSpore's implicit promotion): the larger kind wins;
// within a kind the wider type wins; int8 with uint8 gives int16; float16 with bfloat16 gives float32.
// TypeError when !can_promote(a, b); callers that know the op check can_promote first, to name it.
DType promote_types(DType a, DType b);

// The dtype a Python scalar of this kind becomes when it stands alone (no tensor to follow).
DType default_dtype(DTypeKind k);

// C++ type for each dtype, and back.
template <DType D> struct CppType;
template <> struct CppType<DType::Bool> { using type = bool; };
template <> struct CppType<DType::Int8> { using type = int8_t; };
template <> struct CppType<DType::Int16> { using type = int16_t; };
template <> struct CppType<DType::Int32> { using type = int32_t; };
template <> struct CppType<DType::Int64> { using type = int64_t; };
template <> struct CppType<DType::UInt8> { using type = uint8_t; };
template <> struct CppType<DType::Float16> { using type = float16; };
template <> struct CppType<DType::BFloat16> { using type = bfloat16; };
template <> struct CppType<DType::Float32> { using type = float; };
template <> struct CppType<DType::Float64> { using type = double; };
template <> struct CppType<DType::UInt16> { using type = uint16_t; };
template <> struct CppType<DType::UInt32> { using type = uint32_t; };
template <> struct CppType<DType::UInt64> { using type = uint64_t; };
template <DType D> using cpp_type_t = typename CppType<D>::type;

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<bool>() { return DType::Bool; }
template <> constexpr DType dtype_of<int8_t>() { return DType::Int8; }
template <> constexpr DType dtype_of<int16_t>() { return DType::Int16; }
template <> constexpr DType dtype_of<int32_t>() { return DType::Int32; }
template <> constexpr DType dtype_of<int64_t>() { return DType::Int64; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::UInt8; }
template <> constexpr DType dtype_of<float16>() { return DType::Float16; }
template <> constexpr DType dtype_of<bfloat16>() { return DType::BFloat16; }
template <> constexpr DType dtype_of<float>() { return DType::Float32; }
template <> constexpr DType dtype_of<double>() { return DType::Float64; }
template <> constexpr DType dtype_of<uint16_t>() { return DType::UInt16; }
template <> constexpr DType dtype_of<uint32_t>() { return DType::UInt32; }
template <> constexpr DType dtype_of<uint64_t>() { return DType::UInt64; }

// Calls fn(T{}) with T the C++ type of `t`: the one switch every dtype-generic kernel goes through.
template <class Fn>
decltype(auto) visit_dtype(DType t, Fn&& fn) {
  switch (t) {
    case DType::Bool: return fn(bool{});
    case DType::Int8: return fn(int8_t{});
    case DType::Int16: return fn(int16_t{});
    case DType::Int32: return fn(int32_t{});
    case DType::Int64: return fn(int64_t{});
    case DType::UInt8: return fn(uint8_t{});
    case DType::Float16: return fn(float16{});
    case DType::BFloat16: return fn(bfloat16{});
    case DType::Float32: return fn(float{});
    case DType::Float64: return fn(double{});
    case DType::UInt16: return fn(uint16_t{});
    case DType::UInt32: return fn(uint32_t{});
    case DType::UInt64: return fn(uint64_t{});
  }
  SPROUT_ASSERT(false, "unknown dtype ", static_cast<int>(t));
}

// Arithmetic type for computing on T: half types compute in float.
template <class T> struct ComputeType { using type = T; };
template <> struct ComputeType<float16> { using type = float; };
template <> struct ComputeType<bfloat16> { using type = float; };
template <class T> using compute_t = typename ComputeType<T>::type;

}  // namespace sprout
