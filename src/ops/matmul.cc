// Matrix products. MatMul takes 2-d inputs; BatchMatMul takes inputs of rank >= 2 (rank 1 is not a
// matrix) whose leading (batch) dimensions broadcast.
#include "ops/matmul.h"

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

constexpr std::initializer_list<DType> kMatMulTypes = {DType::Float16, DType::BFloat16, DType::Float32,
                                                       DType::Float64, DType::Int32,    DType::Int64};

void check_inner(const OpDef& op, const MatMulAttrs& a, const TensorSpec& x, const TensorSpec& y) {
  size_t rx = x.shape.size(), ry = y.shape.size();
  int64_t k_x = a.transpose_a ? x.shape[rx - 2] : x.shape[rx - 1];
  int64_t k_y = a.transpose_b ? y.shape[ry - 1] : y.shape[ry - 2];
  SPROUT_CHECK(k_x == k_y, ValueError, op.name, ": 'x' has shape ", shape_str(x.shape), " and 'y' has shape ",
               shape_str(y.shape), " (transpose_a=", a.transpose_a ? "True" : "False",
               ", transpose_b=", a.transpose_b ? "True" : "False", "); the contracted dimensions must be equal, but are ",
               k_x, " and ", k_y);
  SPROUT_CHECK(x.dtype == y.dtype, TypeError, op.name, ": 'x' and 'y' must have the same dtype, but got ",
               name(x.dtype), " and ", name(y.dtype));
}

std::vector<TensorSpec> infer_matmul(const OpDef& op, const MatMulAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec &x = in[0], &y = in[1];
  SPROUT_CHECK(x.shape.size() == 2 && y.shape.size() == 2, ValueError, op.name,
               ": 'x' and 'y' must be 2-d, but got shapes ", shape_str(x.shape), " and ", shape_str(y.shape),
               "; use BatchMatMul (ops.matmul) for batches");
  check_dtype_in(op, 0, x, kMatMulTypes);
  check_inner(op, a, x, y);
  int64_t m = a.transpose_a ? x.shape[1] : x.shape[0];
  int64_t n = a.transpose_b ? y.shape[0] : y.shape[1];
  return {TensorSpec{x.dtype, Shape{m, n}}};
}

std::vector<TensorSpec> infer_batch_matmul(const OpDef& op, const MatMulAttrs& a, std::span<const TensorSpec> in) {
  const TensorSpec &x = in[0], &y = in[1];
  SPROUT_CHECK(x.shape.size() >= 2 && y.shape.size() >= 2, ValueError, op.name,
               ": 'x' and 'y' must have rank >= 2, but got shapes ", shape_str(x.shape), " and ", shape_str(y.shape));
  check_dtype_in(op, 0, x, kMatMulTypes);
  check_inner(op, a, x, y);
  size_t rx = x.shape.size(), ry = y.shape.size();
  Shape batch = broadcast_shapes(op.name, std::span<const int64_t>(x.shape.data(), rx - 2),
                                 std::span<const int64_t>(y.shape.data(), ry - 2));
  batch.push_back(a.transpose_a ? x.shape[rx - 1] : x.shape[rx - 2]);
  batch.push_back(a.transpose_b ? y.shape[ry - 2] : y.shape[ry - 1]);
  return {TensorSpec{x.dtype, std::move(batch)}};
}

using V = BpropBuilder::V;

// Gradients of op(x) @ op(y) for each combination of transposes, as products of the operands and
// dout (never an explicit transpose); the batched form then sums over broadcast batch dims.
template <bool BATCHED>
std::vector<V> matmul_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<MatMulAttrs>();
  V x = b.input(0), y = b.input(1), d = b.dout();
  auto mm = [&](V p, V q, bool tp, bool tq) { return BATCHED ? b.batch_matmul(p, q, tp, tq) : b.matmul(p, q, tp, tq); };
  auto dx = [&] {
    V g = !a.transpose_a ? mm(d, y, false, !a.transpose_b) : a.transpose_b ? mm(y, d, true, true) : mm(y, d, false, true);
    return BATCHED ? b.sum_to_shape(g, b.spec(x).shape) : g;
  };
  auto dy = [&] {
    V g = !a.transpose_b ? mm(x, d, !a.transpose_a, false) : a.transpose_a ? mm(d, x, true, true) : mm(d, x, true, false);
    return BATCHED ? b.sum_to_shape(g, b.spec(y).shape) : g;
  };
  return {b.wants(0) ? dx() : V{}, b.wants(1) ? dy() : V{}};
}

}  // namespace

SPROUT_REGISTER(matmul) {
  define_op<MatMulAttrs>("MatMul")
      .doc("Matrix product of two 2-d tensors, optionally transposing either.")
      .inputs({"x", "y"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_matmul)
      .bprop(bprop_rule(matmul_bprop<false>));
  define_op<MatMulAttrs>("BatchMatMul")
      .doc("Batched matrix product over the last two axes; leading axes broadcast.")
      .inputs({"x", "y"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_batch_matmul)
      .bprop(bprop_rule(matmul_bprop<true>));
}

}  // namespace sprout
