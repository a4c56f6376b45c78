// Vocabulary shared by the bprop rules of the nn families (activations, losses, attention, cells):
// comparisons as masks, scalars in a value's dtype, and the activations the rules reuse.
#pragma once

#include <vector>

#include "ops/bprop_builder.h"

namespace sprout::nn {

using V = BpropBuilder::V;

inline DType dtype_of_value(BpropBuilder& b, V v) { return b.spec(v).dtype; }
// A 0-d constant in the dtype of `like`.
inline V scalar_like(BpropBuilder& b, double value, V like) { return b.scalar(value, dtype_of_value(b, like)); }

// 1 where x > c (x < c), else 0, in x's dtype.
inline V mask_greater(BpropBuilder& b, V x, double c) {
  return b.mask(b.emitter().emit("Greater", {x, scalar_like(b, c, x)}), x);
}
inline V mask_less(BpropBuilder& b, V x, double c) {
  return b.mask(b.emitter().emit("Less", {x, scalar_like(b, c, x)}), x);
}
inline V mask_equal(BpropBuilder& b, V x, double c) { return b.mask(b.equal(x, scalar_like(b, c, x)), x); }

inline V add_scalar(BpropBuilder& b, V x, double c) { return b.add(x, scalar_like(b, c, x)); }
inline V mul_scalar(BpropBuilder& b, V x, double c) { return b.mul(x, scalar_like(b, c, x)); }
// c - x
inline V rsub_scalar(BpropBuilder& b, double c, V x) { return b.sub(scalar_like(b, c, x), x); }

inline V sigmoid(BpropBuilder& b, V x) { return b.emitter().emit("Sigmoid", {x}); }
inline V softplus(BpropBuilder& b, V x) { return b.emitter().emit("Softplus", {x}); }
inline V exp(BpropBuilder& b, V x) { return b.emitter().emit("Exp", {x}); }
// tanh(x) = 2 sigmoid(2x) - 1: the registry's Sigmoid serves until a Tanh op exists.
inline V tanh(BpropBuilder& b, V x) { return add_scalar(b, mul_scalar(b, sigmoid(b, mul_scalar(b, x, 2)), 2), -1); }

// Sum over one axis keeping it as size 1 (the reductions inside softmax-like gradients).
inline V sum_keep(BpropBuilder& b, V x, int64_t axis) { return b.reduce_sum(x, {axis}, true); }

}  // namespace sprout::nn
