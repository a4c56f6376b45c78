// small_sgemm (kernels/cpu/gemm_small.cc) against a float64 reference, over the shapes its tiles and
// tails distinguish: rows past a tile, columns past a vector or a tile, each operand transposed or not,
// leading dimensions wider than the matrix, accumulation into C, and one or two threads (which must give
// the same bits).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/gemm_small.h"

namespace sprout {
namespace {

struct Case {
  int64_t m, n, k;
  bool ta, tb, accumulate;
};

// Stored operands with leading dimensions 3 wider than the rows need, so strides are honoured.
struct Operands {
  std::vector<float> a, b, c;
  int64_t lda, ldb;
};

Operands make_operands(const Case& p, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Operands o;
  const int64_t a_rows = p.ta ? p.k : p.m, a_cols = p.ta ? p.m : p.k;
  const int64_t b_rows = p.tb ? p.n : p.k, b_cols = p.tb ? p.k : p.n;
  o.lda = a_cols + 3;
  o.ldb = b_cols + 3;
  o.a.resize(static_cast<size_t>(a_rows * o.lda));
  o.b.resize(static_cast<size_t>(b_rows * o.ldb));
  o.c.resize(static_cast<size_t>(p.m * p.n));
  for (float& v : o.a) v = u(rng);
  for (float& v : o.b) v = u(rng);
  for (float& v : o.c) v = u(rng);
  return o;
}

std::vector<float> run(const Case& p, const Operands& o) {
  std::vector<float> c = o.c;
  small_sgemm({o.a.data(), o.lda, p.ta}, {o.b.data(), o.ldb, p.tb}, c.data(), p.m, p.n, p.k, p.accumulate);
  return c;
}

void expect_matches_reference(const Case& p, const Operands& o, const std::vector<float>& got) {
  for (int64_t i = 0; i < p.m; ++i)
    for (int64_t j = 0; j < p.n; ++j) {
      double want = p.accumulate ? o.c[static_cast<size_t>(i * p.n + j)] : 0.0;
      for (int64_t q = 0; q < p.k; ++q) {
        const double a = p.ta ? o.a[static_cast<size_t>(q * o.lda + i)] : o.a[static_cast<size_t>(i * o.lda + q)];
        const double b = p.tb ? o.b[static_cast<size_t>(j * o.ldb + q)] : o.b[static_cast<size_t>(q * o.ldb + j)];
        want += a * b;
      }
      ASSERT_NEAR(got[static_cast<size_t>(i * p.n + j)], want, 1e-5 * (1.0 + std::sqrt(static_cast<double>(p.k))))
          << "m=" << p.m << " n=" << p.n << " k=" << p.k << " ta=" << p.ta << " tb=" << p.tb
          << " accumulate=" << p.accumulate << " at (" << i << ", " << j << ")";
    }
}

class SmallGemmTest : public ::testing::Test {
 protected:
  void TearDown() override { set_num_threads(threads_before_); }
  int threads_before_ = num_threads();
};

TEST_F(SmallGemmTest, MatchesFloat64ReferenceOnEveryTileShape) {
  std::mt19937 rng(7);
  for (int64_t m : {1, 5, 8, 13, 64})
    for (int64_t n : {1, 9, 16, 31, 33, 84})
      for (int64_t k : {1, 7, 64})
        for (int flags = 0; flags < 8; ++flags) {
          const Case p{m, n, k, (flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0};
          const Operands o = make_operands(p, rng);
          expect_matches_reference(p, o, run(p, o));
        }
}

TEST_F(SmallGemmTest, ProductsSplitAcrossThreadsGiveTheSameBitsAsOneThread) {
  std::mt19937 rng(11);
  // Above kSmallGemmParallelWork: split by rows, by rows and columns (few rows), and by columns (B^T).
  for (const Case& p : {Case{80, 80, 80, false, false, false}, Case{96, 100, 90, true, false, true},
                        Case{4, 1000, 512, false, false, false}, Case{80, 84, 90, false, true, false}}) {
    ASSERT_GE(p.m * p.n * p.k, kSmallGemmParallelWork);
    const Operands o = make_operands(p, rng);
    set_num_threads(1);
    const std::vector<float> one = run(p, o);
    set_num_threads(2);
    const std::vector<float> two = run(p, o);
    expect_matches_reference(p, o, two);
    EXPECT_EQ(one, two) << "m=" << p.m << " n=" << p.n << " k=" << p.k;
  }
}

TEST_F(SmallGemmTest, EmptyInnerDimensionGivesZerosOrLeavesCAlone) {
  std::vector<float> c(6, 5.0f);
  const float a = 1.0f, b = 1.0f;
  small_sgemm({&a, 1, false}, {&b, 3, false}, c.data(), 2, 3, 0, /*accumulate=*/true);
  EXPECT_EQ(c, std::vector<float>(6, 5.0f));
  small_sgemm({&a, 1, false}, {&b, 3, false}, c.data(), 2, 3, 0, /*accumulate=*/false);
  EXPECT_EQ(c, std::vector<float>(6, 0.0f));
}

}  // namespace
}  // namespace sprout
