// Which of an op's inputs and outputs its bprop rule reads. Note [Saving only what backward reads]
//
// A GradNode keeps the tensors its op's bprop rule will be given. Most rules read only some of
// them: Add reads neither input, ReLU reads its output but not its input, Conv2D reads its inputs but
// not its output. Keeping the others would hold every intermediate of a network until the backward
// pass (a conv -> BatchNorm -> ReLU block would keep three activations where two are needed).
//
// The answer is not written by hand next to each rule, where it could drift from the rule: it is
// found by running the rule once on a `ProbeEmitter`, asked for the gradients of the tracked inputs
// only (an untracked input's gradient is never wanted: `x * w` with a constant w need not keep x),
// whose values are shapes and dtypes only and
// which notes every value an emitted op consumes. Asking for a value's spec or for zeros of its shape
// is not a read. Rules cannot branch on tensor values (the graph compiler runs them on IR nodes), so
// the probe sees every read the real backward will make for the same op, attributes and specs; the
// answer is cached per (attributes, specs). A tensor the rule does not read is saved as a
// placeholder of the same shape and dtype that owns no memory (one shared zero, broadcast).
//
// Only registry rules are probed; custom backwards (Cell.bprop, compiled functions) keep everything.
// If the probe fails (an infer function refusing a placeholder shape), everything is kept.
#pragma once

#include <cstdint>
#include <span>

#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout {

// Bit i set: the rule reads input (or output) i. Ops with more than 64 inputs keep all of them.
struct BpropReads {
  uint64_t inputs = ~uint64_t{0};
  uint64_t outputs = ~uint64_t{0};

  bool input(size_t i) const { return i >= 64 || (inputs >> i & 1); }
  bool output(size_t i) const { return i >= 64 || (outputs >> i & 1); }
};

// What the bprop rule of `prim` reads when given tensors of these specs and asked for the gradients of
// the tracked ones among `inputs` (cached).
BpropReads bprop_reads(const Primitive& prim, std::span<const Tensor> inputs, std::span<const Tensor> outputs);

// A tensor of `t`'s shape and dtype that owns no memory of its own (all zeros; never written).
Tensor unsaved_placeholder(const Tensor& t);

}  // namespace sprout
