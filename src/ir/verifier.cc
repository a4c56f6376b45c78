#include "ir/verifier.h"

#include <algorithm>
#include <unordered_set>

#include "base/error.h"
#include "ir/printer.h"

namespace sprout::ir {
namespace {

[[noreturn]] void fail(const FuncGraph& g, const AnfNode* node, const std::string& what) {
  std::string where = node ? str(" at node ", node->id()) : "";
  throw InternalError(str("IR verifier: @", g.name(), where, ": ", what, "\n--- the graph ---\n", print_ir(g)));
}

void verify_graph(const FuncGraph& g) {
  CNode* ret = g.return_node();
  if (!ret) fail(g, nullptr, "the graph has no return node");
  if (!ret->is_special(SpecialOp::Return) || ret->inputs().size() != 2)
    fail(g, ret, "the return node must be Return(value)");
  for (const auto& owned : g.nodes()) {
    const AnfNode* node = owned.get();
    if (node->graph() != &g) fail(g, node, "the node's graph pointer is not its owner");
    for (const Use& u : node->users()) {
      if (u.index >= u.user->inputs().size() || u.user->input(u.index) != node)
        fail(g, node, str("use list says node ", u.user->id(), " input ", u.index, " uses it, but it does not"));
    }
    if (node->kind() != NodeKind::CNode) continue;
    const auto* c = static_cast<const CNode*>(node);
    if (c->inputs().empty()) fail(g, c, "a CNode without a callee");
    for (uint32_t i = 0; i < c->inputs().size(); ++i) {
      const AnfNode* in = c->input(i);
      if (!in) fail(g, c, str("input ", i, " is null"));
      if (in->kind() != NodeKind::Value && !g.is_inside(in->graph()))
        fail(g, c, str("input ", i, " (node ", in->id(), ") belongs to @", in->graph()->name(),
                       ", which neither is nor encloses this graph"));
      const auto& users = in->users();
      if (std::find(users.begin(), users.end(), Use{const_cast<CNode*>(c), i}) == users.end())
        fail(g, c, str("input ", i, " (node ", in->id(), ") does not list this node among its users"));
    }
  }
  g.topological_order();  // asserts on a cycle
}

}  // namespace

void verify(const FuncGraph& entry) {
  std::vector<const FuncGraph*> todo{&entry};
  std::unordered_set<const FuncGraph*> seen{&entry};
  while (!todo.empty()) {
    const FuncGraph* g = todo.back();
    todo.pop_back();
    verify_graph(*g);
    for (const auto& node : g->nodes())
      if (node->kind() == NodeKind::Value)
        if (auto* callee = static_cast<const ValueNode*>(node.get())->value().as<FuncGraph*>())
          if (seen.insert(*callee).second) todo.push_back(*callee);
  }
}

}  // namespace sprout::ir
