#include "compiler/lower.h"

#include <unordered_map>
#include <unordered_set>

#include "base/error.h"
#include "ir/printer.h"
#include "runtime/eager.h"

namespace sprout::compiler {

using namespace ir;
using vm::GraphCode;
using vm::Instr;
using vm::OpCode;
using vm::VmValue;

namespace {

std::vector<const FuncGraph*> reachable(const FuncGraph& entry) {
  std::vector<const FuncGraph*> out{&entry};
  std::unordered_map<const FuncGraph*, bool> seen{{&entry, true}};
  for (size_t i = 0; i < out.size(); ++i)
    for (const CNode* c : out[i]->topological_order())
      for (const AnfNode* in : c->inputs())
        if (in->kind() == NodeKind::Value)
          if (auto* g = static_cast<const ValueNode*>(in)->value().as<FuncGraph*>())
            if (seen.emplace(*g, true).second) out.push_back(*g);
  return out;
}

int64_t planned_bytes(const AnfNode* n) {
  const AbstractTensor* t = n->abstract() ? n->abstract()->as<AbstractTensor>() : nullptr;
  if (!t) return 0;
  int64_t count = 1;
  for (int64_t d : t->shape) {
    if (d < 0) return 0;
    count *= d;
  }
  return count * static_cast<int64_t>(itemsize(t->dtype));
}

// The output specs of a kernel node whose inputs already have the dtypes its policy wants and whose
// shapes are all static; empty when the VM must go through eager dispatch (views, unknown dims).
std::vector<TensorSpec> static_output_specs(const Primitive& prim, const CNode* c) {
  const OpDef& def = prim.def();
  if (def.view || !def.kernel(Device::CPU)) return {};
  std::vector<TensorSpec> in;
  std::vector<DType> dtypes;
  for (size_t i = 1; i < c->inputs().size(); ++i) {
    const AbstractTensor* t = c->input(i)->abstract() ? c->input(i)->abstract()->as<AbstractTensor>() : nullptr;
    if (!t) return {};
    for (int64_t d : t->shape)
      if (d < 0) return {};
    in.push_back(TensorSpec{t->dtype, t->shape});
    dtypes.push_back(t->dtype);
  }
  if (auto common = policy_dtype(def, dtypes))
    for (DType d : dtypes)
      if (d != *common) return {};
  return def.infer(def, prim.attrs(), in);
}

// Note [Execution order]
// A program runs its graph's nodes in a depth-first post-order from the result, which computes each value
// just before its first use. The result tuple's items are visited last first: in a training step they are
// the loss, then the gradients in the order of the parameters, while the backward pass reaches the last
// layers first; visited in that order, each layer's weight gradient (which reads the layer's activations)
// is taken as soon as the backward pass has the layer's sensitivity, and the activations are released
// there rather than kept to the end of the backward pass. The result may be Depend(tuple, effects): the
// tuple inside is what is reversed. Any topological order computes the same values; this one matters
// most for recomputed cells (Note [Recomputed cells in compiled code]), whose recomputed activations
// would otherwise wait for the end: peak memory of the compiled gradient of 8 recomputed MLP blocks
// 9.9 -> 3.9 MiB (13.4 -> 13.1 without recompute; tests/python/nn/test_recompute.py).
std::vector<const CNode*> execution_order(const FuncGraph& g) {
  std::vector<const CNode*> order;
  const CNode* ret = g.return_node();
  if (!ret) return order;
  const AnfNode* result = ret->input(1);
  auto is = [](const AnfNode* n, SpecialOp op) {
    return n->kind() == NodeKind::CNode && static_cast<const CNode*>(n)->is_special(op);
  };
  while (is(result, SpecialOp::Depend)) result = static_cast<const CNode*>(result)->input(1);  // after effects
  const CNode* reversed = is(result, SpecialOp::MakeTuple) ? static_cast<const CNode*>(result) : nullptr;
  std::unordered_set<const AnfNode*> done;
  std::vector<std::pair<const CNode*, size_t>> stack{{ret, 0}};
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    const size_t n = node->inputs().size();
    if (next < n) {
      const AnfNode* in = node->inputs()[node == reversed ? n - 1 - next : next];
      ++next;
      if (in->kind() == NodeKind::CNode && in->graph() == &g && done.insert(in).second)
        stack.push_back({static_cast<const CNode*>(in), 0});
      continue;
    }
    order.push_back(node);
    stack.pop_back();
  }
  return order;
}

class GraphLowering {
 public:
  GraphLowering(const FuncGraph& g, GraphCode& code, const std::unordered_map<const FuncGraph*, GraphCode*>& codes)
      : g_(g), code_(code), codes_(codes) {}

  int64_t run() {
    code_.name = g_.name();
    for (const ParameterNode* p : g_.parameters()) slots_[p] = code_.n_slots++;
    code_.n_params = code_.n_slots;
    for (const CNode* c : execution_order(g_)) {
      if (c == g_.return_node()) {
        code_.result = slot(c->input(1));
        continue;
      }
      lower_node(c);
    }
    if (!code_.code.empty() && code_.code.back().op == OpCode::Call && code_.code.back().out == code_.result)
      code_.code.back().tail = true;
    return plan_releases();
  }

 private:
  VmValue constant(const IrValue& v, const CNode* user) {
    if (auto* t = v.as<Tensor>()) return VmValue{*t};
    if (v.as<NoneValue>()) return VmValue{};
    if (auto* g = v.as<FuncGraph*>())
      return VmValue{std::make_shared<const vm::Closure>(vm::Closure{codes_.at(*g), {}})};
    if (auto* t = v.as<IrTuple>()) {
      std::vector<VmValue> items;
      for (const IrValue& x : **t) items.push_back(constant(x, user));
      return VmValue{std::make_shared<const std::vector<VmValue>>(std::move(items))};
    }
    throw InternalError(str("lowering @", g_.name(), ": the constant ", v.to_string(), " used by node ", user->id(),
                            " has no runtime form (it should have been folded by specialization)"));
  }

  int32_t slot(const AnfNode* n, const CNode* user = nullptr) {
    auto it = slots_.find(n);
    if (it != slots_.end()) return it->second;
    if (n->kind() == NodeKind::Value) {
      int32_t s = code_.n_slots++;
      code_.constants.emplace_back(s, constant(static_cast<const ValueNode*>(n)->value(), user));
      slots_[n] = s;
      return s;
    }
    throw InternalError(str("lowering @", g_.name(), ": node ", n->id(), " of @", n->graph()->name(),
                            " is a free variable; closure conversion must run before lowering\n", print_ir(g_)));
  }

  void lower_node(const CNode* c) {
    Instr ins;
    if (!c->debug().file.empty()) ins.where = str(c->debug().file, ":", c->debug().line);
    const IrValue* callee = c->callee_value();
    size_t first_arg = 1;
    if (callee && callee->as<Primitive>()) {
      ins.op = OpCode::Kernel;
      ins.prim = *callee->as<Primitive>();
      if (ins.prim.def().random) ins.runs = std::make_shared<std::atomic<uint64_t>>(0);
    } else if (callee && callee->as<FusedPtr>()) {
      ins.op = OpCode::Fused;
      ins.fused = *callee->as<FusedPtr>();
    } else if (callee && callee->as<SpecialOp>()) {
      switch (*callee->as<SpecialOp>()) {
        case SpecialOp::Switch: ins.op = OpCode::Switch; break;
        case SpecialOp::Partial: ins.op = OpCode::Partial; break;
        case SpecialOp::MakeTuple: ins.op = OpCode::MakeTuple; break;
        case SpecialOp::Depend: ins.op = OpCode::Depend; break;
        case SpecialOp::TupleGetItem: {
          ins.op = OpCode::TupleGetItem;
          const auto* idx = static_cast<const ValueNode*>(c->input(2))->value().as<int64_t>();
          SPROUT_ASSERT(c->input(2)->kind() == NodeKind::Value && idx, "TupleGetItem needs a constant index");
          ins.index = *idx;
          ins.in.push_back(slot(c->input(1), c));
          first_arg = c->inputs().size();
          break;
        }
        case SpecialOp::Return: throw InternalError("Return in the middle of a graph");
        case SpecialOp::J: throw InternalError("a J node reached lowering: expand_grad must run first");
      }
    } else {
      ins.op = OpCode::Call;
      first_arg = 0;
    }
    for (size_t i = first_arg; i < c->inputs().size(); ++i) ins.in.push_back(slot(c->input(i), c));
    ins.out = code_.n_slots++;
    ins.out_bytes = planned_bytes(c);
    if (ins.op == OpCode::Kernel) ins.out_specs = static_output_specs(ins.prim, c);
    slots_[c] = ins.out;
    code_.code.push_back(std::move(ins));
  }

  // A Depend reads only its first input; the others only order it after their producers.
  static size_t reads_of(const Instr& ins) { return ins.op == OpCode::Depend ? 1 : ins.in.size(); }

  // Releases every slot right after its last use and returns the peak of live planned bytes. An
  // ordering input of a Depend is not a use: the value may go before the Depend runs (what the Depend
  // waits for is that it was computed), unless nothing else ever reads it.
  int64_t plan_releases() {
    std::vector<int32_t> last_use(static_cast<size_t>(code_.n_slots), -1);
    for (int32_t i = 0; i < static_cast<int32_t>(code_.code.size()); ++i) {
      const Instr& ins = code_.code[static_cast<size_t>(i)];
      for (size_t k = 0; k < reads_of(ins); ++k) last_use[static_cast<size_t>(ins.in[k])] = i;
    }
    std::vector<int32_t> last_order(static_cast<size_t>(code_.n_slots), -1);
    for (int32_t i = 0; i < static_cast<int32_t>(code_.code.size()); ++i) {
      const Instr& ins = code_.code[static_cast<size_t>(i)];
      for (size_t k = reads_of(ins); k < ins.in.size(); ++k) last_order[static_cast<size_t>(ins.in[k])] = i;
    }
    for (size_t s = 0; s < last_use.size(); ++s)
      if (last_use[s] < 0) last_use[s] = last_order[s];
    std::vector<int64_t> bytes(static_cast<size_t>(code_.n_slots), 0);
    int64_t live = 0, peak = 0;
    for (int32_t i = 0; i < static_cast<int32_t>(code_.code.size()); ++i) {
      Instr& ins = code_.code[static_cast<size_t>(i)];
      bytes[static_cast<size_t>(ins.out)] = ins.out_bytes;
      live += ins.out_bytes;
      peak = std::max(peak, live);
      for (int32_t s : ins.in) {
        if (last_use[static_cast<size_t>(s)] != i || s == code_.result) continue;
        last_use[static_cast<size_t>(s)] = -2;  // released once even if used twice by this instruction
        ins.release.push_back(s);
        live -= bytes[static_cast<size_t>(s)];
      }
    }
    return peak;
  }

  const FuncGraph& g_;
  GraphCode& code_;
  const std::unordered_map<const FuncGraph*, GraphCode*>& codes_;
  std::unordered_map<const AnfNode*, int32_t> slots_;
};

}  // namespace

std::unique_ptr<vm::Program> lower(const FuncGraph& entry) {
  auto program = std::make_unique<vm::Program>();
  std::unordered_map<const FuncGraph*, GraphCode*> codes;
  std::vector<const FuncGraph*> graphs = reachable(entry);
  for (const FuncGraph* g : graphs) {
    program->graphs_.push_back(std::make_unique<GraphCode>());
    codes[g] = program->graphs_.back().get();
  }
  for (const FuncGraph* g : graphs) {
    int64_t peak = GraphLowering(*g, *codes[g], codes).run();
    program->planned_peak_bytes_ = std::max(program->planned_peak_bytes_, peak);
  }
  return program;
}

}  // namespace sprout::compiler
