// The float32 convolution path (oneDNN, blocked layouts chosen for channel counts >= 16) checked against
// the float64 im2col + BLAS path at sizes the Python records are too small to reach.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ops/nn_conv.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

Tensor random_tensor(std::initializer_list<int64_t> dims, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  Tensor t = Tensor::empty(Shape(dims), DType::Float64);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = dist(gen);
  return t;
}

Primitive conv_prim(const char* op, std::initializer_list<std::pair<const char*, AttrValue>> attrs) {
  Primitive p = Primitive::make(op);
  for (auto& [k, v] : attrs) p = p.with_attr(k, v);
  return p;
}

// Runs `prim` in float64 and in float32; the largest difference relative to the largest magnitude.
double float32_error(const Primitive& prim, const Tensor& a, const Tensor& b) {
  std::vector<Tensor> in64{a, b}, in32{cast(a, DType::Float32), cast(b, DType::Float32)};
  Tensor ref = run_eager(prim, in64)[0], got = cast(run_eager(prim, in32)[0], DType::Float64);
  double diff = 0, scale = 0;
  for (int64_t i = 0; i < ref.numel(); ++i) {
    diff = std::max(diff, std::abs(ref.data<double>()[i] - got.data<double>()[i]));
    scale = std::max(scale, std::abs(ref.data<double>()[i]));
  }
  return diff / scale;
}

TEST(Conv2D, OneDnnMatchesGemmAtResNetLikeShapes) {
  // 32 -> 48 channels, stride 2, asymmetric padding, 2 groups: blocked layouts and reorders on both sides.
  std::initializer_list<std::pair<const char*, AttrValue>> attrs = {
      {"out_channel", int64_t{48}}, {"kernel_size", std::vector<int64_t>{3, 3}}, {"pad_mode", std::string("pad")},
      {"pad", std::vector<int64_t>{1, 0, 1, 2}}, {"stride", std::vector<int64_t>{2, 2}}, {"group", int64_t{2}}};
  Tensor x = random_tensor({4, 32, 15, 14}, 1), w = random_tensor({48, 16, 3, 3}, 2);
  EXPECT_LT(float32_error(conv_prim("Conv2D", attrs), x, w), 1e-5);
  Tensor y = run_eager(conv_prim("Conv2D", attrs), std::vector<Tensor>{x, w})[0];
  Tensor dy = random_tensor({4, 48, y.shape()[2], y.shape()[3]}, 3);
  Primitive dgrad = conv_prim("Conv2DBackpropInput", attrs).with_attr("input_sizes", std::vector<int64_t>{4, 32, 15, 14});
  Primitive wgrad = conv_prim("Conv2DBackpropFilter", attrs).with_attr("filter_sizes", std::vector<int64_t>{48, 16, 3, 3});
  EXPECT_LT(float32_error(dgrad, dy, w), 1e-5);
  EXPECT_LT(float32_error(wgrad, dy, x), 1e-5);
}

TEST(Conv3D, OneDnnMatchesGemm) {
  std::initializer_list<std::pair<const char*, AttrValue>> attrs = {
      {"out_channel", int64_t{32}}, {"kernel_size", std::vector<int64_t>{3}}, {"pad_mode", std::string("same")},
      {"data_format", std::string("NCDHW")}};
  Tensor x = random_tensor({2, 16, 6, 7, 5}, 4), w = random_tensor({32, 16, 3, 3, 3}, 5);
  EXPECT_LT(float32_error(conv_prim("Conv3D", attrs), x, w), 1e-5);
  Tensor dy = random_tensor({2, 32, 6, 7, 5}, 6);
  Primitive dgrad = conv_prim("Conv3DBackpropInput", attrs).with_attr("input_size", std::vector<int64_t>{2, 16, 6, 7, 5});
  Primitive wgrad = conv_prim("Conv3DBackpropFilter", attrs).with_attr("filter_size", std::vector<int64_t>{32, 16, 3, 3, 3});
  EXPECT_LT(float32_error(dgrad, w, dy), 1e-5);  // Conv3D's backward ops take the gradient second
  EXPECT_LT(float32_error(wgrad, x, dy), 1e-5);
}

TEST(ConvGeometry, SamePaddingPutsTheOddPixelLast) {
  ConvAttrs a;
  a.out_channel = 4;
  a.kernel_size = {4};
  a.pad_mode = "same";
  a.stride = {3};
  ConvGeometry g = conv_geometry("Conv2D", 2, a, std::vector<int64_t>{1, 2, 10, 9}, std::vector<int64_t>{4, 2, 4, 4});
  EXPECT_EQ(g.out[1], 4);  // ceil(10 / 3)
  EXPECT_EQ(g.pad_before[1] + g.pad_after[1], 3);
  EXPECT_EQ(g.pad_before[1], 1);
  EXPECT_EQ(g.out[2], 3);  // ceil(9 / 3), needs (3 - 1) * 3 + 4 - 9 = 1 pixel of padding
  EXPECT_EQ(g.pad_before[2], 0);
  EXPECT_EQ(g.pad_after[2], 1);
  EXPECT_EQ(g.out[0], 1);  // the depth of a 2-d convolution
}

}  // namespace
}  // namespace sprout
