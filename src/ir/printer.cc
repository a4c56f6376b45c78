#include "ir/printer.h"

#include <deque>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace sprout::ir {

std::string IrValue::to_string() const {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, NoneValue>) return "None";
        else if constexpr (std::is_same_v<T, bool>) return x ? "True" : "False";
        else if constexpr (std::is_same_v<T, std::string>) return "\"" + x + "\"";
        else if constexpr (std::is_same_v<T, DType>) return std::string(name(x));
        else if constexpr (std::is_same_v<T, Tensor>) return str("Tensor", shape_str(x.shape()));
        else if constexpr (std::is_same_v<T, Primitive>) return x.name();
        else if constexpr (std::is_same_v<T, FuncGraph*>) return "@" + x->name();
        else if constexpr (std::is_same_v<T, SpecialOp>) return std::string(special_op_name(x));
        else if constexpr (std::is_same_v<T, FusedPtr>) return x->to_string();
        else if constexpr (std::is_same_v<T, IrTuple>) {
          std::string out = "(";
          for (size_t i = 0; i < x->size(); ++i) out += (i ? ", " : "") + (*x)[i].to_string();
          return out + (x->size() == 1 ? ",)" : ")");
        } else return str(x);
      },
      v);
}

namespace {

std::vector<const FuncGraph*> reachable_graphs(const FuncGraph& entry) {
  std::vector<const FuncGraph*> out{&entry};
  std::unordered_set<const FuncGraph*> seen{&entry};
  for (size_t i = 0; i < out.size(); ++i)
    for (const auto& node : out[i]->nodes())
      if (node->kind() == NodeKind::Value)
        if (auto* g = static_cast<const ValueNode*>(node.get())->value().as<FuncGraph*>())
          if (seen.insert(*g).second) out.push_back(*g);
  return out;
}

class Namer {
 public:
  std::string operator()(const AnfNode* n, const FuncGraph* from) {
    if (n->kind() == NodeKind::Value) return static_cast<const ValueNode*>(n)->value().to_string();
    std::string base = n->kind() == NodeKind::Parameter ? "%" + static_cast<const ParameterNode*>(n)->name()
                                                        : "%" + std::to_string(index(n));
    // A node of another (enclosing) graph is a free variable: qualify it with its graph.
    return n->graph() == from ? base : "@" + n->graph()->name() + "." + base.substr(1);
  }
  size_t index(const AnfNode* n) {
    auto it = ids_.find(n);
    if (it == ids_.end()) it = ids_.emplace(n, ids_.size() + 1).first;
    return it->second;
  }

 private:
  std::unordered_map<const AnfNode*, size_t> ids_;
};

std::string dot_escape(const std::string& text) {
  std::string out;
  for (char ch : text) out += ch == '"' ? std::string("\\\"") : std::string(1, ch);
  return out;
}

std::string abstract_str(const AnfNode* n) { return n->abstract() ? n->abstract()->to_string() : "<?>"; }

}  // namespace

std::string print_ir(const FuncGraph& entry) {
  std::ostringstream out;
  Namer name;
  auto graphs = reachable_graphs(entry);
  out << "# IR entry: @" << entry.name() << "\n# Total graphs: " << graphs.size() << "\n";
  for (const FuncGraph* g : graphs) {
    out << "\nfuncgraph @" << g->name() << "(";
    for (size_t i = 0; i < g->parameters().size(); ++i)
      out << (i ? ", " : "") << name(g->parameters()[i], g) << ": " << abstract_str(g->parameters()[i]);
    out << ")";
    if (g->parent()) out << "  # closure in @" << g->parent()->name();
    out << " {\n";
    for (const CNode* c : g->topological_order()) {
      out << "  " << (c == g->return_node() ? "" : name(c, g) + " = ") << name(c->input(0), g) << "(";
      for (size_t i = 1; i < c->inputs().size(); ++i) out << (i > 1 ? ", " : "") << name(c->input(i), g);
      out << ")";
      if (c != g->return_node()) {
        out << " : (";
        for (size_t i = 1; i < c->inputs().size(); ++i) out << (i > 1 ? ", " : "") << abstract_str(c->input(i));
        out << ") -> " << abstract_str(c);
      }
      if (!c->debug().file.empty()) out << "  # " << c->debug().file << ":" << c->debug().line;
      out << "\n";
    }
    out << "}\n";
  }
  return out.str();
}

std::string print_dot(const FuncGraph& entry) {
  std::ostringstream out;
  Namer name;
  out << "digraph \"" << entry.name() << "\" {\n  node [shape=box, fontname=monospace];\n";
  for (const FuncGraph* g : reachable_graphs(entry)) {
    out << "  subgraph \"cluster_" << g->name() << "\" {\n    label=\"@" << g->name() << "\";\n";
    for (const auto* p : g->parameters())
      out << "    n" << p->id() << " [label=\"" << dot_escape(name(p, g)) << "\", shape=ellipse];\n";
    for (const CNode* c : g->topological_order()) {
      out << "    n" << c->id() << " [label=\"" << dot_escape(name(c->input(0), g)) << "\"];\n";
      for (size_t i = 1; i < c->inputs().size(); ++i) {
        const AnfNode* in = c->input(i);
        if (in->kind() == NodeKind::Value) {
          out << "    v" << c->id() << "_" << i << " [label=\"" << dot_escape(name(in, g)) << "\", shape=plaintext];\n";
          out << "    v" << c->id() << "_" << i << " -> n" << c->id() << ";\n";
        } else {
          out << "    n" << in->id() << " -> n" << c->id() << ";\n";
        }
      }
    }
    out << "  }\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace sprout::ir
