// NanToNum: NaN, +inf and -inf replaced by given numbers, one pass (ops.nan_to_num had three selects and
// three comparisons). The gradient passes where the input was finite.
#include "ops/infer_util.h"
#include "ops/math_bprop.h"
#include "ops/math_nan_to_num.h"

namespace sprout {
namespace {

using namespace math_bprop;

std::vector<TensorSpec> infer_nan_to_num(const OpDef& op, const NanToNumAttrs&, std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  return {in[0]};
}

}  // namespace

SPROUT_REGISTER(math_nan_to_num) {
  define_op<NanToNumAttrs>("NanToNum")
      .doc("NaN, +inf and -inf replaced by 'nan', 'posinf' and 'neginf' (floating-point inputs).")
      .inputs({"x"})
      .outputs({"y"})
      .infer(infer_nan_to_num)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.mul(b.dout(), b.mask(call(b, "IsFinite", {b.input(0)}), b.dout()))};
      }));
}

}  // namespace sprout
