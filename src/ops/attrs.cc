#include "ops/attrs.h"

#include <cmath>
#include <functional>

namespace sprout {

std::string_view attr_kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::Bool: return "bool";
    case AttrKind::Int: return "int";
    case AttrKind::Float: return "float";
    case AttrKind::Str: return "str";
    case AttrKind::Ints: return "tuple of int";
    case AttrKind::Floats: return "tuple of float";
    case AttrKind::Type: return "mindspore dtype";
  }
  return "?";
}

AttrKind attr_value_kind(const AttrValue& v) { return static_cast<AttrKind>(v.index()); }

namespace {
std::string float_str(double d) {
  std::string s = str(d);
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}
}  // namespace

std::string attr_value_str(const AttrValue& v) {
  switch (attr_value_kind(v)) {
    case AttrKind::Bool: return std::get<bool>(v) ? "True" : "False";
    case AttrKind::Int: return std::to_string(std::get<int64_t>(v));
    case AttrKind::Float: return float_str(std::get<double>(v));
    case AttrKind::Str: return "'" + std::get<std::string>(v) + "'";
    case AttrKind::Ints: {
      const auto& xs = std::get<std::vector<int64_t>>(v);
      std::string out = "(";
      for (size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + std::to_string(xs[i]);
      return out + (xs.size() == 1 ? ",)" : ")");
    }
    case AttrKind::Floats: {
      const auto& xs = std::get<std::vector<double>>(v);
      std::string out = "(";
      for (size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + float_str(xs[i]);
      return out + (xs.size() == 1 ? ",)" : ")");
    }
    case AttrKind::Type: return std::string(name(std::get<DType>(v)));
  }
  return "?";
}

namespace {
[[noreturn]] void bad_attr(std::string_view op, std::string_view attr, AttrKind want, const AttrValue& got) {
  throw TypeError(str(op, ": attribute '", attr, "' expects ", attr_kind_name(want), ", but got ",
                      attr_kind_name(attr_value_kind(got)), " ", attr_value_str(got)));
}
}  // namespace

template <>
bool attr_cast<bool>(std::string_view op, std::string_view attr, const AttrValue& v) {
  if (auto* b = std::get_if<bool>(&v)) return *b;
  bad_attr(op, attr, AttrKind::Bool, v);
}
template <>
int64_t attr_cast<int64_t>(std::string_view op, std::string_view attr, const AttrValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return *i;
  bad_attr(op, attr, AttrKind::Int, v);
}
template <>
double attr_cast<double>(std::string_view op, std::string_view attr, const AttrValue& v) {
  if (auto* d = std::get_if<double>(&v)) return *d;
  if (auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  bad_attr(op, attr, AttrKind::Float, v);
}
template <>
std::string attr_cast<std::string>(std::string_view op, std::string_view attr, const AttrValue& v) {
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  bad_attr(op, attr, AttrKind::Str, v);
}
template <>
std::vector<int64_t> attr_cast<std::vector<int64_t>>(std::string_view op, std::string_view attr, const AttrValue& v) {
  if (auto* xs = std::get_if<std::vector<int64_t>>(&v)) return *xs;
  if (auto* i = std::get_if<int64_t>(&v)) return {*i};
  bad_attr(op, attr, AttrKind::Ints, v);
}
template <>
std::vector<double> attr_cast<std::vector<double>>(std::string_view op, std::string_view attr, const AttrValue& v) {
  if (auto* xs = std::get_if<std::vector<double>>(&v)) return *xs;
  if (auto* xs = std::get_if<std::vector<int64_t>>(&v)) return {xs->begin(), xs->end()};
  if (auto* d = std::get_if<double>(&v)) return {*d};
  if (auto* i = std::get_if<int64_t>(&v)) return {static_cast<double>(*i)};
  bad_attr(op, attr, AttrKind::Floats, v);
}
template <>
DType attr_cast<DType>(std::string_view op, std::string_view attr, const AttrValue& v) {
  if (auto* t = std::get_if<DType>(&v)) return *t;
  bad_attr(op, attr, AttrKind::Type, v);
}

int AttrSchema::index_of(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i)
    if (fields_[i].name == name) return static_cast<int>(i);
  return -1;
}

bool AttrSchema::equal(const void* a, const void* b) const {
  for (size_t i = 0; i < fields_.size(); ++i)
    if (get(a, i) != get(b, i)) return false;
  return true;
}

size_t AttrSchema::hash(const void* attrs) const {
  size_t h = 0;
  for (size_t i = 0; i < fields_.size(); ++i)
    h = h * 1000003u ^ std::hash<std::string>{}(attr_value_str(get(attrs, i)));
  return h;
}

std::string AttrSchema::to_string(const void* attrs) const {
  std::string out;
  for (size_t i = 0; i < fields_.size(); ++i)
    out += (i ? ", " : "") + fields_[i].name + "=" + attr_value_str(get(attrs, i));
  return out;
}

}  // namespace sprout
