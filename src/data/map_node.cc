#include "data/map_node.h"

#include "base/error.h"
#include "data/rng.h"

namespace sprout::data {

namespace {

std::string row_where(const std::string& label, int64_t index, int64_t epoch) {
  return "in " + label + " on row " + std::to_string(index) + " of epoch " + std::to_string(epoch);
}

}  // namespace

MapNode::MapNode(NodePtr child, RowFunction fn, const ColumnNames& input_columns, const ColumnNames& output_columns,
                 int num_workers, size_t prefetch, uint64_t seed)
    : DatasetNode({std::move(child)}),
      fn_(std::move(fn)),
      layout_(ColumnLayout::make("map", children_[0]->columns(), input_columns, output_columns)),
      seed_(seed),
      pool_(num_workers, prefetch) {
  columns_ = layout_.columns;
  label_ = "map";
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
        Row outputs = fn_(layout_.take_inputs(row), ctx);
        SPROUT_CHECK(outputs.size() == layout_.num_outputs, RuntimeError, "map: the operations returned ",
                     outputs.size(), " columns, but output_columns names ", layout_.num_outputs);
        return layout_.assemble(row, std::move(outputs));
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
  input_index_ = ColumnLayout::make("filter", columns_, input_columns, {}, /*all_by_default=*/true).input_index;
  label_ = "filter";
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
