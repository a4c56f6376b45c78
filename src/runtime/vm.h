// The graph-mode runtime: Programs and the VM that runs them. Note [Programs]
// Lowering (compiler/lower.cc) turns each specialized graph into a GraphCode: a flat list of
// instructions over numbered slots (parameters first, then constants, then one slot per node), each
// kernel instruction holding its resolved Primitive. A slot is released right after its last use, so
// a buffer goes back to the caching allocator as soon as nothing needs it and the next op of that size
// reuses it: lifetime-based reuse, whose peak the compiler reports as the planned peak memory.
// Control flow is data: Switch picks one of two closures, a call runs a closure; a call in tail
// position replaces the running frame instead of nesting (loops are tail recursion, so a loop of a
// million iterations runs in constant stack). No Python is involved.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ir/fused.h"
#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout::vm {

struct GraphCode;
struct Closure;
struct VmValue;
using VmTuple = std::shared_ptr<const std::vector<VmValue>>;

struct VmValue {
  std::variant<std::monostate, Tensor, VmTuple, std::shared_ptr<const Closure>> v;
  const Tensor* tensor() const { return std::get_if<Tensor>(&v); }
  const VmTuple* tuple() const { return std::get_if<VmTuple>(&v); }
  const Closure* closure() const {
    auto* c = std::get_if<std::shared_ptr<const Closure>>(&v);
    return c ? c->get() : nullptr;
  }
};

// A function value: a graph with its first arguments bound (Partial), possibly none.
struct Closure {
  const GraphCode* code;
  std::vector<VmValue> bound;
};

enum class OpCode : uint8_t { Kernel, Fused, Call, Switch, Partial, MakeTuple, TupleGetItem, Depend };

struct Instr {
  OpCode op;
  std::vector<int32_t> in;      // input slots (for Call: callee first)
  int32_t out = -1;
  Primitive prim;               // Kernel
  FusedPtr fused;               // Fused
  int64_t index = 0;            // TupleGetItem
  bool tail = false;            // Call in tail position
  std::vector<int32_t> release; // slots whose last use is this instruction
  int64_t out_bytes = 0;        // planned size of the result (static shapes), for the memory report
  // Kernel with static output shapes and no view: outputs are allocated from these specs and the
  // kernel runs directly (inference and dtype reconciliation were done at compile time).
  std::vector<TensorSpec> out_specs;
  std::string where;            // "file.py:12", for error messages
  // Random kernels: how many times this instruction has run, its next run's random stream (Note
  // [Random streams in compiled code]).
  std::shared_ptr<std::atomic<uint64_t>> runs;
};

struct GraphCode {
  std::string name;
  int32_t n_params = 0;
  int32_t n_slots = 0;
  std::vector<std::pair<int32_t, VmValue>> constants;
  std::vector<Instr> code;
  int32_t result = -1;
};

class Program {
 public:
  VmValue run(std::vector<VmValue> args) const;
  const GraphCode& entry() const { return *graphs_.front(); }
  int64_t planned_peak_bytes() const { return planned_peak_bytes_; }
  std::string describe() const;  // one line per instruction, for dumps

  // Filled by the lowering.
  std::vector<std::unique_ptr<GraphCode>> graphs_;  // entry first
  int64_t planned_peak_bytes_ = 0;
};

}  // namespace sprout::vm
