// Python values as op operands, and MindSpore's implicit promotion of Python scalars.
#include <array>

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

std::vector<Tensor> run_with_operands(const Primitive& prim, std::span<Operand> operands) {
  bool any_scalar = false;
  std::optional<DType> tensors_dtype;
  DTypeKind scalar_kind = DTypeKind::Bool;
  for (const Operand& o : operands) {
    if (o.is_scalar) {
      any_scalar = true;
      scalar_kind = std::max(scalar_kind, o.scalar_kind);
    } else {
      tensors_dtype = tensors_dtype ? promote_types(*tensors_dtype, o.tensor.dtype()) : o.tensor.dtype();
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
      inputs[i] = cast(o.tensor, target);
    } else {
      inputs[i] = Tensor::scalar(o.scalar, target);
    }
  }
  return run_eager(prim, inputs);
}

}  // namespace sprout::py
