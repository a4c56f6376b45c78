// The max pooling kernels (Note [Max pooling by window taps], Note [Max pooling with argmax]) against
// direct loops at widths that take every load of the vector loop (contiguous, de-interleaved, gathered)
// and the overlapping last vector of a row; under the sanitizers, that no load leaves the plane.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "ops/nn_pool.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

struct Case {
  int64_t h, w, kh, kw, sh, sw, ph, pw, dh, dw;
  bool ceil_mode;
};

// Values in {-1, 0, 1}: ties in most windows, which must go to the first maximum.
Tensor tied_values(Shape shape, DType dtype, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-1, 1);
  Tensor t = Tensor::empty(shape, DType::Float64);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = dist(gen);
  return cast(t, dtype);
}

int64_t pooled(int64_t n, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  const int64_t room = n + 2 * p - d * (k - 1) - 1;
  int64_t out = (room + (ceil_mode ? s - 1 : 0)) / s + 1;
  if (ceil_mode && (out - 1) * s >= n + p) --out;
  return out;
}

TEST(MaxPoolWithArgmax, MatchesLoopsAtEveryLoadKind) {
  const Case cases[] = {
      {9, 70, 3, 3, 2, 2, 1, 1, 1, 1, false},  // ResNet's stem: de-interleaved loads
      {7, 70, 3, 3, 1, 1, 1, 1, 2, 2, false},  // dilated, contiguous loads
      {11, 66, 3, 2, 2, 2, 1, 1, 2, 3, true},  // dilated, ceil_mode
      {10, 61, 2, 3, 3, 3, 1, 0, 1, 2, true},  // gathered loads
      {1, 1, 2, 2, 1, 1, 1, 1, 2, 2, false},   // windows missing the input
  };
  for (DType dtype : {DType::Float32, DType::Float64}) {
    for (const Case& c : cases) {
      SCOPED_TRACE(testing::Message() << name(dtype) << " " << c.h << "x" << c.w << " k" << c.kh << "x" << c.kw);
      Tensor x = tied_values(Shape{2, 3, c.h, c.w}, dtype, 7);
      auto make = [&](const char* op) {
        return Primitive::make(op)
            .with_attr("kernel_size", std::vector<int64_t>{c.kh, c.kw})
            .with_attr("strides", std::vector<int64_t>{c.sh, c.sw})
            .with_attr("pads", std::vector<int64_t>{c.ph, c.pw})
            .with_attr("dilation", std::vector<int64_t>{c.dh, c.dw})
            .with_attr("ceil_mode", c.ceil_mode);
      };
      Primitive prim = make("MaxPoolWithArgmaxV2");
      std::vector<Tensor> out = run_eager(prim, std::vector<Tensor>{x});
      const int64_t oh = pooled(c.h, c.kh, c.sh, c.ph, c.dh, c.ceil_mode);
      const int64_t ow = pooled(c.w, c.kw, c.sw, c.pw, c.dw, c.ceil_mode);
      ASSERT_EQ(out[0].shape(), (Shape{2, 3, oh, ow}));
      Tensor values = cast(out[0], DType::Float64), x64 = cast(x, DType::Float64);
      const int64_t* argmax = out[1].data<int64_t>();
      for (int64_t p = 0; p < 6; ++p)
        for (int64_t oy = 0; oy < oh; ++oy)
          for (int64_t ox = 0; ox < ow; ++ox) {
            double best = -std::numeric_limits<double>::infinity();
            int64_t at = -1;
            for (int64_t ky = 0; ky < c.kh; ++ky)
              for (int64_t kx = 0; kx < c.kw; ++kx) {
                const int64_t y = oy * c.sh - c.ph + ky * c.dh, xx = ox * c.sw - c.pw + kx * c.dw;
                if (y < 0 || y >= c.h || xx < 0 || xx >= c.w) continue;
                const double v = x64.data<double>()[p * c.h * c.w + y * c.w + xx];
                if (at < 0 || v > best) best = v, at = y * c.w + xx;
              }
            const int64_t i = (p * oh + oy) * ow + ox;
            EXPECT_EQ(values.data<double>()[i], best) << "window " << i;
            if (at >= 0) EXPECT_EQ(argmax[i], at) << "window " << i;
          }
      // The gradient adds at the argmax: with dy = 1, dx sums to the windows that hold an input cell.
      Tensor ones = Tensor::empty(Shape{2, 3, oh, ow}, DType::Float64);
      std::fill_n(ones.data<double>(), ones.numel(), 1.0);
      std::vector<Tensor> grad_in{x, cast(ones, dtype), out[1]};
      Tensor dx = cast(run_eager(make("MaxPoolGradWithArgmaxV2"), grad_in)[0], DType::Float64);
      double total = 0, windows = 0;
      for (int64_t i = 0; i < dx.numel(); ++i) total += dx.data<double>()[i];
      for (int64_t i = 0; i < values.numel(); ++i) windows += std::isinf(values.data<double>()[i]) ? 0 : 1;
      EXPECT_EQ(total, windows);
    }
  }
}

}  // namespace
}  // namespace sprout
