// Eager dispatch: run one primitive now. Note [Eager dispatch]
//   1. reconcile input dtypes by the op's DTypePolicy (inserting Cast, as the compiler will);
//   2. infer output specs with the op's pure infer function (all user errors come from here);
//   3. view ops return aliases of their input; all others get fresh outputs and run the kernel.
// This is the whole PYNATIVE path for one op; Python reaches it through one C++ call per op.
#pragma once

#include <span>
#include <vector>

#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout {

std::vector<Tensor> run_eager(const Primitive& prim, std::span<const Tensor> inputs);

// The dtype every input of `def` is cast to before its kernel runs, given the inputs' dtypes.
// Returns nullopt for ops with DTypePolicy::Exact.
std::optional<DType> policy_dtype(const OpDef& def, std::span<const DType> input_dtypes);

Tensor cast(const Tensor& x, DType dtype);

// Runs `kernel` of `def` on allocated outputs; a kernel's own allocation failing (a scratch buffer, a
// std::vector sized from the inputs) becomes a RuntimeError naming the op instead of std::bad_alloc.
void run_kernel(const OpDef& def, const KernelFn& kernel, const void* attrs, std::span<const Tensor> inputs,
                std::span<Tensor> outputs);

}  // namespace sprout
