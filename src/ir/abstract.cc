#include "ir/abstract.h"

#include <sstream>

#include "base/error.h"
#include "ir/func_graph.h"

namespace sprout::ir {
namespace {

std::string scalar_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "Bool";
    case ScalarType::Int: return "Int64";
    case ScalarType::Float: return "Float64";
    case ScalarType::String: return "String";
  }
  return "?";
}

std::string scalar_value_str(const ScalarValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) return x ? "True" : "False";
        else if constexpr (std::is_same_v<T, std::string>) return "\"" + x + "\"";
        else return str(x);
      },
      v);
}

std::string dims_str(const Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + (shape[i] == kUnknownDim ? std::string("-1") : std::to_string(shape[i]));
  return out + (shape.size() == 1 ? ",)" : ")");
}

AbstractPtr make(decltype(Abstract::value) v) { return std::make_shared<const Abstract>(Abstract{std::move(v)}); }

}  // namespace

std::string Abstract::to_string() const {
  if (auto* t = as<AbstractTensor>()) return str("<Tensor[", name(t->dtype), "], ", dims_str(t->shape), ">");
  if (auto* s = as<AbstractScalar>())
    return "<" + scalar_type_name(s->type) + (s->value ? ", " + scalar_value_str(*s->value) : std::string()) + ">";
  if (auto* q = as<AbstractSequence>()) {
    std::string out = q->is_list ? "[" : "(";
    for (size_t i = 0; i < q->elements.size(); ++i) out += (i ? ", " : "") + q->elements[i]->to_string();
    return out + (q->is_list ? "]" : ")");
  }
  if (auto* d = as<AbstractDict>()) {
    std::string out = "{";
    for (size_t i = 0; i < d->keys.size(); ++i) out += (i ? ", " : "") + d->keys[i] + ": " + d->values[i]->to_string();
    return out + "}";
  }
  if (auto* f = as<AbstractFunction>()) {
    std::string out = "<Function ";
    bool first = true;
    for (const FuncGraph* g : f->graphs) out += (first ? "" : " | ") + std::string("@") + g->name(), first = false;
    for (const std::string& p : f->primitives) out += (first ? "" : " | ") + p, first = false;
    return out + ">";
  }
  if (auto* t = as<AbstractType>()) return str("<Type ", name(t->dtype), ">");
  return "<None>";
}

AbstractPtr tensor_abstract(DType dtype, Shape shape) { return make(AbstractTensor{dtype, std::move(shape)}); }
AbstractPtr scalar_abstract(ScalarType type, std::optional<ScalarValue> value) {
  return make(AbstractScalar{type, std::move(value)});
}
AbstractPtr constant_abstract(ScalarValue value) {
  ScalarType t = std::visit(
      [](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) return ScalarType::Bool;
        else if constexpr (std::is_same_v<T, int64_t>) return ScalarType::Int;
        else if constexpr (std::is_same_v<T, double>) return ScalarType::Float;
        else return ScalarType::String;
      },
      value);
  return make(AbstractScalar{t, std::move(value)});
}
AbstractPtr tuple_abstract(std::vector<AbstractPtr> elements, bool is_list) {
  return make(AbstractSequence{is_list, std::move(elements)});
}
AbstractPtr none_abstract() {
  static const AbstractPtr none = make(AbstractNone{});
  return none;
}
AbstractPtr type_abstract(DType dtype) { return make(AbstractType{dtype}); }
AbstractPtr function_abstract(std::vector<const FuncGraph*> graphs, std::vector<std::string> primitives) {
  return make(AbstractFunction{std::move(graphs), std::move(primitives)});
}

bool same_abstract(const Abstract& a, const Abstract& b) { return a.to_string() == b.to_string(); }

AbstractPtr join(const AbstractPtr& a, const AbstractPtr& b, const std::string& where) {
  if (a == b || same_abstract(*a, *b)) return a;
  auto fail = [&]() -> AbstractPtr {
    throw TypeError(str(where, ": the values meeting here have different types: ", a->to_string(), " and ",
                        b->to_string(), "; make both branches produce the same type"));
  };
  if (auto* ta = a->as<AbstractTensor>()) {
    auto* tb = b->as<AbstractTensor>();
    if (!tb || ta->dtype != tb->dtype) return fail();
    if (ta->shape.size() != tb->shape.size()) return fail();
    Shape shape = ta->shape;
    for (size_t i = 0; i < shape.size(); ++i)
      if (shape[i] != tb->shape[i]) shape[i] = kUnknownDim;
    return tensor_abstract(ta->dtype, shape);
  }
  if (auto* sa = a->as<AbstractScalar>()) {
    auto* sb = b->as<AbstractScalar>();
    if (!sb || sa->type != sb->type) return fail();
    return scalar_abstract(sa->type);  // values differ: no longer a known constant
  }
  if (auto* qa = a->as<AbstractSequence>()) {
    auto* qb = b->as<AbstractSequence>();
    if (!qb || qa->is_list != qb->is_list || qa->elements.size() != qb->elements.size()) return fail();
    std::vector<AbstractPtr> elements;
    for (size_t i = 0; i < qa->elements.size(); ++i) elements.push_back(join(qa->elements[i], qb->elements[i], where));
    return tuple_abstract(std::move(elements), qa->is_list);
  }
  if (auto* fa = a->as<AbstractFunction>()) {
    auto* fb = b->as<AbstractFunction>();
    if (!fb) return fail();
    AbstractFunction merged = *fa;
    for (auto* g : fb->graphs)
      if (std::find(merged.graphs.begin(), merged.graphs.end(), g) == merged.graphs.end()) merged.graphs.push_back(g);
    for (auto& p : fb->primitives)
      if (std::find(merged.primitives.begin(), merged.primitives.end(), p) == merged.primitives.end())
        merged.primitives.push_back(p);
    return make(std::move(merged));
  }
  return fail();
}

}  // namespace sprout::ir
