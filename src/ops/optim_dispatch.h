// Eager dispatch of the in-place ops (Note [In-place updates]).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "ops/op_def.h"

namespace sprout {

// Runs def's CPU kernel on the inputs' own memory. roles[i] == 'u' marks input i as a state updated in
// place; the kernel gets every input contiguous and every state (in order) as its outputs. Returns the
// first def.outputs.size() states.
std::vector<Tensor> run_in_place(const OpDef& def, const void* attrs, std::span<const Tensor> in,
                                 std::string_view roles);

}  // namespace sprout
