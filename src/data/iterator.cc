#include "data/iterator.h"

#include "base/error.h"
#include "base/parallel.h"
#include "data/errors.h"

namespace sprout::data {

namespace {
thread_local bool t_engine_thread = false;
}

bool on_engine_thread() { return t_engine_thread; }
void mark_engine_thread() {
  t_engine_thread = true;
  run_kernels_serially();  // the engine's threads are the parallelism: one row or batch each
}

PipelineIterator::PipelineIterator(NodePtr root, int64_t num_epochs, size_t prefetch)
    : root_(std::move(root)), num_epochs_(num_epochs), queue_(prefetch) {
  SPROUT_CHECK(num_epochs == -1 || num_epochs >= 1, ValueError,
               "create_iterator: num_epochs must be -1 or >= 1, but got ", num_epochs);
  producer_ = std::thread([this] { produce(); });
}

PipelineIterator::~PipelineIterator() { stop(); }

void PipelineIterator::produce() {
  mark_engine_thread();
  try {
    for (int64_t epoch = 0; num_epochs_ < 0 || epoch < num_epochs_; ++epoch) {
      if (epoch > 0) root_->reset();
      while (std::optional<Row> row = root_->next())
        if (!queue_.push(Item{Status::Row, std::move(*row), nullptr})) return;
      if (!queue_.push(Item{Status::EpochEnd, {}, nullptr})) return;
    }
    queue_.push(Item{Status::Finished, {}, nullptr});
  } catch (const Cancelled&) {
    // stop() is under way; the consumer no longer listens.
  } catch (...) {
    queue_.push(Item{Status::Finished, {}, std::current_exception()});
  }
}

PipelineIterator::Status PipelineIterator::next(Row& out, const std::function<bool()>& interrupted) {
  if (finished_) return Status::Finished;
  for (;;) {
    std::optional<Item> item = queue_.pop_for(std::chrono::milliseconds(20));
    if (!item) {
      if (interrupted && interrupted()) {
        stop();
        throw Interrupted();
      }
      if (stopped_) return Status::Finished;
      continue;
    }
    if (item->error) {
      stop();
      std::rethrow_exception(item->error);
    }
    if (item->status == Status::Finished) finished_ = true;
    out = std::move(item->row);
    return item->status;
  }
}

void PipelineIterator::stop() {
  if (stopped_.exchange(true)) return;
  finished_ = true;
  queue_.close();
  root_->stop();
  if (producer_.joinable()) producer_.join();
  queue_.clear();
}

}  // namespace sprout::data
