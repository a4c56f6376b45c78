// Graph-mode autodiff (Note [J transform] in autodiff.cc).
#pragma once

#include <vector>

#include "ir/func_graph.h"

namespace sprout::compiler {

// Replaces every J(fn) node reachable from `entry` by fn's J form (innermost first, so higher-order
// gradients differentiate already-expanded gradients), then closure-converts the new graphs.
size_t expand_grad(ir::FuncGraph& entry);

// J(Partial(k, bound...)) when kj = J(k): a Partial whose bprop returns gradients of the call's own
// arguments only (the bound values' gradients are dropped).
ir::AnfNode* bind_dropping_gradients(ir::FuncGraph& g, ir::FuncGraph* kj, ir::FuncGraph* k,
                                     const std::vector<ir::AnfNode*>& bound);

}  // namespace sprout::compiler
