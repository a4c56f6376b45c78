// A node of the executed pipeline tree.
//
// Note [Pull, with workers where the work is]
// The tree is pulled from the root: next() returns the next row of the current epoch, or nullopt at
// its end; reset() starts the next epoch (a node resets its children itself). A node is driven by one
// thread at a time (its parent's), so sequential nodes (batch, shuffle, take, zip...) need no locks.
// Parallelism lives in the nodes that do per-row work (sources reading rows, map, filter): each owns
// an OrderedWorkerPool that keeps a window of rows in flight and hands results back in submission
// order. The iterator runs the root on its own thread with a bounded prefetch queue, so the consumer
// (the training loop) overlaps with the whole pipeline.
//
// stop() may be called from any thread but a worker's: it shuts the worker pools down (a thread
// blocked inside next() wakes up with data::Cancelled; workers are joined) and it is idempotent.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/row.h"

namespace sprout::data {

class DatasetNode {
 public:
  explicit DatasetNode(std::vector<std::shared_ptr<DatasetNode>> children = {}) : children_(std::move(children)) {}
  virtual ~DatasetNode() = default;
  DatasetNode(const DatasetNode&) = delete;
  DatasetNode& operator=(const DatasetNode&) = delete;

  virtual std::optional<Row> next() = 0;
  // Starts the next epoch. The default resets the children.
  virtual void reset() {
    for (auto& c : children_) c->reset();
    ++epoch_;
  }
  virtual void stop() {
    for (auto& c : children_) c->stop();
  }
  // Rows per epoch, or -1 when it cannot be known without running (filter, a generator).
  virtual int64_t size() const = 0;

  const ColumnNames& columns() const { return columns_; }
  // How error notes name this node, e.g. "map(operations=[<function f>], input_columns=['image'])".
  const std::string& label() const { return label_; }
  void set_label(std::string label) { label_ = std::move(label); }
  const std::vector<std::shared_ptr<DatasetNode>>& children() const { return children_; }

 protected:
  std::vector<std::shared_ptr<DatasetNode>> children_;
  ColumnNames columns_;
  std::string label_;
  int64_t epoch_ = 0;
};

using NodePtr = std::shared_ptr<DatasetNode>;

// True on the engine's own threads (pool workers, the prefetch thread). Such a thread must not stop
// a pipeline itself: it could be one of the threads that stopping joins. (Python's garbage collector
// can run a dropped iterator's destructor on whatever thread allocates, including these.)
bool on_engine_thread();
void mark_engine_thread();

}  // namespace sprout::data
