// map and filter: per-row functions run by a pool of workers, results kept in input order.
#pragma once

#include <functional>

#include "data/column_layout.h"
#include "data/node.h"
#include "data/worker_pool.h"

namespace sprout::data {

// Takes the input columns of one row, returns the output columns. Called concurrently.
using RowFunction = std::function<Row(Row, const RowContext&)>;
// Takes the input columns of one row, returns whether to keep the row. Called concurrently.
using RowPredicate = std::function<bool(Row, const RowContext&)>;

class MapNode final : public DatasetNode {
 public:
  // Empty input_columns: the first column. Empty output_columns: the input columns.
  // `seed` feeds RowContext::seed (Note [Seeds in the pipeline]).
  MapNode(NodePtr child, RowFunction fn, const ColumnNames& input_columns, const ColumnNames& output_columns,
          int num_workers, size_t prefetch, uint64_t seed);
  std::optional<Row> next() override;
  void reset() override;
  void stop() override;
  int64_t size() const override { return children_[0]->size(); }

 private:
  RowFunction fn_;
  ColumnLayout layout_;
  uint64_t seed_;
  OrderedWorkerPool<Row> pool_;
  int64_t submitted_ = 0;
  bool child_done_ = false;
};

class FilterNode final : public DatasetNode {
 public:
  FilterNode(NodePtr child, RowPredicate predicate, const ColumnNames& input_columns, int num_workers,
             size_t prefetch);
  std::optional<Row> next() override;
  void reset() override;
  void stop() override;
  int64_t size() const override { return -1; }

 private:
  RowPredicate predicate_;
  std::vector<int64_t> input_index_;
  OrderedWorkerPool<std::optional<Row>> pool_;
  int64_t submitted_ = 0;
  bool child_done_ = false;
};

}  // namespace sprout::data
