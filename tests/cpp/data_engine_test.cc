// The pipeline engine without Python: ordering, determinism across worker counts, errors, stopping.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "base/error.h"
#include "base/parallel.h"
#include "data/batch_node.h"
#include "data/iterator.h"
#include "data/map_node.h"
#include "data/shuffle_node.h"
#include "data/sources.h"
#include "data/structure_nodes.h"

namespace sprout::data {
namespace {

Tensor range_tensor(int64_t n) {
  Tensor t = Tensor::empty(Shape{n}, DType::Int64);
  for (int64_t i = 0; i < n; ++i) t.data<int64_t>()[i] = i;
  return t;
}

NodePtr range_source(int64_t n, int workers = 2, SamplerPtr sampler = sequential_sampler(0, 0)) {
  return std::make_shared<RandomAccessSourceNode>(tensor_slice_source({range_tensor(n)}, {"x"}), sampler,
                                                  ColumnNames{"x"}, workers, 8);
}

std::vector<int64_t> drain(DatasetNode& node) {
  std::vector<int64_t> out;
  while (auto row = node.next()) out.push_back((*row)[0].tensor().element_as_int(0));
  return out;
}

// A map whose per-row time varies, so workers finish out of order.
RowFunction jittery_double() {
  return [](Row row, const RowContext& ctx) {
    std::this_thread::sleep_for(std::chrono::microseconds((ctx.index * 7919) % 300));
    Tensor out = Tensor::empty(Shape{}, DType::Int64);
    out.data<int64_t>()[0] = row[0].tensor().element_as_int(0) * 2;
    return Row{out};
  };
}

TEST(DataEngine, SequentialSourceKeepsOrder) {
  auto src = range_source(50, 3);
  std::vector<int64_t> got = drain(*src);
  ASSERT_EQ(got.size(), 50u);
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(got[static_cast<size_t>(i)], i);
}

TEST(DataEngine, MapKeepsOrderWhateverTheWorkerCount) {
  for (int workers : {1, 2, 4}) {
    MapNode map(range_source(40), jittery_double(), {"x"}, {}, workers, 6, 0);
    std::vector<int64_t> got = drain(map);
    ASSERT_EQ(got.size(), 40u);
    for (int64_t i = 0; i < 40; ++i) EXPECT_EQ(got[static_cast<size_t>(i)], 2 * i) << "workers=" << workers;
  }
}

TEST(DataEngine, RandomSamplerAndShuffleAreDeterministicPerSeedAndVaryPerEpoch) {
  auto run = [](int workers, uint64_t seed) {
    auto src = range_source(30, workers, random_sampler(false, 0, seed));
    ShuffleNode shuffle(src, 7, seed);
    std::vector<int64_t> first = drain(shuffle);
    shuffle.reset();
    std::vector<int64_t> second = drain(shuffle);
    return std::make_pair(first, second);
  };
  auto a = run(1, 42), b = run(4, 42), c = run(2, 43);
  EXPECT_EQ(a, b);
  EXPECT_NE(a.first, c.first);
  EXPECT_NE(a.first, a.second);
  EXPECT_EQ(std::set<int64_t>(a.first.begin(), a.first.end()).size(), 30u);
}

TEST(DataEngine, DistributedShardsCoverEveryRowOnce) {
  std::multiset<int64_t> all;
  for (int64_t shard = 0; shard < 3; ++shard) {
    auto src = range_source(12, 2, distributed_sampler(3, shard, true, 0, 0, 5));
    EXPECT_EQ(src->size(), 4);
    for (int64_t v : drain(*src)) all.insert(v);
  }
  EXPECT_EQ(all.size(), 12u);
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(all.count(i), 1u);
}

TEST(DataEngine, WorkersRunKernelsSerially) {
  // Each worker is a share of the cores already: its kernels must not start OpenMP teams of their own.
  const int saved = num_threads();
  set_num_threads(2);
  std::atomic<int> most_threads{0};
  RowFunction ask = [&](Row row, const RowContext&) {
    most_threads = std::max(most_threads.load(), num_threads());
    return row;
  };
  MapNode map(range_source(8), ask, {"x"}, {}, 2, 4, 0);
  EXPECT_EQ(drain(map).size(), 8u);
  EXPECT_EQ(most_threads.load(), 1);
  EXPECT_EQ(num_threads(), 2);  // this thread is no worker
  set_num_threads(saved);
}

TEST(DataEngine, BatchRepeatTakeSkipSizes) {
  auto batch = std::make_shared<BatchNode>(range_source(10), 4, false);
  EXPECT_EQ(batch->size(), 3);
  auto first = batch->next();
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)[0].tensor().shape(), (Shape{4}));
  auto repeat = std::make_shared<RepeatNode>(std::make_shared<BatchNode>(range_source(10), 4, true), 3);
  EXPECT_EQ(repeat->size(), 6);
  int count = 0;
  while (repeat->next()) ++count;
  EXPECT_EQ(count, 6);
  SkipNode skip(std::make_shared<TakeNode>(range_source(10), 6), 2);
  EXPECT_EQ(drain(skip), (std::vector<int64_t>{2, 3, 4, 5}));
}

TEST(DataEngine, RepeatForeverOfAnEmptySourceEnds) {
  // A filter that keeps nothing: its size is unknown (-1), so only the empty pass tells.
  RowPredicate none = [](Row, const RowContext&) { return false; };
  RepeatNode repeat(std::make_shared<FilterNode>(range_source(3), none, ColumnNames{}, 1, 2), -1);
  EXPECT_FALSE(repeat.next());
}

TEST(DataEngine, ZipConcatProjectRename) {
  auto renamed = ColumnSelectNode::rename(range_source(5), {"x"}, {"y"});
  ZipNode zip({range_source(3), renamed});
  EXPECT_EQ(zip.columns(), (ColumnNames{"x", "y"}));
  EXPECT_EQ(zip.size(), 3);
  ConcatNode concat({range_source(2), range_source(3)});
  EXPECT_EQ(drain(concat), (std::vector<int64_t>{0, 1, 0, 1, 2}));
  EXPECT_THROW(ZipNode({range_source(2), range_source(2)}), ValueError);
  EXPECT_THROW(ColumnSelectNode::project(range_source(2), {"nope"}), ValueError);
}

TEST(DataEngine, WorkerErrorSurfacesAtItsRowWithANote) {
  RowFunction fail_on_7 = [](Row row, const RowContext& ctx) {
    SPROUT_CHECK(ctx.index != 7, ValueError, "bad row");
    return row;
  };
  auto map = std::make_shared<MapNode>(range_source(20), fail_on_7, ColumnNames{"x"}, ColumnNames{}, 3, 8, 0);
  map->set_label("map(operations=[fail])");
  PipelineIterator it(map, 1, 4);
  Row row;
  int seen = 0;
  try {
    while (it.next(row) == PipelineIterator::Status::Row) ++seen;
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_EQ(seen, 7);
    EXPECT_NE(std::string(e.what()).find("bad row"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("map(operations=[fail]) on row 7"), std::string::npos);
  }
}

TEST(DataEngine, DroppingAnIteratorMidEpochStopsPromptly) {
  RowFunction slow = [](Row row, const RowContext&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return row;
  };
  auto start = std::chrono::steady_clock::now();
  {
    auto map = std::make_shared<MapNode>(std::make_shared<RepeatNode>(range_source(100), -1), slow,
                                         ColumnNames{}, ColumnNames{}, 2, 8, 0);
    PipelineIterator it(map, -1, 4);
    Row row;
    for (int i = 0; i < 10; ++i) ASSERT_EQ(it.next(row), PipelineIterator::Status::Row);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(DataEngine, InterruptStopsTheWait) {
  RowFunction forever = [](Row row, const RowContext&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return row;
  };
  auto map = std::make_shared<MapNode>(range_source(10), forever, ColumnNames{}, ColumnNames{}, 1, 2, 0);
  PipelineIterator it(map, 1, 2);
  Row row;
  EXPECT_THROW(it.next(row, [] { return true; }), Interrupted);
  EXPECT_EQ(it.next(row), PipelineIterator::Status::Finished);
}

TEST(DataEngine, EpochsEndAndFinish) {
  PipelineIterator it(range_source(3), 2, 2);
  Row row;
  std::vector<PipelineIterator::Status> statuses;
  for (;;) {
    auto s = it.next(row);
    statuses.push_back(s);
    if (s == PipelineIterator::Status::Finished) break;
  }
  EXPECT_EQ(statuses.size(), 9u);  // 3 rows + end, twice, then finished
  EXPECT_EQ(statuses[3], PipelineIterator::Status::EpochEnd);
}

}  // namespace
}  // namespace sprout::data
