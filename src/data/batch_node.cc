#include "data/batch_node.h"

#include <algorithm>

#include "base/error.h"

namespace sprout::data {

namespace {

// `t` padded at the end of each axis to `shape` with `value`.
Tensor pad_end(const Tensor& t, const Shape& shape, double value, const std::string& column) {
  if (t.shape() == shape) return t;
  Tensor out = Tensor::empty(shape, t.dtype());
  out.copy_from(Tensor::scalar(value, t.dtype()));
  Tensor region = out;
  for (int64_t d = 0; d < t.ndim(); ++d) region = region.slice(d, 0, t.dim(d), 1);
  if (t.numel() > 0) region.copy_from(t);
  return out;
}

void pad_column(std::vector<Field>& items, const PadSpec& spec, const std::string& column) {
  const int64_t ndim = static_cast<int64_t>(items[0].shape().size());
  SPROUT_CHECK(spec.shape.empty() || static_cast<int64_t>(spec.shape.size()) == ndim, ValueError,
               "batch: pad_info for column '", column, "' has a shape of ", spec.shape.size(), " axes, but its rows have ",
               ndim);
  Shape target(static_cast<size_t>(ndim), 0);
  for (const Field& f : items) {
    SPROUT_CHECK(!f.is_string(), TypeError, "batch: pad_info cannot pad the text column '", column, "'");
    SPROUT_CHECK(static_cast<int64_t>(f.shape().size()) == ndim, ValueError, "batch: column '", column,
                 "' has rows of ", ndim, " and ", f.shape().size(), " axes; padding cannot make them one shape");
    for (int64_t d = 0; d < ndim; ++d) target[d] = std::max(target[d], f.shape()[d]);
  }
  for (int64_t d = 0; d < ndim && !spec.shape.empty(); ++d) {
    if (spec.shape[d] < 0) continue;
    SPROUT_CHECK(spec.shape[d] >= target[d], ValueError, "batch: pad_info pads column '", column, "' axis ", d,
                 " to ", spec.shape[d], ", but a row of the batch has ", target[d]);
    target[d] = spec.shape[d];
  }
  for (Field& f : items) f = pad_end(f.tensor(), target, spec.value, column);
}

}  // namespace

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

BatchNode::BatchNode(NodePtr child, int64_t batch_size, bool drop_remainder, int num_workers, size_t prefetch,
                     BatchFunction per_batch_map, const ColumnNames& input_columns, const ColumnNames& output_columns,
                     std::map<std::string, PadSpec> pad_info)
    : DatasetNode({std::move(child)}),
      batch_size_(batch_size),
      drop_remainder_(drop_remainder),
      per_batch_map_(std::move(per_batch_map)),
      pool_(num_workers, prefetch) {
  SPROUT_CHECK(batch_size >= 1, ValueError, "batch: batch_size must be >= 1, but got ", batch_size);
  const ColumnNames& in = children_[0]->columns();
  if (per_batch_map_) {
    layout_ = ColumnLayout::make("batch", in, input_columns, output_columns, /*all_by_default=*/true);
    columns_ = layout_.columns;
  } else {
    columns_ = in;
  }
  label_ = "batch";
  pads_.resize(columns_.size());
  for (auto& [name, spec] : pad_info) pads_[static_cast<size_t>(column_index("batch (pad_info)", columns_, name))] = spec;
}

int64_t BatchNode::size() const {
  const int64_t n = children_[0]->size();
  if (n < 0) return -1;
  return drop_remainder_ ? n / batch_size_ : (n + batch_size_ - 1) / batch_size_;
}

Row BatchNode::make_batch(std::vector<Row> rows, const BatchInfo& info) const {
  const std::string api = "batch (batch " + std::to_string(info.batch_num) + ")";
  const size_t in_columns = rows[0].size();
  Columns columns(in_columns);
  for (auto& r : rows)
    for (size_t c = 0; c < in_columns; ++c) columns[c].push_back(std::move(r[c]));
  if (per_batch_map_) {
    try {
      Columns outputs = per_batch_map_(layout_.take_inputs(columns), info);
      SPROUT_CHECK(outputs.size() == layout_.num_outputs, RuntimeError, "batch: per_batch_map returned ",
                   outputs.size(), " columns, but output_columns names ", layout_.num_outputs);
      columns = layout_.assemble(columns, std::move(outputs));
    } catch (...) {
      std::rethrow_exception(annotate_error(std::current_exception(), "in " + label() + " (per_batch_map) on batch " +
                                                                          std::to_string(info.batch_num) + " of epoch " +
                                                                          std::to_string(info.epoch_num)));
    }
  }
  Row out;
  for (size_t c = 0; c < columns.size(); ++c) {
    SPROUT_CHECK(!columns[c].empty(), RuntimeError, api, ": column '", columns_[c], "' has no rows");
    if (pads_[c]) pad_column(columns[c], *pads_[c], columns_[c]);
    out.push_back(stack_rows(columns[c], api, columns_[c]));
  }
  return out;
}

std::optional<Row> BatchNode::next() {
  while (pool_.has_room() && !child_done_) {
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
    if (rows.empty() || (drop_remainder_ && static_cast<int64_t>(rows.size()) < batch_size_)) break;
    const BatchInfo info{batches_++, epoch_};
    pool_.submit([this, rows = std::move(rows), info]() mutable { return make_batch(std::move(rows), info); });
  }
  if (pool_.in_flight() == 0) return std::nullopt;
  return pool_.take();
}

void BatchNode::reset() {
  pool_.drain();
  child_done_ = false;
  batches_ = 0;
  DatasetNode::reset();
}

void BatchNode::stop() {
  pool_.shutdown();
  DatasetNode::stop();
}

}  // namespace sprout::data
