// Sprout ops MindSpore has no primitive for, rewritten before export into ops it has.
#pragma once

#include "ir/func_graph.h"

namespace sprout::mindir {

// Rewrites, in place, every node of `g` whose op has no MindIR form of its own but a composition of ops
// that have one (Note [Ops written as compositions]).
void lower_for_mindspore(ir::FuncGraph& g);

}  // namespace sprout::mindir
