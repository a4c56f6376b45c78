#include "data/map_node.h"

#include <algorithm>

#include "base/error.h"
#include "data/rng.h"

namespace sprout::data {

namespace {

std::vector<int64_t> resolve_columns(const std::string& api, const ColumnNames& available, const ColumnNames& wanted) {
  std::vector<int64_t> out;
  for (const auto& name : wanted) {
    int64_t i = column_index(api, available, name);
    SPROUT_CHECK(std::find(out.begin(), out.end(), i) == out.end(), ValueError, api, ": column '", name,
                 "' is listed twice in input_columns");
    out.push_back(i);
  }
  if (out.empty()) out.push_back(0);
  return out;
}

Row pick(Row& row, const std::vector<int64_t>& index) {
  Row out;
  out.reserve(index.size());
  for (int64_t i : index) out.push_back(std::move(row[static_cast<size_t>(i)]));
  return out;
}

std::string row_where(const std::string& label, int64_t index, int64_t epoch) {
  return "in " + label + " on row " + std::to_string(index) + " of epoch " + std::to_string(epoch);
}

}  // namespace

MapNode::MapNode(NodePtr child, RowFunction fn, const ColumnNames& input_columns, const ColumnNames& output_columns,
                 int num_workers, size_t prefetch, uint64_t seed)
    : DatasetNode({std::move(child)}), fn_(std::move(fn)), seed_(seed), pool_(num_workers, prefetch) {
  const ColumnNames& in = children_[0]->columns();
  SPROUT_CHECK(!in.empty(), ValueError, "map: the dataset has no columns");
  input_index_ = resolve_columns("map", in, input_columns);
  ColumnNames inputs;
  for (int64_t i : input_index_) inputs.push_back(in[static_cast<size_t>(i)]);
  const ColumnNames outputs = output_columns.empty() ? inputs : output_columns;
  num_outputs_ = outputs.size();
  for (int64_t i = 0; i < static_cast<int64_t>(in.size()); ++i)
    if (std::find(input_index_.begin(), input_index_.end(), i) == input_index_.end()) passthrough_.push_back(i);
  // MindSpore's layout: equal counts replace the inputs where they were; otherwise the outputs come
  // first, then the untouched columns in their order.
  in_place_ = outputs.size() == input_index_.size();
  if (in_place_) {
    columns_ = in;
    for (size_t k = 0; k < outputs.size(); ++k) columns_[static_cast<size_t>(input_index_[k])] = outputs[k];
  } else {
    columns_ = outputs;
    for (int64_t i : passthrough_) columns_.push_back(in[static_cast<size_t>(i)]);
  }
  for (size_t a = 0; a < columns_.size(); ++a)
    for (size_t b = a + 1; b < columns_.size(); ++b)
      SPROUT_CHECK(columns_[a] != columns_[b], ValueError, "map: output column '", columns_[a],
                   "' would appear twice; the columns after map would be ", columns_str(columns_));
}

std::optional<Row> MapNode::next() {
  while (pool_.has_room() && !child_done_) {
    std::optional<Row> row = children_[0]->next();
    if (!row) {
      child_done_ = true;
      break;
    }
    RowContext ctx{submitted_++, epoch_, 0};
    ctx.seed = mix_seed({seed_, static_cast<uint64_t>(ctx.epoch), static_cast<uint64_t>(ctx.index)});
    pool_.submit([this, row = std::move(*row), ctx]() mutable {
      try {
        Row outputs = fn_(pick(row, input_index_), ctx);
        SPROUT_CHECK(outputs.size() == num_outputs_, RuntimeError, "map: the operations returned ", outputs.size(),
                     " columns, but output_columns names ", num_outputs_);
        if (in_place_) {
          for (size_t k = 0; k < outputs.size(); ++k) row[static_cast<size_t>(input_index_[k])] = std::move(outputs[k]);
          return row;
        }
        for (int64_t i : passthrough_) outputs.push_back(std::move(row[static_cast<size_t>(i)]));
        return outputs;
      } catch (...) {
        std::rethrow_exception(annotate_error(std::current_exception(), row_where(label(), ctx.index, ctx.epoch)));
      }
    });
  }
  if (pool_.in_flight() == 0) return std::nullopt;
  return pool_.take();
}

void MapNode::reset() {
  pool_.drain();
  submitted_ = 0;
  child_done_ = false;
  DatasetNode::reset();
}

void MapNode::stop() {
  pool_.shutdown();
  DatasetNode::stop();
}

FilterNode::FilterNode(NodePtr child, RowPredicate predicate, const ColumnNames& input_columns, int num_workers,
                       size_t prefetch)
    : DatasetNode({std::move(child)}), predicate_(std::move(predicate)), pool_(num_workers, prefetch) {
  columns_ = children_[0]->columns();
  if (input_columns.empty()) {
    for (int64_t i = 0; i < static_cast<int64_t>(columns_.size()); ++i) input_index_.push_back(i);
  } else {
    input_index_ = resolve_columns("filter", columns_, input_columns);
  }
}

std::optional<Row> FilterNode::next() {
  for (;;) {
    while (pool_.has_room() && !child_done_) {
      std::optional<Row> row = children_[0]->next();
      if (!row) {
        child_done_ = true;
        break;
      }
      RowContext ctx{submitted_++, epoch_, 0};
      pool_.submit([this, row = std::move(*row), ctx]() mutable -> std::optional<Row> {
        try {
          Row inputs;
          for (int64_t i : input_index_) inputs.push_back(row[static_cast<size_t>(i)]);
          if (predicate_(std::move(inputs), ctx)) return std::move(row);
          return std::nullopt;
        } catch (...) {
          std::rethrow_exception(annotate_error(std::current_exception(), row_where(label(), ctx.index, ctx.epoch)));
        }
      });
    }
    if (pool_.in_flight() == 0) return std::nullopt;
    if (std::optional<Row> kept = pool_.take()) return kept;
  }
}

void FilterNode::reset() {
  pool_.drain();
  submitted_ = 0;
  child_done_ = false;
  DatasetNode::reset();
}

void FilterNode::stop() {
  pool_.shutdown();
  DatasetNode::stop();
}

}  // namespace sprout::data
