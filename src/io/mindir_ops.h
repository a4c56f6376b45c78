// How registry ops are written in MindIR files as MindSpore 2.x writes them (Note [MindIR ops]).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/attrs.h"
#include "ops/op_def.h"

namespace sprout::mindir {

// A constant of a MindIR file: an argument or attribute value; nullopt is None.
using Constant = std::optional<AttrValue>;

struct NamedConstant {
  std::string name;
  Constant value;
  int nest = 0;  // > 0: a tuple of ints written as a tuple of tuples of `nest` ints (Pad's paddings)
};

// One op as MindSpore calls it. A PRIMITIVE_FUNCTION op takes its arguments as constant inputs after
// the tensor inputs, in the order of MindSpore's operator definition; a PRIMITIVE op keeps them as
// attributes of its PrimitiveProto.
struct MindSporeCall {
  std::string op_type;
  bool function = true;              // PRIMITIVE_FUNCTION, else PRIMITIVE
  std::vector<NamedConstant> args;   // constant inputs (function) or attributes (primitive)
  std::vector<Constant> trailing_inputs;  // a primitive op's constant inputs after its tensors (input sizes)
  // A function op whose arguments sit between its tensors: the node's inputs in order, k >= 0 for tensor k and
  // -(j + 1) for argument j (GatherD(x, dim, index)). Empty: the tensors, then the arguments.
  std::vector<int> layout;
};

// The MindSpore call of a registry primitive. RuntimeError naming the op when it has no MindIR form.
MindSporeCall to_mindspore(const Primitive& prim);

// The registry primitive of a MindSpore op: `inputs` holds the node's inputs' constant values by position
// (nullopt for the others), whose entries after the tensors are a function op's arguments; `attributes`
// are the PrimitiveProto's attributes (primitive ops) by name; `n_tensor_inputs` says how many of the
// node's inputs are tensors. RuntimeError naming the op when Sprout cannot run it.
struct SproutCall {
  Primitive prim;
  size_t n_tensor_inputs = 0;  // the node's leading inputs that are tensors (a tuple for Concat)
  std::vector<size_t> tensor_positions;  // instead, where the tensors are (an op with a layout)
};
SproutCall from_mindspore(const std::string& op_type, bool function, const std::vector<NamedConstant>& inputs,
                          const std::vector<NamedConstant>& attributes, size_t n_inputs);

// MindSpore's TypeId numbers (Cast's dtype argument), and back.
int64_t type_id(DType dtype);
DType dtype_of_type_id(int64_t id);

// The registry ops export writes, and the MindSpore ops load reads ("Abs, Add, ..."), for error
// messages and the docs.
std::string exportable_ops();
std::string loadable_ops();

}  // namespace sprout::mindir
