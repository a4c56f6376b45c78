// batch: groups consecutive rows and stacks each column along a new first axis.
#pragma once

#include "data/node.h"

namespace sprout::data {

// Stacks fields of one shape and type into one with a new axis 0. `column` and `api` name the column
// and operation in the error raised for mismatched shapes or types.
Field stack_rows(const std::vector<Field>& items, const std::string& api, const std::string& column);

class BatchNode final : public DatasetNode {
 public:
  BatchNode(NodePtr child, int64_t batch_size, bool drop_remainder);
  std::optional<Row> next() override;
  void reset() override;
  int64_t size() const override;
  int64_t batch_size() const { return batch_size_; }

 private:
  int64_t batch_size_;
  bool drop_remainder_;
  bool child_done_ = false;
  int64_t batches_ = 0;
};

}  // namespace sprout::data
