// UInt16, UInt32 and UInt64: MindSpore's promotion rules for them (only with themselves and Bool) and
// casts to and from them, wrapping between integers as C++ and NumPy do.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "base/dtype.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

constexpr DType kWideUnsigned[] = {DType::UInt16, DType::UInt32, DType::UInt64};

TEST(UnsignedDTypes, TableAndCppTypes) {
  EXPECT_EQ(itemsize(DType::UInt16), 2u);
  EXPECT_EQ(itemsize(DType::UInt32), 4u);
  EXPECT_EQ(itemsize(DType::UInt64), 8u);
  for (DType t : kWideUnsigned) {
    EXPECT_TRUE(is_integral(t));
    EXPECT_FALSE(is_signed(t));
    EXPECT_FALSE(is_floating(t));
  }
  EXPECT_EQ(name(DType::UInt32), "UInt32");
  EXPECT_EQ(dtype_from_name("uint64"), DType::UInt64);
  EXPECT_EQ(dtype_from_name("UInt16"), DType::UInt16);  // MindSpore's .ckpt tensor_type spelling
  static_assert(std::is_same_v<cpp_type_t<DType::UInt32>, uint32_t> && dtype_of<uint64_t>() == DType::UInt64);
  EXPECT_EQ(visit_dtype(DType::UInt16, [](auto zero) { return sizeof(zero); }), 2u);
}

TEST(UnsignedDTypes, PromoteOnlyWithThemselvesAndBool) {
  for (DType u : kWideUnsigned) {
    EXPECT_EQ(promote_types(u, u), u);
    EXPECT_EQ(promote_types(u, DType::Bool), u);
    EXPECT_EQ(promote_types(DType::Bool, u), u);
    for (int i = 0; i < kNumDTypes; ++i) {
      const DType other = static_cast<DType>(i);
      if (other == u || other == DType::Bool) continue;
      EXPECT_FALSE(can_promote(u, other)) << name(u) << " " << name(other);
      EXPECT_FALSE(can_promote(other, u));
      EXPECT_THROW(promote_types(u, other), TypeError);
    }
  }
  // The older dtypes promote as before.
  EXPECT_TRUE(can_promote(DType::UInt8, DType::Int8));
  EXPECT_EQ(promote_types(DType::UInt8, DType::Int8), DType::Int16);
}

TEST(UnsignedDTypes, OpsRefuseMixedDTypesNamingTheOp) {
  Tensor a = Tensor::scalar_int(3, DType::UInt32), b = Tensor::scalar_int(3, DType::Int32);
  std::vector<Tensor> in = {a, b};
  try {
    run_eager(Primitive::make("Add"), in);
    FAIL() << "Add of UInt32 and Int32 ran";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("Add"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("UInt32"), std::string::npos) << e.what();
  }
  std::vector<Tensor> with_bool = {a, Tensor::scalar_int(1, DType::Bool)};
  Tensor sum = run_eager(Primitive::make("Add"), with_bool)[0];
  EXPECT_EQ(sum.dtype(), DType::UInt32);
  EXPECT_EQ(sum.element_as_int(0), 4);
}

template <class T>
T first(const Tensor& t) {
  return *static_cast<const T*>(t.raw_data());
}

TEST(UnsignedDTypes, IntegerCastsWrap) {
  Tensor minus_one = Tensor::scalar_int(-1, DType::Int64);
  EXPECT_EQ(first<uint16_t>(cast(minus_one, DType::UInt16)), 0xFFFFu);
  EXPECT_EQ(first<uint32_t>(cast(minus_one, DType::UInt32)), 0xFFFFFFFFu);
  EXPECT_EQ(first<uint64_t>(cast(minus_one, DType::UInt64)), std::numeric_limits<uint64_t>::max());
  Tensor big = cast(minus_one, DType::UInt64);
  EXPECT_EQ(first<int64_t>(cast(big, DType::Int64)), -1);
  EXPECT_EQ(first<uint16_t>(cast(Tensor::scalar_int(70000, DType::Int64), DType::UInt16)), 70000u - 65536u);
  EXPECT_EQ(first<uint8_t>(cast(Tensor::scalar_int(300, DType::UInt32), DType::UInt8)), 44u);
}

TEST(UnsignedDTypes, FloatCastsTruncateAndSaturate) {
  Tensor x = Tensor::empty(Shape{5}, DType::Float64);
  const double vals[5] = {2.9, -3.5, 1e30, NAN, 4294967295.0};
  std::copy(vals, vals + 5, x.data<double>());
  Tensor y = cast(x, DType::UInt32);
  const uint32_t* py = static_cast<const uint32_t*>(y.raw_data());
  EXPECT_EQ(py[0], 2u);
  EXPECT_EQ(py[1], 0u);  // below the range: its lowest value
  EXPECT_EQ(py[2], 0xFFFFFFFFu);
  EXPECT_EQ(py[3], 0u);
  EXPECT_EQ(py[4], 0xFFFFFFFFu);
  Tensor back = cast(cast(Tensor::scalar_int(-1, DType::Int64), DType::UInt64), DType::Float64);
  EXPECT_EQ(first<double>(back), 18446744073709551615.0);
  Tensor half = cast(Tensor::scalar_int(65535, DType::UInt16), DType::Float32);
  EXPECT_EQ(first<float>(half), 65535.0f);
}

}  // namespace
}  // namespace sprout
