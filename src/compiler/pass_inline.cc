// inline (Note [Pass pipeline]): a call of a graph that is not recursive becomes a copy of its body.
// Runs after closure conversion, so a callee is closed: its body refers only to its parameters,
// constants and its own nodes, and copying it needs nothing but a parameter -> argument map.
#include <map>
#include <set>
#include <unordered_map>

#include "compiler/passes.h"

namespace sprout::compiler {

using namespace ir;

namespace {

// Graphs that can reach themselves through graph constants (loops, recursion): never inlined.
std::set<const FuncGraph*> recursive_graphs(const std::vector<FuncGraph*>& graphs) {
  std::map<const FuncGraph*, std::set<const FuncGraph*>> edges;
  for (FuncGraph* g : graphs)
    for (const auto& n : g->nodes())
      if (FuncGraph* k = graph_constant(n.get())) edges[g].insert(k);
  std::set<const FuncGraph*> out;
  for (FuncGraph* g : graphs) {
    std::set<const FuncGraph*> seen;
    std::vector<const FuncGraph*> todo(edges[g].begin(), edges[g].end());
    while (!todo.empty()) {
      const FuncGraph* k = todo.back();
      todo.pop_back();
      if (k == g) {
        out.insert(g);
        break;
      }
      if (seen.insert(k).second) todo.insert(todo.end(), edges[k].begin(), edges[k].end());
    }
  }
  return out;
}

AnfNode* copy_body(FuncGraph& into, const FuncGraph& callee, const CNode* call) {
  std::unordered_map<const AnfNode*, AnfNode*> map;
  for (size_t i = 0; i < callee.parameters().size(); ++i) map[callee.parameters()[i]] = call->input(i + 1);
  auto mapped = [&](AnfNode* n) -> AnfNode* {
    auto it = map.find(n);
    if (it != map.end()) return it->second;
    ValueNode* v = into.add_value(static_cast<ValueNode*>(n)->value());
    v->set_abstract(n->abstract());
    return map[n] = v;
  };
  for (CNode* c : callee.topological_order()) {
    if (c == callee.return_node()) break;
    std::vector<AnfNode*> inputs;
    for (AnfNode* in : c->inputs()) inputs.push_back(mapped(in));
    DebugInfo debug = c->debug().file.empty() ? call->debug() : c->debug();
    CNode* copy = into.add_cnode(std::move(inputs), std::move(debug));
    copy->set_abstract(c->abstract());
    map[c] = copy;
  }
  return mapped(callee.output());
}

}  // namespace

size_t inline_once(FuncGraph& entry);

size_t inline_calls(FuncGraph& entry) {
  // Inlining exposes Partial calls and tuple reads that simplify turns into direct calls, which can be
  // inlined in turn: alternate to a fixed point.
  size_t changes = 0;
  for (size_t changed = 1; changed;) {
    changed = inline_once(entry);
    if (changed) changed += simplify(entry);
    changes += changed;
  }
  return changes;
}

size_t inline_once(FuncGraph& entry) {
  size_t changes = 0;
  for (bool again = true; again;) {
    again = false;
    std::vector<FuncGraph*> graphs = reachable_graphs(entry);
    std::set<const FuncGraph*> recursive = recursive_graphs(graphs);
    for (FuncGraph* g : graphs) {
      for (CNode* c : g->topological_order()) {
        FuncGraph* callee = graph_constant(c->input(0));
        if (!callee || callee == g || recursive.count(callee) || callee->custom_bprop() || callee->recompute() ||
            c->inputs().size() != callee->parameters().size() + 1)
          continue;
        g->replace_all_uses(c, copy_body(*g, *callee, c));
        ++changes;
        again = true;
      }
    }
  }
  return changes;
}

}  // namespace sprout::compiler
