// Dropout: output = x * mask / keep_prob with mask ~ Bernoulli(keep_prob) (Note [Dropout randomness]).
#include "ops/infer_util.h"
#include "ops/nn_act_bprop.h"
#include "ops/nn_misc.h"

namespace sprout {
namespace {

using nn::V;

std::vector<TensorSpec> infer_dropout(const OpDef& op, const DropoutAttrs& a, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  SPROUT_CHECK(a.keep_prob > 0 && a.keep_prob <= 1, ValueError, op.name, ": 'keep_prob' must be in (0, 1], but got ",
               a.keep_prob);
  SPROUT_CHECK(a.Seed0 >= 0 && a.Seed1 >= 0, ValueError, op.name, ": 'Seed0' and 'Seed1' must be non-negative, but got ",
               a.Seed0, " and ", a.Seed1);
  return {in[0], in[0]};
}

}  // namespace

SPROUT_REGISTER(nn_misc_dropout) {
  define_op<DropoutAttrs>("Dropout")
      .random()
      .doc("Zeroes each element with probability 1 - keep_prob and scales the rest by 1 / keep_prob; also the 0/1 mask.")
      .inputs({"x"})
      .outputs({"output", "mask"})
      .non_differentiable({false, true})
      .infer(infer_dropout)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        double keep = b.prim().attrs_as<DropoutAttrs>().keep_prob;
        return {b.mul(b.dout(0), nn::mul_scalar(b, b.out(1), 1.0 / keep))};
      }));
}

}  // namespace sprout
