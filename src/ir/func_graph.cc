#include "ir/func_graph.h"

#include <algorithm>
#include <unordered_set>

#include "base/error.h"

namespace sprout::ir {

std::string_view special_op_name(SpecialOp op) {
  switch (op) {
    case SpecialOp::Return: return "Return";
    case SpecialOp::Switch: return "Switch";
    case SpecialOp::Partial: return "Partial";
    case SpecialOp::MakeTuple: return "MakeTuple";
    case SpecialOp::TupleGetItem: return "TupleGetItem";
    case SpecialOp::Depend: return "Depend";
    case SpecialOp::J: return "J";
  }
  return "?";
}

const IrValue* CNode::callee_value() const {
  if (inputs_.empty() || inputs_[0]->kind() != NodeKind::Value) return nullptr;
  return &static_cast<const ValueNode*>(inputs_[0])->value();
}

bool CNode::is_special(SpecialOp op) const {
  const IrValue* v = callee_value();
  const SpecialOp* s = v ? v->as<SpecialOp>() : nullptr;
  return s && *s == op;
}

FuncGraph::FuncGraph(Module* module, std::string name, FuncGraph* parent)
    : module_(module), name_(std::move(name)), parent_(parent) {}

template <class N, class... Args>
N* FuncGraph::own(Args&&... args) {
  auto node = std::make_unique<N>(this, module_->next_node_id(), std::forward<Args>(args)...);
  N* raw = node.get();
  nodes_.push_back(std::move(node));
  return raw;
}

ParameterNode* FuncGraph::add_parameter(std::string name) {
  ParameterNode* p = own<ParameterNode>(std::move(name));
  parameters_.push_back(p);
  return p;
}

void FuncGraph::move_last_parameters_first(size_t count) {
  std::rotate(parameters_.begin(), parameters_.end() - static_cast<std::ptrdiff_t>(count), parameters_.end());
}

ValueNode* FuncGraph::add_value(IrValue value) { return own<ValueNode>(std::move(value)); }

void FuncGraph::add_use(AnfNode* value, CNode* user, uint32_t index) { value->users_.push_back(Use{user, index}); }

void FuncGraph::remove_use(AnfNode* value, CNode* user, uint32_t index) {
  auto& users = value->users_;
  auto it = std::find(users.begin(), users.end(), Use{user, index});
  SPROUT_ASSERT(it != users.end(), "use list of node ", value->id(), " misses its user ", user->id());
  users.erase(it);
}

CNode* FuncGraph::add_cnode(std::vector<AnfNode*> inputs, DebugInfo debug) {
  SPROUT_ASSERT(!inputs.empty(), "a CNode needs at least its callee");
  CNode* c = own<CNode>();
  c->inputs_ = std::move(inputs);
  for (uint32_t i = 0; i < c->inputs_.size(); ++i) {
    SPROUT_ASSERT(c->inputs_[i], "null input ", i, " of a new CNode in @", name_);
    add_use(c->inputs_[i], c, i);
  }
  c->set_debug(std::move(debug));
  return c;
}

CNode* FuncGraph::set_output(AnfNode* value, DebugInfo debug) {
  CNode* ret = add_cnode({add_value(IrValue{SpecialOp::Return}), value}, std::move(debug));
  return_ = ret;
  return ret;
}

void FuncGraph::set_input(CNode* node, size_t index, AnfNode* value) {
  remove_use(node->inputs_.at(index), node, static_cast<uint32_t>(index));
  node->inputs_[index] = value;
  add_use(value, node, static_cast<uint32_t>(index));
}

void FuncGraph::replace_all_uses(AnfNode* old_node, AnfNode* new_node) {
  std::vector<Use> uses = old_node->users();
  for (const Use& u : uses) u.user->graph()->set_input(u.user, u.index, new_node);
}

std::vector<CNode*> FuncGraph::topological_order() const {
  std::vector<CNode*> order;
  if (!return_) return order;
  std::unordered_set<const AnfNode*> done, on_stack;
  // Iterative post-order DFS over the CNodes of this graph (free variables belong to other graphs).
  std::vector<std::pair<CNode*, size_t>> stack{{return_, 0}};
  on_stack.insert(return_);
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < node->inputs().size()) {
      AnfNode* in = node->inputs()[next++];
      if (in->kind() == NodeKind::CNode && in->graph() == this && !done.count(in)) {
        SPROUT_ASSERT(!on_stack.count(in), "cycle through node ", in->id(), " in @", name_);
        on_stack.insert(in);
        stack.push_back({static_cast<CNode*>(in), 0});
      }
      continue;
    }
    done.insert(node);
    on_stack.erase(node);
    order.push_back(node);
    stack.pop_back();
  }
  return order;
}

size_t FuncGraph::drop_dead_nodes() {
  // Roots: the return node, and nodes used from other graphs (free variables of closures).
  std::vector<const AnfNode*> todo;
  if (return_) todo.push_back(return_);
  for (const auto& n : nodes_)
    for (const Use& u : n->users())
      if (u.user->graph() != this) todo.push_back(n.get());
  std::unordered_set<const AnfNode*> live(parameters_.begin(), parameters_.end());
  while (!todo.empty()) {
    const AnfNode* n = todo.back();
    todo.pop_back();
    if (!live.insert(n).second || n->kind() != NodeKind::CNode) continue;
    for (const AnfNode* in : static_cast<const CNode*>(n)->inputs())
      if (in->graph() == this) todo.push_back(in);
  }
  size_t before = nodes_.size();
  for (auto& n : nodes_) {
    if (live.count(n.get()) || n->kind() != NodeKind::CNode) continue;
    auto* c = static_cast<CNode*>(n.get());
    for (uint32_t i = 0; i < c->inputs_.size(); ++i) remove_use(c->inputs_[i], c, i);
    c->inputs_.clear();
  }
  std::erase_if(nodes_, [&](const std::unique_ptr<AnfNode>& n) { return !live.count(n.get()); });
  return before - nodes_.size();
}

bool FuncGraph::is_inside(const FuncGraph* g) const {
  for (const FuncGraph* f = this; f; f = f->parent_)
    if (f == g) return true;
  return false;
}

FuncGraph* Module::new_graph(std::string name, FuncGraph* parent) {
  graphs_.push_back(std::make_unique<FuncGraph>(this, std::move(name), parent));
  return graphs_.back().get();
}

}  // namespace sprout::ir
