// BpropBuilder: the vocabulary bprop rules are written in. Each method emits registry ops through
// the Emitter, so a rule reads like the maths and runs unchanged in eager and graph mode.
#pragma once

#include <initializer_list>
#include <vector>

#include "ops/emitter.h"
#include "ops/op_def.h"

namespace sprout {

class BpropBuilder {
 public:
  using V = Emitter::Value;
  BpropBuilder(Emitter& e, const BpropArgs& args) : e_(e), args_(args) {}

  V input(size_t i) const { return args_.inputs[i]; }
  V out(size_t i = 0) const { return args_.outputs[i]; }
  V dout(size_t i = 0) const { return args_.douts[i]; }
  const Primitive& prim() const { return args_.prim; }
  // Op `op` with this primitive's attributes: the gradient ops that share their forward op's attribute
  // struct (MaxPool's MaxPoolGrad, CrossEntropy's CrossEntropyGrad).
  Primitive prim_like(std::string_view op) const {
    return Primitive(OpRegistry::instance().get(op), prim().def().attrs->clone(prim().attrs()));
  }
  // Whether input i's gradient is wanted (see BpropArgs::wanted); a rule may return V{} where not.
  bool wants(size_t i) const { return args_.wanted.empty() || args_.wanted[i]; }
  TensorSpec spec(V v) const { return e_.spec(v); }
  Emitter& emitter() { return e_; }

  V add(V a, V b) { return e_.emit("Add", {a, b}); }
  V sub(V a, V b) { return e_.emit("Sub", {a, b}); }
  V mul(V a, V b) { return e_.emit("Mul", {a, b}); }
  V div(V a, V b) { return e_.emit("RealDiv", {a, b}); }
  V neg(V a) { return e_.emit("Neg", {a}); }
  V log(V a) { return e_.emit("Log", {a}); }
  V pow(V a, V b) { return e_.emit("Pow", {a, b}); }
  V equal(V a, V b) { return e_.emit("Equal", {a, b}); }
  V greater_equal(V a, V b) { return e_.emit("GreaterEqual", {a, b}); }
  V cast(V a, DType t) { return e_.emit("Cast", {a}, {{"dst_type", t}}); }
  V reshape(V a, std::span<const int64_t> shape) {
    return e_.emit("Reshape", {a}, {{"shape", std::vector<int64_t>(shape.begin(), shape.end())}});
  }
  V transpose(V a, std::vector<int64_t> perm) { return e_.emit("Transpose", {a}, {{"perm", std::move(perm)}}); }
  V broadcast_to(V a, std::span<const int64_t> shape) {
    return e_.emit("BroadcastTo", {a}, {{"shape", std::vector<int64_t>(shape.begin(), shape.end())}});
  }
  V reduce_sum(V a, std::vector<int64_t> axes, bool keep_dims) {
    return e_.emit("ReduceSum", {a}, {{"axis", std::move(axes)}, {"keep_dims", keep_dims}});
  }
  V matmul(V a, V b, bool ta, bool tb) {
    return e_.emit("MatMul", {a, b}, {{"transpose_a", ta}, {"transpose_b", tb}});
  }
  V batch_matmul(V a, V b, bool ta, bool tb) {
    return e_.emit("BatchMatMul", {a, b}, {{"transpose_a", ta}, {"transpose_b", tb}});
  }
  // A 0-d constant of dtype `t`.
  V scalar(double value, DType t) { return e_.constant(Tensor::scalar(value, t)); }

  // Sums `grad` over the dimensions that broadcasting added or expanded, giving shape `target`:
  // the gradient of an implicit broadcast.
  V sum_to_shape(V grad, std::span<const int64_t> target);
  // A broadcasting binary op's dx, dy (at the output's shape) summed back to inputs 0 and 1: V{} for
  // an invalid one or an input whose gradient is not wanted.
  std::vector<V> binary_input_grads(V dx, V dy);

  // Mask (in the dtype of `like`) of where `cond` holds: 1 or 0.
  V mask(V cond, V like) { return cast(cond, spec(like).dtype); }
  std::span<const V> inputs() const { return args_.inputs; }
  std::span<const V> outputs() const { return args_.outputs; }

 private:
  Emitter& e_;
  const BpropArgs& args_;
};

// Wraps a rule written with BpropBuilder as the registry's BpropFn.
template <class Rule>
BpropFn bprop_rule(Rule rule) {
  return [rule](Emitter& e, const BpropArgs& args) {
    BpropBuilder b(e, args);
    return std::vector<Emitter::Value>(rule(b));
  };
}

}  // namespace sprout
