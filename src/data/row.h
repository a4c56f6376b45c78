// A row of a dataset: one Tensor per column. Rows move through the pipeline by value; a Tensor is a
// small handle (Note [Tensor is a value]), so moving a row never copies element data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace sprout::data {

using Row = std::vector<Tensor>;
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
