#include "ops/nn_norm_bprop.h"

namespace sprout {

// P(v) = rstd * (v - mean_group(v) - xhat * mean_group(v * xhat)) is self-adjoint, which gives the dy and
// gamma terms directly; x, rstd and mean enter through xhat and the leading rstd.
NormGradInputGrads normalization_grad_bprop(BpropBuilder& b, const NormGroups& groups, BpropBuilder::V x,
                                            BpropBuilder::V dy, BpropBuilder::V rstd, BpropBuilder::V mean,
                                            BpropBuilder::V gamma, BpropBuilder::V gx, BpropBuilder::V gg,
                                            BpropBuilder::V gb) {
  using V = BpropBuilder::V;
  V inv_count = b.scalar(1.0 / groups.count, b.spec(x).dtype);
  auto group_mean = [&](V v) { return b.mul(groups.sum(v), inv_count); };
  V centered = b.sub(x, mean), xhat = b.mul(centered, rstd), g = b.mul(dy, gamma);
  auto project = [&](V v) { return b.sub(b.sub(v, group_mean(v)), b.mul(xhat, group_mean(b.mul(v, xhat)))); };
  V pgx = b.mul(rstd, project(gx));
  V d_dy = b.add(b.add(b.mul(gamma, pgx), b.mul(gg, xhat)), gb);
  V d_gamma = groups.param_sum(b.mul(dy, pgx));
  V through_dx = b.neg(b.mul(rstd, b.add(b.mul(group_mean(b.mul(g, xhat)), gx),
                                         b.mul(group_mean(b.mul(xhat, gx)), g))));
  V d_xhat = b.add(through_dx, b.mul(dy, gg));
  V d_rstd = b.add(groups.sum(b.mul(gx, project(g))), groups.sum(b.mul(d_xhat, centered)));
  V d_mean = b.neg(b.mul(groups.sum(d_xhat), rstd));
  return {b.mul(d_xhat, rstd), d_dy, d_rstd, d_mean, d_gamma};
}

}  // namespace sprout
