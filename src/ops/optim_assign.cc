// Assign, AssignAdd, AssignSub: write into 'variable' in place and return it (Note [In-place updates]).
// 'value' broadcasts to the variable's shape and is converted to its dtype: a Parameter keeps its
// dtype, as in MindSpore, where the value is converted to the Parameter's type.
#include "ops/infer_util.h"
#include "ops/optim_dispatch.h"

namespace sprout {
namespace {

using V = Emitter::Value;

std::vector<TensorSpec> infer_assign(const OpDef& op, const NoAttrs&, std::span<const TensorSpec> in) {
  if (op.name != "Assign") check_not_bool(op, 0, in[0]);
  const Shape& var = in[0].shape;
  const Shape& value = in[1].shape;
  bool fits = value.size() <= var.size();
  for (size_t i = 1; fits && i <= value.size(); ++i)
    fits = value[value.size() - i] == 1 || value[value.size() - i] == var[var.size() - i];
  SPROUT_CHECK(fits, ValueError, op.name, ": 'value' must broadcast to the shape of 'variable' ",
               shape_str(in[0].shape), ", but got shape ", shape_str(in[1].shape));
  return {in[0]};
}

template <const char* kName>
std::vector<Tensor> dispatch(const NoAttrs& attrs, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get(kName);
  return run_in_place(def, &attrs, in, "ut");
}

constexpr char kAssign[] = "Assign", kAssignAdd[] = "AssignAdd", kAssignSub[] = "AssignSub";

template <const char* kName>
void assign_op(const char* doc) {
  define_op<NoAttrs>(kName)
      .side_effect()
      .doc(doc)
      .inputs({"variable", "value"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_assign)
      .view(dispatch<kName>)
      .bprop([](Emitter&, const BpropArgs&) { return std::vector<V>(2); });
}

}  // namespace

SPROUT_REGISTER(optim_assign) {
  assign_op<kAssign>("In place: variable = value (broadcast, converted to variable's dtype); returns variable.");
  assign_op<kAssignAdd>("In place: variable += value (broadcast, converted to variable's dtype); returns variable.");
  assign_op<kAssignSub>("In place: variable -= value (broadcast, converted to variable's dtype); returns variable.");
}

}  // namespace sprout
