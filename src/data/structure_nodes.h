// Nodes that reshape the stream without touching element data: repeat, take, skip, project, rename,
// zip, concat.
#pragma once

#include "data/node.h"

namespace sprout::data {

class RepeatNode final : public DatasetNode {
 public:
  RepeatNode(NodePtr child, int64_t count);  // count -1: forever
  std::optional<Row> next() override;
  void reset() override;
  int64_t size() const override;

 private:
  int64_t count_, done_ = 0, rows_this_pass_ = 0;
};

class TakeNode final : public DatasetNode {
 public:
  TakeNode(NodePtr child, int64_t count);  // count -1: all rows
  std::optional<Row> next() override;
  void reset() override;
  int64_t size() const override;

 private:
  int64_t count_, taken_ = 0;
};

class SkipNode final : public DatasetNode {
 public:
  SkipNode(NodePtr child, int64_t count);
  std::optional<Row> next() override;
  void reset() override;
  int64_t size() const override;

 private:
  int64_t count_;
  bool skipped_ = false;
};

// project(columns) keeps and reorders columns; rename maps names. Both are one ColumnSelectNode.
class ColumnSelectNode final : public DatasetNode {
 public:
  static std::shared_ptr<ColumnSelectNode> project(NodePtr child, const ColumnNames& columns);
  static std::shared_ptr<ColumnSelectNode> rename(NodePtr child, const ColumnNames& from, const ColumnNames& to);
  ColumnSelectNode(NodePtr child, std::vector<int64_t> index, ColumnNames names);
  std::optional<Row> next() override;
  int64_t size() const override { return children_[0]->size(); }

 private:
  std::vector<int64_t> index_;
};

class ZipNode final : public DatasetNode {
 public:
  explicit ZipNode(std::vector<NodePtr> children);
  std::optional<Row> next() override;
  int64_t size() const override;
};

class ConcatNode final : public DatasetNode {
 public:
  explicit ConcatNode(std::vector<NodePtr> children);
  std::optional<Row> next() override;
  void reset() override;
  int64_t size() const override;

 private:
  size_t current_ = 0;
};

}  // namespace sprout::data
