// Tensor operators (+, -, *, /, **, comparisons, unary -) and indexing (tensor_index.cc), bound in C++ so an
// eager `x + y` is one Python->C++ call (Note [Eager dispatch] in runtime/eager.h).
#include <nanobind/stl/string.h>

#include "python/bindings.h"
#include "python/tensor_index.h"
#include "runtime/eager.h"

namespace sprout::py {
namespace {

// Returns NotImplemented for operands Python should try the other way round (None, strings ...).
nb::object binary(const Primitive& op, nb::handle a, nb::handle b) {
  // Type checks only: either operand may be a GraphTensor (a Parameter - GraphTensor in a compiled step
  // reaches the Parameter's slot first), which emit_if_tracing takes and no C++ Tensor can stand for.
  nb::handle other = is_tensor_object(a) ? b : a;
  if (!is_tensor_object(other) && !is_python_scalar(other) && !nb::isinstance<nb::list>(other) &&
      !nb::isinstance<nb::tuple>(other) && !nb::hasattr(other, "__array_interface__"))
    return nb::borrow(Py_NotImplemented);
  nb::object pair[2] = {nb::borrow(a), nb::borrow(b)};
  if (auto traced = emit_if_tracing(op, pair)) return *traced;
  const nb::handle objects[2] = {a, b};
  return wrap(std::move(run_on_objects(op, objects)[0]));
}

constexpr char kAdd[] = "Add", kSub[] = "Sub", kMul[] = "Mul", kDiv[] = "RealDiv", kPow[] = "Pow";
constexpr char kFloorDiv[] = "FloorDiv", kFloorMod[] = "FloorMod";
constexpr char kEq[] = "Equal", kNe[] = "NotEqual", kLt[] = "Less", kLe[] = "LessEqual", kGt[] = "Greater",
               kGe[] = "GreaterEqual";
constexpr char kNeg[] = "Neg", kAbs[] = "Abs";

// The primitive of operator OP, built on first use (a function-local static: thread-safe, and never
// moved, so the reference stays valid).
template <const char* OP>
const Primitive& op_prim() {
  static const Primitive prim = Primitive::make(OP);
  return prim;
}

template <const char* OP>
void def_binary(nb::class_<Tensor>& cls, const char* name) {
  cls.def(name, [](nb::handle a, nb::handle b) { return binary(op_prim<OP>(), a, b); }, nb::is_operator());
}

// Note [Operators as type slots]
// An operator bound as a method (__add__) makes CPython's nb_add a generic wrapper that looks the method
// up and calls it through nanobind's dispatcher: about a tenth of a tiny `x + y`. The arithmetic
// operators are the type's number slots instead, called directly with (a, b) in source order: either
// may be the Tensor, so one function serves __add__ and __radd__ (CPython derives both from it). Unary
// minus and abs() are slots as well.
template <const char* OP>
PyObject* number_slot(PyObject* a, PyObject* b) noexcept {
  try {
    return binary(op_prim<OP>(), a, b).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

// -x and abs(x): CPython calls these slots only with an instance of the type.
template <const char* OP>
PyObject* unary_slot(PyObject* x) noexcept {
  try {
    const nb::handle objects[1] = {x};
    return wrap(std::move(run_on_objects(op_prim<OP>(), objects)[0])).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

PyObject* power_slot(PyObject* a, PyObject* b, PyObject* modulo) noexcept {
  if (modulo != Py_None) return Py_NewRef(Py_NotImplemented);  // pow(x, y, m): a TypeError from Python
  return number_slot<kPow>(a, b);
}

}  // namespace

const PyType_Slot* tensor_number_slots() {
  static const PyType_Slot slots[] = {
      {Py_nb_add, reinterpret_cast<void*>(number_slot<kAdd>)},
      {Py_nb_subtract, reinterpret_cast<void*>(number_slot<kSub>)},
      {Py_nb_multiply, reinterpret_cast<void*>(number_slot<kMul>)},
      {Py_nb_true_divide, reinterpret_cast<void*>(number_slot<kDiv>)},
      {Py_nb_floor_divide, reinterpret_cast<void*>(number_slot<kFloorDiv>)},
      {Py_nb_remainder, reinterpret_cast<void*>(number_slot<kFloorMod>)},  // the remainder takes y's sign
      {Py_nb_power, reinterpret_cast<void*>(power_slot)},
      {Py_nb_negative, reinterpret_cast<void*>(unary_slot<kNeg>)},
      {Py_nb_absolute, reinterpret_cast<void*>(unary_slot<kAbs>)},
      {0, nullptr}};
  return slots;
}

void bind_tensor_ops(nb::class_<Tensor>& cls) {
  def_binary<kEq>(cls, "__eq__");
  def_binary<kNe>(cls, "__ne__");
  def_binary<kLt>(cls, "__lt__");
  def_binary<kLe>(cls, "__le__");
  def_binary<kGt>(cls, "__gt__");
  def_binary<kGe>(cls, "__ge__");
  cls.def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()) >> 4; });
  // .none(): x[None] is an index (a new axis), which nanobind would otherwise refuse before the call.
  cls.def("__getitem__", &tensor_getitem, nb::arg("index").none());
  cls.def("__setitem__", &tensor_setitem, nb::arg("index").none(), nb::arg("value"));
}

}  // namespace sprout::py
