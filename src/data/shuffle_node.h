// shuffle(buffer_size): MindSpore's buffer shuffle. The buffer fills with the first buffer_size rows;
// each output is a uniformly chosen buffer slot, refilled by the next input row. buffer_size >= the
// dataset size gives a full uniform shuffle. Reproducible per seed and epoch (Note [Seeds in the pipeline]).
#pragma once

#include "data/node.h"
#include "data/rng.h"

namespace sprout::data {

class ShuffleNode final : public DatasetNode {
 public:
  ShuffleNode(NodePtr child, int64_t buffer_size, uint64_t seed);
  std::optional<Row> next() override;
  void reset() override;
  int64_t size() const override { return children_[0]->size(); }

 private:
  int64_t buffer_size_;
  uint64_t seed_;
  Rng rng_;
  std::vector<Row> buffer_;
  bool child_done_ = false;
};

}  // namespace sprout::data
