#include "data/column_layout.h"

#include <algorithm>

#include "base/error.h"

namespace sprout::data {

ColumnLayout ColumnLayout::make(const std::string& api, const ColumnNames& in, const ColumnNames& input_columns,
                                const ColumnNames& output_columns, bool all_by_default) {
  SPROUT_CHECK(!in.empty(), ValueError, api, ": the dataset has no columns");
  ColumnLayout l;
  for (const auto& name : input_columns) {
    const int64_t i = column_index(api, in, name);
    SPROUT_CHECK(std::find(l.input_index.begin(), l.input_index.end(), i) == l.input_index.end(), ValueError, api,
                 ": column '", name, "' is listed twice in input_columns");
    l.input_index.push_back(i);
  }
  if (l.input_index.empty()) {
    const int64_t n = all_by_default ? static_cast<int64_t>(in.size()) : 1;
    for (int64_t i = 0; i < n; ++i) l.input_index.push_back(i);
  }
  ColumnNames inputs;
  for (int64_t i : l.input_index) inputs.push_back(in[static_cast<size_t>(i)]);
  const ColumnNames outputs = output_columns.empty() ? inputs : output_columns;
  l.num_outputs = outputs.size();
  for (int64_t i = 0; i < static_cast<int64_t>(in.size()); ++i)
    if (std::find(l.input_index.begin(), l.input_index.end(), i) == l.input_index.end()) l.passthrough.push_back(i);
  l.in_place = outputs.size() == l.input_index.size();
  if (l.in_place) {
    l.columns = in;
    for (size_t k = 0; k < outputs.size(); ++k) l.columns[static_cast<size_t>(l.input_index[k])] = outputs[k];
  } else {
    l.columns = outputs;
    for (int64_t i : l.passthrough) l.columns.push_back(in[static_cast<size_t>(i)]);
  }
  for (size_t a = 0; a < l.columns.size(); ++a)
    for (size_t b = a + 1; b < l.columns.size(); ++b)
      SPROUT_CHECK(l.columns[a] != l.columns[b], ValueError, api, ": output column '", l.columns[a],
                   "' would appear twice; the columns after ", api, " would be ", columns_str(l.columns));
  return l;
}

}  // namespace sprout::data
