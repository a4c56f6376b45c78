#include "compiler/graph_emit.h"

#include "base/error.h"
#include "ops/array.h"
#include "ops/infer_util.h"
#include "runtime/eager.h"

namespace sprout::compiler {

using namespace ir;

TensorSpec node_spec(const AnfNode* node, const char* what) {
  const AbstractPtr& a = node->abstract();
  const AbstractTensor* t = a ? a->as<AbstractTensor>() : nullptr;
  SPROUT_CHECK(t, TypeError, "graph mode: the ", what, " must be a Tensor, but it is ",
               a ? a->to_string() : std::string("of unknown type"));
  return TensorSpec{t->dtype, t->shape};
}

ValueNode* constant_tensor(FuncGraph& g, const Tensor& value) {
  ValueNode* v = g.add_value(IrValue{value});
  v->set_abstract(tensor_abstract(value.dtype(), value.shape()));
  return v;
}

AnfNode* emit_cast(FuncGraph& g, AnfNode* x, DType dtype, const DebugInfo& debug) {
  if (node_spec(x).dtype == dtype) return x;
  static const Primitive cast = Primitive::make("Cast");
  AnfNode* in[1] = {x};
  return emit_primitive(g, cast.with_attr("dst_type", dtype), in, debug)[0];
}

std::vector<AnfNode*> emit_primitive(FuncGraph& g, const Primitive& prim, std::span<AnfNode* const> given,
                                     const DebugInfo& debug) {
  const OpDef& def = prim.def();
  check_input_count(def, given.size());
  std::vector<DType> dtypes;
  for (size_t i = 0; i < given.size(); ++i) dtypes.push_back(node_spec(given[i], "input").dtype);
  std::optional<DType> common = policy_dtype(def, dtypes);

  std::vector<AnfNode*> inputs{g.add_value(IrValue{prim})};
  std::vector<TensorSpec> specs;
  for (AnfNode* in : given) {
    AnfNode* x = common ? emit_cast(g, in, *common, debug) : in;
    inputs.push_back(x);
    specs.push_back(node_spec(x));
  }
  std::vector<TensorSpec> outs = def.infer(def, prim.attrs(), specs);
  CNode* call = g.add_cnode(std::move(inputs), debug);
  if (outs.size() == 1) {
    call->set_abstract(tensor_abstract(outs[0].dtype, outs[0].shape));
    return {call};
  }
  std::vector<AbstractPtr> elements;
  for (const TensorSpec& s : outs) elements.push_back(tensor_abstract(s.dtype, s.shape));
  call->set_abstract(tuple_abstract(std::move(elements)));
  std::vector<AnfNode*> results;
  for (size_t i = 0; i < outs.size(); ++i) results.push_back(emit_tuple_getitem(g, call, static_cast<int64_t>(i), debug));
  return results;
}

CNode* emit_special(FuncGraph& g, SpecialOp op, std::vector<AnfNode*> args, const DebugInfo& debug) {
  args.insert(args.begin(), g.add_value(IrValue{op}));
  return g.add_cnode(std::move(args), debug);
}

AnfNode* emit_make_tuple(FuncGraph& g, std::vector<AnfNode*> items, const DebugInfo& debug) {
  std::vector<AbstractPtr> elements;
  for (AnfNode* x : items) elements.push_back(x->abstract());
  CNode* t = emit_special(g, SpecialOp::MakeTuple, std::move(items), debug);
  t->set_abstract(tuple_abstract(std::move(elements)));
  return t;
}

AnfNode* emit_tuple_getitem(FuncGraph& g, AnfNode* tuple, int64_t index, const DebugInfo& debug) {
  // Folding TupleGetItem(MakeTuple(...)) here keeps the emitted graphs small from the start.
  if (tuple->kind() == NodeKind::CNode && tuple->graph() == &g) {
    auto* c = static_cast<CNode*>(tuple);
    if (c->is_special(SpecialOp::MakeTuple)) return c->input(static_cast<size_t>(index) + 1);
  }
  ValueNode* i = g.add_value(IrValue{index});
  i->set_abstract(constant_abstract(index));
  CNode* item = emit_special(g, SpecialOp::TupleGetItem, {tuple, i}, debug);
  const AbstractSequence* seq = tuple->abstract() ? tuple->abstract()->as<AbstractSequence>() : nullptr;
  if (seq) {
    SPROUT_ASSERT(index >= 0 && static_cast<size_t>(index) < seq->elements.size(), "TupleGetItem index ", index,
                  " out of range for ", tuple->abstract()->to_string());
    item->set_abstract(seq->elements[static_cast<size_t>(index)]);
  }
  return item;
}

bool is_pure(const OpDef& def) { return !def.side_effect; }

Emitter::Value GraphEmitter::wrap(AnfNode* node) {
  nodes_.push_back(node);
  return Value{static_cast<int32_t>(nodes_.size() - 1)};
}

std::vector<Emitter::Value> GraphEmitter::emit_outputs(const Primitive& prim, std::span<const Value> inputs) {
  std::vector<AnfNode*> in;
  for (Value v : inputs) in.push_back(node(v));
  std::vector<Value> out;
  for (AnfNode* n : emit_primitive(graph_, prim, in, debug_)) out.push_back(wrap(n));
  return out;
}

Emitter::Value GraphEmitter::constant(const Tensor& value) { return wrap(constant_tensor(graph_, value)); }

TensorSpec GraphEmitter::spec(Value v) const { return node_spec(node(v)); }

Emitter::Value GraphEmitter::zeros_like(Value like) {
  static const Primitive zeros = Primitive::make("ZerosLike");
  Value in[1] = {like};
  return emit_outputs(zeros, in)[0];
}

// Autodiff gives an output nobody read a ZerosLike sensitivity (zeros_like in autodiff.cc).
bool GraphEmitter::is_zero(Value v) const {
  const ir::AnfNode* n = node(v);
  if (n->kind() != ir::NodeKind::CNode) return false;
  const ir::IrValue* callee = static_cast<const ir::CNode*>(n)->callee_value();
  const Primitive* prim = callee ? callee->as<Primitive>() : nullptr;
  return prim && prim->name() == "ZerosLike";
}

}  // namespace sprout::compiler
