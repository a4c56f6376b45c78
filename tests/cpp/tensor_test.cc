#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "tensor/allocator.h"
#include "tensor/copy_back_to_front.h"
#include "tensor/tensor.h"

namespace sprout {
namespace {

Tensor iota(std::initializer_list<int64_t> shape) {
  Tensor t = Tensor::empty(Shape(shape), DType::Float32);
  float* p = t.data<float>();
  std::iota(p, p + t.numel(), 0.0f);
  return t;
}

TEST(Tensor, EmptyIsContiguousAndAligned) {
  Tensor t = Tensor::empty(Shape{2, 3, 4}, DType::Float32);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.strides(), (Strides{12, 4, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % kAlignment, 0u);
}

TEST(Tensor, NegativeDimensionIsAValueError) {
  EXPECT_THROW(Tensor::empty(Shape{2, -1}, DType::Float32), ValueError);
}

TEST(Tensor, TransposeIsAViewSharingStorage) {
  Tensor t = iota({2, 3});
  Tensor tt = t.transpose(0, 1);
  EXPECT_TRUE(tt.shares_storage(t));
  EXPECT_EQ(tt.shape(), (Shape{3, 2}));
  EXPECT_FALSE(tt.is_contiguous());
  EXPECT_EQ(tt.element_as_double(1), 3.0);  // tt[0][1] == t[1][0]
  Tensor c = tt.contiguous();
  EXPECT_FALSE(c.shares_storage(t));
  std::vector<float> expect = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c.data<float>()[i], expect[i]);
}

TEST(Tensor, ReshapeOfContiguousIsAView) {
  Tensor t = iota({2, 3, 4});
  Tensor r = t.reshape(Shape{6, -1});
  EXPECT_TRUE(r.shares_storage(t));
  EXPECT_EQ(r.shape(), (Shape{6, 4}));
  EXPECT_THROW(t.reshape(Shape{5, -1}), ValueError);
  EXPECT_THROW(t.reshape(Shape{-1, -1}), ValueError);
}

TEST(Tensor, ReshapeOfTransposedCopiesOnlyWhenNeeded) {
  Tensor t = iota({4, 6}).transpose(0, 1);  // (6, 4), strides (1, 6)
  Tensor merged = t.reshape(Shape{24});
  EXPECT_FALSE(merged.shares_storage(t));  // cannot merge non-contiguous dims
  EXPECT_EQ(merged.element_as_double(1), 6.0);
  Tensor split = t.reshape(Shape{2, 3, 4});  // splitting the first dim keeps a view
  EXPECT_TRUE(split.shares_storage(t));
  EXPECT_EQ(split.element_as_double(4), 1.0);
}

TEST(Tensor, SliceFollowsPythonSemantics) {
  Tensor t = iota({10});
  Tensor s = t.slice(0, 1, 8, 3);  // 1, 4, 7
  ASSERT_EQ(s.shape(), (Shape{3}));
  EXPECT_EQ(s.element_as_double(2), 7.0);
  Tensor r = t.slice(0, 100, -100, -4);  // 9, 5, 1 (clamped like slice.indices)
  ASSERT_EQ(r.shape(), (Shape{3}));
  EXPECT_EQ(r.element_as_double(0), 9.0);
  EXPECT_EQ(r.element_as_double(2), 1.0);
  EXPECT_EQ(t.slice(0, 5, 2, 1).numel(), 0);
  EXPECT_THROW(t.slice(0, 0, 5, 0), ValueError);
}

TEST(Tensor, ExpandUsesZeroStrides) {
  Tensor t = iota({3, 1});
  Tensor e = t.expand(Shape{2, 3, 4});
  EXPECT_EQ(e.strides(), (Strides{0, 1, 0}));
  EXPECT_EQ(e.element_as_double(23), 2.0);
  EXPECT_THROW(t.expand(Shape{3, 2, 5}), ValueError);
}

TEST(Tensor, SelectAndUnsqueeze) {
  Tensor t = iota({2, 3});
  Tensor row = t.select(0, -1);
  EXPECT_EQ(row.shape(), (Shape{3}));
  EXPECT_EQ(row.element_as_double(0), 3.0);
  Tensor u = row.unsqueeze(0);
  EXPECT_EQ(u.shape(), (Shape{1, 3}));
  EXPECT_THROW(t.select(0, 2), ValueError);
}

TEST(Tensor, CopyFromBroadcastsIntoStridedDestination) {
  Tensor dst = Tensor::zeros(Shape{3, 4}, DType::Float32);
  Tensor src = iota({4});
  dst.transpose(0, 1).slice(0, 0, 4, 2).copy_from(Tensor::scalar(7.0, DType::Float32));
  EXPECT_EQ(dst.element_as_double(0), 7.0);
  EXPECT_EQ(dst.element_as_double(1), 0.0);
  EXPECT_EQ(dst.element_as_double(2), 7.0);
  dst.copy_from(src);
  EXPECT_EQ(dst.element_as_double(11), 3.0);
}

TEST(Tensor, ScalarConversion) {
  EXPECT_EQ(Tensor::scalar(2.5, DType::Float16).element_as_double(0), 2.5);
  EXPECT_EQ(Tensor::scalar_int(-3, DType::Int8).element_as_int(0), -3);
  EXPECT_EQ(Tensor::scalar(1.0, DType::Bool).element_as_int(0), 1);
}

TEST(Allocator, SizeClassesBoundWaste) {
  EXPECT_EQ(CpuAllocator::size_class(1), 64u);
  EXPECT_EQ(CpuAllocator::size_class(65), 128u);
  EXPECT_EQ(CpuAllocator::size_class(1024), 1024u);
  for (size_t n : {1025u, 3000u, 100000u, 12345678u}) {
    size_t c = CpuAllocator::size_class(n);
    EXPECT_GE(c, n);
    EXPECT_LE(c, n + n / 4 + 1);
    EXPECT_EQ(c % 64, 0u);
  }
}

TEST(Allocator, ReusesFreedBlocks) {
  auto& a = CpuAllocator::instance();
  void* p = a.allocate(5000);
  a.deallocate(p, 5000);
  uint64_t hits = a.stats().cache_hits;
  void* q = a.allocate(4990);  // same size class
  EXPECT_EQ(p, q);
  EXPECT_EQ(a.stats().cache_hits, hits + 1);
  a.deallocate(q, 4990);
  a.empty_cache();
  EXPECT_EQ(a.stats().cached_bytes, 0u);
}

// The range [begin, end) lies in one mapping of /proc/self/smaps that is eligible for huge pages.
bool huge_page_eligible(uintptr_t begin, uintptr_t end) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2) {  // a mapping's first line: "lo-hi perms ..."
      inside = lo <= begin && end <= hi;
    } else if (inside && line.rfind("THPeligible:", 0) == 0) {
      return line.find('1') != std::string::npos;
    }
  }
  return false;
}

TEST(Allocator, LargeBlocksAskForHugePages) {  // Note [Huge pages for large blocks]
  auto& a = CpuAllocator::instance();
  const size_t small = 1 << 20, large = 6 << 20;
  void* p = a.allocate(small);
  void* q = a.allocate(large);
  const auto begin = reinterpret_cast<uintptr_t>(q);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  EXPECT_EQ(begin % (2 << 20), 0u);
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes((std::istreambuf_iterator<char>(mode)), std::istreambuf_iterator<char>());
  if (!modes.empty() && modes.find("[never]") == std::string::npos) {
    EXPECT_TRUE(huge_page_eligible(begin, begin + (large & ~size_t{(2 << 20) - 1})));
  }
  a.deallocate(p, small);
  a.deallocate(q, large);
}

TEST(Allocator, TinyStoragesHoldTheirBytesInline) {  // Note [Tiny storages in one allocation]
  auto& a = CpuAllocator::instance();
  const size_t before = a.stats().allocated_bytes;
  Tensor v;
  {
    Tensor t = Tensor::empty(Shape{8}, DType::Float64);  // 64 bytes: the largest inline storage
    EXPECT_EQ(a.stats().allocated_bytes, before);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % 16, 0u);
    EXPECT_TRUE(t.storage()->owned());
    std::memset(t.raw_data(), 0x5a, t.nbytes());
    v = t.slice(0, 1, 3, 1);  // a view keeps the block alive
  }
  const auto* bytes = static_cast<const unsigned char*>(v.raw_data());
  for (size_t i = 0; i < v.nbytes(); ++i) EXPECT_EQ(bytes[i], 0x5a);
  Tensor big = Tensor::empty(Shape{17}, DType::Float32);  // 68 bytes: from the allocator
  EXPECT_GT(a.stats().allocated_bytes, before);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.raw_data()) % 64, 0u);
}

TEST(Allocator, StorageReturnsMemoryWhenLastViewDies) {
  auto& a = CpuAllocator::instance();
  size_t before = a.stats().allocated_bytes;
  {
    Tensor t = Tensor::empty(Shape{1000}, DType::Float64);
    Tensor v = t.slice(0, 0, 10, 1);
    t = Tensor();
    EXPECT_GT(a.stats().allocated_bytes, before);
  }
  EXPECT_EQ(a.stats().allocated_bytes, before);
}

// Note [Copies just past their source]: every length around the vector groups, at every offset of the
// destination within a cache line past the source; the bytes outside the copy stay untouched.
TEST(CopyBackToFront, MatchesMemcpy) {
  std::vector<uint8_t> src(8192), want(8192), got(8192);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  for (size_t bytes : {0, 1, 63, 64, 65, 255, 256, 257, 300, 1000, 4096}) {
    for (size_t at : {0, 1, 3, 12, 63}) {
      std::fill(want.begin(), want.end(), uint8_t{0xAB});
      std::fill(got.begin(), got.end(), uint8_t{0xAB});
      std::memcpy(want.data() + at, src.data(), bytes);
      copy_back_to_front(got.data() + at, src.data(), bytes);
      EXPECT_EQ(got, want) << bytes << " bytes at " << at;
    }
  }
}

TEST(CopyBackToFront, StallsOnlyWithinALinePastTheSource) {
  alignas(4096) static char page[3 * 4096];
  EXPECT_FALSE(copy_stalls_front_to_back(page, page));
  EXPECT_FALSE(copy_stalls_front_to_back(page + 4096, page));  // the same offset: an exact 4 KiB alias
  EXPECT_TRUE(copy_stalls_front_to_back(page + 4, page));
  EXPECT_TRUE(copy_stalls_front_to_back(page + 4096 + 12, page));
  EXPECT_TRUE(copy_stalls_front_to_back(page + 63, page));
  EXPECT_FALSE(copy_stalls_front_to_back(page + 64, page));
  EXPECT_FALSE(copy_stalls_front_to_back(page, page + 12));  // the destination behind
}

}  // namespace
}  // namespace sprout
