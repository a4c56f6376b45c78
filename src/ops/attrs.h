// Typed operator attributes.
//
// Note [Typed attributes]
// Each op declares its attributes as a plain struct with defaults, and lists its fields once:
//
//   struct MatMulAttrs {
//     bool transpose_a = false;
//     bool transpose_b = false;
//     static constexpr auto fields() {
//       return std::tuple{attr("transpose_a", &MatMulAttrs::transpose_a, "Transpose the first input."),
//                         attr("transpose_b", &MatMulAttrs::transpose_b, "Transpose the second input.")};
//     }
//   };
//
// Kernels and infer functions read the struct directly (no string lookups on the hot path).
// From the field list, AttrSchema derives everything else: Python keyword arguments, defaults,
// printing, equality and hashing (for the compile cache), and conversion to and from the generic
// AttrValue that crosses into Python and into serialized MindIR.
//
// An attribute marked `call_arg()` is given when the primitive is *called* rather than when it is
// built: `ops.ReduceSum(keep_dims=True)(x, axis)`, `ops.Reshape()(x, shape)`. MindSpore passes these
// as inputs; they must be compile-time constants, so Sprout keeps them as attributes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "base/dtype.h"
#include "base/error.h"

namespace sprout {

enum class AttrKind : uint8_t { Bool, Int, Float, Str, Ints, Floats, Type };

using AttrValue = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<double>, DType>;

std::string_view attr_kind_name(AttrKind k);
std::string attr_value_str(const AttrValue& v);
AttrKind attr_value_kind(const AttrValue& v);

template <class T> constexpr AttrKind attr_kind_of();
template <> constexpr AttrKind attr_kind_of<bool>() { return AttrKind::Bool; }
template <> constexpr AttrKind attr_kind_of<int64_t>() { return AttrKind::Int; }
template <> constexpr AttrKind attr_kind_of<double>() { return AttrKind::Float; }
template <> constexpr AttrKind attr_kind_of<std::string>() { return AttrKind::Str; }
template <> constexpr AttrKind attr_kind_of<std::vector<int64_t>>() { return AttrKind::Ints; }
template <> constexpr AttrKind attr_kind_of<std::vector<double>>() { return AttrKind::Floats; }
template <> constexpr AttrKind attr_kind_of<DType>() { return AttrKind::Type; }

// Converts a generic value to the field's C++ type, widening where it loses nothing (int -> float,
// int -> ints of one element). A TypeError names the op and the attribute otherwise.
template <class T>
T attr_cast(std::string_view op, std::string_view attr, const AttrValue& v);

template <class S, class M>
struct AttrFieldDecl {
  const char* name;
  M S::*member;
  const char* doc;
  bool call_arg = false;
  constexpr AttrFieldDecl call() const { return {name, member, doc, true}; }
};

template <class S, class M>
constexpr AttrFieldDecl<S, M> attr(const char* name, M S::*member, const char* doc) {
  return {name, member, doc, false};
}

struct NoAttrs {
  static constexpr auto fields() { return std::tuple<>{}; }
};

// Type-erased view of an attrs struct: what the registry, Python and the IR see.
struct AttrField {
  std::string name;
  AttrKind kind;
  AttrValue default_value;
  std::string doc;
  bool call_arg;
};

class AttrSchema {
 public:
  virtual ~AttrSchema() = default;
  const std::vector<AttrField>& fields() const { return fields_; }
  int index_of(std::string_view name) const;

  virtual std::shared_ptr<void> make_default() const = 0;
  virtual std::shared_ptr<void> clone(const void* attrs) const = 0;
  virtual AttrValue get(const void* attrs, size_t field) const = 0;
  virtual void set(std::string_view op, void* attrs, size_t field, const AttrValue& value) const = 0;

  bool equal(const void* a, const void* b) const;
  size_t hash(const void* attrs) const;
  std::string to_string(const void* attrs) const;  // "transpose_a=False, transpose_b=True"

 protected:
  std::vector<AttrField> fields_;
};

template <class S>
class TypedAttrSchema final : public AttrSchema {
 public:
  TypedAttrSchema() {
    S defaults{};
    std::apply([&](auto... f) { (fields_.push_back(AttrField{f.name, attr_kind_of<std::remove_cvref_t<decltype(defaults.*(f.member))>>(),
                                                              AttrValue(defaults.*(f.member)), f.doc, f.call_arg}), ...); },
               S::fields());
  }
  std::shared_ptr<void> make_default() const override { return std::make_shared<S>(); }
  std::shared_ptr<void> clone(const void* attrs) const override {
    return std::make_shared<S>(*static_cast<const S*>(attrs));
  }
  AttrValue get(const void* attrs, size_t field) const override {
    AttrValue out;
    visit_field(field, [&](auto f) { out = AttrValue(static_cast<const S*>(attrs)->*(f.member)); });
    return out;
  }
  void set(std::string_view op, void* attrs, size_t field, const AttrValue& value) const override {
    visit_field(field, [&](auto f) {
      using M = std::remove_cvref_t<decltype(static_cast<S*>(attrs)->*(f.member))>;
      static_cast<S*>(attrs)->*(f.member) = attr_cast<M>(op, f.name, value);
    });
  }

 private:
  template <class Fn>
  static void visit_field(size_t index, Fn&& fn) {
    size_t i = 0;
    std::apply([&](auto... f) { ((i++ == index ? fn(f) : void()), ...); }, S::fields());
  }
};

}  // namespace sprout
