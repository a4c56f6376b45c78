// sprout._C.ir: building MindIR from Python (the front end in sprout/_frontend), compiling it, and
// running the compiled Program. Note [Graph tensors]
// While a graph is being built, the front end hands library code (nn layers, ops functions)
// GraphTensor objects (sprout/_frontend/graph_tensor.py): Python stand-ins that carry a node of the
// graph. A registry primitive called with one emits a node (emit_if_tracing, reached from the one
// entry point of every primitive call) instead of running a kernel, so the same library code serves
// both modes. Python scalars next to graph tensors follow the eager promotion rules exactly.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/optional.h>

#include <unordered_map>
#include <unordered_set>

#include "compiler/graph_emit.h"
#include "compiler/passes.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "python/bindings.h"
#include "python/ir_handles.h"

namespace sprout::py {

using namespace ir;

namespace {


// Note [Side effects in graph mode]
// Ops that write a Parameter in place (Assign, optimizer updates) or draw random numbers must run
// in program order, and reads of a Parameter must see exactly the writes before them in the source.
// The IR has no statement order, only data dependencies, so the order is made explicit with Depend:
//  - each effect takes Depend(its first input, previous effect, reads since that effect): it runs
//    after the effect before it and after every read the source placed before it;
//  - a Parameter read after an effect is Depend(parameter, last effect);
//  - a graph's result and its jumps to other graphs wait for its last effect (barrier()).
struct GraphEffects {
  AnfNode* last = nullptr;           // the latest effect emitted in the graph
  std::vector<AnfNode*> reads;       // nodes reading a Parameter since then
};

struct TraceState {
  std::optional<PyGraph> graph;
  nb::object graph_tensor_type;  // sprout._frontend.graph_tensor.GraphTensor
  nb::object parameter_type;     // sprout.Parameter: read through `load_parameter` while tracing
  nb::object load_parameter;     // Parameter -> GraphTensor of the graph being built
  DebugInfo where;
  std::unordered_map<const FuncGraph*, GraphEffects> effects;
  std::unordered_set<const AnfNode*> parameter_loads;
  int64_t effect_count = 0;  // effects emitted so far: tells the front end which functions have any
};
TraceState& trace() {
  static TraceState state;
  return state;
}

bool is_graph_tensor(nb::handle obj) {
  TraceState& t = trace();
  return t.graph && PyObject_TypeCheck(obj.ptr(), reinterpret_cast<PyTypeObject*>(t.graph_tensor_type.ptr()));
}

bool is_parameter(nb::handle obj) {
  TraceState& t = trace();
  return t.graph && PyObject_TypeCheck(obj.ptr(), reinterpret_cast<PyTypeObject*>(t.parameter_type.ptr()));
}

// The value the current graph reads for a Parameter node: ordered after the graph's last effect.
AnfNode* load(FuncGraph& g, AnfNode* parameter) {
  TraceState& t = trace();
  GraphEffects& e = t.effects[&g];
  AnfNode* value = parameter;
  if (e.last) {
    CNode* d = compiler::emit_special(g, SpecialOp::Depend, {parameter, e.last});
    d->set_abstract(parameter->abstract());
    value = d;
  }
  t.parameter_loads.insert(value);
  return value;
}

AnfNode* barrier(FuncGraph& g, AnfNode* value) {
  GraphEffects& e = trace().effects[&g];
  if (!e.last) return value;
  CNode* d = compiler::emit_special(g, SpecialOp::Depend, {value, e.last});
  d->set_abstract(value->abstract());
  return d;
}

AnfNode* node_of(nb::handle graph_tensor) { return nb::cast<PyNode&>(graph_tensor.attr("_node")).node; }

nb::object make_graph_tensor(const PyGraph& g, AnfNode* n) {
  return trace().graph_tensor_type(PyNode{g.module, n});
}

std::optional<DTypeKind> scalar_kind_of(nb::handle obj) {
  if (PyBool_Check(obj.ptr())) return DTypeKind::Bool;
  if (PyLong_Check(obj.ptr())) return DTypeKind::Integer;
  if (PyFloat_Check(obj.ptr())) return DTypeKind::Floating;
  return std::nullopt;
}

// A graph tensor standing for a runtime Python scalar (a loop counter): weak like a literal.
std::optional<DTypeKind> runtime_scalar_kind(nb::handle graph_tensor) {
  nb::object kind = graph_tensor.attr("_scalar_kind");
  if (kind.is_none()) return std::nullopt;
  std::string k = nb::cast<std::string>(kind);
  return k == "bool" ? DTypeKind::Bool : k == "int" ? DTypeKind::Integer : DTypeKind::Floating;
}

AnfNode* check_visible(FuncGraph& g, AnfNode* n) {
  SPROUT_CHECK(n->kind() == NodeKind::Value || g.is_inside(n->graph()), RuntimeError,
               "graph mode: a tensor computed in @", n->graph()->name(), " is used in @", g.name(),
               ", which cannot see it (a graph tensor escaped the function it was built in)");
  return n;
}

}  // namespace

namespace {

nb::object wrap_outputs(const std::vector<AnfNode*>& outs, bool as_tuple = false) {
  TraceState& t = trace();
  if (outs.size() == 1 && !as_tuple) return make_graph_tensor(*t.graph, outs[0]);
  nb::list items;
  for (AnfNode* n : outs) items.append(make_graph_tensor(*t.graph, n));
  return nb::tuple(items);
}

// An effect without inputs has nothing to hang its order on: it runs inside a one-node graph whose
// call waits (Depend on the callee) for the effects and Parameter reads before it.
nb::object emit_ordered_effect(FuncGraph& g, const Primitive& prim) {
  TraceState& t = trace();
  FuncGraph* body = g.module()->new_graph(prim.name() + "_effect");
  std::vector<AnfNode*> outs = compiler::emit_primitive(*body, prim, {}, t.where);
  body->set_output(outs.size() == 1 ? outs[0] : compiler::emit_make_tuple(*body, outs));
  GraphEffects& effects = t.effects[&g];
  ValueNode* callee = g.add_value(IrValue{body});
  callee->set_abstract(function_abstract({body}, {}));
  std::vector<AnfNode*> order{callee};
  if (effects.last) order.push_back(effects.last);
  order.insert(order.end(), effects.reads.begin(), effects.reads.end());
  AnfNode* ordered = callee;
  if (order.size() > 1) {
    CNode* d = compiler::emit_special(g, SpecialOp::Depend, std::move(order), t.where);
    d->set_abstract(callee->abstract());
    ordered = d;
  }
  CNode* call = g.add_cnode({ordered}, t.where);
  call->set_abstract(body->output()->abstract());
  ++t.effect_count;
  effects.last = call;
  effects.reads.clear();
  if (outs.size() == 1) return wrap_outputs({call});
  std::vector<AnfNode*> items;
  for (size_t i = 0; i < outs.size(); ++i) items.push_back(compiler::emit_tuple_getitem(g, call, static_cast<int64_t>(i)));
  return wrap_outputs(items);
}

}  // namespace

std::optional<nb::object> emit_if_tracing(const Primitive& prim, std::span<const nb::object> operands) {
  TraceState& t = trace();
  if (!t.graph) return std::nullopt;
  bool any = false;
  for (const nb::object& o : operands) any = any || is_graph_tensor(o) || is_parameter(o);
  // An effect (Print, a random draw) is part of the graph even with no tensor operand: run now, it
  // would happen once, at compile time.
  if (!any && !prim.def().side_effect) return std::nullopt;

  FuncGraph& g = *t.graph->graph;
  std::vector<nb::object> loaded;  // Parameters read through the front end, as graph tensors
  for (const nb::object& o : operands) loaded.push_back(is_parameter(o) ? t.load_parameter(o) : o);
  operands = loaded;
  // Classify: tensors (graph or constant) set the dtype that weak scalars follow.
  std::vector<AnfNode*> nodes(operands.size(), nullptr);
  std::vector<std::optional<DTypeKind>> weak(operands.size());
  std::optional<DType> tensors_dtype;
  DTypeKind scalar_kind = DTypeKind::Bool;
  for (size_t i = 0; i < operands.size(); ++i) {
    nb::handle o = operands[i];
    if (is_graph_tensor(o)) {
      nodes[i] = check_visible(g, node_of(o));
      weak[i] = runtime_scalar_kind(o);
    } else if (auto k = scalar_kind_of(o)) {
      weak[i] = k;
    } else {
      nodes[i] = compiler::constant_tensor(g, to_tensor(o));
    }
    if (weak[i]) scalar_kind = std::max(scalar_kind, *weak[i]);
    else {  // as run_with_operands: tensors that do not promote are refused by graph emission, naming the op
      const DType d = compiler::node_spec(nodes[i]).dtype;
      tensors_dtype = !tensors_dtype ? d : can_promote(*tensors_dtype, d) ? promote_types(*tensors_dtype, d) : *tensors_dtype;
    }
  }
  DType target = weak_scalar_dtype(prim, tensors_dtype, scalar_kind);
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!weak[i]) continue;
    if (nodes[i]) {
      nodes[i] = compiler::emit_cast(g, nodes[i], target, t.where);
    } else if (*weak[i] == DTypeKind::Integer && !is_floating(target)) {
      nodes[i] = compiler::constant_tensor(g, Tensor::scalar_int(nb::cast<int64_t>(operands[i]), target));
    } else {
      nodes[i] = compiler::constant_tensor(g, Tensor::scalar(nb::cast<double>(operands[i]), target));
    }
  }
  GraphEffects& effects = t.effects[&g];
  if (prim.def().side_effect && nodes.empty()) return emit_ordered_effect(g, prim);
  if (prim.def().side_effect && !nodes.empty()) {
    std::vector<AnfNode*> order{nodes[0]};
    if (effects.last) order.push_back(effects.last);
    order.insert(order.end(), effects.reads.begin(), effects.reads.end());
    if (order.size() > 1) {
      CNode* d = compiler::emit_special(g, SpecialOp::Depend, std::move(order), t.where);
      d->set_abstract(nodes[0]->abstract());
      nodes[0] = d;
    }
  }
  std::vector<AnfNode*> outs = compiler::emit_primitive(g, prim, nodes, t.where);
  if (prim.def().side_effect) {
    ++t.effect_count;
    effects.last = outs[0]->kind() == NodeKind::CNode && static_cast<CNode*>(outs[0])->is_special(SpecialOp::TupleGetItem)
                       ? static_cast<CNode*>(outs[0])->input(1) : outs[0];
    effects.reads.clear();
  } else {
    for (AnfNode* n : nodes)
      if (t.parameter_loads.count(n)) {
        effects.reads.push_back(outs[0]);
        break;
      }
  }
  return wrap_outputs(outs, prim.def().tuple_output);
}

namespace {

nb::object spec_of(const AnfNode* n) {
  const AbstractTensor* t = n->abstract() ? n->abstract()->as<AbstractTensor>() : nullptr;
  if (!t) return nb::none();
  nb::list shape;
  for (int64_t d : t->shape) shape.append(d);
  return nb::make_tuple(t->dtype, nb::tuple(shape));
}

DebugInfo debug_info(const std::string& file, int line) { return DebugInfo{file, line}; }

vm::VmValue to_vm(nb::handle obj) {
  if (obj.is_none()) return vm::VmValue{};
  if (nb::isinstance<nb::tuple>(obj) || nb::isinstance<nb::list>(obj)) {
    std::vector<vm::VmValue> items;
    for (nb::handle x : obj) items.push_back(to_vm(x));
    return vm::VmValue{std::make_shared<const std::vector<vm::VmValue>>(std::move(items))};
  }
  return vm::VmValue{nb::cast<const Tensor&>(obj)};
}

nb::object from_vm(const vm::VmValue& v) {
  if (const Tensor* t = v.tensor()) return wrap(*t);
  if (const vm::VmTuple* t = v.tuple()) {
    nb::list items;
    for (const vm::VmValue& x : **t) items.append(from_vm(x));
    return nb::tuple(items);
  }
  if (v.closure()) throw TypeError("graph mode: a function cannot be returned to Python from a compiled graph");
  return nb::none();
}

struct PyProgram {
  std::shared_ptr<vm::Program> program;
  std::vector<compiler::PassReport> passes;
};

}  // namespace

void bind_ir(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("ir", "MindIR: graphs built by the graph-mode front end, and their compiler.");

  nb::class_<PyNode>(m, "Node")
      .def_prop_ro("spec", [](const PyNode& n) { return spec_of(n.node); },
                   "(dtype, shape) of a tensor-valued node, else None.")
      .def_prop_ro("id", [](const PyNode& n) { return n.node->id(); })
      .def_prop_ro("abstract", [](const PyNode& n) {
        return n.node->abstract() ? n.node->abstract()->to_string() : std::string("<?>");
      })
      .def("is_constant", [](const PyNode& n) { return n.node->kind() == NodeKind::Value; })
      .def_prop_ro("n_users", [](const PyNode& n) { return n.node->users().size(); },
                   "How many node inputs read this node so far.")
      .def("constant_value", [](const PyNode& n) -> nb::object {
        if (n.node->kind() != NodeKind::Value) return nb::none();
        const Tensor* t = static_cast<const ValueNode*>(n.node)->value().as<Tensor>();
        return t ? wrap(*t) : nb::none();
      })
      .def("in_graph", [](const PyNode& n, const PyGraph& g) { return n.node->graph() == g.graph; })
      .def("set_tensor_abstract", [](PyNode& n, DType dtype, std::vector<int64_t> shape) {
        n.node->set_abstract(tensor_abstract(dtype, Shape(shape.begin(), shape.end())));
      })
      .def("set_tuple_abstract", [](PyNode& n, std::vector<PyNode*> items) {
        std::vector<AbstractPtr> elements;
        for (PyNode* x : items) elements.push_back(x->node->abstract());
        n.node->set_abstract(tuple_abstract(std::move(elements)));
      }, "The abstract of a tuple whose items look like `items`.")
      .def("set_tuple_specs", [](PyNode& n, std::vector<std::pair<DType, std::vector<int64_t>>> specs) {
        std::vector<AbstractPtr> elements;
        for (auto& [d, shape] : specs) elements.push_back(tensor_abstract(d, Shape(shape.begin(), shape.end())));
        n.node->set_abstract(tuple_abstract(std::move(elements)));
      })
      .def("copy_abstract", [](PyNode& n, const PyNode& from) { n.node->set_abstract(from.node->abstract()); });

  nb::class_<PyGraph>(m, "Graph")
      .def_prop_ro("name", [](const PyGraph& g) { return g.graph->name(); })
      .def("add_parameter", [](PyGraph& g, const std::string& name) {
        return PyNode{g.module, g.graph->add_parameter(name)};
      })
      .def("n_parameters", [](const PyGraph& g) { return g.graph->parameters().size(); })
      .def("constant", [](PyGraph& g, nb::handle value) {
        if (value.is_none()) {
          ValueNode* v = g.graph->add_value(IrValue{NoneValue{}});
          v->set_abstract(none_abstract());
          return PyNode{g.module, v};
        }
        return PyNode{g.module, compiler::constant_tensor(*g.graph, to_tensor(value))};
      }, "A constant node: None, or a Tensor (anything else is converted to one).")
      .def("graph_value", [](PyGraph& g, const PyGraph& callee) {
        ValueNode* v = g.graph->add_value(IrValue{callee.graph});
        v->set_abstract(function_abstract({callee.graph}, {}));
        return PyNode{g.module, v};
      })
      .def("call", [](PyGraph& g, const PyNode& callee, std::vector<PyNode*> args, const std::string& file, int line) {
        std::vector<AnfNode*> inputs{check_visible(*g.graph, callee.node)};
        for (PyNode* a : args) inputs.push_back(check_visible(*g.graph, a->node));
        return PyNode{g.module, g.graph->add_cnode(std::move(inputs), debug_info(file, line))};
      }, nb::arg("callee"), nb::arg("args"), nb::arg("file") = "", nb::arg("line") = 0)
      .def("special", [](PyGraph& g, const std::string& op, std::vector<PyNode*> args, const std::string& file,
                         int line) {
        static const std::pair<const char*, SpecialOp> kOps[] = {
            {"Switch", SpecialOp::Switch}, {"Partial", SpecialOp::Partial}, {"MakeTuple", SpecialOp::MakeTuple},
            {"Depend", SpecialOp::Depend}};
        std::vector<AnfNode*> inputs;
        for (PyNode* a : args) inputs.push_back(check_visible(*g.graph, a->node));
        for (auto [name, code] : kOps) {
          if (op != name) continue;
          if (code == SpecialOp::MakeTuple)
            return PyNode{g.module, compiler::emit_make_tuple(*g.graph, std::move(inputs), debug_info(file, line))};
          CNode* c = compiler::emit_special(*g.graph, code, std::move(inputs), debug_info(file, line));
          if (code == SpecialOp::Depend) c->set_abstract(c->input(1)->abstract());
          return PyNode{g.module, c};
        }
        throw ValueError("ir.Graph.special: unknown op " + op);
      }, nb::arg("op"), nb::arg("args"), nb::arg("file") = "", nb::arg("line") = 0)
      .def("tuple_getitem", [](PyGraph& g, const PyNode& t, int64_t index) {
        return PyNode{g.module, compiler::emit_tuple_getitem(*g.graph, check_visible(*g.graph, t.node), index)};
      })
      .def("set_output", [](PyGraph& g, const PyNode& value) {
        g.graph->set_output(check_visible(*g.graph, value.node));
      })
      .def("load", [](PyGraph& g, const PyNode& parameter) {
        return PyNode{g.module, load(*g.graph, parameter.node)};
      }, "Reads a Parameter's node here, after the graph's effects so far (Note [Side effects in graph mode]).")
      .def("barrier", [](PyGraph& g, const PyNode& value) {
        return PyNode{g.module, barrier(*g.graph, value.node)};
      }, "`value`, available only once the graph's effects so far have run.")
      .def("mark_effect", [](PyGraph& g, const PyNode& node) {
        GraphEffects& e = trace().effects[g.graph];
        e.last = node.node;
        e.reads.clear();
      }, "Later effects and Parameter reads of this graph are ordered after `node` (a call that may have effects).")
      .def("emit_j", [](PyGraph& g, const PyGraph& target, std::vector<PyNode*> args, bool ordered) {
        // (out, bprop) = J(target)(args...): the output leaves and the bprop closure (Note [J transform]).
        FuncGraph& fg = *g.graph;
        CNode* jf = compiler::emit_special(fg, SpecialOp::J, {fg.add_value(IrValue{target.graph})});
        jf->set_abstract(function_abstract({}, {}));
        std::vector<AnfNode*> inputs{jf};
        for (PyNode* a : args) inputs.push_back(check_visible(fg, a->node));
        CNode* t = fg.add_cnode(std::move(inputs), trace().where);
        AbstractPtr out_abs = target.graph->output()->abstract();
        t->set_abstract(tuple_abstract({out_abs, function_abstract({}, {})}));
        if (ordered) {  // the target has effects of its own: later ones wait for it
          GraphEffects& e = trace().effects[&fg];
          e.last = t;
          e.reads.clear();
        }
        AnfNode* out = compiler::emit_tuple_getitem(fg, t, 0);
        const AbstractSequence* seq = out_abs->as<AbstractSequence>();
        SPROUT_ASSERT(seq, "emit_j: the target must return a tuple of leaves");
        std::vector<PyNode> leaves;
        for (size_t i = 0; i < seq->elements.size(); ++i)
          leaves.push_back(PyNode{g.module, compiler::emit_tuple_getitem(fg, out, static_cast<int64_t>(i))});
        return std::make_pair(leaves, PyNode{g.module, compiler::emit_tuple_getitem(fg, t, 1)});
      }, nb::arg("target"), nb::arg("args"), nb::arg("ordered") = false,
         "Emits J(target)(args): (output leaves, bprop closure). `ordered`: the target has side effects.")
      .def("emit_bprop", [](PyGraph& g, const PyGraph& target, const PyNode& bprop, std::vector<PyNode*> sens) {
        // grads = bprop(sens leaves...): one gradient per parameter of `target`.
        FuncGraph& fg = *g.graph;
        std::vector<AnfNode*> d;
        for (PyNode* s : sens) d.push_back(check_visible(fg, s->node));
        CNode* grads = fg.add_cnode({check_visible(fg, bprop.node), compiler::emit_make_tuple(fg, d)}, trace().where);
        std::vector<AbstractPtr> param_abs;
        for (ParameterNode* p : target.graph->parameters()) param_abs.push_back(p->abstract());
        grads->set_abstract(tuple_abstract(param_abs));
        std::vector<PyNode> out;
        for (size_t i = 0; i < param_abs.size(); ++i)
          out.push_back(PyNode{g.module, compiler::emit_tuple_getitem(fg, grads, static_cast<int64_t>(i))});
        return out;
      }, "Emits bprop(sens): one gradient per parameter of the target J was applied to.")
      .def("set_recompute", [](PyGraph& g, bool on) { g.graph->set_recompute(on); })
      .def("attach_custom_bprop", [](PyGraph& g, const PyGraph& bprop, std::vector<PyNode*> bound) {
        // The output becomes Depend(result, Partial(bprop, inputs..., out...)): the closure lives with
        // the forward values it uses and takes the output's sensitivity.
        std::vector<AnfNode*> args{g.graph->add_value(IrValue{bprop.graph})};
        for (PyNode* b : bound) args.push_back(b->node);
        CNode* partial = compiler::emit_special(*g.graph, SpecialOp::Partial, std::move(args));
        partial->set_abstract(function_abstract({bprop.graph}, {}));
        AnfNode* result = g.graph->output();
        CNode* d = compiler::emit_special(*g.graph, SpecialOp::Depend, {result, partial});
        d->set_abstract(result->abstract());
        g.graph->set_output(d);
        g.graph->set_custom_bprop(true);
      })
      .def("has_output", [](const PyGraph& g) { return g.graph->return_node() != nullptr; })
      .def("print_ir", [](const PyGraph& g) { return print_ir(*g.graph); })
      .def("print_dot", [](const PyGraph& g) { return print_dot(*g.graph); })
      .def("verify", [](const PyGraph& g) { verify(*g.graph); });

  nb::class_<PyModule>(m, "Module")
      .def("__init__", [](PyModule* self) { new (self) PyModule{std::make_shared<Module>()}; })
      .def("new_graph", [](PyModule& self, const std::string& name, const PyGraph* parent) {
        return PyGraph{self.module, self.module->new_graph(name, parent ? parent->graph : nullptr)};
      }, nb::arg("name"), nb::arg("parent").none() = nb::none());

  nb::class_<PyProgram>(m, "Program")
      .def("run", [](const PyProgram& p, nb::list args) {
        std::vector<vm::VmValue> values;
        for (nb::handle a : args) values.push_back(to_vm(a));
        vm::VmValue out;
        {
          nb::gil_scoped_release release;
          out = p.program->run(std::move(values));
        }
        return from_vm(out);
      })
      .def_prop_ro("passes", [](const PyProgram& p) {
        nb::list out;
        for (const auto& r : p.passes) out.append(nb::make_tuple(r.name, r.ms, r.changes));
        return out;
      }, "[(pass name, milliseconds, number of changes)] in pipeline order.")
      .def_prop_ro("planned_peak_bytes", [](const PyProgram& p) { return p.program->planned_peak_bytes(); })
      .def("describe", [](const PyProgram& p) { return p.program->describe(); });

  m.def("compile", [](const PyGraph& entry, const std::string& dump_dir, const std::string& dump_prefix, bool verify) {
    compiler::CompileOptions options{dump_dir, dump_prefix, verify};
    compiler::Compiled c = compiler::compile_graph(*entry.graph, options);
    return PyProgram{std::shared_ptr<vm::Program>(std::move(c.program)), std::move(c.passes)};
  }, nb::arg("entry"), nb::arg("dump_dir") = "", nb::arg("dump_prefix") = "", nb::arg("verify") = false,
     "Runs the pass pipeline on the graph (in place) and lowers it to a Program.");

  m.def("begin_trace", [](nb::object graph_tensor_type, nb::object parameter_type, nb::object load_parameter) {
    TraceState& t = trace();
    t.graph_tensor_type = std::move(graph_tensor_type);
    t.parameter_type = std::move(parameter_type);
    t.load_parameter = std::move(load_parameter);
  }, "Starts a compilation: primitives called on graph tensors (or Parameters) emit nodes.");
  m.def("set_graph", [](std::optional<PyGraph> g) { trace().graph = std::move(g); },
        "The graph primitives emit into; None pauses tracing.");
  m.def("end_trace", [] {
    TraceState& t = trace();
    t.graph.reset();
    t.graph_tensor_type = t.parameter_type = t.load_parameter = nb::object();
    t.effects.clear();
    t.parameter_loads.clear();
    t.effect_count = 0;
  });
  m.def("effect_count", [] { return trace().effect_count; });
  m.def("current_graph", []() -> std::optional<PyGraph> { return trace().graph; });
  m.def("set_location", [](const std::string& file, int line) { trace().where = DebugInfo{file, line}; });
}

}  // namespace sprout::py
