// The Emitter of eager mode: Values are tensors, emit() runs the op now (Note [One set of bprop
// rules] in ops/emitter.h). Used by the eager autodiff tape and by the op-test harness, which calls
// bprop rules directly through run_bprop().
#pragma once

#include <span>
#include <unordered_map>
#include <vector>

#include "ops/emitter.h"
#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout {

class EagerEmitter final : public Emitter {
 public:
  Value add(Tensor t);
  // A zero tensor of `spec`, allocated only if a rule reads it (see is_zero).
  Value add_zeros(TensorSpec spec);
  const Tensor& tensor(Value v) const;

  std::vector<Value> emit_outputs(const Primitive& prim, std::span<const Value> inputs) override;
  Value constant(const Tensor& value) override { return add(value); }
  TensorSpec spec(Value v) const override;
  Value zeros_like(Value like) override;
  bool is_zero(Value v) const override { return zero_specs_.count(v.id) > 0; }

 private:
  mutable std::vector<Tensor> values_;  // undefined for zeros not yet read
  std::unordered_map<int32_t, TensorSpec> zero_specs_;
};

// Runs the bprop rule of `prim` now. Returns one gradient per input; an undefined Tensor where the
// rule gives none (a non-differentiable input). RuntimeError if the op has no rule.
std::vector<Tensor> run_bprop(const Primitive& prim, std::span<const Tensor> inputs,
                              std::span<const Tensor> outputs, std::span<const Tensor> douts);

}  // namespace sprout
