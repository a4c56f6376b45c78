// Svd: the singular value decomposition A = U diag(S) V^T of each matrix of a batch (..., M, N), as
// MindSpore's Svd: outputs s (..., P), u (..., M, P) and v (..., N, P) with P = min(M, N) (u M x M and v
// N x N with 'full_matrices'; with 'compute_uv' false u and v are empty, shape (0,)). Singular values
// come in descending order; the signs of the singular vectors are LAPACK's.
//
// Note [SVD gradient]
// The rule is the standard one (as PyTorch's svd_backward, real case). With K = min(M, N),
// skew(X) = X - X^T and E_ij = S_j^2 - S_i^2 (1 on the diagonal, where the numerators are 0):
//   G = (skew(U^T dU) S_row + S_col skew(V^T dV)) / E + diag(dS)
//   dA = U G V^T
//      + (I - U U^T) dU S^{-1} V^T      when M > N (U's columns do not span the whole space)
//      + U S^{-1} dV^T (I - V V^T)      when M < N
// It holds where it exists: the singular values distinct (E has no zero off the diagonal) and, for
// the terms with S^{-1}, nonzero. Sensitivities known to be zero (an output nobody read) are skipped,
// so a loss of the singular values alone, dA = U diag(dS) V^T, has a gradient at any A.
// With 'full_matrices' and M != N the extra columns of U or V are any orthonormal basis of a complement,
// so nothing depends on them differentiably: a gradient through u or v is then a ValueError, and the
// rule recomputes the reduced factors for the singular values' gradient (as it does without
// 'compute_uv').
#include <algorithm>

#include "ops/array_bprop.h"
#include "ops/linalg.h"
#include "ops/linalg_bprop.h"

namespace sprout {
namespace {

using linalg::V;

std::vector<TensorSpec> infer_svd(const OpDef& op, const SvdAttrs& a, std::span<const TensorSpec> in) {
  check_matrices(op, 0, in[0]);
  const Shape& x = in[0].shape;
  const int64_t m = x[x.size() - 2], n = x[x.size() - 1], p = std::min(m, n);
  Shape batch(x.begin(), x.end() - 2);
  Shape s = batch, u = batch, v = batch;
  s.push_back(p);
  if (!a.compute_uv) return {TensorSpec{in[0].dtype, s}, TensorSpec{in[0].dtype, Shape{0}},
                             TensorSpec{in[0].dtype, Shape{0}}};
  u.push_back(m);
  u.push_back(a.full_matrices ? m : p);
  v.push_back(n);
  v.push_back(a.full_matrices ? n : p);
  return {TensorSpec{in[0].dtype, s}, TensorSpec{in[0].dtype, u}, TensorSpec{in[0].dtype, v}};
}

V skew(BpropBuilder& b, V x) { return b.sub(x, linalg::transpose_matrices(b, x)); }

// Note [SVD gradient].
std::vector<V> svd_bprop(BpropBuilder& b) {
  const auto& attrs = b.prim().attrs_as<SvdAttrs>();
  const Shape& shape = b.spec(b.input(0)).shape;
  const int64_t m = shape[shape.size() - 2], n = shape[shape.size() - 1], k = std::min(m, n);
  Emitter& e = b.emitter();
  const bool through_u = attrs.compute_uv && !e.is_zero(b.dout(1));
  const bool through_v = attrs.compute_uv && !e.is_zero(b.dout(2));
  V s = b.out(0), u = b.out(1), v = b.out(2), ds = b.dout(0), du = b.dout(1), dv = b.dout(2);
  if (!attrs.compute_uv || (attrs.full_matrices && m != n)) {
    SPROUT_CHECK(!through_u && !through_v, ValueError, "Svd: with full_matrices=True and 'input' of non-square "
                 "shape ", shape_str(shape), " the extra singular vectors are not unique, so there is no gradient "
                 "through u or v; use full_matrices=False, or only the singular values s");
    std::vector<V> reduced = e.emit_outputs(make_prim("Svd", {{"full_matrices", false}, {"compute_uv", true}}),
                                            std::array<V, 1>{b.input(0)});
    u = reduced[1];
    v = reduced[2];
  }
  if (!through_u && !through_v)  // U diag(dS) V^T
    return {b.batch_matmul(b.mul(u, linalg::as_rows(b, ds)), v, false, true)};

  const DType dtype = b.spec(s).dtype;
  V s_row = linalg::as_rows(b, s), s_col = linalg::as_columns(b, s);
  V e_gap = b.add(b.sub(b.mul(s_row, s_row), b.mul(s_col, s_col)), linalg::eye(b, k, dtype));
  V numerator;
  if (through_u) numerator = b.mul(skew(b, b.batch_matmul(u, du, true, false)), s_row);
  if (through_v) {
    V from_v = b.mul(s_col, skew(b, b.batch_matmul(v, dv, true, false)));
    numerator = through_u ? b.add(numerator, from_v) : from_v;
  }
  V g = b.add(b.div(numerator, e_gap), b.mul(linalg::as_rows(b, ds), linalg::eye(b, k, dtype)));

  if (m > n && through_u) {  // (U G + (I - U U^T) dU S^{-1}) V^T
    V du_s = b.div(du, s_row);
    V left = b.add(b.batch_matmul(u, g, false, false),
                   b.sub(du_s, b.batch_matmul(u, b.batch_matmul(u, du_s, true, false), false, false)));
    return {b.batch_matmul(left, v, false, true)};
  }
  if (m < n && through_v) {  // U (G V^T + S^{-1} dV^T (I - V V^T)), with W = dV S^{-1}
    V w = b.div(dv, s_row);
    V right = b.add(b.batch_matmul(g, v, false, true),
                    b.sub(linalg::transpose_matrices(b, w),
                          b.batch_matmul(b.batch_matmul(w, v, true, false), v, false, true)));
    return {b.batch_matmul(u, right, false, false)};
  }
  return {b.batch_matmul(b.batch_matmul(u, g, false, false), v, false, true)};
}

}  // namespace

SPROUT_REGISTER(linalg_svd) {
  define_op<SvdAttrs>("Svd")
      .doc("Singular value decomposition A = U diag(S) V^T of each matrix of a batch (..., M, N): s (..., P) "
           "descending, u (..., M, P) and v (..., N, P), P = min(M, N) (M x M and N x N with 'full_matrices'; "
           "empty without 'compute_uv').")
      .inputs({"input"})
      .outputs({"s", "u", "v"})
      .infer(infer_svd)
      .bprop(bprop_rule(svd_bprop));
}

}  // namespace sprout
