// Reading a MindIR file into a graph. The file's nodes come in an order where each follows its
// inputs, so one pass rebuilds the graph: every name of the file stands for a node of the new graph,
// a constant, a tuple of those, or a monad (MindSpore's tokens ordering side effects: Load of a
// weight is the weight itself, UpdateState and Depend only order, which a model without side effects
// does not need). Registry ops are emitted through graph_emit, so every node gets its abstract from
// the op's own infer function, and a file whose shapes do not fit fails here, not when run.
#include <fstream>
#include <iterator>
#include <unordered_map>

#include "base/error.h"
#include "compiler/graph_emit.h"
#include "io/mindir.h"
#include "io/mindir_values.h"

namespace sprout::mindir {
namespace {

using ir::AnfNode;
using Attr = mind_ir::AttributeProto;

// What a name of the file stands for.
struct Ref {
  enum class Kind : uint8_t { Node, Tuple, Constant, Tensor, Monad };
  Kind kind = Kind::Monad;
  AnfNode* node = nullptr;
  std::vector<Ref> items;
  mindir::Constant value;
  Tensor tensor;
};

Ref node_ref(AnfNode* n) { return Ref{Ref::Kind::Node, n, {}, std::nullopt, {}}; }
Ref tuple_ref(std::vector<Ref> items) { return Ref{Ref::Kind::Tuple, nullptr, std::move(items), std::nullopt, {}}; }
Ref constant_ref(mindir::Constant value) { return Ref{Ref::Kind::Constant, nullptr, {}, std::move(value), {}}; }
Ref tensor_ref(Tensor t) { return Ref{Ref::Kind::Tensor, nullptr, {}, std::nullopt, std::move(t)}; }

bool readable(Attr::AttributeType t) {
  switch (t) {
    case Attr::BOOL: case Attr::FLOAT: case Attr::DOUBLE: case Attr::STRING: case Attr::NONE: case Attr::INT8:
    case Attr::INT16: case Attr::INT32: case Attr::INT64: case Attr::UINT8: case Attr::UINT16: case Attr::UINT32:
    case Attr::UINT64:
      return true;
    default:
      return false;
  }
}
bool readable_tuple(const Attr& a) {
  if (a.type() != Attr::TUPLE && a.type() != Attr::LIST) return false;
  for (const Attr& item : a.values())
    if (!readable_tuple(item) && (!readable(item.type()) || item.type() == Attr::STRING || item.type() == Attr::NONE))
      return false;  // numbers, or tuples of them (Pad's paddings)
  return true;
}

class Reader {
 public:
  Reader(const mind_ir::ModelProto& model, std::string path) : model_(model), path_(std::move(path)) {
    for (const mind_ir::PrimitiveProto& p : model.primitives()) prims_[p.name()] = &p;
  }

  Model read() {
    const mind_ir::GraphProto& graph = model_.graph();
    SPROUT_CHECK(model_.functions_size() == 0, RuntimeError, "load MindIR: '", path_, "' holds ",
                 model_.functions_size(), " functions besides its graph (control flow or calls that were not "
                 "inlined); Sprout loads single-graph models");
    Model out;
    out.module = std::make_shared<ir::Module>();
    g_ = out.module->new_graph(graph.name().empty() ? "mindir" : graph.name());
    out.graph = g_;
    for (const mind_ir::ValueInfoProto& input : graph.input()) {
      SPROUT_CHECK(input.tensor_size() == 1, RuntimeError, "load MindIR: input '", input.name(), "' of '", path_,
                   "' is not a tensor");
      TensorSpec s = spec_of(input.tensor(0), "input '" + input.name() + "'");
      ir::ParameterNode* p = g_->add_parameter(short_name(input.name()));
      p->set_abstract(ir::tensor_abstract(s.dtype, s.shape));
      refs_[input.name()] = node_ref(p);
      out.input_names.push_back(short_name(input.name()));
      out.input_specs.push_back(s);
    }
    for (const mind_ir::TensorProto& weight : graph.parameter()) {
      Tensor value = read_tensor(weight, "weight '" + weight.name() + "' of '" + path_ + "'");
      ir::ParameterNode* p = g_->add_parameter(short_name(weight.name()));
      p->set_abstract(ir::tensor_abstract(value.dtype(), value.shape()));
      refs_[weight.name()] = node_ref(p);
      out.weights.push_back({short_name(weight.name()), value});
    }
    for (const mind_ir::NodeProto& node : graph.node()) read_node(node);

    SPROUT_CHECK(graph.output_size() == 1, RuntimeError, "load MindIR: '", path_, "' has ", graph.output_size(),
                 " outputs; expected one (a tensor or a tuple)");
    const Ref& result = ref(graph.output(0).name(), "the graph's output");
    std::vector<AnfNode*> outputs;
    out.single_output = result.kind != Ref::Kind::Tuple;
    for (const Ref& item : out.single_output ? std::vector<Ref>{result} : result.items)
      outputs.push_back(tensor_node(item, "the graph's output"));
    g_->set_output(compiler::emit_make_tuple(*g_, outputs));
    return out;
  }

 private:
  // "graph:conv1.weight" -> "conv1.weight": names in the file carry their graph's name.
  std::string short_name(const std::string& name) const {
    const std::string prefix = model_.graph().name() + ":";
    return name.compare(0, prefix.size(), prefix) == 0 ? name.substr(prefix.size()) : name;
  }

  TensorSpec spec_of(const mind_ir::TensorProto& t, const std::string& what) const {
    TensorSpec s;
    s.dtype = dtype_of_data_type(t.data_type(), what + " of '" + path_ + "'");
    for (int64_t d : t.dims()) {
      SPROUT_CHECK(d >= 0, RuntimeError, "load MindIR: ", what, " of '", path_, "' has a dimension of unknown size; ",
                   "Sprout loads models of fixed shapes");
      s.shape.push_back(d);
    }
    return s;
  }

  const Ref& ref(const std::string& name, const std::string& user) const {
    auto it = refs_.find(name);
    SPROUT_CHECK(it != refs_.end(), RuntimeError, "load MindIR: ", user, " in '", path_, "' uses '", name,
                 "', which no earlier node or input defines");
    return it->second;
  }

  AnfNode* tensor_node(const Ref& r, const std::string& user) {
    if (r.kind == Ref::Kind::Node) return r.node;
    if (r.kind == Ref::Kind::Tensor) return compiler::constant_tensor(*g_, r.tensor);
    throw RuntimeError(str("load MindIR: ", user, " in '", path_, "' takes a ",
                           r.kind == Ref::Kind::Tuple ? "tuple" : "constant", " where a tensor is expected"));
  }

  Ref outputs_ref(const std::vector<AnfNode*>& outs, bool tuple) {
    if (!tuple && outs.size() == 1) return node_ref(outs[0]);
    std::vector<Ref> items;
    for (AnfNode* n : outs) items.push_back(node_ref(n));
    return tuple_ref(std::move(items));
  }

  Ref emit(const Primitive& prim, std::vector<AnfNode*> inputs) {
    return outputs_ref(compiler::emit_primitive(*g_, prim, inputs), prim.def().tuple_output);
  }

  void read_node(const mind_ir::NodeProto& node) {
    SPROUT_CHECK(node.output_size() == 1, RuntimeError, "load MindIR: node '", node.name(), "' of '", path_, "' has ",
                 node.output_size(), " outputs; expected one");
    const std::string& out = node.output(0);
    if (node.op_type() == "Constant") {
      refs_[out] = constant(node);
      return;
    }
    std::string type = node.op_type();
    bool function = false;
    std::vector<NamedConstant> attributes;
    if (type.compare(0, 5, "REF::") == 0) {
      auto it = prims_.find(type.substr(5));
      SPROUT_CHECK(it != prims_.end(), RuntimeError, "load MindIR: node '", node.name(), "' of '", path_,
                   "' refers to primitive '", type.substr(5), "', which the file does not define");
      const mind_ir::PrimitiveProto& prim = *it->second;
      type = prim.op_type();
      function = prim.prim_type() == mind_ir::PrimitiveProto::PRIMITIVE_FUNCTION;
      for (const Attr& a : prim.attribute())
        if (readable(a.type()) || readable_tuple(a)) attributes.push_back({a.name(), read_constant(a, a.name())});
    }
    std::vector<const Ref*> in;
    for (const std::string& name : node.input()) in.push_back(&ref(name, type + " node '" + node.name() + "'"));
    refs_[out] = call(type, function, attributes, in, node.name());
  }

  Ref constant(const mind_ir::NodeProto& node) {
    SPROUT_CHECK(node.attribute_size() >= 1, RuntimeError, "load MindIR: Constant node '", node.name(), "' of '",
                 path_, "' has no value");
    const Attr& a = node.attribute(0);
    const std::string where = "Constant '" + node.name() + "' of '" + path_ + "'";
    if (a.type() == Attr::UMONAD || a.type() == Attr::IOMONAD) return Ref{};
    if (a.type() == Attr::TENSORS || a.type() == Attr::TENSOR) {
      SPROUT_CHECK(a.type() == Attr::TENSOR || a.tensors_size() == 1, RuntimeError, "load MindIR: ", where, " holds ",
                   a.tensors_size(), " tensors; expected one");
      return tensor_ref(read_tensor(a.type() == Attr::TENSOR ? a.t() : a.tensors(0), where));
    }
    return constant_ref(read_constant(a, where));
  }

  Ref call(const std::string& type, bool function, const std::vector<NamedConstant>& attributes,
           const std::vector<const Ref*>& in, const std::string& node_name) {
    const std::string user = type + " node '" + node_name + "'";
    if (type == "Load" || type == "Depend") {  // a weight's value / a value ordered after others
      SPROUT_CHECK(!in.empty(), RuntimeError, "load MindIR: ", user, " of '", path_, "' has no inputs");
      return *in[0];
    }
    if (type == "UpdateState") return Ref{};
    if (type == "MakeTuple" || type == "make_list") {  // a list is a tuple here (MindSpore's GRU stacks one)
      std::vector<Ref> items;
      for (const Ref* item : in) items.push_back(*item);
      return tuple_ref(std::move(items));
    }
    if (type == "TupleGetItem") {
      SPROUT_CHECK(in.size() == 2 && in[0]->kind == Ref::Kind::Tuple && in[1]->kind == Ref::Kind::Constant &&
                       in[1]->value && std::holds_alternative<int64_t>(*in[1]->value),
                   RuntimeError, "load MindIR: ", user, " of '", path_, "' does not take a tuple and a constant index");
      const int64_t i = std::get<int64_t>(*in[1]->value);
      SPROUT_CHECK(i >= 0 && i < static_cast<int64_t>(in[0]->items.size()), RuntimeError, "load MindIR: ", user,
                   " of '", path_, "' takes item ", i, " of a tuple of ", in[0]->items.size());
      return in[0]->items[static_cast<size_t>(i)];
    }
    if (type == "BiasAdd") return bias_add(in, user);
    if (type == "SumExt" || type == "MeanExt") return reduce_ext(type == "SumExt" ? "ReduceSum" : "ReduceMean", in, user);
    if (type == "MatMulExt") {  // NumPy's matmul of two matrices or batches of them
      SPROUT_CHECK(in.size() == 2, RuntimeError, "load MindIR: ", user, " of '", path_, "' takes ", in.size(),
                   " inputs; expected 2");
      AnfNode* a = tensor_node(*in[0], user);
      AnfNode* b = tensor_node(*in[1], user);
      const bool matrices = compiler::node_spec(a).shape.size() == 2 && compiler::node_spec(b).shape.size() == 2;
      return emit(Primitive::make(matrices ? "MatMul" : "BatchMatMul"), {a, b});
    }
    if (type == "ClampScalar") return clamp_scalar(in, user);
    if (type == "LSTM") return lstm(in, attributes, user);
    if (type == "MaxPool3DWithArgmax") return max_pool_with_argmax(in, attributes, user);
    // The op's arguments are its inputs after the tensors (constants, by position).
    std::vector<NamedConstant> inputs;
    for (const Ref* r : in) inputs.push_back({"", r->kind == Ref::Kind::Constant ? r->value : std::nullopt});
    const SproutCall sc = from_mindspore(type, function, inputs, attributes, in.size());
    std::vector<AnfNode*> tensors;
    for (size_t k = 0; k < sc.n_tensor_inputs; ++k) {
      const size_t i = sc.tensor_positions.empty() ? k : sc.tensor_positions[k];
      if (sc.prim.def().variadic) {
        SPROUT_CHECK(in[i]->kind == Ref::Kind::Tuple, RuntimeError, "load MindIR: ", user, " of '", path_,
                     "' takes its tensors as a tuple");
        for (const Ref& item : in[i]->items) tensors.push_back(tensor_node(item, user));
      } else if (in[i]->kind == Ref::Kind::Constant) {
        tensors.push_back(scalar_node(*in[i], in, user));  // Muls(x, 2.0), Lerp(a, b, 0.25)
      } else {
        tensors.push_back(tensor_node(*in[i], user));
      }
    }
    return emit(sc.prim, tensors);
  }

  // A number where MindSpore's op takes a tensor: a 0-d tensor of the dtype of the op's first tensor input,
  // as MindSpore converts it (else the number's own).
  AnfNode* scalar_node(const Ref& r, const std::vector<const Ref*>& in, const std::string& user) {
    const AttrValue* v = r.value ? &*r.value : nullptr;
    const double* d = v ? std::get_if<double>(v) : nullptr;
    const int64_t* i = v ? std::get_if<int64_t>(v) : nullptr;
    const bool* b = v ? std::get_if<bool>(v) : nullptr;
    SPROUT_CHECK(d || i || b, RuntimeError, "load MindIR: ", user, " of '", path_, "' takes a ",
                 v ? attr_value_str(*v) : std::string("None"), " where a tensor or a number is expected");
    DType dtype = d ? DType::Float32 : i ? DType::Int64 : DType::Bool;
    for (const Ref* other : in)
      if (other->kind == Ref::Kind::Node || other->kind == Ref::Kind::Tensor) {
        dtype = compiler::node_spec(tensor_node(*other, user)).dtype;
        break;
      }
    const double value = d ? *d : i ? static_cast<double>(*i) : (*b ? 1.0 : 0.0);
    return compiler::constant_tensor(*g_, Tensor::scalar(value, dtype));
  }

  // ClampScalar(x, min, max): Maximum with min and Minimum with max, for the bounds that are not None.
  Ref clamp_scalar(const std::vector<const Ref*>& in, const std::string& user) {
    SPROUT_CHECK(in.size() == 3, RuntimeError, "load MindIR: ", user, " of '", path_, "' takes ", in.size(),
                 " inputs; expected x, min and max");
    AnfNode* x = tensor_node(*in[0], user);
    const char* ops[2] = {"Maximum", "Minimum"};
    for (size_t k = 0; k < 2; ++k) {
      const Ref& bound = *in[k + 1];
      if (bound.kind == Ref::Kind::Constant && !bound.value) continue;  // None: no bound on this side
      AnfNode* b = bound.kind == Ref::Kind::Constant ? scalar_node(bound, in, user) : tensor_node(bound, user);
      x = compiler::emit_primitive(*g_, Primitive::make(ops[k]), std::vector<AnfNode*>{x, b})[0];
    }
    return node_ref(x);
  }

  // MindSpore's LSTM primitive, one layer in one direction as its nn.LSTM calls it on CPU: (x (T, B, I), h0 and
  // c0 (1, B, H), w) -> (y, h_n, c_n, reserve, state), w being w_ih (4H, I), w_hh (4H, H) and, with has_bias,
  // b_ih + b_hh (4H) flattened one after the other. Read as Sprout's own layer computes it: the input
  // projection of every step in one MatMul, then LSTMRecurrence. reserve and state are the kernel's
  // workspace, which no inference graph reads: they stand for y.
  Ref lstm(const std::vector<const Ref*>& in, const std::vector<NamedConstant>& attrs, const std::string& user) {
    auto number = [&](const char* name) -> int64_t {
      for (const NamedConstant& a : attrs)
        if (a.name == name && a.value) {
          if (const auto* i = std::get_if<int64_t>(&*a.value)) return *i;
          if (const auto* b = std::get_if<bool>(&*a.value)) return *b;
          if (const auto* d = std::get_if<double>(&*a.value)) return static_cast<int64_t>(*d);
        }
      throw RuntimeError(str("load MindIR: ", user, " of '", path_, "' has no attribute '", name, "'"));
    };
    SPROUT_CHECK(in.size() == 4, RuntimeError, "load MindIR: ", user, " of '", path_, "' takes ", in.size(),
                 " inputs; expected x, h0, c0 and the weights");
    SPROUT_CHECK(number("num_layers") == 1 && number("bidirectional") == 0, RuntimeError, "load MindIR: ", user,
                 " of '", path_, "' is a multi-layer or bidirectional LSTM primitive; Sprout reads one layer in one "
                 "direction (what MindSpore's nn.LSTM writes)");
    for (const NamedConstant& a : attrs)
      SPROUT_CHECK(a.name != "proj_size" || !a.value || *a.value == AttrValue(int64_t{0}), RuntimeError,
                   "load MindIR: ", user, " of '", path_, "' projects its hidden state (proj_size); Sprout does not");
    const int64_t input_size = number("input_size"), hidden = number("hidden_size");
    AnfNode* x = tensor_node(*in[0], user);
    const Shape xs = compiler::node_spec(x).shape;
    SPROUT_CHECK(xs.size() == 3 && xs[2] == input_size, RuntimeError, "load MindIR: ", user, " of '", path_,
                 "' takes x of shape (T, B, ", input_size, "), but its x has shape ", shape_str(xs));
    auto node = [&](const Primitive& p, std::vector<AnfNode*> inputs) {
      return compiler::emit_primitive(*g_, p, inputs);
    };
    auto reshape = [&](AnfNode* t, std::vector<int64_t> shape) {
      return node(Primitive::make("Reshape").with_attr("shape", AttrValue(std::move(shape))), {t})[0];
    };
    auto slice = [&](AnfNode* t, int64_t begin, int64_t size) {
      return node(Primitive::make("Slice").with_attr("begin", AttrValue(std::vector<int64_t>{begin}))
                      .with_attr("size", AttrValue(std::vector<int64_t>{size})), {t})[0];
    };
    const int64_t g = 4 * hidden;
    AnfNode* w = reshape(tensor_node(*in[3], user), {-1});
    AnfNode* w_ih = reshape(slice(w, 0, g * input_size), {g, input_size});
    AnfNode* w_hh = reshape(slice(w, g * input_size, g * hidden), {g, hidden});
    Primitive matmul = Primitive::make("MatMul").with_attr("transpose_a", AttrValue(false))
                           .with_attr("transpose_b", AttrValue(true));
    AnfNode* gates = node(matmul, {reshape(x, {xs[0] * xs[1], input_size}), w_ih})[0];
    if (number("has_bias")) gates = node(Primitive::make("Add"), {gates, slice(w, g * (input_size + hidden), g)})[0];
    gates = reshape(gates, {xs[0], xs[1], g});
    AnfNode* h0 = reshape(tensor_node(*in[1], user), {xs[1], hidden});
    AnfNode* c0 = reshape(tensor_node(*in[2], user), {xs[1], hidden});
    std::vector<AnfNode*> rec = node(Primitive::make("LSTMRecurrence").with_attr("reverse", AttrValue(false)),
                                     {gates, h0, c0, w_hh});
    auto last = [&](AnfNode* seq) {  // step T - 1 as (1, B, H)
      return node(Primitive::make("Slice").with_attr("begin", AttrValue(std::vector<int64_t>{xs[0] - 1, 0, 0}))
                      .with_attr("size", AttrValue(std::vector<int64_t>{1, xs[1], hidden})), {seq})[0];
    };
    return tuple_ref({node_ref(rec[0]), node_ref(last(rec[0])), node_ref(last(rec[1])), node_ref(rec[0]),
                      node_ref(rec[0])});
  }

  // MindSpore's nn.MaxPool2d with pad_mode "pad" (and ops.max_pool2d) writes MaxPool3DWithArgmax of x with a
  // depth axis of 1 (ExpandDims before it, Squeeze after): (x (N, C, D, H, W)) -> (output, argmax), the
  // padding `pads` on both sides of each axis, the argmax flat in each D x H x W volume. With a depth window,
  // stride and padding of 1, 1 and 0 (the depth dilation then does nothing) it is MaxPoolWithArgmaxV2 over
  // (N, C * D, H, W) planes, whose argmax is the volume's when D is 1 (Note [Max pooling with argmax]).
  Ref max_pool_with_argmax(const std::vector<const Ref*>& in, const std::vector<NamedConstant>& attrs,
                           const std::string& user) {
    auto attr = [&](const char* name) -> const AttrValue* {
      for (const NamedConstant& a : attrs)
        if (a.name == name && a.value) return &*a.value;
      return nullptr;
    };
    auto triple = [&](const char* name) {
      const AttrValue* a = attr(name);
      if (const auto* v = a ? std::get_if<std::vector<int64_t>>(a) : nullptr; v && v->size() == 3) return *v;
      throw RuntimeError(str("load MindIR: ", user, " of '", path_, "' has no attribute '", name, "' of 3 ints"));
    };
    const AttrValue* ceil_mode = attr("ceil_mode");
    const AttrValue* argmax_type = attr("argmax_type");
    const bool int32 = argmax_type && std::holds_alternative<std::string>(*argmax_type) &&
                       std::get<std::string>(*argmax_type) == "int32";
    const std::vector<int64_t> k = triple("ksize"), s = triple("strides"), p = triple("pads"), dil = triple("dilation");
    SPROUT_CHECK(in.size() == 1 && k[0] == 1 && s[0] == 1 && p[0] == 0, RuntimeError, "load MindIR: ", user, " of '",
                 path_, "' pools over depth; Sprout reads MaxPool3DWithArgmax as 2-d pooling (depth window 1), what "
                 "MindSpore's nn.MaxPool2d writes");
    AnfNode* x = tensor_node(*in[0], user);
    const Shape xs = compiler::node_spec(x).shape;
    SPROUT_CHECK(xs.size() == 5 && xs[2] == 1, RuntimeError, "load MindIR: ", user, " of '", path_,
                 "' takes a 5-d x (N, C, 1, H, W), but its x has shape ", shape_str(xs));
    auto emit = [&](const Primitive& prim, AnfNode* t) {
      return compiler::emit_primitive(*g_, prim, std::vector<AnfNode*>{t});
    };
    auto reshape = [&](std::vector<int64_t> shape) {
      return Primitive::make("Reshape").with_attr("shape", AttrValue(std::move(shape)));
    };
    const Primitive pool = Primitive::make("MaxPoolWithArgmaxV2")
                               .with_attr("kernel_size", AttrValue(std::vector<int64_t>{k[1], k[2]}))
                               .with_attr("strides", AttrValue(std::vector<int64_t>{s[1], s[2]}))
                               .with_attr("pads", AttrValue(std::vector<int64_t>{p[1], p[2]}))
                               .with_attr("dilation", AttrValue(std::vector<int64_t>{dil[1], dil[2]}))
                               .with_attr("ceil_mode", ceil_mode ? *ceil_mode : AttrValue(false))
                               .with_attr("argmax_type", AttrValue(int32 ? DType::Int32 : DType::Int64));
    const std::vector<AnfNode*> pooled = emit(pool, emit(reshape({xs[0], xs[1], xs[3], xs[4]}), x)[0]);
    const Shape ys = compiler::node_spec(pooled[0]).shape;
    const std::vector<int64_t> volume{ys[0], ys[1], 1, ys[2], ys[3]};
    return tuple_ref({node_ref(emit(reshape(volume), pooled[0])[0]), node_ref(emit(reshape(volume), pooled[1])[0])});
  }

  // BiasAdd(x, bias, data_format): bias along the channel axis, 1 for NCHW (axis -1 for NHWC and 2-d x).
  Ref bias_add(const std::vector<const Ref*>& in, const std::string& user) {
    SPROUT_CHECK(in.size() >= 2, RuntimeError, "load MindIR: ", user, " of '", path_, "' takes ", in.size(),
                 " inputs; expected x, bias and a data format");
    AnfNode* x = tensor_node(*in[0], user);
    AnfNode* bias = tensor_node(*in[1], user);
    const bool nhwc = in.size() > 2 && in[2]->kind == Ref::Kind::Constant && in[2]->value &&
                      std::holds_alternative<int64_t>(*in[2]->value) && std::get<int64_t>(*in[2]->value) == 1;
    const size_t rank = compiler::node_spec(x).shape.size();
    if (!nhwc && rank > 2) {
      std::vector<int64_t> shape(rank - 1, 1);
      shape[0] = -1;
      bias = compiler::emit_primitive(*g_, Primitive::make("Reshape").with_attr("shape", AttrValue(shape)),
                                      std::vector<AnfNode*>{bias})[0];
    }
    return emit(Primitive::make("Add"), {x, bias});
  }

  // SumExt / MeanExt(x, dim, keepdim, dtype): ReduceSum / ReduceMean over `dim` (all axes when None),
  // then a Cast when a dtype is given.
  Ref reduce_ext(const char* op, const std::vector<const Ref*>& in, const std::string& user) {
    auto constant_at = [&](size_t i) -> const mindir::Constant& {
      SPROUT_CHECK(i < in.size() && in[i]->kind == Ref::Kind::Constant, RuntimeError, "load MindIR: ", user, " of '",
                   path_, "' takes x, dim, keepdim and dtype; argument ", i, " is not a constant");
      return in[i]->value;
    };
    const mindir::Constant& dim = constant_at(1);
    const mindir::Constant& keepdim = constant_at(2);
    const mindir::Constant& dtype = constant_at(3);
    Primitive reduce = Primitive::make(op);
    if (dim) reduce = reduce.with_attr("axis", *dim);
    if (keepdim) reduce = reduce.with_attr("keep_dims", *keepdim);
    AnfNode* out = compiler::emit_primitive(*g_, reduce, std::vector<AnfNode*>{tensor_node(*in[0], user)})[0];
    if (!dtype) return node_ref(out);
    SPROUT_CHECK(std::holds_alternative<int64_t>(*dtype), RuntimeError, "load MindIR: ", user, " of '", path_,
                 "' has dtype ", attr_value_str(*dtype), "; expected a TypeId");
    const Primitive cast = Primitive::make("Cast").with_attr("dst_type", AttrValue(dtype_of_type_id(std::get<int64_t>(*dtype))));
    return emit(cast, {out});
  }

  const mind_ir::ModelProto& model_;
  std::string path_;
  ir::FuncGraph* g_ = nullptr;
  std::unordered_map<std::string, const mind_ir::PrimitiveProto*> prims_;
  std::unordered_map<std::string, Ref> refs_;
};

}  // namespace

Model import_mindir(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  SPROUT_CHECK(in, RuntimeError, "load MindIR: '", path, "' does not exist or cannot be read");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  mind_ir::ModelProto model;
  SPROUT_CHECK(!bytes.empty() && model.ParseFromString(bytes) && model.has_graph(), RuntimeError, "load MindIR: '",
               path, "' is not a MindIR file (it does not parse as a model with a graph)");
  return Reader(model, path).read();
}

}  // namespace sprout::mindir
