// Cholesky: the triangular factor of each symmetric positive-definite matrix of a batch (..., n, n),
// lower L with A = L L^T, or upper U = L^T with A = U^T U.
//
// Note [Cholesky symmetrizes its input]
// The factor depends on A only through its symmetric part: the kernel factors (A + A^T) / 2, as JAX's
// cholesky does (symmetrize_input), where LAPACK, NumPy and MindSpore read one triangle and ignore the
// other. The two agree on every valid (symmetric) input; the difference is what makes the gradient well
// defined. Reading one triangle, the derivative along a perturbation of a single element would depend
// on which triangle it is in, and a finite-difference check (which perturbs one element at a time)
// would see a one-sided gradient that the usual symmetric formula does not give. Of the symmetrized
// function the symmetric formula is the exact gradient:
//   dA = L^{-T} S L^{-1},  S = sym(Phi(L^T dL)),
// Phi keeping the lower triangle with the diagonal halved, sym(X) = (X + X^T) / 2 (Murray 2016, "Differentiation
// of the Cholesky decomposition"; PyTorch's cholesky_backward computes S as (tril(P) + tril(P, -1)^T) / 2
// with P = L^T dL, as here). Only the lower triangle of dL counts, since L's upper triangle is constantly
// zero: tril(L^T dL) = tril(L^T tril(dL)). The two triangular solves are MatrixSolve calls.
#include "ops/bprop_builder.h"
#include "ops/linalg.h"
#include "ops/linalg_bprop.h"

namespace sprout {
namespace {

using linalg::V;

std::vector<TensorSpec> infer_cholesky(const OpDef& op, const CholeskyAttrs&, std::span<const TensorSpec> in) {
  check_square_matrices(op, 0, in[0]);
  return {in[0]};
}

// Note [Cholesky symmetrizes its input]. With `upper` the factor is U = L^T and dU = dL^T, so L^T dL = U dU^T
// and L^{-T} = U^{-1}.
std::vector<V> cholesky_bprop(BpropBuilder& b) {
  const bool upper = b.prim().attrs_as<CholeskyAttrs>().upper;
  V factor = b.out(), g = b.dout();
  V p = upper ? b.batch_matmul(factor, g, false, true) : b.batch_matmul(factor, g, true, false);
  V s = b.add(linalg::tril(b, p, 0), linalg::transpose_matrices(b, linalg::tril(b, p, -1)));
  s = b.mul(s, b.scalar(0.5, b.spec(s).dtype));
  // L^{-T} S, then L^{-T} (L^{-T} S)^T = L^{-T} S L^{-1} (S is symmetric).
  V left = linalg::matrix_solve(b, factor, s, !upper);
  return {linalg::matrix_solve(b, factor, linalg::transpose_matrices(b, left), !upper)};
}

}  // namespace

SPROUT_REGISTER(linalg_cholesky) {
  define_op<CholeskyAttrs>("Cholesky")
      .doc("The Cholesky factor of each symmetric positive-definite matrix of a batch (..., n, n): lower L with "
           "A = L L^T, or with 'upper' U with A = U^T U. The input's symmetric part is factored; a matrix that is "
           "not positive-definite is a ValueError.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_cholesky)
      .bprop(bprop_rule(cholesky_bprop));
}

}  // namespace sprout
