// batch: groups consecutive rows, optionally transforms each group (per_batch_map), pads columns
// (pad_info) and stacks each column along a new first axis. Groups are processed by a worker pool,
// in order, so the stacking copies of one batch overlap with the next.
#pragma once

#include <functional>
#include <map>

#include "data/column_layout.h"
#include "data/node.h"
#include "data/worker_pool.h"

namespace sprout::data {

// Stacks fields of one shape and type into one with a new axis 0. `column` and `api` name the column
// and operation in the error raised for mismatched shapes or types.
Field stack_rows(const std::vector<Field>& items, const std::string& api, const std::string& column);

// Padding of one column: every row is padded at the end of each axis to `shape` (-1: the largest in
// the batch) with `value`.
struct PadSpec {
  std::vector<int64_t> shape;  // empty: pad every axis to the largest in the batch
  double value = 0;
};

struct BatchInfo {
  int64_t batch_num = 0;  // within the epoch
  int64_t epoch_num = 0;
};

// per_batch_map: input columns, each a list of the batch's rows -> output columns, same form.
using Columns = std::vector<std::vector<Field>>;
using BatchFunction = std::function<Columns(Columns, const BatchInfo&)>;

class BatchNode final : public DatasetNode {
 public:
  BatchNode(NodePtr child, int64_t batch_size, bool drop_remainder, int num_workers = 1, size_t prefetch = 2,
            BatchFunction per_batch_map = nullptr, const ColumnNames& input_columns = {},
            const ColumnNames& output_columns = {}, std::map<std::string, PadSpec> pad_info = {});
  std::optional<Row> next() override;
  void reset() override;
  void stop() override;
  int64_t size() const override;
  int64_t batch_size() const { return batch_size_; }

 private:
  Row make_batch(std::vector<Row> rows, const BatchInfo& info) const;

  int64_t batch_size_;
  bool drop_remainder_;
  BatchFunction per_batch_map_;
  ColumnLayout layout_;
  std::vector<std::optional<PadSpec>> pads_;  // per output column
  OrderedWorkerPool<Row> pool_;
  bool child_done_ = false;
  int64_t batches_ = 0;
};

}  // namespace sprout::data
