// Source nodes: where rows come from.
//
// A random-access source (RowSource: size + get(i)) is read through a sampler by a pool of workers,
// so rows are read in parallel and still come out in sampler order. A stream (RowStream: a Python
// generator, a text file) can only be read in order; it is read on the thread that pulls the node.
#pragma once

#include <functional>
#include <memory>

#include "data/node.h"
#include "data/sampler.h"
#include "data/worker_pool.h"

namespace sprout::data {

class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual int64_t size() const = 0;
  // Row `index`; called concurrently from worker threads.
  virtual Row get(int64_t index) const = 0;
};
using RowSourcePtr = std::shared_ptr<const RowSource>;

class RowStream {
 public:
  virtual ~RowStream() = default;
  virtual void restart() = 0;                 // called before each epoch's first row
  virtual std::optional<Row> next() = 0;      // nullopt at the end of the stream
};
using RowStreamPtr = std::shared_ptr<RowStream>;

// Rows are slices along axis 0 of equally long column tensors (NumpySlicesDataset). get() copies the
// slice, so a transform that writes into its input cannot change the source for the next epoch.
RowSourcePtr tensor_slice_source(std::vector<Tensor> columns, const ColumnNames& names);

class RandomAccessSourceNode final : public DatasetNode {
 public:
  RandomAccessSourceNode(RowSourcePtr source, SamplerPtr sampler, ColumnNames columns, int num_workers,
                         size_t prefetch);
  std::optional<Row> next() override;
  void reset() override;
  void stop() override { pool_.shutdown(); }
  int64_t size() const override { return sampler_->num_samples(source_->size()); }

 private:
  RowSourcePtr source_;
  SamplerPtr sampler_;
  OrderedWorkerPool<Row> pool_;
  std::vector<int64_t> indices_;
  bool indices_ready_ = false;
  size_t submitted_ = 0;
};

class StreamSourceNode final : public DatasetNode {
 public:
  // num_samples <= 0: the whole stream. `known_size` is -1 when the stream's length is unknown.
  StreamSourceNode(RowStreamPtr stream, ColumnNames columns, int64_t num_samples, int64_t known_size);
  std::optional<Row> next() override;
  void reset() override;
  int64_t size() const override;

 private:
  RowStreamPtr stream_;
  int64_t num_samples_, known_size_;
  int64_t produced_ = 0;
  bool started_ = false;
};

}  // namespace sprout::data
