// ApplyGradientDescentMatMul: var -= alpha * op(x) @ op(y), in place, as one GEMM that accumulates
// into var (C = -alpha A B + C). The compiler creates it (pass_fold_updates.cc, Note [Updates folded
// into their gradient's product]) where plain SGD updates a weight whose gradient is a matrix product
// used nowhere else: the gradient is then never written to memory nor read back.
#include "ops/infer_util.h"
#include "ops/matmul.h"
#include "ops/optim_dispatch.h"

namespace sprout {
namespace {

using V = Emitter::Value;

std::vector<TensorSpec> infer_update_matmul(const OpDef& op, const MatMulAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec &var = in[0], &alpha = in[1], &x = in[2], &y = in[3];
  SPROUT_CHECK(var.dtype == DType::Float32 || var.dtype == DType::Float64, TypeError, op.name,
               ": 'var' must be Float32 or Float64, but got ", name(var.dtype));
  SPROUT_CHECK(numel(alpha.shape) == 1 && alpha.dtype != DType::Bool, ValueError, op.name,
               ": 'alpha' must be a real scalar (a number or a one-element tensor), but got shape ",
               shape_str(alpha.shape));
  for (size_t i : {size_t{2}, size_t{3}})
    SPROUT_CHECK(in[i].dtype == var.dtype, TypeError, op.name, ": '", op.inputs[i], "' must have the dtype of 'var' (",
                 name(var.dtype), "), but got ", name(in[i].dtype));
  SPROUT_CHECK(var.shape.size() == 2 && x.shape.size() == 2 && y.shape.size() == 2, ValueError, op.name,
               ": 'var', 'x' and 'y' must be 2-d, but got shapes ", shape_str(var.shape), ", ", shape_str(x.shape),
               " and ", shape_str(y.shape));
  const int64_t m = a.transpose_a ? x.shape[1] : x.shape[0], kx = a.transpose_a ? x.shape[0] : x.shape[1];
  const int64_t ky = a.transpose_b ? y.shape[1] : y.shape[0], n = a.transpose_b ? y.shape[0] : y.shape[1];
  const bool fits = kx == ky && var.shape[0] == m && var.shape[1] == n;
  SPROUT_CHECK(fits, ValueError, op.name, ": the product of 'x' ", shape_str(x.shape),
               " and 'y' ", shape_str(y.shape), " (transpose_a=", a.transpose_a ? "True" : "False", ", transpose_b=",
               a.transpose_b ? "True" : "False", ") must have the shape of 'var' ", shape_str(var.shape));
  return {var};
}

std::vector<Tensor> apply(const MatMulAttrs& attrs, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("ApplyGradientDescentMatMul");
  return run_in_place(def, &attrs, in, "usrr");
}

}  // namespace

SPROUT_REGISTER(optim_matmul) {
  define_op<MatMulAttrs>("ApplyGradientDescentMatMul")
      .side_effect()
      .doc("In place: var -= alpha * op(x) @ op(y) (op: transpose_a/transpose_b), one accumulating GEMM; returns "
           "var. Made by the compiler from ApplyGradientDescent of a MatMul gradient.")
      .inputs({"var", "alpha", "x", "y"})
      .outputs({"var"})
      .non_differentiable({true})
      .infer(infer_update_matmul)
      .view(apply)
      .bprop([](Emitter&, const BpropArgs& args) { return std::vector<V>(args.inputs.size()); });
}

}  // namespace sprout
