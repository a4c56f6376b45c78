// Qr: the QR decomposition A = Q R of each matrix of a batch (..., M, N), as MindSpore's Qr: Q (..., M, P)
// with orthonormal columns and upper-triangular R (..., P, N), P = min(M, N) (Q M x M and R M x N with
// 'full_matrices'). The signs are LAPACK's Householder ones (R's diagonal may be negative).
//
// Note [QR gradient]
// With copyltu(X) = triu(X) + triu(X, 1)^T (the upper triangle mirrored: a symmetric matrix):
//   M >= N:  dA = (dQ + Q copyltu(dR R^T - Q^T dQ)) R^{-T}
// R^{-T} needs R invertible: A's columns independent. For M < N, split A = [X | Y] and R = [U | V] after
// M columns: X = Q U is a square QR and Y = Q V, so V = Q^T Y passes its gradient to Q and to Y:
//   dQ' = dQ + Y dV^T,  dX = (dQ' + Q copyltu(dU U^T - Q^T dQ')) U^{-T},  dY = Q dV
// (Y = Q V, so no input is read). With 'full_matrices' and M > N, Q's extra columns are any orthonormal
// basis of a complement, so nothing depends on them differentiably: no gradient (a ValueError, as in
// PyTorch); M <= N gives the same factors with or without it.
#include <algorithm>

#include "ops/array_bprop.h"
#include "ops/linalg.h"
#include "ops/linalg_bprop.h"

namespace sprout {
namespace {

using linalg::V;

std::vector<TensorSpec> infer_qr(const OpDef& op, const QrAttrs& a, std::span<const TensorSpec> in) {
  check_matrices(op, 0, in[0]);
  const Shape& x = in[0].shape;
  const int64_t m = x[x.size() - 2], n = x[x.size() - 1], p = std::min(m, n);
  Shape q(x.begin(), x.end() - 2), r = q;
  q.push_back(m);
  q.push_back(a.full_matrices ? m : p);
  r.push_back(a.full_matrices ? m : p);
  r.push_back(n);
  return {TensorSpec{in[0].dtype, q}, TensorSpec{in[0].dtype, r}};
}

V triu(BpropBuilder& b, V x, int64_t diagonal) { return b.emitter().emit("Triu", {x}, {{"diagonal", diagonal}}); }

// (dQ + Q copyltu(dR R^T - Q^T dQ)) R^{-T} for square invertible R (Note [QR gradient]).
V square_r_grad(BpropBuilder& b, V q, V r, V dq, V dr) {
  V m = b.sub(b.batch_matmul(dr, r, false, true), b.batch_matmul(q, dq, true, false));
  V copyltu = b.add(triu(b, m, 0), linalg::transpose_matrices(b, triu(b, m, 1)));
  V y = b.add(dq, b.batch_matmul(q, copyltu, false, false));
  // Y R^{-T} = (R^{-1} Y^T)^T
  return linalg::transpose_matrices(b, linalg::matrix_solve(b, r, linalg::transpose_matrices(b, y), false));
}

std::vector<V> qr_bprop(BpropBuilder& b) {
  const auto& attrs = b.prim().attrs_as<QrAttrs>();
  const Shape& shape = b.spec(b.input(0)).shape;
  const int64_t m = shape[shape.size() - 2], n = shape[shape.size() - 1];
  SPROUT_CHECK(!attrs.full_matrices || m <= n, ValueError, "Qr: with full_matrices=True and 'x' of shape ",
               shape_str(shape), " (more rows than columns) Q's extra columns are not unique, so the decomposition "
               "has no gradient; use full_matrices=False");
  V q = b.out(0), r = b.out(1), dq = b.dout(0), dr = b.dout(1);
  if (m >= n) return {square_r_grad(b, q, r, dq, dr)};
  const int64_t last = static_cast<int64_t>(shape.size()) - 1;
  std::vector<V> r_parts = split_sizes(b, r, last, {m, n - m});
  std::vector<V> dr_parts = split_sizes(b, dr, last, {m, n - m});
  V y = b.batch_matmul(q, r_parts[1], false, false);
  V dq_total = b.add(dq, b.batch_matmul(y, dr_parts[1], false, true));
  V dx = square_r_grad(b, q, r_parts[0], dq_total, dr_parts[0]);
  V dy = b.batch_matmul(q, dr_parts[1], false, false);
  return {concat(b, std::array<V, 2>{dx, dy}, last)};
}

}  // namespace

SPROUT_REGISTER(linalg_qr) {
  define_op<QrAttrs>("Qr")
      .doc("QR decomposition A = Q R of each matrix of a batch (..., M, N): Q (..., M, P) with orthonormal columns "
           "and upper-triangular R (..., P, N), P = min(M, N) (Q M x M and R M x N with 'full_matrices').")
      .inputs({"x"})
      .outputs({"q", "r"})
      .infer(infer_qr)
      .bprop(bprop_rule(qr_bprop));
}

}  // namespace sprout
