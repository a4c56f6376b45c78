// Shared declarations of the nanobind layer (sprout._C). One file per area binds it.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <optional>
#include <string>

#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout::py {

namespace nb = nanobind;

void bind_errors(nb::module_& m);
void bind_dtype(nb::module_& m);
void bind_tensor(nb::module_& m);
void bind_tensor_ops(nb::class_<Tensor>& cls);
// The Tensor type's number-protocol slots (+, -, *, /, //, %, **), given when the type is created.
const PyType_Slot* tensor_number_slots();
// For code called straight from CPython (a type slot, not a bound function): sets the Python error for
// the C++ exception being handled, as nanobind's translation would.
void set_python_error_from_current() noexcept;
void bind_ops(nb::module_& m);
void bind_runtime(nb::module_& m);
void bind_autograd(nb::module_& m);
void bind_io(nb::module_& m);
void bind_mindir(nb::module_& m);
void bind_dist(nb::module_& m);
void bind_data(nb::module_& m);

// Python object -> Tensor. Tensors pass through; Python scalars, sequences and arrays are converted
// by sprout.common._convert (so the rules live in one place), then copied in. `dtype` casts.
Tensor to_tensor(nb::handle obj, std::optional<DType> dtype = std::nullopt);

// An operand of an op call: a Tensor, or a Python scalar whose dtype depends on the other operands
// (MindSpore's implicit promotion: `int_tensor + 1.5` is Float32, `half_tensor * 2.0` stays Float16).
struct Operand {
  Tensor tensor;           // defined for tensor operands
  double scalar = 0;       // value of a scalar operand
  DTypeKind scalar_kind = DTypeKind::Integer;
  bool is_scalar = false;
};
bool is_python_scalar(nb::handle obj);
// The Tensor that `obj` holds (obj a sprout Tensor or a subclass), else nullptr; TypeError for a Tensor
// never initialized. Note [Tensor objects without type lookups] in tensor.cc.
const Tensor* tensor_of(nb::handle obj);
// Whether obj is a Tensor (or a subclass's instance), without touching its C++ object: a graph-mode
// GraphTensor is one whose C++ object was never made.
bool is_tensor_object(nb::handle obj);
Operand to_operand(nb::handle obj);
// The dtype Python scalars take as operands of `prim` next to tensors of `tensors_dtype` (none: no
// tensor operand), given the highest kind among the scalars.
DType weak_scalar_dtype(const Primitive& prim, std::optional<DType> tensors_dtype, DTypeKind scalar_kind);
// Resolves scalar operands into 0-d tensors of the dtype the op will compute in, then runs it.
std::vector<Tensor> run_with_operands(const Primitive& prim, std::span<Operand> operands);
// Runs `prim` eagerly on N (1 to 4) Python operands, by run_with_operands; when all are Tensors (the
// usual call) they go to run_eager as they are. Note [Tensor operands without Operands]
template <size_t N>
std::vector<Tensor> run_on_objects(const Primitive& prim, const nb::handle (&objects)[N]);

// Tensor -> NumPy array sharing memory (a copy only for BFloat16, which NumPy cannot hold).
nb::object to_numpy(const Tensor& t);
// Tensor -> nanobind ndarray (no framework) sharing memory: carries the buffer and DLPack protocols.
nb::ndarray<> to_ndarray(const Tensor& t);
// Any DLPack / buffer-protocol producer -> Tensor sharing its memory.
Tensor from_ndarray(nb::ndarray<nb::ro, nb::device::cpu> array, nb::handle owner);

nb::object wrap(Tensor t);

// A registry primitive with attribute values, callable from Python (sprout._C.Primitive).
struct PyPrimitive {
  Primitive prim;
  std::vector<size_t> call_fields;  // attribute indices given at call time, in declaration order
};
// `prim` called with n (1 to 4) inputs and nothing else, given as an array of Python objects: a graph
// node while tracing, else the eager result. nullopt for other input counts.
std::optional<nb::object> call_with_inputs(const Primitive& prim, PyObject* const* items, size_t n);
// The primitive a sprout._C.Primitive object holds; TypeError naming `api` for any other object.
const PyPrimitive& primitive_of(nb::handle obj, const char* api);
void bind_op_function(nb::module_& m);
// Splits a call's arguments into the primitive with its call-time attributes applied and the
// tensor operands (variadic ops take their tensors as one tuple or list, as MindSpore does).
Primitive bind_call_args(const PyPrimitive& p, nb::args call_args, std::vector<nb::object>& operands);

// Graph mode (src/python/ir.cc): while the front end builds a graph, a primitive called on a graph
// tensor emits a node instead of running. Returns nullopt when no operand is a graph tensor.
std::optional<nb::object> emit_if_tracing(const Primitive& prim, std::span<const nb::object> operands);
void bind_ir(nb::module_& m);

// Text of a Python str object (from nb::str(...) or nb::repr(...)), for error messages.
inline std::string py_text(const nb::str& s) { return s.c_str(); }  // Tensor -> Python object of class sprout.Tensor

}  // namespace sprout::py
