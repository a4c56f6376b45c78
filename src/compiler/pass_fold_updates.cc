// fold_updates: plain SGD of a weight whose gradient is a matrix product becomes one accumulating
// GEMM. Note [Updates folded into their gradient's product]
// A Dense layer's weight gradient is dW = dy^T x (a MatMul) and plain SGD then runs W -= lr dW
// (ApplyGradientDescent): the product is written to memory only to be read back once. Where that
// MatMul has no other user, the two become ApplyGradientDescentMatMul(W, lr, dy, x), which BLAS/oneDNN
// run as W = (-lr dy)^T x + W: no gradient buffer, one pass less over the weight. The rounding is not
// the unfolded ops' (the smaller operand is scaled first, and the product is not rounded on its own
// before the update), so results can differ from them in the last bits.
#include "compiler/passes.h"

namespace sprout::compiler {

using namespace ir;

namespace {

const Primitive* primitive_of(const AnfNode* n) {
  if (n->kind() != NodeKind::CNode) return nullptr;
  const IrValue* v = static_cast<const CNode*>(n)->callee_value();
  return v ? v->as<Primitive>() : nullptr;
}

}  // namespace

size_t fold_updates(FuncGraph& entry) {
  static const OpDef& folded = OpRegistry::instance().get("ApplyGradientDescentMatMul");
  size_t changes = 0;
  for (FuncGraph* g : reachable_graphs(entry)) {
    for (CNode* update : g->topological_order()) {
      const Primitive* p = primitive_of(update);
      if (!p || p->name() != "ApplyGradientDescent") continue;
      auto* product = static_cast<CNode*>(update->input(3));
      const Primitive* mm = primitive_of(product);
      if (!mm || mm->name() != "MatMul" || product->users().size() != 1) continue;
      const auto* var = update->input(1)->abstract() ? update->input(1)->abstract()->as<AbstractTensor>() : nullptr;
      if (!var || var->shape.size() != 2 || (var->dtype != DType::Float32 && var->dtype != DType::Float64)) continue;
      if (product->abstract()->as<AbstractTensor>()->dtype != var->dtype) continue;
      Primitive fused(folded);
      for (const char* attr : {"transpose_a", "transpose_b"}) fused = fused.with_attr(attr, mm->attr(attr));
      CNode* node = g->add_cnode({g->add_value(IrValue{fused}), update->input(1), update->input(2), product->input(1),
                                  product->input(2)},
                                 update->debug());
      node->set_abstract(update->abstract());
      g->replace_all_uses(update, node);
      ++changes;
    }
  }
  return changes;
}

}  // namespace sprout::compiler
