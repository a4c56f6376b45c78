// closure_convert (Note [Pass pipeline]): lambda lifting.
//
// FV*(G), the values G needs from outside, is G's own free variables plus, for every graph K whose
// value G mentions (nested closures, a loop header calling itself), the part of FV*(K) that G does
// not define itself -- a fixed point, since graphs mention each other recursively. Each G then takes
// FV*(G) as extra leading parameters, and every mention of K in a graph S becomes
// Partial(K, <FV*(K) as seen in S>): the value itself if S defines it, else S's own new parameter.
#include <map>
#include <set>

#include "base/error.h"
#include "compiler/graph_emit.h"
#include "compiler/passes.h"

namespace sprout::compiler {

using namespace ir;

namespace {

// Free variables in a stable order (by node id), so conversion is deterministic.
using FvSet = std::set<AnfNode*, decltype([](const AnfNode* a, const AnfNode* b) { return a->id() < b->id(); })>;

}  // namespace

size_t closure_convert(FuncGraph& entry) {
  std::vector<FuncGraph*> graphs = reachable_graphs(entry);
  std::map<FuncGraph*, FvSet> fv;
  std::map<FuncGraph*, std::vector<FuncGraph*>> mentions;
  for (FuncGraph* g : graphs) {
    for (const auto& owned : g->nodes()) {
      if (owned->kind() != NodeKind::CNode) continue;
      for (AnfNode* in : static_cast<CNode*>(owned.get())->inputs()) {
        if (FuncGraph* k = graph_constant(in)) mentions[g].push_back(k);
        else if (in->kind() != NodeKind::Value && in->graph() != g) fv[g].insert(in);
      }
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (FuncGraph* g : graphs)
      for (FuncGraph* k : mentions[g])
        for (AnfNode* n : FvSet(fv[k]))
          if (n->graph() != g && fv[g].insert(n).second) changed = true;
  }
  SPROUT_ASSERT(fv[&entry].empty(), "closure_convert: the entry graph @", entry.name(), " has free variables");

  // New parameters first (so every graph's are known), then rewrite the uses.
  std::map<FuncGraph*, std::map<AnfNode*, ParameterNode*>> param_of;
  std::map<FuncGraph*, std::vector<ParameterNode*>> old_params;
  for (FuncGraph* g : graphs) {
    if (fv[g].empty()) continue;
    old_params[g] = g->parameters();
    for (AnfNode* n : fv[g]) {
      std::string name = n->kind() == NodeKind::Parameter ? static_cast<ParameterNode*>(n)->name()
                                                          : "fv" + std::to_string(n->id());
      ParameterNode* p = g->add_parameter(name);
      p->set_abstract(n->abstract());
      param_of[g][n] = p;
    }
    g->move_last_parameters_first(fv[g].size());
  }
  size_t changes = 0;
  for (FuncGraph* s : graphs) {
    auto seen_in_s = [&](AnfNode* n) -> AnfNode* { return n->graph() == s ? n : param_of.at(s).at(n); };
    std::vector<CNode*> cnodes;
    for (const auto& owned : s->nodes())
      if (owned->kind() == NodeKind::CNode) cnodes.push_back(static_cast<CNode*>(owned.get()));
    for (CNode* c : cnodes) {
      for (size_t i = 0; i < c->inputs().size(); ++i) {
        AnfNode* in = c->input(i);
        if (FuncGraph* k = graph_constant(in); k && !fv[k].empty()) {
          std::vector<AnfNode*> args{s->add_value(IrValue{k})};
          for (AnfNode* n : fv[k]) args.push_back(seen_in_s(n));
          CNode* partial = emit_special(*s, SpecialOp::Partial, std::move(args), c->debug());
          partial->set_abstract(function_abstract({k}, {}));
          s->set_input(c, i, partial);
          ++changes;
        } else if (in->kind() != NodeKind::Value && in->graph() != s) {
          s->set_input(c, i, seen_in_s(in));
          ++changes;
        }
      }
    }
  }
  for (FuncGraph* g : graphs) g->set_parent(nullptr);
  return changes;
}

}  // namespace sprout::compiler
