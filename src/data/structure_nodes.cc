#include "data/structure_nodes.h"

#include <algorithm>
#include <set>

#include "base/error.h"

namespace sprout::data {

RepeatNode::RepeatNode(NodePtr child, int64_t count) : DatasetNode({std::move(child)}), count_(count) {
  SPROUT_CHECK(count == -1 || count >= 1, ValueError, "repeat: count must be -1 (forever) or >= 1, but got ", count);
  columns_ = children_[0]->columns();
}

int64_t RepeatNode::size() const {
  const int64_t n = children_[0]->size();
  return n < 0 || count_ < 0 ? -1 : n * count_;
}

std::optional<Row> RepeatNode::next() {
  for (;;) {
    if (count_ >= 0 && done_ >= count_) return std::nullopt;
    if (std::optional<Row> row = children_[0]->next()) {
      ++rows_this_pass_;
      return row;
    }
    ++done_;
    // A pass without rows would be followed by more of them: repeat(-1) of an empty child would spin.
    if ((count_ >= 0 && done_ >= count_) || rows_this_pass_ == 0) return std::nullopt;
    rows_this_pass_ = 0;
    children_[0]->reset();
  }
}

void RepeatNode::reset() {
  done_ = rows_this_pass_ = 0;
  DatasetNode::reset();
}

TakeNode::TakeNode(NodePtr child, int64_t count) : DatasetNode({std::move(child)}), count_(count) {
  SPROUT_CHECK(count == -1 || count >= 0, ValueError, "take: count must be -1 (all) or >= 0, but got ", count);
  columns_ = children_[0]->columns();
}

int64_t TakeNode::size() const {
  const int64_t n = children_[0]->size();
  if (count_ < 0) return n;
  return n < 0 ? -1 : std::min(n, count_);
}

std::optional<Row> TakeNode::next() {
  if (count_ >= 0 && taken_ >= count_) return std::nullopt;
  std::optional<Row> row = children_[0]->next();
  if (row) ++taken_;
  return row;
}

void TakeNode::reset() {
  taken_ = 0;
  DatasetNode::reset();
}

SkipNode::SkipNode(NodePtr child, int64_t count) : DatasetNode({std::move(child)}), count_(count) {
  SPROUT_CHECK(count >= 0, ValueError, "skip: count must be >= 0, but got ", count);
  columns_ = children_[0]->columns();
}

int64_t SkipNode::size() const {
  const int64_t n = children_[0]->size();
  return n < 0 ? -1 : std::max<int64_t>(0, n - count_);
}

std::optional<Row> SkipNode::next() {
  if (!skipped_) {
    skipped_ = true;
    for (int64_t i = 0; i < count_; ++i)
      if (!children_[0]->next()) return std::nullopt;
  }
  return children_[0]->next();
}

void SkipNode::reset() {
  skipped_ = false;
  DatasetNode::reset();
}

ColumnSelectNode::ColumnSelectNode(NodePtr child, std::vector<int64_t> index, ColumnNames names)
    : DatasetNode({std::move(child)}), index_(std::move(index)) {
  columns_ = std::move(names);
}

std::shared_ptr<ColumnSelectNode> ColumnSelectNode::project(NodePtr child, const ColumnNames& columns) {
  SPROUT_CHECK(!columns.empty(), ValueError, "project: columns must not be empty");
  std::vector<int64_t> index;
  for (const auto& name : columns) {
    int64_t i = column_index("project", child->columns(), name);
    SPROUT_CHECK(std::find(index.begin(), index.end(), i) == index.end(), ValueError, "project: column '", name,
                 "' is listed twice");
    index.push_back(i);
  }
  return std::make_shared<ColumnSelectNode>(std::move(child), std::move(index), columns);
}

std::shared_ptr<ColumnSelectNode> ColumnSelectNode::rename(NodePtr child, const ColumnNames& from,
                                                           const ColumnNames& to) {
  SPROUT_CHECK(from.size() == to.size(), ValueError, "rename: input_columns has ", from.size(),
               " names but output_columns has ", to.size());
  ColumnNames names = child->columns();
  for (size_t k = 0; k < from.size(); ++k) names[static_cast<size_t>(column_index("rename", child->columns(), from[k]))] = to[k];
  std::set<std::string> seen;
  for (const auto& n : names)
    SPROUT_CHECK(seen.insert(n).second, ValueError, "rename: column '", n, "' would appear twice in ", columns_str(names));
  std::vector<int64_t> index(names.size());
  for (size_t i = 0; i < index.size(); ++i) index[i] = static_cast<int64_t>(i);
  return std::make_shared<ColumnSelectNode>(std::move(child), std::move(index), std::move(names));
}

std::optional<Row> ColumnSelectNode::next() {
  std::optional<Row> row = children_[0]->next();
  if (!row) return row;
  Row out;
  out.reserve(index_.size());
  for (int64_t i : index_) out.push_back(std::move((*row)[static_cast<size_t>(i)]));
  return out;
}

ZipNode::ZipNode(std::vector<NodePtr> children) : DatasetNode(std::move(children)) {
  SPROUT_CHECK(children_.size() >= 2, ValueError, "zip: needs at least two datasets, but got ", children_.size());
  std::set<std::string> seen;
  for (const auto& c : children_)
    for (const auto& name : c->columns()) {
      SPROUT_CHECK(seen.insert(name).second, ValueError, "zip: column '", name,
                   "' appears in more than one dataset; rename it first");
      columns_.push_back(name);
    }
}

int64_t ZipNode::size() const {
  int64_t n = -1;
  for (const auto& c : children_) {
    const int64_t s = c->size();
    if (s < 0) return -1;
    n = n < 0 ? s : std::min(n, s);
  }
  return n;
}

std::optional<Row> ZipNode::next() {
  Row out;
  for (auto& c : children_) {
    std::optional<Row> row = c->next();
    if (!row) return std::nullopt;
    for (auto& t : *row) out.push_back(std::move(t));
  }
  return out;
}

ConcatNode::ConcatNode(std::vector<NodePtr> children) : DatasetNode(std::move(children)) {
  SPROUT_CHECK(!children_.empty(), ValueError, "concat: needs at least one dataset");
  columns_ = children_[0]->columns();
  for (size_t i = 1; i < children_.size(); ++i)
    SPROUT_CHECK(children_[i]->columns() == columns_, ValueError, "concat: dataset ", i, " has columns ",
                 columns_str(children_[i]->columns()), " but dataset 0 has ", columns_str(columns_),
                 "; concatenated datasets need the same columns");
}

int64_t ConcatNode::size() const {
  int64_t n = 0;
  for (const auto& c : children_) {
    const int64_t s = c->size();
    if (s < 0) return -1;
    n += s;
  }
  return n;
}

std::optional<Row> ConcatNode::next() {
  while (current_ < children_.size()) {
    if (std::optional<Row> row = children_[current_]->next()) return row;
    ++current_;
  }
  return std::nullopt;
}

void ConcatNode::reset() {
  current_ = 0;
  DatasetNode::reset();
}

}  // namespace sprout::data
