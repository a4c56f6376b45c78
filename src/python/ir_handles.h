// The Python handles of MindIR graphs and nodes (sprout._C.ir.Graph, .Node, .Module): each keeps
// the module, which owns every graph and node, alive.
#pragma once

#include <memory>

#include "ir/func_graph.h"

namespace sprout::py {

struct PyGraph {
  std::shared_ptr<ir::Module> module;
  ir::FuncGraph* graph;
};
struct PyModule {
  std::shared_ptr<ir::Module> module;
};
struct PyNode {
  std::shared_ptr<ir::Module> module;
  ir::AnfNode* node;
};

}  // namespace sprout::py
