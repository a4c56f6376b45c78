// Where the outputs of a per-row (map) or per-batch (batch's per_batch_map) function go.
// MindSpore's rule: as many outputs as inputs replace the inputs where they were; otherwise the
// outputs come first, then the untouched columns in their order.
#pragma once

#include <string>

#include "data/row.h"

namespace sprout::data {

struct ColumnLayout {
  std::vector<int64_t> input_index;  // positions of the input columns in the child's rows
  std::vector<int64_t> passthrough;  // positions of the child's other columns, in order
  bool in_place = true;
  size_t num_outputs = 0;
  ColumnNames columns;  // the columns after the function

  // Empty input_columns: the first column (or, with `all_by_default`, every column). Empty
  // output_columns: the input columns. Errors name `api`.
  static ColumnLayout make(const std::string& api, const ColumnNames& child_columns, const ColumnNames& input_columns,
                           const ColumnNames& output_columns, bool all_by_default = false);

  // The inputs taken out of `row` (moved).
  template <class Vec>
  Vec take_inputs(Vec& row) const {
    Vec out;
    out.reserve(input_index.size());
    for (int64_t i : input_index) out.push_back(std::move(row[static_cast<size_t>(i)]));
    return out;
  }
  // The full output from what remains of the child's `row` and the function's `outputs`.
  template <class Vec>
  Vec assemble(Vec& row, Vec outputs) const {
    if (in_place) {
      for (size_t k = 0; k < outputs.size(); ++k) row[static_cast<size_t>(input_index[k])] = std::move(outputs[k]);
      return std::move(row);
    }
    for (int64_t i : passthrough) outputs.push_back(std::move(row[static_cast<size_t>(i)]));
    return outputs;
  }
};

}  // namespace sprout::data
