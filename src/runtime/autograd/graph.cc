#include "runtime/autograd/graph.h"

#include <atomic>

#include "runtime/autograd/saved_values.h"

namespace sprout {
namespace {

thread_local int g_open_scopes = 0;     // grad scopes open on this thread
thread_local int g_paused_scopes = 0;   // scopes open when the innermost no_grad began
std::atomic<uint64_t> g_sequence{0};
std::atomic<uint64_t> g_hook_ids{0};

bool any_tracked(std::span<const Tensor> inputs) {
  for (const Tensor& t : inputs)
    if (t.autograd()) return true;
  return false;
}

std::shared_ptr<GradNode> new_node(std::span<const Tensor> inputs, std::span<Tensor> outputs) {
  auto node = std::make_shared<GradNode>();
  node->sequence = g_sequence.fetch_add(1, std::memory_order_relaxed);
  node->inputs.assign(inputs.begin(), inputs.end());
  node->next.reserve(inputs.size());
  for (const Tensor& t : inputs) node->next.push_back(t.autograd() ? t.autograd()->edge : GradEdge{});
  node->outputs.reserve(outputs.size());
  for (uint32_t i = 0; i < outputs.size(); ++i) {
    node->outputs.push_back(outputs[i].detached());
    outputs[i].set_autograd(std::make_shared<AutogradMeta>(AutogradMeta{GradEdge{node, i}}));
  }
  return node;
}

}  // namespace

bool is_recording() { return g_open_scopes > g_paused_scopes; }

GradScope::GradScope() { ++g_open_scopes; }
GradScope::~GradScope() { --g_open_scopes; }

NoGradGuard::NoGradGuard() : saved_(g_paused_scopes) { g_paused_scopes = g_open_scopes; }
NoGradGuard::~NoGradGuard() { g_paused_scopes = saved_; }

void record_op(const Primitive& prim, std::span<const Tensor> inputs, std::span<Tensor> outputs) {
  if (!is_recording() || !any_tracked(inputs)) return;
  std::shared_ptr<GradNode> node = new_node(inputs, outputs);
  node->prim = prim;
  // Note [Saving only what backward reads]
  BpropReads reads = bprop_reads(prim, inputs, outputs);
  for (size_t i = 0; i < node->inputs.size(); ++i)
    if (!reads.input(i)) node->inputs[i] = unsaved_placeholder(node->inputs[i]);
  for (size_t i = 0; i < node->outputs.size(); ++i)
    if (!reads.output(i)) node->outputs[i] = unsaved_placeholder(node->outputs[i]);
  node->versions.reserve(node->inputs.size() + node->outputs.size());
  for (const Tensor& t : node->inputs) node->versions.push_back(t.version());
  for (const Tensor& t : node->outputs) node->versions.push_back(t.version());
}

void record_custom(CustomBackward backward, std::span<const Tensor> inputs, std::span<Tensor> outputs) {
  if (!is_recording() || !any_tracked(inputs)) return;
  new_node(inputs, outputs)->custom = std::move(backward);
}

uint64_t add_grad_hook(const Tensor& t, GradHook fn) {
  SPROUT_ASSERT(t.autograd(), "add_grad_hook: the tensor is not tracked");
  const GradEdge& edge = t.autograd()->edge;
  const uint64_t id = g_hook_ids.fetch_add(1, std::memory_order_relaxed) + 1;
  edge.node->hooks.push_back(OutputHook{edge.output, id, std::move(fn)});
  return id;
}

void remove_grad_hook(GradNode& node, uint64_t id) {
  std::erase_if(node.hooks, [id](const OutputHook& h) { return h.id == id; });
}

Tensor track(const Tensor& t) {
  // A node with one input (t itself, possibly tracked by an enclosing scope) and one output that
  // passes its gradient straight through.
  Tensor alias = t;
  Tensor in[1] = {t};
  auto node = new_node(in, std::span<Tensor>(&alias, 1));
  node->custom = [](std::span<const Tensor> douts) { return std::vector<Tensor>{douts[0]}; };
  node->target = true;
  return alias;
}

}  // namespace sprout
