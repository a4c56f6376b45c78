// The bit-operation kernels (kernels/cpu/math_bitwise.cc) on the paths the small Python tests do not
// reach: rows long enough to split across threads, and strided operands (run-time strides, no
// vectorized instantiation), against a scalar loop of the same C expressions.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

#include "base/parallel.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

Tensor run_op(const char* op, Tensor a, Tensor b) {
  std::vector<Tensor> in{std::move(a), std::move(b)};
  return run_eager(Primitive::make(op), in)[0];
}

// x: a mix of signs and magnitudes; n: shift counts in [-40, 70], outside the width too.
Tensor values(int64_t n, int64_t mul, int64_t add, int64_t mod, int64_t offset) {
  Tensor t = Tensor::empty(Shape{n}, DType::Int32);
  for (int64_t i = 0; i < n; ++i) t.data<int32_t>()[i] = static_cast<int32_t>((i * mul + add) % mod - offset);
  return t;
}

int32_t shift_left(int32_t x, int32_t n) { return static_cast<int32_t>(static_cast<uint32_t>(x) << (n & 31)); }
int32_t gcd_ref(int32_t x, int32_t y) {
  return static_cast<int32_t>(std::gcd(static_cast<int64_t>(x), static_cast<int64_t>(y)));
}

TEST(Bitwise, LongRowsAcrossThreadsMatchAScalarLoop) {
  const int64_t n = 1 << 18;
  Tensor x = values(n, 7919, 13, 200003, 100000), c = values(n, 31, 5, 111, 40);
  int saved = num_threads();
  set_num_threads(2);
  Tensor left = run_op("LeftShift", x, c), right = run_op("RightShift", x, c), g = run_op("Gcd", x, c),
         xr = run_op("BitwiseXor", x, c);
  set_num_threads(saved);
  const int32_t* px = x.data<int32_t>();
  const int32_t* pc = c.data<int32_t>();
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(left.data<int32_t>()[i], shift_left(px[i], pc[i])) << i;
    ASSERT_EQ(right.data<int32_t>()[i], px[i] >> (pc[i] & 31)) << i;
    ASSERT_EQ(g.data<int32_t>()[i], gcd_ref(px[i], pc[i])) << i;
    ASSERT_EQ(xr.data<int32_t>()[i], px[i] ^ pc[i]) << i;
  }
}

TEST(Bitwise, StridedOperandsMatchContiguousOnes) {
  // x (transposed view, inner stride 8) against a broadcast row of counts.
  Tensor base = values(8 * 9, 37, 3, 1000, 500).reshape(Shape{8, 9});
  Tensor x = base.transpose(0, 1), counts = values(8, 5, 1, 70, 20);
  Tensor strided = run_op("LeftShift", x, counts), contiguous = run_op("LeftShift", x.contiguous(), counts);
  Tensor lcm_strided = run_op("Lcm", x, counts), lcm_contiguous = run_op("Lcm", x.contiguous(), counts);
  ASSERT_EQ(strided.shape(), (Shape{9, 8}));
  for (int64_t i = 0; i < strided.numel(); ++i) {
    EXPECT_EQ(strided.data<int32_t>()[i], contiguous.data<int32_t>()[i]) << i;
    EXPECT_EQ(lcm_strided.data<int32_t>()[i], lcm_contiguous.data<int32_t>()[i]) << i;
    EXPECT_EQ(strided.data<int32_t>()[i],
              shift_left(x.contiguous().data<int32_t>()[i], counts.data<int32_t>()[i % 8])) << i;
  }
}

}  // namespace
}  // namespace sprout
