#include <algorithm>

#include "ops/op_def.h"

namespace sprout {

std::string spec_str(const TensorSpec& s) { return str("Tensor[", name(s.dtype), "]", shape_str(s.shape)); }

OpRegistry& OpRegistry::instance() {
  static OpRegistry* registry = new OpRegistry();  // leaked on purpose: outlives static destructors
  return *registry;
}

OpDef& OpRegistry::entry(std::string_view name) {
  if (auto found = by_name_.find(name); found != by_name_.end()) return *found->second;
  auto op = std::make_unique<OpDef>();
  op->name = std::string(name);
  op->attrs = std::make_unique<TypedAttrSchema<NoAttrs>>();
  op->default_attrs = op->attrs->make_default();
  by_name_.emplace(op->name, op.get());  // the record's own string: the key lives as long as it does
  ops_.push_back(std::move(op));
  return *ops_.back();
}

const OpDef* OpRegistry::find(std::string_view name) const {
  auto found = by_name_.find(name);
  return found == by_name_.end() ? nullptr : found->second;
}

const OpDef& OpRegistry::get(std::string_view name) const {
  const OpDef* op = find(name);
  SPROUT_CHECK(op && op->infer, ValueError, "no operator named '", name, "' is registered");
  return *op;
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> out;
  for (auto& op : ops_)
    if (op->infer) out.push_back(op.get());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return out;
}

AttrValue Primitive::attr(std::string_view attr_name) const {
  int i = def_->attrs->index_of(attr_name);
  SPROUT_CHECK(i >= 0, ValueError, def_->name, " has no attribute '", attr_name, "'");
  return def_->attrs->get(attrs_.get(), static_cast<size_t>(i));
}

Primitive Primitive::with_attr(std::string_view attr_name, const AttrValue& value) const {
  int i = def_->attrs->index_of(attr_name);
  SPROUT_CHECK(i >= 0, TypeError, def_->name, ": unexpected attribute '", attr_name, "'");
  std::shared_ptr<void> copy = def_->attrs->clone(attrs_.get());
  def_->attrs->set(def_->name, copy.get(), static_cast<size_t>(i), value);
  return Primitive(*def_, std::move(copy));
}

std::string Primitive::to_string() const { return def_->name + "(" + def_->attrs->to_string(attrs_.get()) + ")"; }

bool Primitive::operator==(const Primitive& other) const {
  return def_ == other.def_ && (attrs_ == other.attrs_ || def_->attrs->equal(attrs_.get(), other.attrs_.get()));
}

Emitter::Value Emitter::emit(const Primitive& prim, std::span<const Value> inputs) {
  std::vector<Value> outs = emit_outputs(prim, inputs);
  SPROUT_ASSERT(outs.size() == 1, prim.name(), " has ", outs.size(), " outputs; use emit_outputs");
  return outs[0];
}

Emitter::Value Emitter::emit(std::string_view op, std::initializer_list<Value> inputs,
                             std::initializer_list<std::pair<std::string_view, AttrValue>> attrs) {
  Primitive prim = Primitive::make(op);
  for (auto& [k, v] : attrs) prim = prim.with_attr(k, v);
  return emit(prim, std::span<const Value>(inputs.begin(), inputs.size()));
}

}  // namespace sprout
