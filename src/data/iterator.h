// PipelineIterator: runs the tree on a prefetch thread and hands rows to the consumer.
//
// Note [Stopping a pipeline]
// The consumer may stop early in three ways: it drops the iterator mid-epoch, it is interrupted
// (KeyboardInterrupt), or a row raised. All three end in stop(): close the prefetch queue (the
// producer's push wakes up), cancel the tree (a producer blocked in a worker pool wakes up with
// Cancelled), then join the producer; each pool joins its workers when the tree is destroyed. A
// worker busy inside a user callable finishes that call first; nothing waits for more than that.
// Waiting for a row polls `interrupted` every few milliseconds so the Python layer can run signal
// handlers while the consumer is blocked in C++ without the GIL.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "data/bounded_queue.h"
#include "data/node.h"

namespace sprout::data {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("sprout.dataset: iteration interrupted") {}
};

class PipelineIterator {
 public:
  enum class Status { Row, EpochEnd, Finished };

  // num_epochs -1: epochs without end. `prefetch` rows are buffered between the tree and the consumer.
  PipelineIterator(NodePtr root, int64_t num_epochs, size_t prefetch);
  ~PipelineIterator();
  PipelineIterator(const PipelineIterator&) = delete;
  PipelineIterator& operator=(const PipelineIterator&) = delete;

  // Blocks for the next item. Rethrows a pipeline error (and stops). When `interrupted` returns
  // true, stops and throws Interrupted.
  Status next(Row& out, const std::function<bool()>& interrupted = {});
  void stop();
  const ColumnNames& columns() const { return root_->columns(); }

 private:
  struct Item {
    Status status = Status::Row;
    Row row;
    std::exception_ptr error;
  };
  void produce();

  NodePtr root_;
  int64_t num_epochs_;
  BoundedQueue<Item> queue_;
  std::thread producer_;
  std::atomic<bool> stopped_{false};
  bool finished_ = false;
};

}  // namespace sprout::data
