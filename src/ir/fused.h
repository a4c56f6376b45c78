// A fused elementwise computation (Note [Elementwise fusion] in compiler/pass_fuse.cc): a small
// register program over tensors of one shape and dtype, run block by block so that intermediate
// results stay in cache. Data only; kernels/cpu/fused_elementwise.cc runs it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"

namespace sprout {

enum class FusedKind : uint8_t { Binary, Unary, Math, Activation };

struct FusedStep {
  FusedKind kind;
  uint8_t code;     // the BinaryOp / UnaryOp / MathOp / Activation of kernels/cpu
  int32_t a, b;     // operand registers (b unused by one-operand steps)
  std::string name; // the registry op it replaces, for printing
};

// Registers 0 .. n_inputs-1 are the inputs (the output's shape, or one element broadcast); step i
// writes register n_inputs + i; the last step is the result.
struct FusedElementwise {
  DType dtype = DType::Float32;
  Shape shape;
  int32_t n_inputs = 0;
  std::vector<FusedStep> steps;
  std::string label;  // to_string(), kept for the profiler
  std::string to_string() const;
};
using FusedPtr = std::shared_ptr<const FusedElementwise>;

}  // namespace sprout
