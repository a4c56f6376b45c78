// simplify (Note [Pass pipeline]): local rewrites that make later passes and the VM's work smaller.
#include <cmath>

#include "base/error.h"
#include "compiler/graph_emit.h"
#include "compiler/passes.h"
#include "runtime/eager.h"

namespace sprout::compiler {

using namespace ir;

namespace {

bool is_constant_tensor(const AnfNode* n, const Tensor** out) {
  if (n->kind() != NodeKind::Value) return false;
  const Tensor* t = static_cast<const ValueNode*>(n)->value().as<Tensor>();
  if (out) *out = t;
  return t != nullptr;
}

const Primitive* primitive_callee(const CNode* c) {
  const IrValue* v = c->callee_value();
  return v ? v->as<Primitive>() : nullptr;
}

bool same_spec(const AnfNode* a, const AnfNode* b) {
  return a->abstract() && b->abstract() && same_abstract(*a->abstract(), *b->abstract());
}

// Is `n` a graph parameter, a read of one ordered by Depend, or a view of one?
bool may_alias_parameter(const AnfNode* n) {
  for (;;) {
    if (n->kind() == NodeKind::Parameter) return true;
    if (n->kind() != NodeKind::CNode) return false;
    const auto* c = static_cast<const CNode*>(n);
    if (c->is_special(SpecialOp::Depend)) {
      n = c->input(1);
      continue;
    }
    const Primitive* p = primitive_callee(c);
    if (!p || !p->def().view) return false;
    n = c->input(1);
  }
}

// A constant tensor holding one value equal to `v`.
bool is_constant_value(const AnfNode* n, double v) {
  const Tensor* t = nullptr;
  return is_constant_tensor(n, &t) && t->numel() == 1 && t->element_as_double(0) == v;
}

// Identities that hold bit for bit in IEEE arithmetic (NaN, infinities and signed zeros included):
// x * 1, 1 * x, x / 1, x - 0. (x + 0 is not one: -0 + 0 is +0.) Only where the result has x's
// dtype and shape, so no broadcast or promotion is skipped.
AnfNode* algebraic(const Primitive& p, CNode* c) {
  if (c->inputs().size() != 3) return nullptr;
  AnfNode *a = c->input(1), *b = c->input(2);
  const std::string& op = p.name();
  if ((op == "Mul" || op == "RealDiv" || op == "Div") && is_constant_value(b, 1.0) && same_spec(c, a)) return a;
  if (op == "Mul" && is_constant_value(a, 1.0) && same_spec(c, b)) return b;
  if (op == "Sub" && is_constant_value(b, 0.0) && same_spec(c, a)) {
    const Tensor* zero = nullptr;
    is_constant_tensor(b, &zero);
    if (!std::signbit(zero->element_as_double(0))) return a;  // x - (+0) is x; x - (-0) is x + 0
  }
  return nullptr;
}

// The node `c` can be replaced with, or null.
AnfNode* rewrite(FuncGraph& g, CNode* c) {
  if (c == g.return_node()) return nullptr;
  if (c->is_special(SpecialOp::TupleGetItem)) {
    AnfNode* t = c->input(1);
    if (t->kind() == NodeKind::CNode && static_cast<CNode*>(t)->is_special(SpecialOp::MakeTuple)) {
      const int64_t* i = static_cast<const ValueNode*>(c->input(2))->value().as<int64_t>();
      return static_cast<CNode*>(t)->input(static_cast<size_t>(*i) + 1);
    }
    return nullptr;
  }
  if (c->is_special(SpecialOp::Depend) && c->inputs().size() == 2) return c->input(1);
  if (c->is_special(SpecialOp::Switch)) {
    const Tensor* cond = nullptr;
    if (is_constant_tensor(c->input(1), &cond) && cond->numel() == 1)
      return cond->element_as_double(0) != 0 ? c->input(2) : c->input(3);
    return nullptr;
  }
  if (const Primitive* p = primitive_callee(c)) {
    // Reshaping to the shape it has (a view in eager mode too): the input itself.
    if (p->name() == "Reshape" && same_spec(c, c->input(1))) return c->input(1);
    AnfNode* same = nullptr;
    if ((p->name() == "Cast" || p->name() == "Identity") && c->inputs().size() >= 2 && same_spec(c, c->input(1)))
      same = c->input(1);
    else
      same = algebraic(*p, c);
    // These make a copy in eager mode; replacing one by its input is unsafe only where that input may
    // be written in place later (Note [Side effects in graph mode]): a graph parameter (a Parameter,
    // or an input) or a view of one, in a graph that has effects.
    if (same && graph_has_effects(g) && may_alias_parameter(same)) return nullptr;
    return same;
  }
  // call(Partial(f, a...), b...) -> f(a..., b...)
  AnfNode* callee = c->input(0);
  if (callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Partial)) {
    auto* partial = static_cast<CNode*>(callee);
    std::vector<AnfNode*> inputs(partial->inputs().begin() + 1, partial->inputs().end());
    inputs.insert(inputs.end(), c->inputs().begin() + 1, c->inputs().end());
    CNode* direct = g.add_cnode(std::move(inputs), c->debug());
    direct->set_abstract(c->abstract());
    return direct;
  }
  return nullptr;
}

}  // namespace

size_t simplify(FuncGraph& entry) {
  size_t changes = 0;
  for (bool again = true; again;) {
    again = false;
    for (FuncGraph* g : reachable_graphs(entry)) {
      for (CNode* c : g->topological_order()) {
        AnfNode* replacement = rewrite(*g, c);
        if (!replacement || replacement == c) continue;
        if (!replacement->abstract()) replacement->set_abstract(c->abstract());
        g->replace_all_uses(c, replacement);
        ++changes;
        again = true;
      }
    }
  }
  return changes;
}

size_t fold_constants(FuncGraph& entry) {
  constexpr int64_t kMaxFoldedElements = 1 << 16;  // folding must not bloat the program with big constants
  size_t changes = 0;
  for (FuncGraph* g : reachable_graphs(entry)) {
    for (CNode* c : g->topological_order()) {
      const Primitive* p = primitive_callee(c);
      if (!p || !is_pure(p->def()) || !c->abstract() || !c->abstract()->is_tensor()) continue;
      std::vector<Tensor> inputs;
      bool all_constant = true;
      for (size_t i = 1; i < c->inputs().size() && all_constant; ++i) {
        const Tensor* t = nullptr;
        all_constant = is_constant_tensor(c->input(i), &t);
        if (all_constant) inputs.push_back(*t);
      }
      TensorSpec spec = node_spec(c);
      if (!all_constant || numel(spec.shape) > kMaxFoldedElements) continue;
      std::vector<Tensor> out = run_eager(*p, inputs);
      g->replace_all_uses(c, constant_tensor(*g, out[0].contiguous()));
      ++changes;
    }
  }
  return changes;
}

}  // namespace sprout::compiler
