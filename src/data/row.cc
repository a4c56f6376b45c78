#include "data/row.h"

#include "base/error.h"

namespace sprout::data {

std::string columns_str(const ColumnNames& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out + "]";
}

int64_t column_index(const std::string& api, const ColumnNames& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int64_t>(i);
  throw ValueError(str(api, ": column '", name, "' does not exist; the dataset has columns ", columns_str(names)));
}

}  // namespace sprout::data
