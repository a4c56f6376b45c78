// Cdist: the p-norm distances between the rows of two sets, (B, P, M) and (B, R, M) giving (B, P, R) (or
// without B). Computed from the differences by tiles (Note [Distances by tiles]), where ops.cdist had
// materialized every difference, a (B, P, R, M) tensor.
#include <cmath>

#include "ops/infer_util.h"
#include "ops/math_bprop.h"
#include "ops/math_cdist.h"

namespace sprout {
namespace {

using namespace math_bprop;

std::vector<TensorSpec> infer_cdist(const OpDef& op, const CdistAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(a.p >= 0, ValueError, op.name, ": 'p' must be a number >= 0, but got ", a.p);
  check_floating(op, 0, in[0]);
  const Shape &x = in[0].shape, &y = in[1].shape;
  const bool ranks_ok = (x.size() == 2 || x.size() == 3) && x.size() == y.size();
  const bool shapes_ok = ranks_ok && x.back() == y.back() && (x.size() == 2 || x[0] == y[0]);
  SPROUT_CHECK(shapes_ok, ValueError, op.name, ": 'input_x' and 'input_y' must be (B, P, M) and (B, R, M) or (P, M) "
               "and (R, M), but got shapes ", shape_str(x), " and ", shape_str(y));
  Shape out(x.begin(), x.end() - 1);
  out.push_back(y[y.size() - 2]);
  return {TensorSpec{in[0].dtype, out}};
}

V expand(BpropBuilder& b, V v, int64_t axis) { return call(b, "ExpandDims", {v}, {{"axis", axis}}); }

// p = 2: d d_ij / d x_i = (x_i - y_j) / d_ij, so with w = dout / d (0 where d = 0, as PyTorch):
// dx = x * rowsum(w) - w y and dy = y * colsum(w) - w^T x, two products and no (P, R, M) tensor.
std::vector<V> euclidean_grads(BpropBuilder& b, V x, V y, V d, V dout) {
  const int64_t rank = static_cast<int64_t>(b.spec(x).shape.size());
  const V w = div_or_zero(b, dout, d);
  auto product = [&](V l, V r, bool transpose_l) {
    return rank == 2 ? b.matmul(l, r, transpose_l, false) : b.batch_matmul(l, r, transpose_l, false);
  };
  const V dx = b.sub(b.mul(x, b.reduce_sum(w, {rank - 1}, true)), product(w, y, false));
  const V col = expand(b, b.reduce_sum(w, {rank - 2}, false), rank - 1);  // (.., R, 1)
  const V dy = b.sub(b.mul(y, col), product(w, x, true));
  return {dx, dy};
}

// Other p, from the differences t = x_i - y_j (a (.., P, R, M) tensor, as the gradient needs each):
// d d_ij / d x_i = sign(t) |t|^(p-1) / d^(p-1) (0 where t or d is 0); p = 1: sign(t); p = inf: sign(t) where
// |t| is the maximum; p = 0: 0 (a count).
std::vector<V> difference_grads(BpropBuilder& b, double p, V x, V y, V d, V dout) {
  const int64_t rank = static_cast<int64_t>(b.spec(x).shape.size());
  const V t = b.sub(expand(b, x, rank - 1), expand(b, y, rank - 2));
  const V dist = expand(b, d, rank), size = call(b, "Abs", {t}), sign = call(b, "Sign", {t});
  V g;
  if (p == 1) {
    g = sign;
  } else if (std::isinf(p)) {
    g = b.mul(sign, b.mask(b.equal(size, dist), t));
  } else {
    const V zero = scalar_like(b, 0, t), one = scalar_like(b, 1, t), exponent = scalar_like(b, p - 1, t);
    const V vanishes = call(b, "LogicalOr", {b.equal(size, zero), b.equal(dist, zero)});
    const V num = b.pow(select(b, vanishes, one, size), exponent);
    const V den = b.pow(select(b, b.equal(dist, zero), one, dist), exponent);
    g = select(b, vanishes, zero_grad(b, t), b.mul(sign, b.div(num, den)));
  }
  const V weighted = b.mul(g, expand(b, dout, rank));
  return {b.reduce_sum(weighted, {rank - 1}, false), b.neg(b.reduce_sum(weighted, {rank - 2}, false))};
}

std::vector<V> cdist_bprop(BpropBuilder& b) {
  const double p = b.prim().attrs_as<CdistAttrs>().p;
  if (p == 0) return {zero_grad(b, b.input(0)), zero_grad(b, b.input(1))};
  if (p == 2) return euclidean_grads(b, b.input(0), b.input(1), b.out(), b.dout());
  return difference_grads(b, p, b.input(0), b.input(1), b.out(), b.dout());
}

}  // namespace

SPROUT_REGISTER(math_cdist) {
  define_op<CdistAttrs>("Cdist")
      .doc("The p-norm distance between each row of input_x and each row of input_y: (B, P, M) and (B, R, M) "
           "give (B, P, R), (P, M) and (R, M) give (P, R); p = inf takes the largest difference, p = 0 counts "
           "the features that differ.")
      .inputs({"input_x", "input_y"})
      .outputs({"output"})
      .dtype_policy(DTypePolicy::Promote)
      .infer(infer_cdist)
      .bprop(bprop_rule(cdist_bprop));
}

}  // namespace sprout
