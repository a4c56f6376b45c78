// File-format parsing, samplers over blocks, batch padding and column layouts, without Python.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "base/error.h"
#include "data/batch_node.h"
#include "data/column_layout.h"
#include "data/image_codec.h"
#include "data/sources.h"
#include "data/text_sources.h"

namespace sprout::data {
namespace {

TEST(DataCsv, QuotesDelimitersAndLineNumbers) {
  auto records = parse_csv("CSVDataset", "f.csv", "a,\"b,1\"\n\"say \"\"hi\"\"\",\"two\nlines\"\r\n\nx,y", ',');
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].fields, (std::vector<std::string>{"a", "b,1"}));
  EXPECT_EQ(records[1].fields, (std::vector<std::string>{"say \"hi\"", "two\nlines"}));
  EXPECT_EQ(records[2].first_line, 5);  // the quoted newline and the blank line both count
  EXPECT_THROW(parse_csv("CSVDataset", "f.csv", "\"open", ','), ValueError);
  EXPECT_THROW(parse_csv("CSVDataset", "f.csv", "\"a\"b", ','), ValueError);
}

TEST(DataSampler, BlocksShuffleFilesOrRowsWithinAndShardEvenly) {
  auto files = block_sampler({3, 2}, true, false, 1, 0, 0, 7);
  std::vector<int64_t> order = files->indices(5, 0);
  EXPECT_TRUE(order == (std::vector<int64_t>{0, 1, 2, 3, 4}) || order == (std::vector<int64_t>{3, 4, 0, 1, 2}));
  auto within = block_sampler({3, 2}, false, true, 1, 0, 0, 7);
  order = within->indices(5, 0);
  EXPECT_EQ(std::set<int64_t>(order.begin(), order.begin() + 3), (std::set<int64_t>{0, 1, 2}));
  std::multiset<int64_t> all;
  for (int64_t shard = 0; shard < 2; ++shard)
    for (int64_t i : block_sampler({3, 3}, true, true, 2, shard, 0, 1)->indices(6, 0)) all.insert(i);
  EXPECT_EQ(all, (std::multiset<int64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(DataColumnLayout, InPlaceOrOutputsFirst) {
  auto same = ColumnLayout::make("map", {"a", "b", "c"}, {"b"}, {"z"});
  EXPECT_TRUE(same.in_place);
  EXPECT_EQ(same.columns, (ColumnNames{"a", "z", "c"}));
  auto more = ColumnLayout::make("map", {"a", "b", "c"}, {"b"}, {"x", "y"});
  EXPECT_EQ(more.columns, (ColumnNames{"x", "y", "a", "c"}));
  EXPECT_THROW(ColumnLayout::make("map", {"a", "b"}, {"a"}, {"b"}), ValueError);
  EXPECT_THROW(ColumnLayout::make("map", {"a"}, {"q"}, {}), ValueError);
}

class VectorSource final : public RowSource {
 public:
  explicit VectorSource(std::vector<Row> rows) : rows_(std::move(rows)) {}
  int64_t size() const override { return static_cast<int64_t>(rows_.size()); }
  Row get(int64_t i) const override { return rows_[static_cast<size_t>(i)]; }

 private:
  std::vector<Row> rows_;
};

TEST(DataBatch, PadInfoPadsToTheLongestRowAndStacksText) {
  std::vector<Row> rows;
  for (int64_t n = 1; n <= 3; ++n) {
    Tensor t = Tensor::empty(Shape{n}, DType::Int32);
    for (int64_t i = 0; i < n; ++i) t.data<int32_t>()[i] = static_cast<int32_t>(i + 1);
    rows.push_back(Row{t, Field::string("s" + std::to_string(n))});
  }
  auto source = std::make_shared<RandomAccessSourceNode>(std::make_shared<VectorSource>(rows),
                                                         sequential_sampler(0, 0), ColumnNames{"seq", "text"}, 1, 2);
  BatchNode batch(source, 3, false, 2, 2, nullptr, {}, {}, {{"seq", PadSpec{{}, -1}}});
  auto out = batch.next();
  ASSERT_TRUE(out);
  const Tensor& seq = (*out)[0].tensor();
  EXPECT_EQ(seq.shape(), (Shape{3, 3}));
  EXPECT_EQ(seq.element_as_int(1), -1);  // row 0 = [1, -1, -1]
  EXPECT_EQ(seq.element_as_int(8), 3);
  EXPECT_EQ((*out)[1].strings().values, (std::vector<std::string>{"s1", "s2", "s3"}));
}

TEST(DataImage, EncodeDecodeRoundTripsPng) {
  Tensor image = Tensor::empty(Shape{4, 5, 3}, DType::UInt8);
  auto* p = static_cast<uint8_t*>(image.raw_data());
  for (int64_t i = 0; i < image.numel(); ++i) p[i] = static_cast<uint8_t>(i * 7);
  Tensor back = decode_image(encode_image(image, ".png"), "test");
  ASSERT_EQ(back.shape(), image.shape());
  for (int64_t i = 0; i < image.numel(); ++i) EXPECT_EQ(static_cast<uint8_t*>(back.raw_data())[i], p[i]);
  Tensor junk = Tensor::zeros(Shape{10}, DType::UInt8);
  EXPECT_THROW(decode_image(junk, "junk"), RuntimeError);
}

}  // namespace
}  // namespace sprout::data
