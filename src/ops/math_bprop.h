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

}  // namespace sprout::math_bprop
