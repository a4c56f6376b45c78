// Python values as op operands, and MindSpore's implicit promotion of Python scalars.
#include <array>
#include <limits>
#include <type_traits>

#include "python/bindings.h"
#include "runtime/eager.h"

namespace sprout::py {

bool is_python_scalar(nb::handle obj) {
  return PyBool_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyFloat_Check(obj.ptr());
}

Operand to_operand(nb::handle obj) {
  Operand op;
  if (const Tensor* t = tensor_of(obj)) {
    op.tensor = *t;
  } else if (PyBool_Check(obj.ptr())) {
    op.is_scalar = true;
    op.scalar_kind = DTypeKind::Bool;
    op.scalar = obj.ptr() == Py_True ? 1.0 : 0.0;
  } else if (PyLong_Check(obj.ptr())) {
    op.is_scalar = true;
    op.scalar_kind = DTypeKind::Integer;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    SPROUT_CHECK(!overflow, ValueError, "the Python int ", py_text(nb::str(obj)),
                 " does not fit in Int64");
    op.scalar = static_cast<double>(v);
    op.tensor = Tensor::scalar_int(v, DType::Int64);  // exact value kept for integer results
  } else if (PyFloat_Check(obj.ptr())) {
    op.is_scalar = true;
    op.scalar_kind = DTypeKind::Floating;
    op.scalar = PyFloat_AsDouble(obj.ptr());
  } else {
    op.tensor = to_tensor(obj);
  }
  return op;
}

DType weak_scalar_dtype(const Primitive& prim, std::optional<DType> tensors_dtype, DTypeKind scalar_kind) {
  // A scalar follows the tensors' dtype unless it is of a higher kind (a float with int tensors):
  // then the default dtype of its kind (Float32, Int64) is used.
  // For ops that check dtypes themselves (Exact policy, e.g. optimizer updates taking lr=0.1), a
  // float scalar follows the tensors when they are floating, so a Float64 update stays Float64.
  DType target = default_dtype(scalar_kind);
  if (tensors_dtype && prim.def().dtype_policy != DTypePolicy::Exact)
    target = scalar_kind > kind(*tensors_dtype) ? default_dtype(scalar_kind) : *tensors_dtype;
  else if (tensors_dtype && scalar_kind == DTypeKind::Floating && is_floating(*tensors_dtype))
    target = *tensors_dtype;
  return target;
}

namespace {

// A Python int joins integer tensors in their dtype (MindSpore's and NumPy 2's rule): one outside that
// dtype's range is an error, as in NumPy 2, rather than a value wrapped around (int32 + 2**40 == int32).
void check_int_fits(const Primitive& prim, int64_t value, DType dtype) {
  if (!is_integral(dtype)) return;
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, int64_t>) {
      const bool fits = std::is_signed_v<T> ? value >= std::numeric_limits<T>::min() &&
                                                  value <= static_cast<int64_t>(std::numeric_limits<T>::max())
                                            : value >= 0 && static_cast<uint64_t>(value) <= std::numeric_limits<T>::max();
      SPROUT_CHECK(fits, ValueError, prim.def().name, ": the Python int ", value, " does not fit in ", name(dtype),
                   ", the dtype of the tensors it goes with; cast them to a wider dtype first");
    }
  });
}

}  // namespace

std::vector<Tensor> run_with_operands(const Primitive& prim, std::span<Operand> operands) {
  bool any_scalar = false;
  std::optional<DType> tensors_dtype;
  DTypeKind scalar_kind = DTypeKind::Bool;
  for (const Operand& o : operands) {
    if (o.is_scalar) {
      any_scalar = true;
      scalar_kind = std::max(scalar_kind, o.scalar_kind);
    } else {
      // Tensors that do not promote (uint32 with int32) keep the first one's dtype here: run_eager then
      // refuses them with the op's name.
      const DType d = o.tensor.dtype();
      tensors_dtype = !tensors_dtype ? d : can_promote(*tensors_dtype, d) ? promote_types(*tensors_dtype, d) : *tensors_dtype;
    }
  }
  // Up to four operands, the inputs live on the stack: a tiny op's heap allocations are a visible
  // share of its cost.
  std::array<Tensor, 4> local;
  std::vector<Tensor> heap(operands.size() > local.size() ? operands.size() : 0);
  std::span<Tensor> inputs = heap.empty() ? std::span<Tensor>(local.data(), operands.size()) : std::span<Tensor>(heap);
  const DType target = any_scalar ? weak_scalar_dtype(prim, tensors_dtype, scalar_kind) : DType::Float32;
  for (size_t i = 0; i < operands.size(); ++i) {
    Operand& o = operands[i];
    if (!o.is_scalar) {
      inputs[i] = std::move(o.tensor);
    } else if (o.scalar_kind == DTypeKind::Integer && !is_floating(target)) {
      check_int_fits(prim, *o.tensor.data<int64_t>(), target);
      inputs[i] = cast(o.tensor, target);
    } else {
      inputs[i] = Tensor::scalar(o.scalar, target);
    }
  }
  return run_eager(prim, inputs);
}

namespace {

// to_operand, with a conversion's TypeError naming the op and its input (the converter knows neither).
Operand operand_of_input(const Primitive& prim, size_t i, nb::handle obj) {
  try {
    return to_operand(obj);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_TypeError)) throw;
    const OpDef& def = prim.def();
    std::string input = i < def.inputs.size() ? def.inputs[i] : str(i);
    // The converter words its errors for Tensor(input_data): say which op and input instead.
    constexpr std::string_view kConverter = "Tensor: 'input_data' ";
    std::string message = py_text(nb::str(e.value()));
    if (message.starts_with(kConverter))
      throw TypeError(str(def.name, ": input '", input, "' ", message.substr(kConverter.size())));
    throw TypeError(str(def.name, ": input '", input, "': ", message));
  }
}

}  // namespace

// Note [Tensor operands without Operands]
// An Operand holds a Tensor by value (shape and strides inline), and run_with_operands moves it again
// into its input array: for a tiny op those copies, and the arrays' construction and destruction, cost
// as much as the kernel (ops.neg 389 -> 293 ns without them). Calls whose operands are all Tensors
// need no promotion of scalars, so they skip the Operands; a one-input call does not copy at all.
template <size_t N>
std::vector<Tensor> run_on_objects(const Primitive& prim, const nb::handle (&objects)[N]) {
  const Tensor* tensors[N];
  bool all_tensors = true;
  for (size_t i = 0; i < N; ++i) all_tensors = (tensors[i] = tensor_of(objects[i])) && all_tensors;
  if (all_tensors) {
    if constexpr (N == 1) return run_eager(prim, std::span<const Tensor>(tensors[0], 1));
    Tensor inputs[N];
    for (size_t i = 0; i < N; ++i) inputs[i] = *tensors[i];
    return run_eager(prim, inputs);
  }
  Operand operands[N];
  for (size_t i = 0; i < N; ++i) operands[i] = operand_of_input(prim, i, objects[i]);
  return run_with_operands(prim, operands);
}

template std::vector<Tensor> run_on_objects<1>(const Primitive&, const nb::handle (&)[1]);
template std::vector<Tensor> run_on_objects<2>(const Primitive&, const nb::handle (&)[2]);
template std::vector<Tensor> run_on_objects<3>(const Primitive&, const nb::handle (&)[3]);
template std::vector<Tensor> run_on_objects<4>(const Primitive&, const nb::handle (&)[4]);

}  // namespace sprout::py
