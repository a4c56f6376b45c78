// The IR verifier (STYLE: "a verifier runs after every pass in tests"). Checks the invariants
// every pass may rely on, and on failure prints the neighbourhood of the bad node.
#pragma once

#include "ir/func_graph.h"

namespace sprout::ir {

// Throws InternalError describing the first broken invariant:
//  - every graph reachable from `entry` has a return node Return(value);
//  - every CNode input is non-null and is a ValueNode, or a node of the same graph, or a node of an
//    enclosing graph (a free variable);
//  - use lists match inputs exactly, both ways;
//  - the CNodes of a graph form no cycle.
void verify(const FuncGraph& entry);

}  // namespace sprout::ir
