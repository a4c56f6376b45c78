// cse and dce (Note [Pass pipeline]).
#include <map>
#include <vector>

#include "compiler/graph_emit.h"
#include "compiler/passes.h"

namespace sprout::compiler {

using namespace ir;

namespace {

// Two constants are the same value (tensors: the same storage view, not equal contents).
bool same_value(const IrValue& a, const IrValue& b) {
  if (a.v.index() != b.v.index()) return false;
  if (auto* t = a.as<Tensor>()) {
    const Tensor& u = *b.as<Tensor>();
    return t->storage() == u.storage() && t->offset() == u.offset() && t->shape() == u.shape() &&
           t->strides() == u.strides() && t->dtype() == u.dtype();
  }
  if (a.as<IrTuple>()) return false;
  return std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Tensor> || std::is_same_v<T, IrTuple>) return false;
        else return x == *std::get_if<T>(&b.v);
      },
      a.v);
}

bool same_input(const AnfNode* a, const AnfNode* b) {
  if (a == b) return true;
  return a->kind() == NodeKind::Value && b->kind() == NodeKind::Value &&
         same_value(static_cast<const ValueNode*>(a)->value(), static_cast<const ValueNode*>(b)->value());
}

bool pure_node(const CNode* c) {
  const IrValue* v = c->callee_value();
  if (!v) return false;  // calls of closures may have effects
  if (auto* p = v->as<Primitive>()) return is_pure(p->def());
  if (auto* s = v->as<SpecialOp>()) return *s != SpecialOp::Return && *s != SpecialOp::Depend;
  return false;
}

}  // namespace

bool graph_has_effects(const FuncGraph& g) {
  for (const CNode* c : g.topological_order()) {
    const IrValue* v = c->callee_value();
    if (!v || v->as<FuncGraph*>()) return true;
    if (auto* p = v->as<Primitive>(); p && !is_pure(p->def())) return true;
  }
  return false;
}

size_t cse(FuncGraph& entry) {
  size_t changes = 0;
  for (FuncGraph* g : reachable_graphs(entry)) {
    // Safe where parameters are written in place too: a read after a write takes Depend(parameter,
    // write), a node that is never merged, so equal nodes read the same version of every input
    // (Note [Side effects in graph mode]); order_writes then places merged reads before the writes.
    // Keyed by the callee and the inputs that are nodes (equal only when the same node), so the
    // candidates compared input by input are those differing at most in constants: a chain of n
    // equal-looking ops (an unrolled loop's) is n lookups, not n^2 comparisons.
    std::multimap<std::pair<std::string, std::vector<const AnfNode*>>, CNode*> seen;
    for (CNode* c : g->topological_order()) {
      if (!pure_node(c)) continue;
      std::vector<const AnfNode*> nodes;
      nodes.reserve(c->inputs().size());
      for (size_t i = 1; i < c->inputs().size(); ++i)
        nodes.push_back(c->input(i)->kind() == NodeKind::Value ? nullptr : c->input(i));
      auto key = std::make_pair(c->callee_value()->to_string(), std::move(nodes));
      CNode* same = nullptr;
      auto [lo, hi] = seen.equal_range(key);
      for (auto it = lo; it != hi && !same; ++it) {
        bool equal = true;
        for (size_t i = 0; i < c->inputs().size() && equal; ++i) equal = same_input(c->input(i), it->second->input(i));
        if (equal) same = it->second;
      }
      if (same) {
        g->replace_all_uses(c, same);
        ++changes;
      } else {
        seen.emplace(key, c);
      }
    }
  }
  return changes;
}

size_t dce(FuncGraph& entry) {
  size_t changes = 0;
  for (FuncGraph* g : reachable_graphs(entry)) changes += g->drop_dead_nodes();
  return changes;
}

}  // namespace sprout::compiler
