#include "data/vision_color_ops.h"

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>

#include "base/error.h"
#include "data/augment_ops.h"
#include "data/image_mat.h"
#include "data/lambda_image_op.h"
#include "data/random_util.h"

namespace sprout::data {

namespace {

void check_rgb(const std::string& api, const Tensor& image, bool uint8_only) {
  SPROUT_CHECK(image.ndim() == 3 && image.dim(2) == 3, ValueError, api,
               ": expected an RGB image of shape (H, W, 3), but got shape ", shape_str(image.shape()));
  SPROUT_CHECK(!uint8_only || image.dtype() == DType::UInt8, TypeError, api, ": expected a uint8 image, but got ",
               name(image.dtype()));
}

void check_uint8(const std::string& api, const Tensor& image) {
  SPROUT_CHECK(image.dtype() == DType::UInt8, TypeError, api, ": expected a uint8 image, but got ",
               name(image.dtype()));
}

// Every channel of a uint8 image through its own 256-entry table, made by `make_table(channel, histogram)`
// (the histogram only when `make_table` asks for one, i.e. takes it).
template <class F>
Tensor per_channel_lookup(const Tensor& image, F make_table) {
  Tensor out = image.contiguous().clone();
  const int64_t C = image_channels(image), n = image.numel() / C;
  auto* p = static_cast<uint8_t*>(out.raw_data());
  for (int64_t c = 0; c < C; ++c) {
    std::array<int64_t, 256> hist{};
    for (int64_t i = 0; i < n; ++i) ++hist[p[i * C + c]];
    const std::array<uint8_t, 256> table = make_table(hist);
    for (int64_t i = 0; i < n; ++i) p[i * C + c] = table[p[i * C + c]];
  }
  return out;
}

Tensor lookup(const Tensor& image, const std::array<uint8_t, 256>& table) {
  return per_channel_lookup(image, [&](const std::array<int64_t, 256>&) { return table; });
}

Tensor solarize(const Tensor& image, double low, double high) {
  std::array<uint8_t, 256> table;
  for (int v = 0; v < 256; ++v) table[v] = static_cast<uint8_t>(v >= low && v <= high ? 255 - v : v);
  return lookup(image, table);
}

Tensor posterize(const Tensor& image, int bits) {
  std::array<uint8_t, 256> table;
  const unsigned mask = bits == 0 ? 0u : (0xFFu << (8 - bits)) & 0xFFu;
  for (int v = 0; v < 256; ++v) table[v] = static_cast<uint8_t>(static_cast<unsigned>(v) & mask);
  return lookup(image, table);
}

// The histogram's lowest and highest `cutoff` percent removed, as MindSpore (and PIL) cut them.
std::pair<int, int> cut_histogram(std::array<int64_t, 256> hist, double cutoff) {
  int64_t n = 0;
  for (int64_t h : hist) n += h;
  const auto cut = static_cast<int64_t>(static_cast<double>(n) * cutoff / 100.0);
  for (int64_t left = cut, v = 0; left > 0 && v < 256; ++v) {
    const int64_t take = std::min(left, hist[v]);
    hist[v] -= take;
    left -= take;
  }
  for (int64_t left = cut, v = 255; left > 0 && v >= 0; --v) {
    const int64_t take = std::min(left, hist[v]);
    hist[v] -= take;
    left -= take;
  }
  int lo = 0, hi = 255;
  while (lo < 255 && hist[lo] == 0) ++lo;
  while (hi > 0 && hist[hi] == 0) --hi;
  return {lo, hi};
}

Tensor auto_contrast(const Tensor& image, double cutoff, const std::vector<int>& ignore) {
  return per_channel_lookup(image, [&](std::array<int64_t, 256> hist) {
    for (int v : ignore) hist[v] = 0;
    const auto [lo, hi] = cut_histogram(hist, cutoff);
    std::array<uint8_t, 256> table;
    // A float scale and a truncating conversion, as MindSpore's table is made.
    const float scale = hi > lo ? 255.0f / static_cast<float>(hi - lo) : 1.0f;
    const float offset = hi > lo ? -static_cast<float>(lo) * scale : 0.0f;
    for (int v = 0; v < 256; ++v)
      table[v] = static_cast<uint8_t>(std::clamp(static_cast<int>(static_cast<float>(v) * scale + offset), 0, 255));
    return table;
  });
}

Tensor equalize(const Tensor& image) {
  const int64_t C = image_channels(image);
  Tensor keep;
  cv::Mat src = as_mat(image, keep), dst;
  std::vector<cv::Mat> planes;
  cv::split(src, planes);
  for (cv::Mat& plane : planes) cv::equalizeHist(plane, plane);
  cv::merge(planes, dst);
  Tensor out = from_mat(dst, image);
  return C == 1 && image.ndim() == 3 ? out.reshape(image.shape()) : out;
}

Tensor adjust_gamma(const Tensor& image, double gamma, double gain) {
  if (image.dtype() == DType::Float32) {
    Tensor out = image.contiguous().clone();
    float* p = out.data<float>();
    for (int64_t i = 0; i < out.numel(); ++i)
      p[i] = std::clamp(std::pow(p[i] * static_cast<float>(gain), static_cast<float>(gamma)), 0.0f, 1.0f);
    return out;
  }
  // MindSpore's table: (256 - 1e-3) rather than 255 spreads the values over 256 bins, then floor.
  std::array<uint8_t, 256> table;
  for (int v = 0; v < 256; ++v) {
    const float f = std::pow(static_cast<float>(v / 255.0), static_cast<float>(gamma));
    table[v] = static_cast<uint8_t>(std::floor(std::min(f * (255.0 + 1 - 1e-3) * gain, 255.0)));
  }
  return lookup(image, table);
}

Tensor hue_rotated(const Tensor& rgb, double factor) {
  Tensor keep;
  cv::Mat src = as_mat(rgb, keep), hsv, dst;
  cv::cvtColor(src, hsv, cv::COLOR_RGB2HSV_FULL);
  // The shift in 255ths of a turn, truncated, wrapping around as a uint8 (MindSpore's arithmetic).
  const int shift = static_cast<int>(factor * 255.0);
  for (int y = 0; y < hsv.rows; ++y) {
    auto* p = hsv.ptr<cv::Vec3b>(y);
    for (int x = 0; x < hsv.cols; ++x) p[x][0] = static_cast<uchar>((p[x][0] + shift) & 255);
  }
  cv::cvtColor(hsv, dst, cv::COLOR_HSV2RGB_FULL);
  return from_mat(dst, rgb);
}

Tensor random_lighting(const Tensor& image, double alpha, Rng& rng) {
  if (alpha == 0) return image;
  const double r = normal(rng) * alpha, g = normal(rng) * alpha, b = normal(rng) * alpha;
  // ImageNet's RGB covariance: eigenvalues times eigenvectors (Krizhevsky et al. 2012).
  static const float kEig[3][3] = {{55.46f * -0.5675f, 4.794f * 0.7192f, 1.148f * 0.4009f},
                                   {55.46f * -0.5808f, 4.794f * -0.0045f, 1.148f * -0.8140f},
                                   {55.46f * -0.5836f, 4.794f * -0.6948f, 1.148f * 0.4203f}};
  float shift[3];
  for (int c = 0; c < 3; ++c)
    shift[c] = kEig[c][0] * static_cast<float>(r) + kEig[c][1] * static_cast<float>(g) +
               kEig[c][2] * static_cast<float>(b);
  Tensor out = image.contiguous().clone();
  auto* p = static_cast<uint8_t*>(out.raw_data());
  for (int64_t i = 0; i < out.numel(); ++i)
    p[i] = cv::saturate_cast<uint8_t>(static_cast<float>(p[i]) + shift[i % 3]);
  return out;
}

}  // namespace

TensorOpPtr adjust_brightness_op(double factor) {
  return image_op("AdjustBrightness", [=](const Tensor& image, Rng&) {
    check_rgb("AdjustBrightness", image, false);
    return blend(image, Tensor::zeros(image.shape(), image.dtype()), factor);
  });
}

TensorOpPtr adjust_contrast_op(double factor) {
  return image_op("AdjustContrast", [=](const Tensor& image, Rng&) {
    check_rgb("AdjustContrast", image, true);
    return augment_image(image, "Contrast", factor - 1.0, Interpolation::Nearest, {0, 0, 0});
  });
}

TensorOpPtr adjust_saturation_op(double factor) {
  return image_op("AdjustSaturation", [=](const Tensor& image, Rng&) {
    check_rgb("AdjustSaturation", image, false);
    return blend(image, grayscale_like(image), factor);
  });
}

TensorOpPtr adjust_sharpness_op(double factor) {
  return image_op("AdjustSharpness", [=](const Tensor& image, Rng&) {
    check_uint8("AdjustSharpness", image);
    return augment_image(image, "Sharpness", factor - 1.0, Interpolation::Nearest, {0, 0, 0});
  });
}

TensorOpPtr adjust_gamma_op(double gamma, double gain) {
  return image_op("AdjustGamma", [=](const Tensor& image, Rng&) {
    SPROUT_CHECK(image_channels(image) == 1 || image_channels(image) == 3, ValueError,
                 "AdjustGamma: expected 1 or 3 channels, but got shape ", shape_str(image.shape()));
    return adjust_gamma(image, gamma, gain);
  });
}

TensorOpPtr adjust_hue_op(double factor) {
  return image_op("AdjustHue", [=](const Tensor& image, Rng&) {
    check_rgb("AdjustHue", image, true);
    return hue_rotated(image, factor);
  });
}

TensorOpPtr auto_contrast_op(double cutoff, std::vector<int> ignore) {
  return image_op("AutoContrast", [=](const Tensor& image, Rng&) {
    check_uint8("AutoContrast", image);
    return auto_contrast(image, cutoff, ignore);
  });
}

TensorOpPtr equalize_op() {
  return image_op("Equalize", [](const Tensor& image, Rng&) {
    check_uint8("Equalize", image);
    return equalize(image);
  });
}

TensorOpPtr invert_op() {
  return image_op("Invert", [](const Tensor& image, Rng&) {
    check_uint8("Invert", image);
    return solarize(image, 0, 255);
  });
}

TensorOpPtr posterize_op(int bits) {
  SPROUT_ASSERT(bits >= 0 && bits <= 8);
  return image_op("Posterize", [=](const Tensor& image, Rng&) {
    check_uint8("Posterize", image);
    return posterize(image, bits);
  });
}

TensorOpPtr solarize_op(double low, double high) {
  return image_op("Solarize", [=](const Tensor& image, Rng&) {
    check_uint8("Solarize", image);
    return solarize(image, low, high);
  });
}

TensorOpPtr random_color_op(Range degrees) {
  return image_op("RandomColor", [=](const Tensor& image, Rng& rng) {
    check_rgb("RandomColor", image, false);
    return blend(image, grayscale_like(image), uniform(rng, degrees.first, degrees.second));
  });
}

TensorOpPtr random_sharpness_op(Range degrees) {
  return image_op("RandomSharpness", [=](const Tensor& image, Rng& rng) {
    check_uint8("RandomSharpness", image);
    const double factor = uniform(rng, degrees.first, degrees.second);
    return augment_image(image, "Sharpness", factor - 1.0, Interpolation::Nearest, {0, 0, 0});
  });
}

TensorOpPtr random_posterize_op(std::pair<int, int> bits) {
  return image_op("RandomPosterize", [=](const Tensor& image, Rng& rng) {
    check_uint8("RandomPosterize", image);
    return posterize(image, static_cast<int>(uniform_int(rng, bits.first, bits.second)));
  });
}

TensorOpPtr random_solarize_op(Range threshold) {
  return image_op("RandomSolarize", [=](const Tensor& image, Rng& rng) {
    check_uint8("RandomSolarize", image);
    const auto low = static_cast<int64_t>(threshold.first), high = static_cast<int64_t>(threshold.second);
    int64_t a = uniform_int(rng, low, high), b = uniform_int(rng, low, high);
    if (a > b) std::swap(a, b);
    return solarize(image, static_cast<double>(a), static_cast<double>(b));
  });
}

TensorOpPtr random_lighting_op(double alpha) {
  return image_op("RandomLighting", [=](const Tensor& image, Rng& rng) {
    check_rgb("RandomLighting", image, true);
    return random_lighting(image, alpha, rng);
  });
}

TensorOpPtr random_apply_op(std::string name, double prob, TensorOpPtr op) {
  class RandomApply final : public TensorOp {
   public:
    RandomApply(std::string name, double prob, TensorOpPtr op) : name_(std::move(name)), prob_(prob), op_(std::move(op)) {}
    std::string name() const override { return name_; }
    Row apply(Row columns, Rng& rng) const override {
      return rng.uniform_real() < prob_ ? op_->apply(std::move(columns), rng) : columns;
    }

   private:
    std::string name_;
    double prob_;
    TensorOpPtr op_;
  };
  return std::make_shared<RandomApply>(std::move(name), prob, std::move(op));
}

}  // namespace sprout::data
