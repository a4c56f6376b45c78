// order_writes: every in-place write of a graph input runs after the reads of it that do not depend
// on the write. Note [Write after read]
// The front end orders effects and reads in source order (Note [Side effects in graph mode]): a read
// after a write takes Depend(parameter, write), and a write waits for the reads staged before it.
// Reads the front end never saw escape that: autodiff's backward reads the weights (dx = dy W^T of
// every Dense layer), and inlining moves reads across graphs. In a training step whose optimizer
// updates the last layer first, nothing made dy W3^T run before W3's update, and the earlier layers'
// gradients used the updated weight. This pass, run last, closes the gap for every write: for each
// effect E and each graph input P that E may write (an input of E aliases P), every live node that
// reads P -- directly, or through a view, a Depend, a tuple -- and is not downstream of E becomes an
// ordering input of E (Depend on E's first input). The lowering does not let ordering inputs extend
// a value's lifetime (Note [Programs]), so the extra edges cost no memory.
#include <unordered_map>
#include <unordered_set>

#include "compiler/graph_emit.h"
#include "compiler/passes.h"

namespace sprout::compiler {

using namespace ir;

namespace {

bool is_effect(const CNode* c) {
  const IrValue* v = c->callee_value();
  const Primitive* p = v ? v->as<Primitive>() : nullptr;
  return p && p->def().side_effect;
}

// Does `user` pass its input `index` through as (part of) its value, so its value aliases it?
bool passes_through(const CNode* user, uint32_t index) {
  if (user->is_special(SpecialOp::Depend)) return index == 1;
  if (user->is_special(SpecialOp::MakeTuple) || user->is_special(SpecialOp::TupleGetItem) ||
      user->is_special(SpecialOp::Switch))
    return true;
  const IrValue* v = user->callee_value();
  const Primitive* p = v ? v->as<Primitive>() : nullptr;
  return p && p->def().view;
}

struct InputAccess {
  std::unordered_set<const AnfNode*> aliases;  // values that may share the input's buffer
  std::vector<CNode*> readers;                 // live nodes reading one of them (effects excluded)
};

InputAccess accesses_of(ParameterNode* input, const std::unordered_set<const CNode*>& live) {
  InputAccess access;
  std::vector<AnfNode*> stack{input};
  access.aliases.insert(input);
  std::unordered_set<const CNode*> seen_readers;
  while (!stack.empty()) {
    AnfNode* n = stack.back();
    stack.pop_back();
    for (const Use& u : n->users()) {
      CNode* user = u.user;
      if (!live.count(user) || user->is_special(SpecialOp::Return)) continue;
      if (passes_through(user, u.index)) {
        if (access.aliases.insert(user).second) stack.push_back(user);
      } else if (!(user->is_special(SpecialOp::Depend) && u.index > 1) && !is_effect(user) &&
                 seen_readers.insert(user).second) {
        access.readers.push_back(user);  // a Depend's ordering inputs are not reads
      }
    }
  }
  return access;
}

// Nodes whose value depends on `from` (itself included).
std::unordered_set<const CNode*> downstream(CNode* from) {
  std::unordered_set<const CNode*> out{from};
  std::vector<CNode*> stack{from};
  while (!stack.empty()) {
    CNode* n = stack.back();
    stack.pop_back();
    for (const Use& u : n->users())
      if (out.insert(u.user).second) stack.push_back(u.user);
  }
  return out;
}

size_t order_graph(FuncGraph& g) {
  std::vector<CNode*> order = g.topological_order();
  std::unordered_set<const CNode*> live(order.begin(), order.end());
  std::vector<CNode*> effects;
  for (CNode* c : order)
    if (is_effect(c) && c->inputs().size() > 1) effects.push_back(c);
  if (effects.empty()) return 0;
  std::vector<InputAccess> accesses;
  for (ParameterNode* p : g.parameters()) accesses.push_back(accesses_of(p, live));
  size_t changes = 0;
  for (CNode* effect : effects) {
    std::unordered_set<const CNode*> after = downstream(effect);
    std::vector<AnfNode*> before;
    std::unordered_set<const AnfNode*> taken;
    for (const InputAccess& access : accesses) {
      bool writes = false;
      for (size_t i = 1; i < effect->inputs().size() && !writes; ++i) writes = access.aliases.count(effect->input(i)) > 0;
      if (!writes) continue;
      for (CNode* r : access.readers)
        if (!after.count(r) && taken.insert(r).second) before.push_back(r);
    }
    if (before.empty()) continue;
    before.insert(before.begin(), effect->input(1));
    CNode* ordered = emit_special(g, SpecialOp::Depend, std::move(before), effect->debug());
    ordered->set_abstract(effect->input(1)->abstract());
    g.set_input(effect, 1, ordered);
    ++changes;
  }
  return changes;
}

}  // namespace

size_t order_writes(FuncGraph& entry) {
  size_t changes = 0;
  for (FuncGraph* g : reachable_graphs(entry)) changes += order_graph(*g);
  return changes;
}

}  // namespace sprout::compiler
