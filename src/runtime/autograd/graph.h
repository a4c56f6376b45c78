// The eager autodiff graph. Note [Eager autodiff]
//
// Recording happens only inside a grad scope (`GradScope`, opened by ms.grad / GradOperation /
// value_and_grad): plain eager code never records, and pays one thread-local counter check per op.
// Inside a scope, an op records a GradNode when one of its inputs is tracked (has AutogradMeta);
// its outputs then point at the node. A tensor becomes tracked when a grad scope marks it as a
// target (`track`), which gives it a fresh node of its own; if it was already tracked by an
// enclosing scope, that fresh node passes gradients on to the old one, so the outer scope can
// differentiate through everything the inner one did — including the inner backward pass.
//
// The backward pass (backward.cc) runs the ops' bprop rules through the EagerEmitter, i.e. through
// run_eager. When an enclosing scope is open those ops are recorded too, which is how higher-order
// derivatives arise (grad of grad): there is one graph and one set of rules for every order.
//
// A node keeps its inputs (with their own AutogradMeta: that is the graph upstream) and its outputs
// *without* AutogradMeta — their meta points back at the node itself, and keeping it would make a
// reference cycle. Backward re-attaches it while the node is alive.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout {

struct GradNode;

// Where a gradient goes: output `output` of `node`.
struct GradEdge {
  std::shared_ptr<GradNode> node;
  uint32_t output = 0;
};

struct AutogradMeta {
  GradEdge edge;
};

// Gradients of the inputs given the output sensitivities (undefined tensors mean zero): for nodes
// whose backward is not a registry rule (targets, custom Cell.bprop, compiled functions).
using CustomBackward = std::function<std::vector<Tensor>(std::span<const Tensor> douts)>;

// A function of one output's gradient, run when backward has summed it (Tensor.register_hook): it returns
// the gradient to use instead, or an undefined tensor to keep it. Note [Gradient hooks]
using GradHook = std::function<Tensor(const Tensor& grad)>;

struct OutputHook {
  uint32_t output = 0;
  uint64_t id = 0;  // for removal (the handle register_hook returns)
  GradHook fn;
};

struct GradNode {
  Primitive prim;                  // the op, when the node records a registry op
  CustomBackward custom;           // otherwise, its own backward
  std::vector<Tensor> inputs;      // as the op saw them, with their AutogradMeta
  std::vector<Tensor> outputs;     // detached (see the note)
  std::vector<GradEdge> next;      // per input: where its gradient flows (node null: not tracked)
  // Registry rules: the storage versions of inputs, then outputs, when recorded; backward refuses a
  // saved value written in place since (Note [In-place writes and saved values]).
  std::vector<uint32_t> versions;
  uint64_t sequence = 0;           // creation order: backward runs nodes latest first
  bool target = false;             // made by `track`: its output is a tensor the gradient is taken for
  std::vector<OutputHook> hooks;   // run in registration order on the summed output gradients
};

// True while at least one grad scope is open and recording is not paused (no_grad).
bool is_recording();

// Opens a grad scope for its lifetime (RAII); scopes nest.
class GradScope {
 public:
  GradScope();
  ~GradScope();
  GradScope(const GradScope&) = delete;
  GradScope& operator=(const GradScope&) = delete;
};

// Pauses recording for its lifetime (ms._no_grad); scopes opened inside record again.
class NoGradGuard {
 public:
  NoGradGuard();
  ~NoGradGuard();
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  int saved_;
};

// Records `prim` applied to `inputs` giving `outputs` if recording and any input is tracked; sets
// the outputs' AutogradMeta. Called by run_eager after every op.
void record_op(const Primitive& prim, std::span<const Tensor> inputs, std::span<Tensor> outputs);

// A tracked alias of `t` (same memory) whose gradient the caller will ask for.
Tensor track(const Tensor& t);

// Adds `fn` to the hooks of the node output `t` comes from (t must be tracked); returns the hook's id.
uint64_t add_grad_hook(const Tensor& t, GradHook fn);

// Removes the hook `id` from `node`, if it is still there.
void remove_grad_hook(GradNode& node, uint64_t id);

// Records a node with a custom backward (Cell.bprop, compiled functions): outputs get its meta.
void record_custom(CustomBackward backward, std::span<const Tensor> inputs, std::span<Tensor> outputs);

}  // namespace sprout
