// The .ir text format: one graph after another, one line per node with its inputs, abstracts and
// the Python line it came from:
//   %3 = Add(%x, %2) : (<Tensor[Float32], (2, 3)>, <Tensor[Float32], (2, 3)>) -> <Tensor[Float32], (2, 3)>  # f.py:12
#pragma once

#include <string>

#include "ir/func_graph.h"

namespace sprout::ir {

// Prints `entry` and every graph it reaches through graph constants, entry first.
std::string print_ir(const FuncGraph& entry);

// The same graphs as a Graphviz digraph.
std::string print_dot(const FuncGraph& entry);

}  // namespace sprout::ir
