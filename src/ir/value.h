// Constants held by ValueNodes: Python constants, dtypes, tensors, primitives, graphs, structural
// ops, and tuples of these.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "base/dtype.h"
#include "ir/fused.h"
#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout::ir {

class FuncGraph;

// The IR's own structural operations (not registry ops: they move values, not tensor elements).
enum class SpecialOp : uint8_t {
  Return,        // Return(value): the graph's result
  Switch,        // Switch(cond, true_value, false_value): one of two values (usually partials)
  Partial,       // Partial(fn, args...): fn with its first arguments bound
  MakeTuple,     // MakeTuple(xs...)
  TupleGetItem,  // TupleGetItem(tuple, index)
  Depend,        // Depend(value, after...): value, ordered after the others (side effects)
  J,             // J(fn): fn's J transform, a function returning (output, bprop); expanded by the compiler
};
std::string_view special_op_name(SpecialOp op);

struct NoneValue {
  bool operator==(const NoneValue&) const { return true; }
};

struct IrValue;
using IrTuple = std::shared_ptr<const std::vector<IrValue>>;

struct IrValue {
  std::variant<NoneValue, bool, int64_t, double, std::string, DType, Tensor, Primitive, FuncGraph*, SpecialOp, IrTuple,
               FusedPtr>
      v;

  template <class T>
  const T* as() const { return std::get_if<T>(&v); }
  std::string to_string() const;  // how the printer shows it
};

}  // namespace sprout::ir
