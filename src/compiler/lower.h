// Lowering: specialized, closure-converted MindIR -> a vm::Program (Note [Programs] in runtime/vm.h).
#pragma once

#include "ir/func_graph.h"
#include "runtime/vm.h"

namespace sprout::compiler {

// `entry` and every graph it reaches must be closed (no free variables: run closure conversion first).
std::unique_ptr<vm::Program> lower(const ir::FuncGraph& entry);

}  // namespace sprout::compiler
