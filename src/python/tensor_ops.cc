// Tensor operators (+, -, *, /, **, comparisons, unary -) and indexing (tensor_index.cc), bound in C++ so an
// eager `x + y` is one Python->C++ call (Note [Eager dispatch] in runtime/eager.h).
#include <nanobind/stl/string.h>

#include "python/bindings.h"
#include "python/tensor_index.h"
#include "runtime/eager.h"

namespace sprout::py {
namespace {

const Primitive& prim(std::string_view op) {
  // One primitive per op name for the operators, built on first use. Few names: a small cache.
  static std::vector<std::pair<std::string, Primitive>> cache;
  for (auto& [name, p] : cache)
    if (name == op) return p;
  cache.emplace_back(std::string(op), Primitive::make(op));
  return cache.back().second;
}

// Returns NotImplemented for operands Python should try the other way round (None, strings ...).
nb::object binary(std::string_view op, nb::handle a, nb::handle b) {
  nb::handle other = nb::isinstance<Tensor>(a) ? b : a;
  if (!nb::isinstance<Tensor>(other) && !is_python_scalar(other) && !nb::isinstance<nb::list>(other) &&
      !nb::isinstance<nb::tuple>(other) && !nb::hasattr(other, "__array_interface__"))
    return nb::borrow(Py_NotImplemented);
  nb::object pair[2] = {nb::borrow(a), nb::borrow(b)};
  if (auto traced = emit_if_tracing(prim(op), pair)) return *traced;
  Operand operands[2] = {to_operand(a), to_operand(b)};
  return wrap(std::move(run_with_operands(prim(op), operands)[0]));
}

template <const char* OP>
void def_binary(nb::class_<Tensor>& cls, const char* name, const char* rname) {
  cls.def(name, [](nb::handle a, nb::handle b) { return binary(OP, a, b); }, nb::is_operator());
  if (rname) cls.def(rname, [](nb::handle a, nb::handle b) { return binary(OP, b, a); }, nb::is_operator());
}

constexpr char kAdd[] = "Add", kSub[] = "Sub", kMul[] = "Mul", kDiv[] = "RealDiv", kPow[] = "Pow";
constexpr char kFloorDiv[] = "FloorDiv", kFloorMod[] = "FloorMod";
constexpr char kEq[] = "Equal", kNe[] = "NotEqual", kLt[] = "Less", kLe[] = "LessEqual", kGt[] = "Greater",
               kGe[] = "GreaterEqual";

}  // namespace

void bind_tensor_ops(nb::class_<Tensor>& cls) {
  def_binary<kAdd>(cls, "__add__", "__radd__");
  def_binary<kSub>(cls, "__sub__", "__rsub__");
  def_binary<kMul>(cls, "__mul__", "__rmul__");
  def_binary<kDiv>(cls, "__truediv__", "__rtruediv__");
  def_binary<kPow>(cls, "__pow__", "__rpow__");
  def_binary<kFloorDiv>(cls, "__floordiv__", "__rfloordiv__");
  def_binary<kFloorMod>(cls, "__mod__", "__rmod__");  // Python's %: the remainder takes the sign of y
  def_binary<kEq>(cls, "__eq__", nullptr);
  def_binary<kNe>(cls, "__ne__", nullptr);
  def_binary<kLt>(cls, "__lt__", nullptr);
  def_binary<kLe>(cls, "__le__", nullptr);
  def_binary<kGt>(cls, "__gt__", nullptr);
  def_binary<kGe>(cls, "__ge__", nullptr);
  cls.def("__neg__", [](const Tensor& t) { return run_eager(prim("Neg"), std::span<const Tensor>(&t, 1))[0]; });
  cls.def("__abs__", [](const Tensor& t) { return run_eager(prim("Abs"), std::span<const Tensor>(&t, 1))[0]; });
  cls.def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()) >> 4; });
  cls.def("__getitem__", &tensor_getitem);
  cls.def("__setitem__", &tensor_setitem);
}

}  // namespace sprout::py
