// FuncGraph (one function of the program) and Module (owner of the graphs of one compilation).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/node.h"

namespace sprout::ir {

class Module;

class FuncGraph {
 public:
  FuncGraph(Module* module, std::string name, FuncGraph* parent);
  FuncGraph(const FuncGraph&) = delete;
  FuncGraph& operator=(const FuncGraph&) = delete;

  const std::string& name() const { return name_; }
  Module* module() const { return module_; }
  // The lexically enclosing graph (a closure's definer), or null for a top-level function.
  FuncGraph* parent() const { return parent_; }
  void set_parent(FuncGraph* parent) { parent_ = parent; }  // closure conversion lifts graphs to the top
  // A Cell with its own bprop: the graph's output is Depend(result, bprop closure), and autodiff calls
  // that closure instead of differentiating the body (Note [J transform]).
  bool custom_bprop() const { return custom_bprop_; }
  void set_custom_bprop(bool on) { custom_bprop_ = on; }
  // A Cell marked recompute(): autodiff computes its values again in the backward graph instead of keeping
  // them (Note [Recomputed cells in compiled code]); its calls are not inlined until expand_grad has run.
  bool recompute() const { return recompute_; }
  void set_recompute(bool on) { recompute_ = on; }
  const std::vector<ParameterNode*>& parameters() const { return parameters_; }
  CNode* return_node() const { return return_; }
  AnfNode* output() const { return return_ ? return_->input(1) : nullptr; }

  ParameterNode* add_parameter(std::string name);
  // Moves the last `count` parameters to the front (closure conversion's captured values lead).
  void move_last_parameters_first(size_t count);
  ValueNode* add_value(IrValue value);
  CNode* add_cnode(std::vector<AnfNode*> inputs, DebugInfo debug = {});
  // Emits Return(value) as this graph's return node.
  CNode* set_output(AnfNode* value, DebugInfo debug = {});

  // Edits that keep the use lists right.
  void set_input(CNode* node, size_t index, AnfNode* value);
  void replace_all_uses(AnfNode* old_node, AnfNode* new_node);

  // Drops every node the return node does not reach (dead code); returns how many were dropped.
  size_t drop_dead_nodes();

  // CNodes reachable from the return node, each after its inputs (a topological order).
  std::vector<CNode*> topological_order() const;
  // Every node this graph owns, in creation order.
  const std::vector<std::unique_ptr<AnfNode>>& nodes() const { return nodes_; }
  // True if `g` is this graph or encloses it.
  bool is_inside(const FuncGraph* g) const;

 private:
  template <class N, class... Args>
  N* own(Args&&... args);
  static void add_use(AnfNode* value, CNode* user, uint32_t index);
  static void remove_use(AnfNode* value, CNode* user, uint32_t index);

  Module* module_;
  std::string name_;
  FuncGraph* parent_;
  bool custom_bprop_ = false;
  bool recompute_ = false;
  std::vector<ParameterNode*> parameters_;
  CNode* return_ = nullptr;
  std::vector<std::unique_ptr<AnfNode>> nodes_;
};

class Module {
 public:
  FuncGraph* new_graph(std::string name, FuncGraph* parent = nullptr);
  const std::vector<std::unique_ptr<FuncGraph>>& graphs() const { return graphs_; }
  uint32_t next_node_id() { return next_id_++; }

 private:
  std::vector<std::unique_ptr<FuncGraph>> graphs_;
  uint32_t next_id_ = 1;
};

}  // namespace sprout::ir
