// A row of a dataset: one Field per column. Rows move through the pipeline by value; a Field is a
// small handle (Note [Tensor is a value]), so moving a row never copies element data.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"
#include "tensor/tensor.h"

namespace sprout::data {

// Text with a shape: a scalar string (one line of a text file, one CSV field) or, after batch, an
// array of them. Sprout's Tensor holds numbers only; text columns travel as StringArray and reach
// Python as NumPy str arrays, as in MindSpore.
struct StringArray {
  Shape shape;
  std::vector<std::string> values;  // row-major, numel(shape) of them
};

// One column of a row: a Tensor, or text.
class Field {
 public:
  Field() = default;
  Field(Tensor t) : tensor_(std::move(t)) {}  // NOLINT: most fields are tensors; let them convert
  Field(StringArray s) : strings_(std::make_shared<const StringArray>(std::move(s))) {}  // NOLINT
  static Field string(std::string value) { return Field(StringArray{Shape{}, {std::move(value)}}); }

  bool is_string() const { return strings_ != nullptr; }
  const Tensor& tensor() const {
    SPROUT_ASSERT(!is_string(), "a text field used as a tensor");
    return tensor_;
  }
  const StringArray& strings() const {
    SPROUT_ASSERT(is_string(), "a tensor field used as text");
    return *strings_;
  }
  const Shape& shape() const { return is_string() ? strings_->shape : tensor_.shape(); }
  // "Float32", or "String" for text: for error messages.
  std::string type_name() const { return is_string() ? "String" : std::string(name(tensor_.dtype())); }

 private:
  Tensor tensor_;
  std::shared_ptr<const StringArray> strings_;
};

using Row = std::vector<Field>;
using ColumnNames = std::vector<std::string>;

// What a per-row function may know about the row it works on. Random transforms draw from `seed`,
// which depends only on the pipeline seed, the epoch and the row's position, never on which worker
// runs it: that is what makes the output independent of num_parallel_workers.
struct RowContext {
  int64_t index = 0;  // position of the row in this node's output for the current epoch
  int64_t epoch = 0;
  uint64_t seed = 0;
};

// "['a', 'b']", for error messages.
std::string columns_str(const ColumnNames& names);
// Index of `name` in `names`; a ValueError names `api` and the available columns when missing.
int64_t column_index(const std::string& api, const ColumnNames& names, const std::string& name);

}  // namespace sprout::data
