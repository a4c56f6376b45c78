#include "data/shuffle_node.h"

#include "base/error.h"

namespace sprout::data {

ShuffleNode::ShuffleNode(NodePtr child, int64_t buffer_size, uint64_t seed)
    : DatasetNode({std::move(child)}), buffer_size_(buffer_size), seed_(seed), rng_(mix_seed({seed, 0})) {
  SPROUT_CHECK(buffer_size >= 2, ValueError, "shuffle: buffer_size must be >= 2, but got ", buffer_size);
  columns_ = children_[0]->columns();
}

std::optional<Row> ShuffleNode::next() {
  while (!child_done_ && static_cast<int64_t>(buffer_.size()) < buffer_size_) {
    std::optional<Row> row = children_[0]->next();
    if (!row) {
      child_done_ = true;
      break;
    }
    buffer_.push_back(std::move(*row));
  }
  if (buffer_.empty()) return std::nullopt;
  const size_t pick = rng_.uniform(buffer_.size());
  Row out = std::move(buffer_[pick]);
  if (!child_done_) {
    if (std::optional<Row> row = children_[0]->next()) {
      buffer_[pick] = std::move(*row);
      return out;
    }
    child_done_ = true;
  }
  buffer_[pick] = std::move(buffer_.back());
  buffer_.pop_back();
  return out;
}

void ShuffleNode::reset() {
  buffer_.clear();
  child_done_ = false;
  DatasetNode::reset();
  rng_ = Rng(mix_seed({seed_, static_cast<uint64_t>(epoch_)}));
}

}  // namespace sprout::data
