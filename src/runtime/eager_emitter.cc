#include "runtime/eager_emitter.h"

#include <cstring>

#include "runtime/eager.h"

namespace sprout {

Emitter::Value EagerEmitter::add(Tensor t) {
  values_.push_back(std::move(t));
  return Value{static_cast<int32_t>(values_.size() - 1)};
}

Emitter::Value EagerEmitter::add_zeros(TensorSpec spec) {
  Value v = add(Tensor());
  zero_specs_.emplace(v.id, std::move(spec));
  return v;
}

const Tensor& EagerEmitter::tensor(Value v) const {
  Tensor& t = values_.at(static_cast<size_t>(v.id));
  if (!t.defined())
    if (auto z = zero_specs_.find(v.id); z != zero_specs_.end()) t = Tensor::zeros(z->second.shape, z->second.dtype);
  return t;
}

std::vector<Emitter::Value> EagerEmitter::emit_outputs(const Primitive& prim, std::span<const Value> inputs) {
  std::vector<Tensor> in;
  in.reserve(inputs.size());
  for (Value v : inputs) in.push_back(tensor(v));
  std::vector<Value> out;
  for (Tensor& t : run_eager(prim, in)) out.push_back(add(std::move(t)));
  return out;
}

TensorSpec EagerEmitter::spec(Value v) const {
  if (auto z = zero_specs_.find(v.id); z != zero_specs_.end()) return z->second;
  const Tensor& t = tensor(v);
  return TensorSpec{t.dtype(), t.shape()};
}

Emitter::Value EagerEmitter::zeros_like(Value like) {
  const Tensor& t = tensor(like);
  return add(Tensor::zeros(t.shape(), t.dtype()));
}

std::vector<Tensor> run_bprop(const Primitive& prim, std::span<const Tensor> inputs,
                              std::span<const Tensor> outputs, std::span<const Tensor> douts) {
  const OpDef& def = prim.def();
  SPROUT_CHECK(def.bprop, RuntimeError, def.name, ": no bprop rule is registered for this op");
  EagerEmitter e;
  auto handles = [&](std::span<const Tensor> ts) {
    std::vector<Emitter::Value> hs;
    for (const Tensor& t : ts) hs.push_back(e.add(t));
    return hs;
  };
  std::vector<Emitter::Value> in = handles(inputs), out = handles(outputs), dout = handles(douts);
  std::vector<Emitter::Value> grads = def.bprop(e, BpropArgs{prim, in, out, dout});
  SPROUT_ASSERT(grads.size() == inputs.size(), def.name, " bprop returned ", grads.size(), " gradients for ",
                inputs.size(), " inputs");
  std::vector<Tensor> result;
  for (Emitter::Value g : grads) result.push_back(g.valid() ? e.tensor(g) : Tensor());
  return result;
}

}  // namespace sprout
