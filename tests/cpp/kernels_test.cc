// Kernel checks against plain scalar loops; the broad NumPy comparison lives in the Python tests.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "base/cpu_caches.h"
#include "base/parallel.h"
#include "kernels/cpu/onednn.h"
#include "kernels/cpu/simd.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

Tensor random_tensor(Shape shape, DType dtype, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(0.5, 2.0);
  Tensor t = Tensor::empty(shape, DType::Float64);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = dist(gen);
  return cast(t, dtype);
}

Tensor run1(const char* op, std::initializer_list<Tensor> in) {
  std::vector<Tensor> v(in);
  return run_eager(Primitive::make(op), v)[0];
}

TEST(Simd, TailsMatchScalarResults) {
  for (int64_t n : {1, 3, 15, 16, 17, 33, 100}) {
    std::vector<float> a(n), b(n), out(n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = 0.1f * static_cast<float>(i) - 2.0f;
      b[i] = 1.5f + static_cast<float>(i % 7);
    }
    simd_binary(BinaryOp::Add, a.data(), 1, b.data(), 0, out.data(), n);
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(out[i], a[i] + b[0]);
    simd_unary(UnaryOp::Exp, a.data(), out.data(), n);
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(out[i], std::exp(a[i]), 2e-6f * std::exp(a[i]));
    float sum = simd_reduce(ReduceOp::Sum, b.data(), n), expect = 0;
    for (float v : b) expect += v;
    EXPECT_NEAR(sum, expect, 1e-5f * expect);
  }
}

TEST(Simd, ExpAndLogEdgeValuesFollowIeee) {
  std::vector<float> x = {-INFINITY, -1000.0f, 0.0f, 100.0f, INFINITY, NAN, -1.0f};
  std::vector<float> out(x.size());
  simd_unary(UnaryOp::Exp, x.data(), out.data(), static_cast<int64_t>(x.size()));
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_TRUE(std::isinf(out[3]));
  EXPECT_TRUE(std::isinf(out[4]));
  EXPECT_TRUE(std::isnan(out[5]));
  simd_unary(UnaryOp::Log, x.data(), out.data(), static_cast<int64_t>(x.size()));
  EXPECT_TRUE(std::isnan(out[0]));
  EXPECT_EQ(out[2], -INFINITY);
  EXPECT_TRUE(std::isinf(out[4]));
  EXPECT_TRUE(std::isnan(out[6]));
}

TEST(Simd, MaxPropagatesNaN) {
  std::vector<float> a = {1, NAN, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  std::vector<float> b(a.size(), 2.0f), out(a.size());
  simd_binary(BinaryOp::Max, a.data(), 1, b.data(), 1, out.data(), static_cast<int64_t>(a.size()));
  EXPECT_EQ(out[0], 2.0f);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_TRUE(std::isnan(simd_reduce(ReduceOp::Max, a.data(), static_cast<int64_t>(a.size()))));
}

// Streaming stores write the aligned middle of out around the caches and the unaligned head and the tail
// through the cached path (Note [Streaming stores]): every element must come out as with cached stores,
// at every offset from a vector boundary, and nothing past n may be written.
template <class T>
void expect_streaming_matches_cached() {
  const T kGuard = T(-12345);
  for (int64_t offset : {0, 1, 3, 5, 7, 15}) {
    for (int64_t n : {0, 1, 5, 16, 17, 40, 257, 1000}) {
      std::vector<T> a(static_cast<size_t>(n + 32)), b(a.size()), cached(a.size(), kGuard), streamed(a.size(), kGuard);
      for (size_t i = 0; i < a.size(); ++i) {
        a[i] = T(0.37) * static_cast<T>(i) - T(9);
        b[i] = T(1.25) + static_cast<T>(i % 11);
      }
      a[static_cast<size_t>(offset) + 2] = std::numeric_limits<T>::quiet_NaN();  // exp's outside-domain fixup
      a[static_cast<size_t>(offset) + 3] = T(1000);
      const T *pa = a.data() + offset, *pb = b.data() + offset;
      T *pc = cached.data() + offset, *ps = streamed.data() + offset;
      for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::Max, BinaryOp::Min}) {
        for (int64_t sb : {0, 1}) {
          simd_binary(op, pa, 1, pb, sb, pc, n, Stores::Cached);
          simd_binary(op, pa, 1, pb, sb, ps, n, Stores::Streaming);
          ASSERT_EQ(0, std::memcmp(cached.data(), streamed.data(), cached.size() * sizeof(T)))
              << "binary op " << int(op) << " offset " << offset << " n " << n << " sb " << sb;
        }
      }
      for (UnaryOp op : {UnaryOp::Neg, UnaryOp::Exp, UnaryOp::Log, UnaryOp::Sqrt}) {
        simd_unary(op, pa, pc, n, Stores::Cached);
        simd_unary(op, pa, ps, n, Stores::Streaming);
        ASSERT_EQ(0, std::memcmp(cached.data(), streamed.data(), cached.size() * sizeof(T)))
            << "unary op " << int(op) << " offset " << offset << " n " << n;
      }
      std::fill(streamed.begin(), streamed.end(), kGuard);
      simd_stream_copy(pa, ps, n);
      for (size_t i = 0; i < a.size(); ++i) {
        const bool inside = i >= static_cast<size_t>(offset) && i < static_cast<size_t>(offset + n);
        const T expect = inside ? a[i] : kGuard;
        ASSERT_EQ(0, std::memcmp(&expect, &streamed[i], sizeof(T))) << "stream copy offset " << offset << " n " << n;
      }
    }
  }
}

TEST(Simd, StreamingStoresMatchCachedStores) {
  expect_streaming_matches_cached<float>();
  expect_streaming_matches_cached<double>();
}

TEST(Simd, StreamingOnlyPastTheLastLevelCache) {
  EXPECT_EQ(stores_for(1 << 20), Stores::Cached);
  EXPECT_EQ(stores_for(int64_t{1} << 40), Stores::Streaming);
}

TEST(CpuCaches, ParsesSysfsSizes) {
  EXPECT_EQ(parse_cache_size("32768K\n"), int64_t{32} << 20);
  EXPECT_EQ(parse_cache_size("2M"), int64_t{2} << 20);
  EXPECT_EQ(parse_cache_size("512"), 512);
  EXPECT_EQ(parse_cache_size(""), 0);
  EXPECT_EQ(parse_cache_size("big"), 0);
  EXPECT_EQ(parse_cache_size("12Q"), 0);
  EXPECT_GT(last_level_cache_bytes(), 0);
}

TEST(Kernels, BroadcastAddMatchesScalarLoop) {
  Tensor a = random_tensor({4, 1, 5}, DType::Float32, 1), b = random_tensor({3, 1}, DType::Float32, 2);
  Tensor out = run1("Add", {a, b});
  ASSERT_EQ(out.shape(), (Shape{4, 3, 5}));
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 5; ++k)
        EXPECT_EQ(out.element_as_double((i * 3 + j) * 5 + k),
                  static_cast<double>(static_cast<float>(a.element_as_double(i * 5 + k)) +
                                      static_cast<float>(b.element_as_double(j))));
}

TEST(Kernels, LargeParallelAddAgreesWithSerial) {
  Tensor a = random_tensor({1 << 18}, DType::Float32, 3), b = random_tensor({1 << 18}, DType::Float32, 4);
  int saved = num_threads();
  set_num_threads(1);
  Tensor serial = run1("Mul", {a, b});
  set_num_threads(2);
  Tensor parallel = run1("Mul", {a, b.transpose(0, 0)});
  set_num_threads(saved);
  for (int64_t i = 0; i < serial.numel(); i += 997) EXPECT_EQ(serial.element_as_double(i), parallel.element_as_double(i));
}

TEST(Kernels, ReduceSumOverEveryAxisLayout) {
  Tensor x = random_tensor({3, 4, 5}, DType::Float64, 5);
  for (std::vector<int64_t> axes : std::vector<std::vector<int64_t>>{{0}, {1}, {2}, {0, 2}, {}, {-1, 0}}) {
    Tensor in[1] = {x};
    Tensor out = run_eager(Primitive::make("ReduceSum").with_attr("axis", axes), in)[0];
    std::vector<bool> mask(3, axes.empty());
    for (int64_t a : axes) mask[a < 0 ? a + 3 : a] = true;
    std::vector<double> expect(static_cast<size_t>(out.numel()), 0.0);
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j)
        for (int64_t k = 0; k < 5; ++k) {
          int64_t o = 0;
          if (!mask[0]) o = o * 3 + i;
          if (!mask[1]) o = o * 4 + j;
          if (!mask[2]) o = o * 5 + k;
          expect[o] += x.element_as_double((i * 4 + j) * 5 + k);
        }
    for (int64_t o = 0; o < out.numel(); ++o) EXPECT_NEAR(out.element_as_double(o), expect[o], 1e-12);
  }
}

TEST(Kernels, MatMulOnTransposedViewsMatchesNaive) {
  Tensor a = random_tensor({7, 5}, DType::Float32, 6), b = random_tensor({3, 7}, DType::Float32, 7);
  Tensor at = a.transpose(0, 1);  // (5, 7) view, column-major
  Tensor in[2] = {at, b};
  Tensor out = run_eager(Primitive::make("MatMul").with_attr("transpose_b", true), in)[0];  // (5, 3)
  ASSERT_EQ(out.shape(), (Shape{5, 3}));
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 3; ++j) {
      double s = 0;
      for (int64_t p = 0; p < 7; ++p) s += a.element_as_double(p * 5 + i) * b.element_as_double(j * 7 + p);
      EXPECT_NEAR(out.element_as_double(i * 3 + j), s, 1e-4);
    }
}

TEST(Kernels, CastSaturatesAndMapsNaNToZero) {
  Tensor x = Tensor::empty(Shape{4}, DType::Float32);
  float vals[4] = {NAN, 1e10f, -1e10f, -2.7f};
  std::copy(vals, vals + 4, x.data<float>());
  Tensor y = cast(x, DType::Int32);
  EXPECT_EQ(y.element_as_int(0), 0);
  EXPECT_EQ(y.element_as_int(1), 2147483647);
  EXPECT_EQ(y.element_as_int(2), -2147483648LL);
  EXPECT_EQ(y.element_as_int(3), -2);
}

}  // namespace
// Note [oneDNN primitives and the thread count]: a primitive built for one thread count is not reused
// under another.
TEST(OneDnn, PrimitivesAreCachedPerThreadCount) {
  int built = 0;
  auto make = [&] { return ++built; };
  const int before = omp_get_max_threads();
  omp_set_num_threads(1);
  int* one = &onednn::cached<int>("test:per thread count", make);
  int* one_again = &onednn::cached<int>("test:per thread count", make);
  omp_set_num_threads(2);
  int* two = &onednn::cached<int>("test:per thread count", make);
  omp_set_num_threads(before);
  EXPECT_EQ(one, one_again);
  EXPECT_NE(one, two);
  EXPECT_EQ(built, 2);
  EXPECT_EQ(*one, 1);
  EXPECT_EQ(*two, 2);
}

}  // namespace sprout
