// fuse (Note [Pass pipeline]). Note [Elementwise fusion]
// A group is a connected set of elementwise nodes of one graph with one float dtype and one static
// shape, whose intermediate values are used only inside the group; its inputs are values of that shape,
// single elements (scalars), or values broadcast along leading and trailing axes (a Dense bias (M,)
// against (N, M), a per-channel (C, 1, 1) against (N, C, H, W)): so a bias add and its activation are
// one pass over the output of a matmul or convolution. The group becomes one node calling a FusedElementwise
// program (ir/fused.h), which the VM runs block by block (Note [Fused blocks]): one pass over memory
// instead of one per op, and no intermediate tensors. Groups grow from their last node backwards, so
// the largest group containing a node is found; groups of one node stay as they are.
#include <algorithm>
#include <map>
#include <set>

#include "compiler/graph_emit.h"
#include "compiler/passes.h"
#include "kernels/cpu/fused_elementwise.h"

namespace sprout::compiler {

using namespace ir;

namespace {

const AbstractTensor* tensor_of(const AnfNode* n) {
  return n->abstract() ? n->abstract()->as<AbstractTensor>() : nullptr;
}

// Does `in` broadcast to `out` with its non-1 axes one contiguous run equal to `out`'s (see above)?
bool band_broadcast(const Shape& in, const Shape& out) {
  if (in.size() > out.size()) return false;
  size_t offset = out.size() - in.size();
  int first = -1, last = -1;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == 1) continue;
    if (in[i] != out[offset + i]) return false;
    if (first < 0) first = static_cast<int>(i);
    if (last >= 0 && last != static_cast<int>(i) - 1) return false;
    last = static_cast<int>(i);
  }
  return true;
}

// The fused step for `c` if it can join a group of dtype/shape of its own output.
std::optional<FusedStep> step_of(const CNode* c) {
  const IrValue* v = c->callee_value();
  const Primitive* p = v ? v->as<Primitive>() : nullptr;
  if (!p) return std::nullopt;
  std::optional<FusedStep> step = fusible_step(p->name());
  const AbstractTensor* out = tensor_of(c);
  if (!step || !out || (out->dtype != DType::Float32 && out->dtype != DType::Float64)) return std::nullopt;
  for (int64_t d : out->shape)
    if (d < 0) return std::nullopt;
  size_t arity = step->kind == FusedKind::Binary ? 2 : 1;
  if (c->inputs().size() != arity + 1) return std::nullopt;
  for (size_t i = 1; i < c->inputs().size(); ++i) {
    const AbstractTensor* in = tensor_of(c->input(i));
    if (!in || in->dtype != out->dtype || !band_broadcast(in->shape, out->shape)) return std::nullopt;
  }
  return step;
}

}  // namespace

size_t fuse_elementwise(FuncGraph& entry) {
  size_t changes = 0;
  for (FuncGraph* g : reachable_graphs(entry)) {
    std::vector<CNode*> order = g->topological_order();
    std::map<const AnfNode*, size_t> position;
    for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
    std::set<const CNode*> taken;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      CNode* root = *it;
      if (taken.count(root) || !step_of(root)) continue;
      const AbstractTensor* shape = tensor_of(root);
      // Grow: an input joins when it is fusible with the same output spec and all its users are in.
      // Each member's inputs are looked at once, when it joins: an input that still has users outside
      // is looked at again when the next of them joins (so a chain of n ops takes n steps, not n^2).
      std::set<CNode*> group{root};
      for (std::vector<CNode*> joined{root}; !joined.empty();) {
        CNode* member = joined.back();
        joined.pop_back();
        for (size_t i = 1; i < member->inputs().size(); ++i) {
          AnfNode* in = member->input(i);
          if (in->kind() != NodeKind::CNode || in->graph() != g || group.count(static_cast<CNode*>(in)) ||
              taken.count(static_cast<CNode*>(in)))
            continue;
          auto* c = static_cast<CNode*>(in);
          const AbstractTensor* t = tensor_of(c);
          if (!step_of(c) || t->shape != shape->shape || t->dtype != shape->dtype) continue;
          bool users_inside = std::all_of(c->users().begin(), c->users().end(),
                                          [&](const Use& u) { return group.count(u.user) > 0; });
          if (!users_inside) continue;
          group.insert(c);
          joined.push_back(c);
        }
      }
      if (group.size() < 2) continue;
      std::vector<CNode*> members(group.begin(), group.end());
      std::sort(members.begin(), members.end(), [&](CNode* a, CNode* b) { return position[a] < position[b]; });
      auto program = std::make_shared<FusedElementwise>();
      program->dtype = shape->dtype;
      program->shape = shape->shape;
      std::map<const AnfNode*, int32_t> reg;
      std::vector<AnfNode*> inputs;
      for (CNode* m : members)
        for (size_t i = 1; i < m->inputs().size(); ++i) {
          AnfNode* in = m->input(i);
          if (in->kind() == NodeKind::CNode && group.count(static_cast<CNode*>(in))) continue;
          if (!reg.count(in)) {
            reg[in] = static_cast<int32_t>(inputs.size());
            inputs.push_back(in);
          }
        }
      program->n_inputs = static_cast<int32_t>(inputs.size());
      for (CNode* m : members) {
        FusedStep s = *step_of(m);
        s.a = reg.at(m->input(1));
        s.b = m->inputs().size() > 2 ? reg.at(m->input(2)) : 0;
        reg[m] = program->n_inputs + static_cast<int32_t>(program->steps.size());
        program->steps.push_back(std::move(s));
      }
      program->label = program->to_string();
      ValueNode* callee = g->add_value(IrValue{FusedPtr(program)});
      inputs.insert(inputs.begin(), callee);
      CNode* fused = g->add_cnode(std::move(inputs), root->debug());
      fused->set_abstract(root->abstract());
      g->replace_all_uses(root, fused);
      taken.insert(members.begin(), members.end());
      ++changes;
    }
  }
  return changes;
}

}  // namespace sprout::compiler
