// sprout._C.OpFunction: a functional op that is one primitive applied to its arguments (ops.add, ops.exp
// and the other elementwise functions), callable the way a Python function is, without being one.
//
// Note [Functional ops without a Python frame]
// `def add(input, other): return _add(input, other)` costs a Python frame and an argument tuple on top
// of the primitive: 70 of a tiny ops.add's 430 ns, more than NumPy's whole np.add takes beyond its
// kernel. An OpFunction is called by vectorcall (the arguments arrive as a C array: no tuple), binds
// keywords by its parameter names as the def did, and is a method descriptor, so a Tensor method made
// from it (x.exp()) is called with the tensor as first argument and no bound method in between. Its
// __name__, __qualname__, __module__, __doc__ and __signature__ live in its __dict__, set by
// sprout.ops.function._prims.op_function, so help(), inspect.signature and pickle see a function.
// A call with a keyword that is not a parameter goes to `with_keywords`, a Python function, when one is
// given: ops.div(x, y, rounding_mode='floor') is the Python ops.divide, ops.div(x, y) stays this.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <structmember.h>  // PyMemberDef, T_PYSSIZET (Python 3.11)

#include <cstddef>

#include "python/bindings.h"

namespace sprout::py {
namespace {

struct OpFunctionObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject* dict;       // __name__, __doc__, ... (attributes, as a function's)
  PyObject* primitive;  // the sprout._C.Primitive called
  PyObject* params;     // tuple of parameter names (str), one per primitive input
  PyObject* weakrefs;   // weak references may point at it, as at a function
  PyObject* with_keywords;  // the Python function for calls with other keywords, or null
};

constexpr size_t kMaxParams = 4;  // call_with_inputs runs one to four inputs

std::string name_of(OpFunctionObject* f) {
  PyObject* name = f->dict ? PyDict_GetItemString(f->dict, "__name__") : nullptr;
  return name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : "op function";
}

// Arguments -> one object per parameter, as Python binds a def without defaults; TypeError on
// anything a def would refuse. Returns false with the Python error set.
bool bind_arguments(OpFunctionObject* f, PyObject* const* args, size_t nargs, PyObject* kwnames,
                    PyObject* (&bound)[kMaxParams]) {
  const Py_ssize_t n_params = PyTuple_GET_SIZE(f->params);
  if (static_cast<Py_ssize_t>(nargs) > n_params) {
    PyErr_Format(PyExc_TypeError, "%s() takes %zd positional argument%s but %zu were given", name_of(f).c_str(),
                 n_params, n_params == 1 ? "" : "s", nargs);
    return false;
  }
  for (Py_ssize_t i = 0; i < n_params; ++i) bound[i] = i < static_cast<Py_ssize_t>(nargs) ? args[i] : nullptr;
  const Py_ssize_t n_kw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < n_kw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    Py_ssize_t i = 0;
    while (i < n_params && PyUnicode_Compare(key, PyTuple_GET_ITEM(f->params, i)) != 0) ++i;
    if (i == n_params) {
      PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", name_of(f).c_str(), key);
      return false;
    }
    if (bound[i]) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%U'", name_of(f).c_str(), key);
      return false;
    }
    bound[i] = args[nargs + k];
  }
  for (Py_ssize_t i = 0; i < n_params; ++i) {
    if (!bound[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%U'", name_of(f).c_str(),
                   PyTuple_GET_ITEM(f->params, i));
      return false;
    }
  }
  return true;
}

bool has_other_keyword(OpFunctionObject* f, PyObject* kwnames) {
  for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    bool known = false;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(f->params) && !known; ++i)
      known = PyUnicode_Compare(key, PyTuple_GET_ITEM(f->params, i)) == 0;
    if (!known) return true;
  }
  return false;
}

PyObject* op_function_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) noexcept {
  auto* f = reinterpret_cast<OpFunctionObject*>(self);
  const size_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* bound[kMaxParams];
  PyObject* const* inputs = args;
  if (kwnames || static_cast<Py_ssize_t>(nargs) != PyTuple_GET_SIZE(f->params)) {
    if (kwnames && f->with_keywords && has_other_keyword(f, kwnames))
      return PyObject_Vectorcall(f->with_keywords, args, nargsf, kwnames);
    if (!bind_arguments(f, args, nargs, kwnames, bound)) return nullptr;
    inputs = bound;
  }
  try {
    const PyPrimitive& p = *nb::inst_ptr<PyPrimitive>(f->primitive);  // checked when made
    return call_with_inputs(p.prim, inputs, static_cast<size_t>(PyTuple_GET_SIZE(f->params)))->release().ptr();
  } catch (...) {
    set_python_error_from_current();
    return nullptr;
  }
}

// As a function's __get__: looked up on an instance (x.exp), the function bound to it.
PyObject* op_function_descr_get(PyObject* self, PyObject* obj, PyObject*) noexcept {
  if (obj == nullptr || obj == Py_None) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

PyObject* op_function_repr(PyObject* self) noexcept {
  return PyUnicode_FromFormat("<op function %s>", name_of(reinterpret_cast<OpFunctionObject*>(self)).c_str());
}

// Pickled by reference, as functions are: the qualified name, looked up in __module__ when loaded
// (and copy.deepcopy keeps the object itself).
PyObject* op_function_reduce(PyObject* self, PyObject*) noexcept {
  auto* f = reinterpret_cast<OpFunctionObject*>(self);
  PyObject* qualname = f->dict ? PyDict_GetItemString(f->dict, "__qualname__") : nullptr;
  if (!qualname) {
    PyErr_SetString(PyExc_TypeError, "an op function without __qualname__ cannot be pickled");
    return nullptr;
  }
  return Py_NewRef(qualname);
}

int op_function_traverse(PyObject* self, visitproc visit, void* arg) {
  auto* f = reinterpret_cast<OpFunctionObject*>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(f->dict);
  Py_VISIT(f->primitive);
  Py_VISIT(f->params);
  Py_VISIT(f->with_keywords);
  return 0;
}

int op_function_clear(PyObject* self) {
  auto* f = reinterpret_cast<OpFunctionObject*>(self);
  Py_CLEAR(f->dict);
  Py_CLEAR(f->primitive);
  Py_CLEAR(f->params);
  Py_CLEAR(f->with_keywords);
  return 0;
}

void op_function_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (reinterpret_cast<OpFunctionObject*>(self)->weakrefs) PyObject_ClearWeakRefs(self);
  op_function_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyMemberDef kMembers[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(OpFunctionObject, vectorcall), READONLY, nullptr},
    {"__dictoffset__", T_PYSSIZET, offsetof(OpFunctionObject, dict), READONLY, nullptr},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(OpFunctionObject, weakrefs), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyMethodDef kMethods[] = {{"__reduce__", op_function_reduce, METH_NOARGS, nullptr}, {nullptr, nullptr, 0, nullptr}};

PyType_Slot kSlots[] = {
    {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
    {Py_tp_descr_get, reinterpret_cast<void*>(op_function_descr_get)},
    {Py_tp_repr, reinterpret_cast<void*>(op_function_repr)},
    {Py_tp_traverse, reinterpret_cast<void*>(op_function_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(op_function_clear)},
    {Py_tp_dealloc, reinterpret_cast<void*>(op_function_dealloc)},
    {Py_tp_members, kMembers},
    {Py_tp_methods, kMethods},
    {Py_tp_doc, const_cast<char*>("A functional op that is one primitive applied to its arguments.")},
    {0, nullptr}};

PyType_Spec kSpec = {"sprout._C.OpFunction", sizeof(OpFunctionObject), 0,
                     Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                         Py_TPFLAGS_METHOD_DESCRIPTOR,
                     kSlots};

PyTypeObject* g_op_function_type = nullptr;

nb::object make_op_function(nb::handle primitive, const std::vector<std::string>& params, nb::handle with_keywords) {
  const PyPrimitive& p = primitive_of(primitive, "OpFunction");
  const OpDef& def = p.prim.def();
  SPROUT_CHECK(!def.variadic && p.call_fields.empty() && params.size() == def.inputs.size() &&
                   params.size() >= 1 && params.size() <= kMaxParams,
               ValueError, "OpFunction: the primitive ", def.name, " must take exactly its ", def.inputs.size(),
               " tensor inputs (1 to ", kMaxParams, ") and nothing else, but got ", params.size(),
               " parameter names");
  auto* f = PyObject_GC_New(OpFunctionObject, g_op_function_type);
  if (!f) throw nb::python_error();
  f->vectorcall = op_function_vectorcall;
  f->dict = PyDict_New();
  f->primitive = Py_NewRef(primitive.ptr());
  f->params = nb::tuple(nb::cast(params)).release().ptr();
  f->weakrefs = nullptr;
  f->with_keywords = with_keywords.is_none() ? nullptr : Py_NewRef(with_keywords.ptr());
  PyObject_GC_Track(f);
  nb::object out = nb::steal(reinterpret_cast<PyObject*>(f));
  if (!f->dict) throw nb::python_error();
  return out;
}

}  // namespace

void bind_op_function(nb::module_& m) {
  g_op_function_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&kSpec));
  if (!g_op_function_type) throw nb::python_error();
  m.attr("OpFunction") = nb::handle(reinterpret_cast<PyObject*>(g_op_function_type));
  m.def("op_function", &make_op_function, nb::arg("primitive"), nb::arg("params"), nb::arg("with_keywords").none() = nb::none(),
        "A callable running `primitive` on its arguments, bound by the names in `params` (one per input); calls "
        "with other keywords go to `with_keywords` when given.");
}

}  // namespace sprout::py
