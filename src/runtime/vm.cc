#include "runtime/vm.h"

#include <optional>
#include <sstream>

#include "base/error.h"
#include "base/random_stream.h"
#include "kernels/cpu/fused_elementwise.h"
#include "runtime/eager.h"
#include "runtime/op_profile.h"

namespace sprout::vm {
namespace {

const Closure& callee_of(const VmValue& v, const Instr& ins) {
  const Closure* c = v.closure();
  SPROUT_CHECK(c, RuntimeError, "graph mode: calling a value that is not a function", ins.where.empty() ? "" : " at ",
               ins.where);
  return *c;
}

bool truth(const VmValue& v, const Instr& ins) {
  const Tensor* t = v.tensor();
  SPROUT_CHECK(t && t->numel() == 1, ValueError, "graph mode: the condition at ", ins.where,
               " must be a Tensor with one element, but it has shape ",
               t ? shape_str(t->shape()) : std::string("(not a tensor)"));
  return t->element_as_double(0) != 0.0;
}

const Tensor& tensor_in(const VmValue& v, const Instr& ins) {
  const Tensor* t = v.tensor();
  SPROUT_CHECK(t, RuntimeError, "graph mode: ", ins.op == OpCode::Fused ? ins.fused->to_string() : ins.prim.name(),
               " at ", ins.where, " got a non-tensor input");
  return *t;
}

VmValue run_code(const GraphCode* code, std::vector<VmValue> args) {
  std::vector<VmValue> frame;
  for (;;) {
    SPROUT_ASSERT(static_cast<int32_t>(args.size()) == code->n_params, "@", code->name, " takes ", code->n_params,
                  " arguments, got ", args.size());
    frame.assign(static_cast<size_t>(code->n_slots), VmValue{});
    for (size_t i = 0; i < args.size(); ++i) frame[i] = std::move(args[i]);
    for (const auto& [slot, value] : code->constants) frame[static_cast<size_t>(slot)] = value;
    const GraphCode* next = nullptr;
    for (const Instr& ins : code->code) {
      VmValue& out = frame[static_cast<size_t>(ins.out)];
      switch (ins.op) {
        case OpCode::Kernel: {
          std::optional<RandomStreamScope> stream;
          if (ins.runs) stream.emplace(ins.runs->fetch_add(1, std::memory_order_relaxed));
          std::vector<Tensor> inputs;
          inputs.reserve(ins.in.size());
          for (int32_t s : ins.in) inputs.push_back(tensor_in(frame[static_cast<size_t>(s)], ins));
          std::vector<Tensor> outs;
          if (!ins.out_specs.empty()) {
            OpTimer timer(ins.prim.name());
            outs.reserve(ins.out_specs.size());
            const OpDef& def = ins.prim.def();
            for (const TensorSpec& spec : ins.out_specs) outs.push_back(Tensor::empty(spec.shape, spec.dtype, def.name));
            run_kernel(def, def.kernel(Device::CPU), ins.prim.attrs(), inputs, outs);
          } else {
            outs = run_eager(ins.prim, inputs);
          }
          if (outs.size() == 1) {
            out.v = std::move(outs[0]);
          } else {
            std::vector<VmValue> items;
            for (Tensor& t : outs) items.push_back(VmValue{std::move(t)});
            out.v = std::make_shared<const std::vector<VmValue>>(std::move(items));
          }
          break;
        }
        case OpCode::Fused: {
          std::vector<Tensor> inputs;
          inputs.reserve(ins.in.size());
          for (int32_t s : ins.in) inputs.push_back(tensor_in(frame[static_cast<size_t>(s)], ins));
          OpTimer timer(ins.fused->label);
          Tensor result = Tensor::empty(ins.fused->shape, ins.fused->dtype, ins.fused->label);
          run_fused_elementwise(*ins.fused, inputs, result);
          out.v = std::move(result);
          break;
        }
        case OpCode::Call: {
          const Closure& f = callee_of(frame[static_cast<size_t>(ins.in[0])], ins);
          std::vector<VmValue> call_args = f.bound;
          for (size_t i = 1; i < ins.in.size(); ++i) call_args.push_back(frame[static_cast<size_t>(ins.in[i])]);
          if (ins.tail) {
            next = f.code;
            args = std::move(call_args);
          } else {
            out = run_code(f.code, std::move(call_args));
          }
          break;
        }
        case OpCode::Switch:
          out = truth(frame[static_cast<size_t>(ins.in[0])], ins) ? frame[static_cast<size_t>(ins.in[1])]
                                                                   : frame[static_cast<size_t>(ins.in[2])];
          break;
        case OpCode::Partial: {
          const Closure& f = callee_of(frame[static_cast<size_t>(ins.in[0])], ins);
          auto c = std::make_shared<Closure>(f);
          for (size_t i = 1; i < ins.in.size(); ++i) c->bound.push_back(frame[static_cast<size_t>(ins.in[i])]);
          out.v = std::shared_ptr<const Closure>(std::move(c));
          break;
        }
        case OpCode::MakeTuple: {
          std::vector<VmValue> items;
          for (int32_t s : ins.in) items.push_back(frame[static_cast<size_t>(s)]);
          out.v = std::make_shared<const std::vector<VmValue>>(std::move(items));
          break;
        }
        case OpCode::TupleGetItem: {
          const VmTuple* t = frame[static_cast<size_t>(ins.in[0])].tuple();
          SPROUT_ASSERT(t && ins.index < static_cast<int64_t>((*t)->size()), "TupleGetItem on a non-tuple at ",
                        ins.where);
          out = (**t)[static_cast<size_t>(ins.index)];
          break;
        }
        case OpCode::Depend:
          out = frame[static_cast<size_t>(ins.in[0])];
          break;
      }
      for (int32_t s : ins.release) frame[static_cast<size_t>(s)] = VmValue{};
    }
    if (!next) return std::move(frame[static_cast<size_t>(code->result)]);
    code = next;  // a tail call: run the callee in this frame's place
  }
}

const char* opcode_name(OpCode op) {
  switch (op) {
    case OpCode::Kernel: return "kernel";
    case OpCode::Fused: return "fused";
    case OpCode::Call: return "call";
    case OpCode::Switch: return "switch";
    case OpCode::Partial: return "partial";
    case OpCode::MakeTuple: return "make_tuple";
    case OpCode::TupleGetItem: return "tuple_getitem";
    case OpCode::Depend: return "depend";
  }
  return "?";
}

}  // namespace

VmValue Program::run(std::vector<VmValue> args) const { return run_code(graphs_.front().get(), std::move(args)); }

std::string Program::describe() const {
  std::ostringstream out;
  out << "# planned peak memory of the entry graph: " << planned_peak_bytes_ << " bytes\n";
  for (const auto& g : graphs_) {
    out << "\ncode @" << g->name << " (params " << g->n_params << ", slots " << g->n_slots << ")\n";
    for (const Instr& ins : g->code) {
      out << "  $" << ins.out << " = "
          << (ins.op == OpCode::Kernel  ? ins.prim.to_string()
              : ins.op == OpCode::Fused ? ins.fused->to_string()
                                        : std::string(opcode_name(ins.op)));
      if (ins.op == OpCode::TupleGetItem) out << "[" << ins.index << "]";
      out << "(";
      for (size_t i = 0; i < ins.in.size(); ++i) out << (i ? ", $" : "$") << ins.in[i];
      out << ")" << (ins.tail ? " tail" : "");
      if (!ins.release.empty()) {
        out << "  free";
        for (int32_t s : ins.release) out << " $" << s;
      }
      out << "\n";
    }
    out << "  return $" << g->result << "\n";
  }
  return out.str();
}

}  // namespace sprout::vm
