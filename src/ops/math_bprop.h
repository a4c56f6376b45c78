// Helpers shared by the bprop rules of the math families (math_unary.cc, math_binary.cc ...).
#pragma once

#include "ops/bprop_builder.h"

namespace sprout::math_bprop {

using V = BpropBuilder::V;

// Emits the single-output registry op `op` on `inputs`.
inline V call(BpropBuilder& b, std::string_view op, std::initializer_list<V> inputs,
              std::initializer_list<std::pair<std::string_view, AttrValue>> attrs = {}) {
  return b.emitter().emit(op, inputs, attrs);
}

// A 0-d constant in the dtype of `like`.
inline V scalar_like(BpropBuilder& b, double value, V like) { return b.scalar(value, b.spec(like).dtype); }

// 1 - a, a + 1 ...: the small affine pieces derivative formulas are made of.
inline V one_minus(BpropBuilder& b, V a) { return b.sub(scalar_like(b, 1, a), a); }
inline V one_plus(BpropBuilder& b, V a) { return b.add(scalar_like(b, 1, a), a); }
inline V square(BpropBuilder& b, V a) { return b.mul(a, a); }

// The gradient of a piecewise-constant op (Floor, Sign ...): zero almost everywhere.
inline V zero_grad(BpropBuilder& b, V like) { return b.emitter().zeros_like(like); }

inline V select(BpropBuilder& b, V cond, V yes, V no) { return call(b, "Select", {cond, yes, no}); }

// num / den, and 0 where den is 0: the derivative of a norm or distance at 0, which has none (0, as PyTorch
// takes it). The division itself divides by 1 there, so no 0 / 0 NaN reaches the gradient.
inline V div_or_zero(BpropBuilder& b, V num, V den) {
  const V at_zero = b.equal(den, scalar_like(b, 0, den));
  return select(b, at_zero, zero_grad(b, den), b.div(num, select(b, at_zero, scalar_like(b, 1, den), den)));
}

}  // namespace sprout::math_bprop
