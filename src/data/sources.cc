#include "data/sources.h"

#include "base/error.h"

namespace sprout::data {

namespace {

class TensorSliceSource final : public RowSource {
 public:
  explicit TensorSliceSource(std::vector<Tensor> columns) : columns_(std::move(columns)) {}
  int64_t size() const override { return columns_.empty() ? 0 : columns_[0].dim(0); }
  Row get(int64_t index) const override {
    Row row;
    row.reserve(columns_.size());
    for (const Tensor& c : columns_) row.push_back(c.select(0, index).clone());
    return row;
  }

 private:
  std::vector<Tensor> columns_;
};

}  // namespace

RowSourcePtr tensor_slice_source(std::vector<Tensor> columns, const ColumnNames& names) {
  SPROUT_CHECK(!columns.empty(), ValueError, "NumpySlicesDataset: data has no columns");
  SPROUT_CHECK(columns.size() == names.size(), ValueError, "NumpySlicesDataset: ", columns.size(),
               " columns of data but ", names.size(), " column_names ", columns_str(names));
  for (size_t i = 0; i < columns.size(); ++i) {
    SPROUT_CHECK(columns[i].ndim() >= 1, ValueError, "NumpySlicesDataset: column '", names[i],
                 "' is a scalar; each column needs a first axis to slice rows from");
    SPROUT_CHECK(columns[i].dim(0) == columns[0].dim(0), ValueError, "NumpySlicesDataset: column '", names[i],
                 "' has ", columns[i].dim(0), " rows but column '", names[0], "' has ", columns[0].dim(0));
  }
  return std::make_shared<TensorSliceSource>(std::move(columns));
}

RandomAccessSourceNode::RandomAccessSourceNode(RowSourcePtr source, SamplerPtr sampler, ColumnNames columns,
                                               int num_workers, size_t prefetch)
    : source_(std::move(source)), sampler_(std::move(sampler)), pool_(num_workers, prefetch) {
  columns_ = std::move(columns);
  label_ = "source";
}

std::optional<Row> RandomAccessSourceNode::next() {
  if (!indices_ready_) {
    indices_ = sampler_->indices(source_->size(), epoch_);
    indices_ready_ = true;
  }
  while (pool_.has_room() && submitted_ < indices_.size()) {
    const int64_t index = indices_[submitted_++];
    pool_.submit([this, index] {
      try {
        Row row = source_->get(index);
        SPROUT_CHECK(row.size() == columns_.size(), RuntimeError, "row ", index, " has ", row.size(),
                     " columns, but the dataset declares ", columns_.size(), ": ", columns_str(columns_));
        return row;
      } catch (...) {
        std::rethrow_exception(annotate_error(std::current_exception(), "in " + label() + " reading row " +
                                                                            std::to_string(index)));
      }
    });
  }
  if (pool_.in_flight() == 0) return std::nullopt;
  return pool_.take();
}

void RandomAccessSourceNode::reset() {
  // Drain rows of the old epoch still in flight (an epoch cut short by take()).
  pool_.drain();
  indices_ready_ = false;
  submitted_ = 0;
  ++epoch_;
}

StreamSourceNode::StreamSourceNode(RowStreamPtr stream, ColumnNames columns, int64_t num_samples,
                                   int64_t known_size)
    : stream_(std::move(stream)), num_samples_(num_samples), known_size_(known_size) {
  columns_ = std::move(columns);
  label_ = "source";
}

int64_t StreamSourceNode::size() const {
  if (known_size_ < 0) return -1;
  return num_samples_ > 0 ? std::min(num_samples_, known_size_) : known_size_;
}

std::optional<Row> StreamSourceNode::next() {
  if (num_samples_ > 0 && produced_ >= num_samples_) return std::nullopt;
  std::optional<Row> row;
  try {
    if (!started_) {
      stream_->restart();
      started_ = true;
    }
    row = stream_->next();
    if (row)
      SPROUT_CHECK(row->size() == columns_.size(), RuntimeError, "row ", produced_, " has ", row->size(),
                   " columns, but the dataset declares ", columns_.size(), ": ", columns_str(columns_));
  } catch (const Cancelled&) {
    throw;
  } catch (...) {
    std::rethrow_exception(annotate_error(std::current_exception(), "in " + label() + " producing row " +
                                                                        std::to_string(produced_)));
  }
  if (row) ++produced_;
  return row;
}

void StreamSourceNode::reset() {
  started_ = false;
  produced_ = 0;
  ++epoch_;
}

}  // namespace sprout::data
