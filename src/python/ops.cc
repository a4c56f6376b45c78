// sprout._C.Primitive and the registry as seen from Python. sprout/ops derives its Primitive classes
// and functions from `_C.op_records()`; nothing about individual ops is repeated on the Python side.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "ops/infer_util.h"
#include "python/bindings.h"
#include "runtime/autograd/saved_values.h"
#include "runtime/eager.h"
#include "runtime/eager_emitter.h"

namespace sprout::py {
namespace {

// An int attribute, a ValueError naming it when it does not fit in int64 (not nanobind's bare bad_cast).
int64_t attr_int(nb::handle v, std::string_view op, std::string_view attr) {
  int overflow = 0;
  const long long i = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  SPROUT_CHECK(!overflow, ValueError, op, ": attribute '", attr, "' must fit in a 64-bit integer, but got ",
               py_text(nb::repr(v)));
  if (i == -1 && PyErr_Occurred()) throw nb::python_error();
  return i;
}

AttrValue to_attr_value(nb::handle v, std::string_view op, std::string_view attr) {
  if (PyBool_Check(v.ptr())) return nb::cast<bool>(v);
  if (nb::isinstance<DType>(v)) return nb::cast<DType>(v);
  if (PyFloat_Check(v.ptr())) return nb::cast<double>(v);
  if (PyLong_Check(v.ptr())) return attr_int(v, op, attr);
  if (PyUnicode_Check(v.ptr())) return std::string(nb::str(v).c_str());
  if (nb::isinstance<nb::tuple>(v) || nb::isinstance<nb::list>(v)) {
    std::vector<int64_t> ints;
    std::vector<double> floats;
    bool all_int = true;
    for (nb::handle item : v) {
      if (nb::isinstance<nb::tuple>(item) || nb::isinstance<nb::list>(item)) {
        // Nested pairs flatten row-major: Pad(((1, 1), (2, 2))) has paddings (1, 1, 2, 2).
        AttrValue inner = to_attr_value(item, op, attr);
        SPROUT_CHECK(std::holds_alternative<std::vector<int64_t>>(inner), TypeError, op, ": attribute '", attr,
                     "' must be a tuple of ints or of tuples of ints, but it contains ", py_text(nb::repr(item)));
        for (int64_t i : std::get<std::vector<int64_t>>(inner)) {
          ints.push_back(i);
          floats.push_back(static_cast<double>(i));
        }
      } else if (PyFloat_Check(item.ptr())) {
        all_int = false;
        floats.push_back(nb::cast<double>(item));
      } else if (PyLong_Check(item.ptr()) || nb::hasattr(item, "__index__")) {
        int64_t i = attr_int(item.attr("__index__")(), op, attr);
        ints.push_back(i);
        floats.push_back(static_cast<double>(i));
      } else {
        throw TypeError(str(op, ": attribute '", attr, "' must be a tuple of numbers, but it contains ",
                            py_text(nb::repr(item))));
      }
    }
    if (all_int) return ints;
    return floats;
  }
  if (!nb::isinstance<Tensor>(v) && nb::hasattr(v, "__index__")) return attr_int(v.attr("__index__")(), op, attr);  // NumPy ints
  throw TypeError(str(op, ": attribute '", attr, "' got an unsupported value ", py_text(nb::repr(v)),
                      " of type ", py_text(nb::str(v.type().attr("__name__")))));
}

nb::object from_attr_value(const AttrValue& v) {
  switch (attr_value_kind(v)) {
    case AttrKind::Bool: return nb::bool_(std::get<bool>(v));
    case AttrKind::Int: return nb::int_(std::get<int64_t>(v));
    case AttrKind::Float: return nb::float_(std::get<double>(v));
    case AttrKind::Str: return nb::str(std::get<std::string>(v).c_str());
    case AttrKind::Ints: {
      nb::list out;
      for (int64_t i : std::get<std::vector<int64_t>>(v)) out.append(i);
      return nb::tuple(out);
    }
    case AttrKind::Floats: {
      nb::list out;
      for (double d : std::get<std::vector<double>>(v)) out.append(d);
      return nb::tuple(out);
    }
    case AttrKind::Type: return nb::cast(std::get<DType>(v));
  }
  return nb::none();
}

std::string_view policy_name(DTypePolicy p) {
  switch (p) {
    case DTypePolicy::Exact: return "exact";
    case DTypePolicy::Promote: return "promote";
    case DTypePolicy::PromoteToFloat: return "promote_to_float";
  }
  return "?";
}

PyPrimitive make_primitive(const std::string& name, nb::dict attrs) {
  const OpDef& def = OpRegistry::instance().get(name);
  PyPrimitive p{Primitive(def), {}};
  for (size_t i = 0; i < def.attrs->fields().size(); ++i)
    if (def.attrs->fields()[i].call_arg) p.call_fields.push_back(i);
  for (auto [k, v] : attrs) {
    std::string key = nb::str(k).c_str();
    int index = def.attrs->index_of(key);
    SPROUT_CHECK(index >= 0, TypeError, name, ": unexpected attribute '", key, "'");
    p.prim = p.prim.with_attr(key, to_attr_value(v, name, key));
  }
  return p;
}

nb::object wrap_outputs(const Primitive& prim, std::vector<Tensor> outs) {
  if (outs.size() == 1 && !prim.def().tuple_output) return wrap(std::move(outs[0]));
  nb::list out;
  for (Tensor& t : outs) out.append(wrap(std::move(t)));
  return nb::tuple(out);
}

// The usual call, N inputs and no call-time attributes, runs from stack arrays of exactly N entries
// with the primitive as bound; the rest goes through bind_call_args.
template <size_t N>
nb::object call_with_n_inputs(const Primitive& prim, PyObject* const* items) {
  nb::handle objects[N];
  nb::object args[N];
  for (size_t i = 0; i < N; ++i) args[i] = nb::borrow(objects[i] = items[i]);
  if (auto traced = emit_if_tracing(prim, std::span<const nb::object>(args, N))) return *traced;
  return wrap_outputs(prim, run_on_objects(prim, objects));
}

nb::object call_primitive(const PyPrimitive& p, nb::handle call_args) {
  const OpDef& def = p.prim.def();
  const size_t n = static_cast<size_t>(PyTuple_GET_SIZE(call_args.ptr()));
  if (!def.variadic && n == def.inputs.size()) {
    if (auto out = call_with_inputs(p.prim, &PyTuple_GET_ITEM(call_args.ptr(), 0), n)) return *out;
  }
  std::vector<nb::object> args;
  Primitive prim = bind_call_args(p, nb::borrow<nb::args>(call_args), args);
  if (auto traced = emit_if_tracing(prim, args)) return *traced;
  std::vector<Operand> operands;
  operands.reserve(args.size());
  for (const nb::object& a : args) operands.push_back(to_operand(a));
  return wrap_outputs(prim, run_with_operands(prim, operands));
}

// Note [Primitive calls as a type slot]
// `prim(x, y)` is how every functional op reaches C++. Bound as a `__call__` method it went through
// CPython's generic slot wrapper and nanobind's overload dispatch: a tiny ops.add took 0.57 us against
// 0.37 for `x + y` (Note [Operators as type slots]). The type's tp_call slot is called directly.
PyObject* primitive_call_slot(PyObject* self, PyObject* args, PyObject* kwargs) noexcept {
  try {
    // CPython calls tp_call only on instances of the type: no type lookup needed (Note [Tensor objects
    // without type lookups]); an instance whose __init__ never ran gets nanobind's error from the cast.
    const PyPrimitive& p = nb::inst_ready(self) ? *nb::inst_ptr<PyPrimitive>(self)
                                                : nb::cast<const PyPrimitive&>(nb::handle(self));
    SPROUT_CHECK(kwargs == nullptr || PyDict_GET_SIZE(kwargs) == 0, TypeError, p.prim.name(),
                 ": takes its inputs and call-time attributes by position, not by keyword");
    return call_primitive(p, args).release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

const PyType_Slot kPrimitiveSlots[] = {{Py_tp_call, reinterpret_cast<void*>(primitive_call_slot)}, {0, nullptr}};

nb::dict op_record(const OpDef& def) {
  nb::dict r;
  r["name"] = def.name;
  r["doc"] = def.doc;
  r["inputs"] = def.inputs;
  r["outputs"] = def.outputs;
  r["variadic"] = def.variadic;
  r["dtype_policy"] = std::string(policy_name(def.dtype_policy));
  r["has_bprop"] = static_cast<bool>(def.bprop);
  r["has_cpu_kernel"] = static_cast<bool>(def.kernel(Device::CPU)) || static_cast<bool>(def.view);
  nb::list attrs;
  for (const AttrField& f : def.attrs->fields()) {
    nb::dict a;
    a["name"] = f.name;
    a["kind"] = std::string(attr_kind_name(f.kind));
    a["default"] = from_attr_value(f.default_value);
    a["doc"] = f.doc;
    a["call_arg"] = f.call_arg;
    attrs.append(a);
  }
  r["attrs"] = attrs;
  return r;
}

}  // namespace

std::optional<nb::object> call_with_inputs(const Primitive& prim, PyObject* const* items, size_t n) {
  switch (n) {
    case 1: return call_with_n_inputs<1>(prim, items);
    case 2: return call_with_n_inputs<2>(prim, items);
    case 3: return call_with_n_inputs<3>(prim, items);
    case 4: return call_with_n_inputs<4>(prim, items);
    default: return std::nullopt;
  }
}

const PyPrimitive& primitive_of(nb::handle obj, const char* api) {
  SPROUT_CHECK(nb::isinstance<PyPrimitive>(obj), TypeError, api, ": expects a sprout._C.Primitive, but got ",
               py_text(nb::str(obj.type().attr("__name__"))));
  return nb::cast<const PyPrimitive&>(obj);
}

Primitive bind_call_args(const PyPrimitive& p, nb::args call_args, std::vector<nb::object>& operands) {
  const OpDef& def = p.prim.def();
  nb::tuple args = call_args;
  if (def.variadic && call_args.size() >= 1 &&
      (nb::isinstance<nb::tuple>(call_args[0]) || nb::isinstance<nb::list>(call_args[0]))) {
    nb::list flat;
    for (nb::handle t : call_args[0]) flat.append(t);
    for (size_t i = 1; i < call_args.size(); ++i) flat.append(call_args[i]);
    args = nb::tuple(flat);
  }
  size_t n_inputs = def.variadic ? args.size() - p.call_fields.size() : def.inputs.size();
  SPROUT_CHECK(args.size() >= n_inputs && args.size() <= n_inputs + p.call_fields.size(), TypeError, def.name,
               ": expects ", n_inputs, " tensor input", n_inputs == 1 ? "" : "s",
               p.call_fields.empty() ? std::string() : str(" and up to ", p.call_fields.size(), " more argument(s)"),
               ", but got ", args.size(), " arguments");
  Primitive prim = p.prim;
  for (size_t i = n_inputs; i < args.size(); ++i) {
    const AttrField& f = def.attrs->fields()[p.call_fields[i - n_inputs]];
    if (args[i].is_none()) continue;  // None keeps the default, as MindSpore's optional inputs
    prim = prim.with_attr(f.name, to_attr_value(args[i], def.name, f.name));
  }
  for (size_t i = 0; i < n_inputs; ++i) operands.push_back(nb::borrow(args[i]));
  return prim;
}

void bind_ops(nb::module_& m) {
  nb::class_<PyPrimitive>(m, "Primitive", nb::type_slots(kPrimitiveSlots))
      .def("__init__", [](PyPrimitive* self, const std::string& name, nb::dict attrs) {
        new (self) PyPrimitive(make_primitive(name, attrs));
      }, nb::arg("name"), nb::arg("attrs") = nb::dict())
      .def_prop_ro("name", [](const PyPrimitive& p) { return p.prim.name(); })
      .def("attr", [](const PyPrimitive& p, const std::string& name) { return from_attr_value(p.prim.attr(name)); })
      .def("set_attr", [](PyPrimitive& p, const std::string& name, nb::handle v) {
        p.prim = p.prim.with_attr(name, to_attr_value(v, p.prim.name(), name));
      })
      .def("attrs", [](const PyPrimitive& p) {
        nb::dict out;
        const auto& fields = p.prim.def().attrs->fields();
        for (size_t i = 0; i < fields.size(); ++i)
          out[fields[i].name.c_str()] = from_attr_value(p.prim.def().attrs->get(p.prim.attrs(), i));
        return out;
      })
      .def("infer", [](const PyPrimitive& p, nb::list specs) {
        // specs: [(shape tuple, dtype)] -> [(shape tuple, dtype)], the op's pure infer function.
        std::vector<TensorSpec> in;
        for (nb::handle s : specs) {
          nb::tuple t = nb::cast<nb::tuple>(s);
          TensorSpec spec;
          for (nb::handle d : t[0]) spec.shape.push_back(nb::cast<int64_t>(d));
          spec.dtype = nb::cast<DType>(t[1]);
          in.push_back(spec);
        }
        check_input_count(p.prim.def(), in.size());
        nb::list out;
        for (const TensorSpec& s : p.prim.def().infer(p.prim.def(), p.prim.attrs(), in)) {
          nb::list shape;
          for (int64_t d : s.shape) shape.append(d);
          out.append(nb::make_tuple(nb::tuple(shape), s.dtype));
        }
        return out;
      })
      .def("__repr__", [](const PyPrimitive& p) { return "Prim[" + p.prim.name() + "]"; })
      .def("__str__", [](const PyPrimitive& p) { return p.prim.to_string(); });

  m.def("run_bprop", [](const PyPrimitive& p, std::vector<Tensor> inputs, std::vector<Tensor> outputs,
                        std::vector<Tensor> douts) {
    nb::list grads;
    for (Tensor& g : run_bprop(p.prim, inputs, outputs, douts)) grads.append(g.defined() ? wrap(std::move(g)) : nb::none());
    return grads;
  }, "Runs the op's bprop rule eagerly: one gradient (or None) per input.");
  m.def("bprop_reads", [](const PyPrimitive& p, std::vector<Tensor> inputs, std::vector<Tensor> outputs) {
    BpropReads reads = bprop_reads(p.prim, inputs, outputs);
    std::vector<bool> in, out;
    for (size_t i = 0; i < inputs.size(); ++i) in.push_back(reads.input(i));
    for (size_t i = 0; i < outputs.size(); ++i) out.push_back(reads.output(i));
    return nb::make_tuple(in, out);
  }, "Which inputs and outputs the op's bprop rule reads, as the eager tape saves them: (list, list) of bool.");
  m.def("op_records", [] {
    nb::list out;
    for (const OpDef* def : OpRegistry::instance().all()) out.append(op_record(*def));
    return out;
  });
}

}  // namespace sprout::py
