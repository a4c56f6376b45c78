// Linear-algebra ops computed from an LU factorization: MatrixInverse, MatrixDeterminant,
// LogMatrixDeterminant and MatrixSolve. Each takes a batch of square matrices (..., n, n) in Float32 or
// Float64; the CPU kernels call LAPACK once per matrix (kernels/cpu/linalg_lu.cc).
//
// Note [Linalg gradients]
// The rules are the standard matrix-calculus results, written with these ops themselves so that they
// hold in both modes and at every order:
//   Y = inv(A):       dA = -Y^T dY Y^T
//   d = det(A):       dA = dd d inv(A)^T
//   l = log|det(A)|:  dA = dl inv(A)^T            (the sign is piecewise constant: no gradient)
//   X = inv(A) B:     dB = inv(A)^T dX,  dA = -dB X^T
// The adjoint forms follow by transposing A. The determinant rules need inv(A), so they raise at a
// singular A, where det's gradient (the adjugate) exists but this rule cannot compute it, as in
// MindSpore and TensorFlow, whose rules are the same.
#include <algorithm>
#include <limits>

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"
#include "ops/linalg.h"
#include "ops/linalg_bprop.h"

namespace sprout {

void check_square_matrices(const OpDef& op, size_t index, const TensorSpec& spec) {
  const std::string& arg = op.inputs[index];
  check_dtype_in(op, index, spec, {DType::Float32, DType::Float64});
  const Shape& s = spec.shape;
  SPROUT_CHECK(s.size() >= 2, ValueError, op.name, ": '", arg,
               "' must be a batch of square matrices (rank >= 2, shape (..., n, n)), but got shape ", shape_str(s));
  SPROUT_CHECK(s[s.size() - 1] == s[s.size() - 2], ValueError, op.name, ": '", arg,
               "' must be a batch of square matrices (shape (..., n, n)), but its last two dimensions are ",
               s[s.size() - 2], " and ", s[s.size() - 1], " (shape ", shape_str(s), ")");
  SPROUT_CHECK(s.back() <= std::numeric_limits<int32_t>::max(), ValueError, op.name, ": '", arg,
               "' has matrices of size ", s.back(), ", more than LAPACK's 32-bit sizes allow");
}

void check_matrices(const OpDef& op, size_t index, const TensorSpec& spec) {
  const std::string& arg = op.inputs[index];
  check_dtype_in(op, index, spec, {DType::Float32, DType::Float64});
  const Shape& s = spec.shape;
  SPROUT_CHECK(s.size() >= 2, ValueError, op.name, ": '", arg,
               "' must be a batch of matrices (rank >= 2, shape (..., M, N)), but got shape ", shape_str(s));
  SPROUT_CHECK(std::max(s[s.size() - 2], s[s.size() - 1]) <= std::numeric_limits<int32_t>::max(), ValueError,
               op.name, ": '", arg, "' has ", s[s.size() - 2], " x ", s[s.size() - 1],
               " matrices, more than LAPACK's 32-bit sizes allow");
}

namespace {

using linalg::V;

Shape batch_of(const Shape& matrices) { return Shape(matrices.begin(), matrices.end() - 2); }

std::vector<TensorSpec> infer_inverse(const OpDef& op, const LinalgAdjointAttrs&, std::span<const TensorSpec> in) {
  check_square_matrices(op, 0, in[0]);
  return {in[0]};
}

std::vector<TensorSpec> infer_determinant(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_square_matrices(op, 0, in[0]);
  return {TensorSpec{in[0].dtype, batch_of(in[0].shape)}};
}

std::vector<TensorSpec> infer_log_determinant(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  check_square_matrices(op, 0, in[0]);
  TensorSpec out{in[0].dtype, batch_of(in[0].shape)};
  return {out, out};
}

std::vector<TensorSpec> infer_solve(const OpDef& op, const LinalgAdjointAttrs&, std::span<const TensorSpec> in) {
  const TensorSpec &a = in[0], &rhs = in[1];
  check_square_matrices(op, 0, a);
  SPROUT_CHECK(rhs.dtype == a.dtype, TypeError, op.name, ": 'rhs' must have the dtype of 'matrix', ", name(a.dtype),
               ", but got ", name(rhs.dtype));
  SPROUT_CHECK(rhs.shape.size() == a.shape.size(), ValueError, op.name,
               ": 'rhs' must have the rank of 'matrix' (shape (..., M, K) for 'matrix' of shape (..., M, M)), but "
               "got shapes ", shape_str(rhs.shape), " and ", shape_str(a.shape));
  const size_t r = a.shape.size();
  SPROUT_CHECK(batch_of(rhs.shape) == batch_of(a.shape) && rhs.shape[r - 2] == a.shape[r - 2], ValueError, op.name,
               ": 'rhs' must have shape (..., M, K) for 'matrix' of shape (..., M, M) (the same batch dimensions and "
               "M), but got shapes ", shape_str(rhs.shape), " and ", shape_str(a.shape));
  SPROUT_CHECK(rhs.shape.back() <= std::numeric_limits<int32_t>::max(), ValueError, op.name, ": 'rhs' has ",
               rhs.shape.back(), " columns, more than LAPACK's 32-bit sizes allow");
  return {rhs};
}

std::vector<V> inverse_bprop(BpropBuilder& b) {
  const bool adjoint = b.prim().attrs_as<LinalgAdjointAttrs>().adjoint;
  V y = b.out(), g = b.dout();
  // Y = inv(A): -Y^T g Y^T. Y = inv(A^T): the transpose of that with A^T for A, -Y g^T Y.
  V product = adjoint ? b.batch_matmul(b.batch_matmul(y, g, false, true), y, false, false)
                      : b.batch_matmul(b.batch_matmul(y, g, true, false), y, false, true);
  return {b.neg(product)};
}

std::vector<V> determinant_bprop(BpropBuilder& b) {
  V scale = linalg::per_matrix(b, b.mul(b.dout(), b.out()));
  return {b.mul(scale, linalg::matrix_inverse(b, b.input(0), true))};
}

std::vector<V> log_determinant_bprop(BpropBuilder& b) {
  V scale = linalg::per_matrix(b, b.dout(1));
  return {b.mul(scale, linalg::matrix_inverse(b, b.input(0), true))};
}

std::vector<V> solve_bprop(BpropBuilder& b) {
  const bool adjoint = b.prim().attrs_as<LinalgAdjointAttrs>().adjoint;
  V a = b.input(0), x = b.out();
  V d_rhs = linalg::matrix_solve(b, a, b.dout(), !adjoint);
  if (!b.wants(0)) return {V{}, d_rhs};
  V d_a = adjoint ? b.batch_matmul(x, d_rhs, false, true) : b.batch_matmul(d_rhs, x, false, true);
  return {b.neg(d_a), b.wants(1) ? d_rhs : V{}};
}

}  // namespace

SPROUT_REGISTER(linalg) {
  define_op<LinalgAdjointAttrs>("MatrixInverse")
      .doc("The inverse of each square matrix of a batch (..., n, n) (of its transpose with 'adjoint'); a "
           "singular matrix is a ValueError.")
      .inputs({"x"})
      .outputs({"y"})
      .infer(infer_inverse)
      .bprop(bprop_rule(inverse_bprop));
  define_op<NoAttrs>("MatrixDeterminant")
      .doc("The determinant of each square matrix of a batch (..., n, n), shape (...).")
      .inputs({"x"})
      .outputs({"y"})
      .infer(infer_determinant)
      .bprop(bprop_rule(determinant_bprop));
  define_op<NoAttrs>("LogMatrixDeterminant")
      .doc("The sign and the log of the absolute value of the determinant of each square matrix of a batch "
           "(..., n, n); a singular matrix gives sign 0 and -inf.")
      .inputs({"x"})
      .outputs({"sign", "y"})
      .non_differentiable({true, false})
      .infer(infer_log_determinant)
      .bprop(bprop_rule(log_determinant_bprop));
  define_op<LinalgAdjointAttrs>("MatrixSolve")
      .doc("X with matrix X = rhs (matrix^T X = rhs with 'adjoint') for a batch of square matrices (..., M, M) "
           "and right-hand sides (..., M, K); a singular matrix is a ValueError.")
      .inputs({"matrix", "rhs"})
      .outputs({"y"})
      .infer(infer_solve)
      .bprop(bprop_rule(solve_bprop));
}

}  // namespace sprout
