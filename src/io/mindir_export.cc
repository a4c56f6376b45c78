// Writing a graph as a MindIR file the way MindSpore's export does: inputs as ValueInfoProtos,
// weights as TensorProtos with their bytes, each registry op as a node referring to a PrimitiveProto
// ("REF::<name>"), its arguments as Constant nodes just before it, every node with its output's
// "shape" (dims and dtype), and MakeTuple / TupleGetItem as MindSpore's structural primitives.
#include <unordered_map>

#include "base/error.h"
#include "compiler/graph_emit.h"
#include "compiler/passes.h"
#include "io/atomic_file.h"
#include "io/mindir.h"
#include "io/mindir_lower.h"
#include "io/mindir_values.h"

namespace sprout::mindir {
namespace {

using ir::AnfNode;
using ir::CNode;
using ir::SpecialOp;
using Attr = mind_ir::AttributeProto;

// The "shape" attribute MindSpore puts on every node: the abstract of its output.
void write_abstract(const ir::Abstract& a, Attr& out) {
  if (const auto* t = a.as<ir::AbstractTensor>()) {
    out.set_type(Attr::TENSORS);
    mind_ir::TensorProto* proto = out.add_tensors();
    for (int64_t d : t->shape) proto->add_dims(d);
    proto->set_data_type(tensor_data_type(t->dtype));
  } else if (const auto* s = a.as<ir::AbstractSequence>()) {
    out.set_type(Attr::TUPLE);
    for (const ir::AbstractPtr& e : s->elements) write_abstract(*e, *out.add_values());
  } else {
    out.set_type(Attr::NONE);
  }
}

class Writer {
 public:
  Writer(ir::FuncGraph& g, mind_ir::ModelProto& model) : g_(g), model_(model), graph_(*model.mutable_graph()) {
    graph_.set_name(g.name());
  }

  void inputs(size_t n_inputs, const std::vector<NamedTensor>& weights) {
    const auto& params = g_.parameters();
    SPROUT_CHECK(params.size() == n_inputs + weights.size(), RuntimeError, "export MindIR: the graph takes ",
                 params.size(), " values; expected ", n_inputs, " inputs and ", weights.size(), " weights");
    for (size_t i = 0; i < params.size(); ++i) {
      const ir::ParameterNode* p = params[i];
      if (i < n_inputs) {
        const auto* t = p->abstract() ? p->abstract()->as<ir::AbstractTensor>() : nullptr;
        SPROUT_CHECK(t, RuntimeError, "export MindIR: input ", i, " ('", p->name(), "') is not a tensor; the inputs ",
                     "of an exported model are tensors");
        mind_ir::ValueInfoProto* info = graph_.add_input();
        info->set_name(qualified(p->name()));
        mind_ir::TensorProto* spec = info->add_tensor();
        for (int64_t d : t->shape) spec->add_dims(d);
        spec->set_data_type(tensor_data_type(t->dtype));
        names_[p] = info->name();
      } else {
        const NamedTensor& w = weights[i - n_inputs];
        mind_ir::TensorProto* proto = graph_.add_parameter();
        proto->set_name(qualified(w.name));
        write_tensor(w.value, true, *proto);
        names_[p] = proto->name();
      }
    }
  }

  void nodes() {
    for (CNode* node : g_.topological_order()) {
      if (node->is_special(SpecialOp::Return)) continue;
      const ir::IrValue* callee = node->callee_value();
      if (const Primitive* prim = callee ? callee->as<Primitive>() : nullptr) {
        primitive_node(node, *prim);
      } else if (const SpecialOp* op = callee ? callee->as<SpecialOp>() : nullptr) {
        special_node(node, *op);
      } else {
        throw RuntimeError(str("export MindIR: the graph calls ", callee ? callee->to_string() : "a computed function",
                               " (control flow that depends on tensor values, or a call that was not inlined); "
                               "only straight-line graphs of registry ops can be exported"));
      }
    }
  }

  void output(bool single_output) {
    AnfNode* out = g_.output();
    while (out->kind() == ir::NodeKind::CNode && static_cast<CNode*>(out)->is_special(SpecialOp::Depend))
      out = static_cast<CNode*>(out)->input(1);  // ordering only (Depend nodes are dropped)
    if (single_output) {
      auto* tuple = out->kind() == ir::NodeKind::CNode ? static_cast<CNode*>(out) : nullptr;
      SPROUT_ASSERT(tuple && tuple->is_special(SpecialOp::MakeTuple) && tuple->inputs().size() == 2,
                    "a single-output graph returns MakeTuple(value)");
      out = tuple->input(1);
    }
    mind_ir::ValueInfoProto* info = graph_.add_output();
    info->set_name(name_of(out));
    if (const auto* t = out->abstract() ? out->abstract()->as<ir::AbstractTensor>() : nullptr) {
      mind_ir::TensorProto* spec = info->add_tensor();
      for (int64_t d : t->shape) spec->add_dims(d);
      spec->set_data_type(tensor_data_type(t->dtype));
    }
  }

 private:
  std::string qualified(const std::string& name) const { return g_.name() + ":" + name; }

  // The name of a node's output; constants become Constant nodes on first use.
  std::string name_of(AnfNode* n) {
    if (auto it = names_.find(n); it != names_.end()) return it->second;
    SPROUT_CHECK(n->kind() == ir::NodeKind::Value, RuntimeError, "export MindIR: a node uses a value of another graph");
    const ir::IrValue& v = static_cast<ir::ValueNode*>(n)->value();
    std::string name;
    if (const Tensor* t = v.as<Tensor>()) {
      mind_ir::NodeProto* c = constant_node();
      Attr* a = c->add_attribute();
      a->set_name("value");
      a->set_type(Attr::TENSORS);
      mind_ir::TensorProto* proto = a->add_tensors();
      proto->set_name("value0");
      write_tensor(*t, true, *proto);
      name = c->output(0);
    } else if (const int64_t* i = v.as<int64_t>()) {
      name = constant(AttrValue(*i));
    } else if (const double* d = v.as<double>()) {
      name = constant(AttrValue(*d));
    } else if (const bool* b = v.as<bool>()) {
      name = constant(AttrValue(*b));
    } else if (v.as<ir::NoneValue>()) {
      name = constant(std::nullopt);
    } else {
      throw RuntimeError(str("export MindIR: the constant ", v.to_string(), " has no MindIR form"));
    }
    names_[n] = name;
    return name;
  }

  mind_ir::NodeProto* constant_node() {
    mind_ir::NodeProto* c = graph_.add_node();
    const std::string name = str("ValueNode_", ++count_);
    c->add_output(name);
    c->set_name(name);
    c->set_op_type("Constant");
    return c;
  }

  std::string constant(const Constant& value) {
    mind_ir::NodeProto* c = constant_node();
    Attr* a = c->add_attribute();
    a->set_name("value");
    write_constant(value, *a);
    return c->output(0);
  }

  // A node calling PrimitiveProto `op_type` (function or primitive) with the given attributes.
  mind_ir::NodeProto* call(CNode* node, const std::string& op_type, bool function,
                           const std::vector<NamedConstant>& attributes) {
    mind_ir::PrimitiveProto* prim = model_.add_primitives();
    prim->set_name(str(op_type, ":", ++count_));
    prim->set_op_type(op_type);
    prim->set_prim_type(function ? mind_ir::PrimitiveProto::PRIMITIVE_FUNCTION : mind_ir::PrimitiveProto::PRIMITIVE);
    for (const NamedConstant& a : attributes) {
      Attr* attr = prim->add_attribute();
      attr->set_name(a.name);
      write_constant(a.value, *attr, a.nest);
    }
    mind_ir::NodeProto* out = graph_.add_node();
    out->set_op_type("REF::" + prim->name());
    const std::string name = qualified(str("CNode_", node->id()));
    out->add_output(name);
    out->set_name(name);
    if (node->abstract()) {
      Attr* shape = out->add_attribute();
      shape->set_name("shape");
      write_abstract(*node->abstract(), *shape);
    }
    names_[node] = name;
    return out;
  }

  void primitive_node(CNode* node, const Primitive& prim) {
    MindSporeCall ms = to_mindspore(prim);
    // Inputs (and argument constants) are written before the node that uses them.
    std::vector<std::string> inputs;
    for (size_t i = 1; i < node->inputs().size(); ++i) inputs.push_back(name_of(node->input(i)));
    if (prim.def().variadic) {  // Concat's tensors: one MakeTuple input, as MindSpore passes them
      std::string tuple = make_tuple(inputs);
      inputs = {tuple};
    }
    if (ms.function && !ms.layout.empty()) {  // arguments between the tensors, in MindSpore's order
      std::vector<std::string> ordered;
      for (int slot : ms.layout)
        ordered.push_back(slot >= 0 ? inputs.at(static_cast<size_t>(slot))
                                    : constant(ms.args.at(static_cast<size_t>(-slot - 1)).value));
      inputs = std::move(ordered);
    } else if (ms.function) {
      for (const NamedConstant& arg : ms.args) inputs.push_back(constant(arg.value));
    }
    for (const Constant& c : ms.trailing_inputs) inputs.push_back(constant(c));
    mind_ir::NodeProto* out = call(node, ms.op_type, ms.function, ms.function ? std::vector<NamedConstant>{} : ms.args);
    for (const std::string& in : inputs) out->add_input(in);
  }

  std::string make_tuple(const std::vector<std::string>& items) {
    mind_ir::PrimitiveProto* prim = model_.add_primitives();
    prim->set_name(str("MakeTuple:", ++count_));
    prim->set_op_type("MakeTuple");
    prim->set_prim_type(mind_ir::PrimitiveProto::PRIMITIVE);
    mind_ir::NodeProto* out = graph_.add_node();
    out->set_op_type("REF::" + prim->name());
    const std::string name = qualified(str("MakeTuple_", count_));
    out->add_output(name);
    out->set_name(name);
    for (const std::string& in : items) out->add_input(in);
    return name;
  }

  void special_node(CNode* node, SpecialOp op) {
    switch (op) {
      case SpecialOp::MakeTuple:
      case SpecialOp::TupleGetItem: {
        std::vector<std::string> inputs;
        for (size_t i = 1; i < node->inputs().size(); ++i) inputs.push_back(name_of(node->input(i)));
        const char* type = op == SpecialOp::MakeTuple ? "MakeTuple" : "TupleGetItem";
        mind_ir::NodeProto* out = call(node, type, false, {});
        for (const std::string& in : inputs) out->add_input(in);
        return;
      }
      case SpecialOp::Depend:  // ordering only: a model file's graph has no side effects to order
        names_[node] = name_of(node->input(1));
        return;
      default:
        throw RuntimeError(str("export MindIR: the graph uses ", ir::special_op_name(op),
                               " (control flow that depends on tensor values); only straight-line graphs can be "
                               "exported"));
    }
  }

  ir::FuncGraph& g_;
  mind_ir::ModelProto& model_;
  mind_ir::GraphProto& graph_;
  std::unordered_map<const AnfNode*, std::string> names_;
  int64_t count_ = 0;
};

}  // namespace

void export_mindir(ir::FuncGraph& entry, size_t n_inputs, const std::vector<NamedTensor>& weights, bool single_output,
                   const std::string& model_version, const std::string& path) {
  compiler::optimize_for_export(entry);
  lower_for_mindspore(entry);
  mind_ir::ModelProto model;
  model.set_ir_version("1.1");
  model.set_producer_name("Sprout");
  model.set_model_version(model_version);  // MindSpore's loader requires one
  model.set_little_endian(true);
  model.set_mind_ir_version(mind_ir::IR_VERSION_WITH_PRIM_FUNCTION);
  Writer writer(entry, model);
  writer.inputs(n_inputs, weights);
  writer.nodes();
  writer.output(single_output);
  AtomicFile file("export", path);
  file.write(model.SerializeAsString());
  file.commit();
}

}  // namespace sprout::mindir
