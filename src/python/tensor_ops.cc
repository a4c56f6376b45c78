// Tensor operators (+, -, *, /, **, comparisons, unary -) and basic indexing, bound in C++ so an
// eager `x + y` is one Python->C++ call (Note [Eager dispatch] in runtime/eager.h).
#include <nanobind/stl/string.h>

#include "python/bindings.h"
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

[[noreturn]] void index_error(const std::string& msg) { throw nb::index_error(msg.c_str()); }

// Basic indexing: ints, slices, None and Ellipsis (and tuples of them) give views.
Tensor basic_index(const Tensor& t, nb::handle index) {
  nb::tuple items = nb::isinstance<nb::tuple>(index) ? nb::borrow<nb::tuple>(index) : nb::make_tuple(index);
  int64_t consumed = 0;
  bool seen_ellipsis = false;
  for (nb::handle item : items) {
    if (PyLong_Check(item.ptr()) && !PyBool_Check(item.ptr())) ++consumed;
    else if (PySlice_Check(item.ptr())) ++consumed;
    else if (item.is_none()) continue;
    else if (item.ptr() == Py_Ellipsis) {
      if (seen_ellipsis) index_error("Tensor index: an index can only have a single ellipsis ('...')");
      seen_ellipsis = true;
    } else {
      throw TypeError(str("Tensor index: basic indexing takes int, slice, None and Ellipsis; got ",
                          py_text(nb::str(item.type().attr("__name__"))),
                          ". Index with tensors, lists or boolean masks through ops.gather / ops.masked_select"));
    }
  }
  if (consumed > t.ndim())
    index_error(str("Tensor index: too many indices for a tensor of rank ", t.ndim(), ": ", consumed, " given"));
  Tensor out = t;
  int64_t dim = 0;
  for (nb::handle item : items) {
    if (item.is_none()) {
      out = out.unsqueeze(dim++);
    } else if (item.ptr() == Py_Ellipsis) {
      dim += t.ndim() - consumed;
    } else if (PySlice_Check(item.ptr())) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
      out = out.slice(dim++, start, stop, step);
    } else {
      int64_t i = nb::cast<int64_t>(item), size = out.shape()[dim];
      if (i < -size || i >= size)
        index_error(str("Tensor index: index ", i, " is out of bounds for axis ", dim, " with size ", size));
      out = out.select(dim, i);
    }
  }
  return out;
}

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
  cls.def("__getitem__", [](const Tensor& t, nb::handle index) { return basic_index(t, index); });
  cls.def("__setitem__", [](const Tensor& t, nb::handle index, nb::handle value) {
    Tensor target = basic_index(t, index);
    Tensor v = to_tensor(value);
    target.copy_from(cast(v, target.dtype()).expand(target.shape()));
  });
}

}  // namespace sprout::py
