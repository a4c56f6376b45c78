// MindIR nodes. Note [ANF graphs]
// A FuncGraph holds Parameters, ValueNodes and CNodes; a CNode is a call whose inputs[0] is the
// callee (a ValueNode with a Primitive, a FuncGraph, a SpecialOp, or any node computing a
// function) and inputs[1..] its arguments. Nodes are owned by their graph (an arena: nodes never
// move, pointers stay valid) and know their users, so passes can replace a node in O(uses).
// A CNode may use a node of a lexically enclosing graph: that is a free variable, captured by the
// closure (closure conversion turns those into explicit parameters).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/abstract.h"
#include "ir/value.h"

namespace sprout::ir {

class FuncGraph;
class CNode;

enum class NodeKind : uint8_t { Parameter, Value, CNode };

// Where a node came from in the user's Python source.
struct DebugInfo {
  std::string file;
  int line = 0;
};

struct Use {
  CNode* user;
  uint32_t index;
  bool operator==(const Use& o) const { return user == o.user && index == o.index; }
};

class AnfNode {
 public:
  virtual ~AnfNode() = default;
  NodeKind kind() const { return kind_; }
  FuncGraph* graph() const { return graph_; }
  uint32_t id() const { return id_; }
  const AbstractPtr& abstract() const { return abstract_; }
  void set_abstract(AbstractPtr a) { abstract_ = std::move(a); }
  const DebugInfo& debug() const { return debug_; }
  void set_debug(DebugInfo d) { debug_ = std::move(d); }
  const std::vector<Use>& users() const { return users_; }

 protected:
  AnfNode(NodeKind kind, FuncGraph* graph, uint32_t id) : kind_(kind), graph_(graph), id_(id) {}

 private:
  friend class FuncGraph;
  NodeKind kind_;
  FuncGraph* graph_;
  uint32_t id_;
  AbstractPtr abstract_;
  DebugInfo debug_;
  std::vector<Use> users_;
};

class ParameterNode final : public AnfNode {
 public:
  ParameterNode(FuncGraph* g, uint32_t id, std::string name) : AnfNode(NodeKind::Parameter, g, id), name_(std::move(name)) {}
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

class ValueNode final : public AnfNode {
 public:
  ValueNode(FuncGraph* g, uint32_t id, IrValue value) : AnfNode(NodeKind::Value, g, id), value_(std::move(value)) {}
  const IrValue& value() const { return value_; }

 private:
  IrValue value_;
};

class CNode final : public AnfNode {
 public:
  CNode(FuncGraph* g, uint32_t id) : AnfNode(NodeKind::CNode, g, id) {}
  const std::vector<AnfNode*>& inputs() const { return inputs_; }
  AnfNode* input(size_t i) const { return inputs_.at(i); }
  // The callee when it is a constant (primitive, graph, special op); null otherwise.
  const IrValue* callee_value() const;
  bool is_special(SpecialOp op) const;

 private:
  friend class FuncGraph;
  std::vector<AnfNode*> inputs_;
};

}  // namespace sprout::ir
