// Helpers the array ops' bprop rules share: emitting the array ops themselves (variadic Concat,
// multi-output SplitV, Gather, Select ...) through the Emitter.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ops/bprop_builder.h"

namespace sprout {

// Primitive `op` with attributes set by name.
inline Primitive make_prim(std::string_view op, std::initializer_list<std::pair<std::string_view, AttrValue>> attrs) {
  Primitive p = Primitive::make(op);
  for (const auto& [name, value] : attrs) p = p.with_attr(name, value);
  return p;
}

inline Emitter::Value concat(BpropBuilder& b, std::span<const Emitter::Value> parts, int64_t axis) {
  return b.emitter().emit(make_prim("Concat", {{"axis", axis}}), parts);
}

// `v` cut along `axis` into pieces of the given sizes.
inline std::vector<Emitter::Value> split_sizes(BpropBuilder& b, Emitter::Value v, int64_t axis,
                                               const std::vector<int64_t>& sizes) {
  Primitive p = make_prim("SplitV", {{"size_splits", sizes},
                                     {"split_dim", axis},
                                     {"num_split", static_cast<int64_t>(sizes.size())}});
  std::array<Emitter::Value, 1> in{v};
  return b.emitter().emit_outputs(p, in);
}

inline Emitter::Value emit_op(BpropBuilder& b, std::string_view op, std::initializer_list<Emitter::Value> inputs,
                              std::initializer_list<std::pair<std::string_view, AttrValue>> attrs = {}) {
  return b.emitter().emit(op, inputs, attrs);
}

// cond ? x : y, elementwise with broadcasting.
inline Emitter::Value select(BpropBuilder& b, Emitter::Value cond, Emitter::Value x, Emitter::Value y) {
  return emit_op(b, "Select", {cond, x, y});
}

inline Emitter::Value zeros_like(BpropBuilder& b, Emitter::Value like) { return b.emitter().zeros_like(like); }

// The gradient of outputs that each came from one input position along `axis` (Sort, TopK, Cummax ...):
// dout added back at those positions of a zero tensor shaped like input 0.
inline Emitter::Value scatter_back(BpropBuilder& b, Emitter::Value indices, Emitter::Value dout, int64_t axis) {
  return emit_op(b, "TensorScatterElements", {zeros_like(b, b.input(0)), indices, dout},
                 {{"axis", axis}, {"reduction", std::string("add")}});
}

}  // namespace sprout
