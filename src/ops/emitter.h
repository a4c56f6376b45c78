// The Emitter: the one interface bprop rules are written against.
//
// Note [One set of bprop rules]
// A bprop rule receives the op's inputs, its output and the output's sensitivity (dout) as opaque
// Values and emits ops on them to build the input gradients. Eager autodiff runs rules with an
// emitter whose Values are tensors and whose emit() runs kernels now; the graph compiler runs the
// same rules with an emitter whose Values are IR nodes and whose emit() adds CNodes. Neither the
// rules nor the ops know which one they talk to.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

class Primitive;
struct TensorSpec;
class Tensor;

class Emitter {
 public:
  // Handle to a value owned by the emitter (a tensor in eager mode, a node in graph mode).
  struct Value {
    int32_t id = -1;
    bool valid() const { return id >= 0; }
  };

  virtual ~Emitter() = default;
  // Emits `prim` on `inputs`; one Value per output of the op.
  virtual std::vector<Value> emit_outputs(const Primitive& prim, std::span<const Value> inputs) = 0;
  // The same for a single-output op.
  Value emit(const Primitive& prim, std::span<const Value> inputs);
  virtual Value constant(const Tensor& value) = 0;
  // Dtype and shape of a value, for rules that depend on them (reducing a broadcast gradient).
  virtual TensorSpec spec(Value v) const = 0;
  // A value that stands for "zero gradient" of the shape of `like` (emitted lazily where possible).
  virtual Value zeros_like(Value like) = 0;
  // True when `v` is known to be all zeros (the sensitivity of an output nobody read), so a rule may
  // skip the work it would feed; false is always a safe answer.
  virtual bool is_zero(Value) const { return false; }

  // Convenience: emit the single-output op named `op` with attributes given by name.
  Value emit(std::string_view op, std::initializer_list<Value> inputs,
             std::initializer_list<std::pair<std::string_view, AttrValue>> attrs = {});
};

struct BpropArgs {
  const Primitive& prim;
  std::span<const Emitter::Value> inputs;
  std::span<const Emitter::Value> outputs;
  std::span<const Emitter::Value> douts;
  // 1 where the gradient of that input is wanted; empty: all are. Eager backward passes it so a rule
  // can skip costly products nobody reads (the input gradient of a network's first layer); graph
  // autodiff leaves it empty, dead-code elimination drops what is unused there.
  std::span<const uint8_t> wanted = {};
};

}  // namespace sprout
