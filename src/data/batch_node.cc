#include "data/batch_node.h"

#include "base/error.h"

namespace sprout::data {

Field stack_rows(const std::vector<Field>& items, const std::string& api, const std::string& column) {
  SPROUT_ASSERT(!items.empty());
  const Field& first = items[0];
  Shape shape{static_cast<int64_t>(items.size())};
  for (int64_t d : first.shape()) shape.push_back(d);
  for (size_t i = 0; i < items.size(); ++i) {
    const Field& f = items[i];
    SPROUT_CHECK(f.type_name() == first.type_name(), TypeError, api, ": column '", column, "' has type ",
                 f.type_name(), " in row ", i, " of the batch but ", first.type_name(), " in row 0");
    SPROUT_CHECK(f.shape() == first.shape(), ValueError, api, ": column '", column, "' has shape ",
                 shape_str(f.shape()), " in row ", i, " of the batch but ", shape_str(first.shape()),
                 " in row 0; rows of a batch must have one shape (pad them with padded_batch or pad_info)");
  }
  if (first.is_string()) {
    StringArray out{shape, {}};
    for (const Field& f : items)
      out.values.insert(out.values.end(), f.strings().values.begin(), f.strings().values.end());
    return out;
  }
  Tensor out = Tensor::empty(shape, first.tensor().dtype());
  if (out.numel() > 0)
    for (size_t i = 0; i < items.size(); ++i) out.select(0, static_cast<int64_t>(i)).copy_from(items[i].tensor());
  return out;
}

BatchNode::BatchNode(NodePtr child, int64_t batch_size, bool drop_remainder)
    : DatasetNode({std::move(child)}), batch_size_(batch_size), drop_remainder_(drop_remainder) {
  SPROUT_CHECK(batch_size >= 1, ValueError, "batch: batch_size must be >= 1, but got ", batch_size);
  columns_ = children_[0]->columns();
}

int64_t BatchNode::size() const {
  const int64_t n = children_[0]->size();
  if (n < 0) return -1;
  return drop_remainder_ ? n / batch_size_ : (n + batch_size_ - 1) / batch_size_;
}

std::optional<Row> BatchNode::next() {
  if (child_done_) return std::nullopt;
  std::vector<Row> rows;
  rows.reserve(static_cast<size_t>(batch_size_));
  while (static_cast<int64_t>(rows.size()) < batch_size_) {
    std::optional<Row> row = children_[0]->next();
    if (!row) {
      child_done_ = true;
      break;
    }
    rows.push_back(std::move(*row));
  }
  if (rows.empty() || (drop_remainder_ && static_cast<int64_t>(rows.size()) < batch_size_)) return std::nullopt;
  Row out;
  std::vector<Field> column;
  for (size_t c = 0; c < columns_.size(); ++c) {
    column.clear();
    for (auto& r : rows) column.push_back(std::move(r[c]));
    out.push_back(stack_rows(column, "batch (batch " + std::to_string(batches_) + ")", columns_[c]));
  }
  ++batches_;
  return out;
}

void BatchNode::reset() {
  child_done_ = false;
  batches_ = 0;
  DatasetNode::reset();
}

}  // namespace sprout::data
