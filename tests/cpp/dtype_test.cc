#include <gtest/gtest.h>

#include "base/dtype.h"
#include "base/half.h"

namespace sprout {
namespace {

TEST(DType, ItemsizeAndNames) {
  EXPECT_EQ(itemsize(DType::Float32), 4u);
  EXPECT_EQ(itemsize(DType::BFloat16), 2u);
  EXPECT_EQ(itemsize(DType::Bool), 1u);
  EXPECT_EQ(name(DType::Float32), "Float32");
  EXPECT_EQ(dtype_from_name("float32"), DType::Float32);
  EXPECT_EQ(dtype_from_name("Int64"), DType::Int64);
  EXPECT_FALSE(dtype_from_name("complex128").has_value());
}

TEST(DType, Promotion) {
  EXPECT_EQ(promote_types(DType::Int32, DType::Float16), DType::Float16);
  EXPECT_EQ(promote_types(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promote_types(DType::Int32, DType::UInt8), DType::Int32);
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int64), DType::Int64);
  EXPECT_EQ(promote_types(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(promote_types(DType::Bool, DType::Int8), DType::Int8);
  EXPECT_EQ(promote_types(DType::Float64, DType::Float32), DType::Float64);
  for (int a = 0; a < kNumDTypes; ++a)
    for (int b = 0; b < kNumDTypes; ++b) {  // symmetric, where defined (unsigned_dtypes_test.cc: where not)
      if (can_promote(DType(a), DType(b))) {
        EXPECT_EQ(promote_types(DType(a), DType(b)), promote_types(DType(b), DType(a)));
      }
    }
}

TEST(Half, RoundTripsExactValues) {
  for (float v : {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f, 5.960464477539063e-08f}) {
    EXPECT_EQ(static_cast<float>(float16(v)), v) << v;
  }
  EXPECT_TRUE(std::isinf(static_cast<float>(float16(1e6f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(float16(NAN))));
  // round to nearest even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10
  EXPECT_EQ(static_cast<float>(float16(1.0f + 0.00048828125f)), 1.0f);
  EXPECT_EQ(static_cast<float>(float16(1.0f + 0.00048828125f * 3)), 1.0f + 0.0009765625f * 2);
}

TEST(Half, EveryFloat16BitPatternRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float f = float16::to_float(static_cast<uint16_t>(bits));
    if (std::isnan(f)) continue;
    EXPECT_EQ(float16::from_float(f), bits) << std::hex << bits;
  }
}

TEST(BFloat16, Rounding) {
  EXPECT_EQ(static_cast<float>(bfloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(3.140625f)), 3.140625f);
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16(NAN))));
  EXPECT_EQ(static_cast<float>(bfloat16(1.0f + 1.0f / 256)), 1.0f);  // halfway: to even
}

}  // namespace
}  // namespace sprout
