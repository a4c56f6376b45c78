// Emitting registry primitives as IR nodes. Note [Graph emission mirrors eager dispatch]
// A primitive call becomes a CNode exactly as run_eager would run it: the op's dtype policy turns
// into explicit Cast nodes, the op's pure infer function gives the node its abstract (so user errors
// are the same errors as in PYNATIVE, raised at compile time), and an op with several outputs gives
// one TupleGetItem node per output. The front end and the autodiff transform both emit through here.
#pragma once

#include <span>
#include <vector>

#include "ir/func_graph.h"
#include "ops/emitter.h"
#include "ops/op_def.h"

namespace sprout::compiler {

// The tensor spec of a node with a tensor abstract; TypeError naming `what` otherwise.
TensorSpec node_spec(const ir::AnfNode* node, const char* what = "value");

ir::ValueNode* constant_tensor(ir::FuncGraph& g, const Tensor& value);
ir::AnfNode* emit_cast(ir::FuncGraph& g, ir::AnfNode* x, DType dtype, const ir::DebugInfo& debug = {});

// Emits `prim` on tensor-valued nodes; returns one node per output of the op.
std::vector<ir::AnfNode*> emit_primitive(ir::FuncGraph& g, const Primitive& prim, std::span<ir::AnfNode* const> inputs,
                                         const ir::DebugInfo& debug = {});

// Structural nodes with their abstracts.
ir::CNode* emit_special(ir::FuncGraph& g, ir::SpecialOp op, std::vector<ir::AnfNode*> args,
                        const ir::DebugInfo& debug = {});
ir::AnfNode* emit_make_tuple(ir::FuncGraph& g, std::vector<ir::AnfNode*> items, const ir::DebugInfo& debug = {});
ir::AnfNode* emit_tuple_getitem(ir::FuncGraph& g, ir::AnfNode* tuple, int64_t index, const ir::DebugInfo& debug = {});

// Is the op free of side effects (no input written in place, no random state)? Passes may merge,
// drop or reorder only pure nodes.
bool is_pure(const OpDef& def);

// The Emitter of Note [One set of bprop rules] whose values are nodes of one graph.
class GraphEmitter final : public Emitter {
 public:
  explicit GraphEmitter(ir::FuncGraph& g, ir::DebugInfo debug = {}) : graph_(g), debug_(std::move(debug)) {}
  std::vector<Value> emit_outputs(const Primitive& prim, std::span<const Value> inputs) override;
  Value constant(const Tensor& value) override;
  TensorSpec spec(Value v) const override;
  Value zeros_like(Value like) override;
  bool is_zero(Value v) const override;

  Value wrap(ir::AnfNode* node);
  ir::AnfNode* node(Value v) const { return nodes_.at(static_cast<size_t>(v.id)); }

 private:
  ir::FuncGraph& graph_;
  ir::DebugInfo debug_;
  std::vector<ir::AnfNode*> nodes_;
};

}  // namespace sprout::compiler
