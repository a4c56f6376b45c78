// Abstract values: what the compiler knows about a value without running the program.
//
// Note [Abstract values]
// Specialization (abstract interpretation) gives every node one of these: a tensor's dtype and shape
// (a dimension may be kUnknownDim), a scalar's type and, when known, its value (compile-time
// constants are how Python ints, floats, strings and tuples of them become shapes and attributes),
// a tuple/list of element abstracts, a dict, a function (the set of graphs or primitives a node can
// call), a dtype object, or None. Abstracts are immutable and shared; `join` merges the abstracts that
// flow into one place (the two branches of an if) and fails with both sides named when they cannot.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"

namespace sprout::ir {

class FuncGraph;
struct Abstract;
using AbstractPtr = std::shared_ptr<const Abstract>;

inline constexpr int64_t kUnknownDim = -1;

enum class ScalarType : uint8_t { Bool, Int, Float, String };

// A compile-time scalar constant.
using ScalarValue = std::variant<bool, int64_t, double, std::string>;

struct AbstractTensor {
  DType dtype;
  Shape shape;
};
struct AbstractScalar {
  ScalarType type;
  std::optional<ScalarValue> value;  // known at compile time
};
struct AbstractSequence {
  bool is_list = false;  // tuple otherwise
  std::vector<AbstractPtr> elements;
};
struct AbstractDict {
  std::vector<std::string> keys;
  std::vector<AbstractPtr> values;
};
struct AbstractFunction {
  std::vector<const FuncGraph*> graphs;    // callees that are graphs
  std::vector<std::string> primitives;     // callees that are registry ops, by name
};
struct AbstractType {
  DType dtype;
};
struct AbstractNone {};

struct Abstract {
  std::variant<AbstractTensor, AbstractScalar, AbstractSequence, AbstractDict, AbstractFunction, AbstractType,
               AbstractNone>
      value;

  template <class T>
  const T* as() const { return std::get_if<T>(&value); }
  bool is_tensor() const { return as<AbstractTensor>() != nullptr; }
  std::string to_string() const;  // "<Tensor[Float32], (2, 3)>", "<Int64, 3>", "(<...>, <...>)"
};

AbstractPtr tensor_abstract(DType dtype, Shape shape);
AbstractPtr scalar_abstract(ScalarType type, std::optional<ScalarValue> value = std::nullopt);
AbstractPtr constant_abstract(ScalarValue value);
AbstractPtr tuple_abstract(std::vector<AbstractPtr> elements, bool is_list = false);
AbstractPtr none_abstract();
AbstractPtr type_abstract(DType dtype);
AbstractPtr function_abstract(std::vector<const FuncGraph*> graphs, std::vector<std::string> primitives);

bool same_abstract(const Abstract& a, const Abstract& b);

// The least abstract covering both: equal dims stay, differing dims become unknown, differing
// constants become unknown values. Throws TypeError naming `where` and both abstracts when they
// cannot join (a tensor and a tuple; Float32 and Int64 tensors).
AbstractPtr join(const AbstractPtr& a, const AbstractPtr& b, const std::string& where);

}  // namespace sprout::ir
