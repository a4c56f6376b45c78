#include "runtime/autograd/backward.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "runtime/autograd/graph.h"
#include "runtime/eager.h"
#include "runtime/eager_emitter.h"

namespace sprout {
namespace {

Tensor accumulate(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  Tensor in[2] = {a, b};
  static const Primitive add = Primitive::make("Add");
  return run_eager(add, in)[0];
}

// Note [In-place writes and saved values]
// A node keeps the tensors its rule reads, by reference: writing one in place afterwards (x[0] = v,
// ops.assign, an optimizer update) would make backward compute from the new values, a wrong gradient
// with no warning. Storages count their in-place writes; a node notes the counts of what it saved and
// backward refuses to run on a value written since, naming the op and the value. (Placeholders for
// values the rule does not read own no memory and are never written.)
void check_saved_values(const GradNode& node) {
  const OpDef& def = node.prim.def();
  const size_t n_in = node.inputs.size();
  for (size_t i = 0; i < node.versions.size(); ++i) {
    const Tensor& t = i < n_in ? node.inputs[i] : node.outputs[i - n_in];
    if (t.version() == node.versions[i]) continue;
    const auto& names = i < n_in ? def.inputs : def.outputs;
    const size_t k = i < n_in ? i : i - n_in;
    throw RuntimeError(str("grad: ", i < n_in ? "input '" : "output '", k < names.size() ? names[k] : str(k), "' of ",
                           def.name, " (shape ", shape_str(t.shape()), ") was written in place after ", def.name,
                           " used it, and its gradient needs the old values; write into a copy (x.copy()) or take ",
                           "the gradient before the write"));
  }
}

// Input gradients of one node given its output gradients (undefined = zero); `wanted` marks the
// inputs whose gradient flows somewhere (the rule may skip the others).
std::vector<Tensor> node_backward(const std::shared_ptr<GradNode>& node, std::vector<Tensor> douts,
                                  std::span<const uint8_t> wanted) {
  if (node->custom) {
    for (size_t i = 0; i < douts.size(); ++i)
      if (!douts[i].defined()) douts[i] = Tensor::zeros(node->outputs[i].shape(), node->outputs[i].dtype());
    return node->custom(douts);
  }
  check_saved_values(*node);
  EagerEmitter e;
  std::vector<Emitter::Value> in, out, dout;
  for (const Tensor& t : node->inputs) in.push_back(e.add(t));
  for (uint32_t i = 0; i < node->outputs.size(); ++i) {
    Tensor o = node->outputs[i];  // re-attach the meta dropped at record time (see the note)
    o.set_autograd(std::make_shared<AutogradMeta>(AutogradMeta{GradEdge{node, i}}));
    out.push_back(e.add(o));
  }
  for (size_t i = 0; i < douts.size(); ++i)  // an output nobody read: zeros made only if the rule reads them
    dout.push_back(douts[i].defined() ? e.add(douts[i])
                                      : e.add_zeros(TensorSpec{node->outputs[i].dtype(), node->outputs[i].shape()}));
  const OpDef& def = node->prim.def();
  SPROUT_CHECK(def.bprop, RuntimeError, "grad: the op ", def.name, " has no gradient rule");
  std::vector<Emitter::Value> grads = def.bprop(e, BpropArgs{node->prim, in, out, dout, wanted});
  std::vector<Tensor> result;
  for (Emitter::Value g : grads) result.push_back(g.valid() ? e.tensor(g) : Tensor());
  return result;
}

// Note [Gradient hooks]
// Tensor.register_hook(fn) attaches fn to the node output the tensor is (a tracked tensor is one output
// of one node), not to the tensor's later uses: backward sums every use's gradient into that output, so
// a hook sees the whole gradient of the tensor, however many ops read it before or after the
// registration, and what it returns replaces the sum before the node's rule (or, for a target, the
// result) sees it. An output no gradient reached has no hook call. Hooks on a tensor that is not yet
// tracked (a Parameter before a grad call) are kept by the Python side and attached when grad tracks it.
void run_hooks(const GradNode& node, std::vector<Tensor>& douts) {
  for (const OutputHook& hook : node.hooks) {
    if (hook.output >= douts.size() || !douts[hook.output].defined()) continue;
    Tensor replaced = hook.fn(douts[hook.output]);
    if (!replaced.defined()) continue;
    const Tensor& old = douts[hook.output];
    SPROUT_CHECK(replaced.shape() == old.shape() && replaced.dtype() == old.dtype(), ValueError,
                 "Tensor.register_hook: the hook must return a gradient of the tensor's shape ", shape_str(old.shape()),
                 " and dtype ", name(old.dtype()), ", but returned shape ", shape_str(replaced.shape()), " and dtype ",
                 name(replaced.dtype()));
    douts[hook.output] = replaced;
  }
}

}  // namespace

std::vector<Tensor> backward(std::span<const Tensor> roots, std::span<const Tensor> sens,
                             std::span<const Tensor> targets) {
  SPROUT_ASSERT(roots.size() == sens.size(), "backward: ", roots.size(), " roots but ", sens.size(), " sens");
  // 1. The nodes reachable from the roots.
  std::vector<std::shared_ptr<GradNode>> nodes;
  std::unordered_set<GradNode*> seen;
  std::vector<GradNode*> stack;
  auto visit = [&](const std::shared_ptr<GradNode>& n) {
    if (n && seen.insert(n.get()).second) {
      nodes.push_back(n);
      stack.push_back(n.get());
    }
  };
  for (const Tensor& r : roots)
    if (r.autograd()) visit(r.autograd()->edge.node);
  while (!stack.empty()) {
    GradNode* n = stack.back();
    stack.pop_back();
    for (const GradEdge& e : n->next) visit(e.node);
  }
  // 2. Keep those on a path to a target. A node is created after the nodes of its inputs, so in
  //    creation order every input's node comes first.
  std::sort(nodes.begin(), nodes.end(), [](auto& a, auto& b) { return a->sequence < b->sequence; });
  std::unordered_set<GradNode*> target_nodes, needed;
  for (const Tensor& t : targets)
    if (t.autograd()) target_nodes.insert(t.autograd()->edge.node.get());
  for (auto& n : nodes) {
    bool need = target_nodes.count(n.get()) > 0;
    for (const GradEdge& e : n->next) need = need || (e.node && needed.count(e.node.get()));
    if (need) needed.insert(n.get());
  }
  // 3. Run the needed nodes latest first, accumulating gradients per (node, output).
  std::unordered_map<GradNode*, std::vector<Tensor>> grads;
  auto slot = [&](const GradEdge& e) -> Tensor& {
    auto& v = grads[e.node.get()];
    if (v.size() < e.node->outputs.size()) v.resize(e.node->outputs.size());
    return v[e.output];
  };
  for (size_t i = 0; i < roots.size(); ++i)
    if (roots[i].autograd() && needed.count(roots[i].autograd()->edge.node.get())) {
      Tensor& g = slot(roots[i].autograd()->edge);
      g = accumulate(g, sens[i]);
    }
  std::unordered_map<GradNode*, std::vector<Tensor>> target_grads;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const std::shared_ptr<GradNode>& n = *it;
    if (!needed.count(n.get())) continue;
    auto found = grads.find(n.get());
    if (found == grads.end()) continue;  // nothing flows into this node
    std::vector<Tensor> douts = std::move(found->second);
    douts.resize(n->outputs.size());
    grads.erase(found);
    if (!n->hooks.empty()) run_hooks(*n, douts);
    if (target_nodes.count(n.get())) target_grads[n.get()] = douts;
    std::vector<uint8_t> wanted(n->next.size());
    for (size_t i = 0; i < n->next.size(); ++i) wanted[i] = n->next[i].node && needed.count(n->next[i].node.get());
    std::vector<Tensor> in_grads = node_backward(n, douts, wanted);
    for (size_t i = 0; i < n->next.size() && i < in_grads.size(); ++i) {
      const GradEdge& e = n->next[i];
      if (!e.node || !needed.count(e.node.get()) || !in_grads[i].defined()) continue;
      Tensor& g = slot(e);
      g = accumulate(g, in_grads[i]);
    }
  }
  // 4. One gradient per target, zeros where nothing flowed.
  std::vector<Tensor> result;
  for (const Tensor& t : targets) {
    Tensor g;
    if (t.autograd()) {
      auto found = target_grads.find(t.autograd()->edge.node.get());
      if (found != target_grads.end() && t.autograd()->edge.output < found->second.size())
        g = found->second[t.autograd()->edge.output];
    }
    result.push_back(g.defined() ? g : Tensor::zeros(t.shape(), t.dtype()));
  }
  return result;
}

}  // namespace sprout
