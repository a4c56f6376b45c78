// Integer sums and products that overflow wrap around as NumPy's and MindSpore's do, in every kernel
// that adds or multiplies integers (kernels/cpu/wrapping_arith.h). Run under UBSan by `make test-asan`,
// where a signed overflow computed in C++'s signed types would be reported as undefined behaviour.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "runtime/eager.h"
#include "tensor/tensor.h"

namespace sprout {
namespace {

template <class T>
Tensor vector_of(std::vector<T> values, DType dtype) {
  Tensor t = Tensor::empty(Shape{static_cast<int64_t>(values.size())}, dtype);
  std::copy(values.begin(), values.end(), t.data<T>());
  return t;
}

template <class T>
std::vector<T> values_of(const Tensor& t) {
  const T* p = static_cast<const T*>(t.contiguous().raw_data());
  return std::vector<T>(p, p + t.numel());
}

Tensor run(std::string_view op, std::vector<Tensor> in) { return run_eager(Primitive::make(op), in)[0]; }

TEST(IntegerWraparound, Int32AddSubMulAndPow) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
  Tensor a = vector_of<int32_t>({kMax, kMin, 65536}, DType::Int32);
  Tensor b = vector_of<int32_t>({1, 1, 65536}, DType::Int32);
  EXPECT_EQ(values_of<int32_t>(run("Add", {a, b}))[0], kMin);
  EXPECT_EQ(values_of<int32_t>(run("Sub", {a, b}))[1], kMax);
  EXPECT_EQ(values_of<int32_t>(run("Mul", {a, b}))[2], 0);  // 2^32 mod 2^32
  EXPECT_EQ(values_of<int32_t>(run("Square", {a}))[2], 0);
  Tensor two = vector_of<int32_t>({2}, DType::Int32), forty = vector_of<int32_t>({40}, DType::Int32);
  EXPECT_EQ(values_of<int32_t>(run("Pow", {two, forty}))[0], 0);  // 2^40 wraps to 0 in 32 bits
}

TEST(IntegerWraparound, Int64AndUInt16Products) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  Tensor a = vector_of<int64_t>({kMax, int64_t{1} << 62}, DType::Int64);
  EXPECT_EQ(values_of<int64_t>(run("Add", {a, vector_of<int64_t>({1, 0}, DType::Int64)}))[0],
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(values_of<int64_t>(run("Mul", {a, vector_of<int64_t>({2, 4}, DType::Int64)}))[1], 0);
  Tensor u = vector_of<uint16_t>({65535}, DType::UInt16);
  EXPECT_EQ(values_of<uint16_t>(run("Mul", {u, u}))[0], 1u);  // 65535^2 mod 2^16
}

TEST(IntegerWraparound, ScansAndSumsOfManyInputs) {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  Tensor a = vector_of<int32_t>({kMax, 1, 1}, DType::Int32);
  EXPECT_EQ(values_of<int32_t>(run("CumSum", {a}))[1], std::numeric_limits<int32_t>::min());
  Tensor big = vector_of<int32_t>({65536, 65536, 3}, DType::Int32);
  EXPECT_EQ(values_of<int32_t>(run("CumProd", {big}))[2], 0);
  EXPECT_EQ(values_of<int32_t>(run("AddN", {a, a}))[0], -2);  // 2 * (2^31 - 1) wraps to -2
}

TEST(IntegerWraparound, ReductionSums) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  Tensor a = vector_of<int64_t>({kMax, kMax, 2}, DType::Int64);
  EXPECT_EQ(values_of<int64_t>(run("ReduceSum", {a}))[0], 0);  // 2 * (2^63 - 1) + 2 wraps to 0 (all axes)
}

}  // namespace
}  // namespace sprout
