#include "data/augment_ops.h"

#include <cmath>
#include <opencv2/imgproc.hpp>

#include "base/error.h"
#include "data/random_util.h"

namespace sprout::data {

namespace {

uint8_t* bytes(Tensor& t) { return static_cast<uint8_t*>(t.raw_data()); }

Tensor map_bytes(const Tensor& image, const uint8_t (&table)[256]) {
  Tensor out = image.clone();
  uint8_t* p = bytes(out);
  for (int64_t i = 0; i < out.numel(); ++i) p[i] = table[p[i]];
  return out;
}

Tensor posterize(const Tensor& image, int bits) {
  uint8_t table[256];
  const auto mask = static_cast<uint8_t>(~((1u << (8 - bits)) - 1));
  for (int v = 0; v < 256; ++v) table[v] = static_cast<uint8_t>(v & mask);
  return map_bytes(image, table);
}

Tensor solarize(const Tensor& image, double threshold) {
  uint8_t table[256];
  for (int v = 0; v < 256; ++v) table[v] = static_cast<uint8_t>(v >= threshold ? 255 - v : v);
  return map_bytes(image, table);
}

// Per channel: the lookup table of `fn(histogram)`, applied to that channel.
template <class F>
Tensor per_channel_table(const Tensor& image, F fn) {
  Tensor out = image.clone();
  const int64_t C = image_channels(image), n = image.numel() / C;
  uint8_t* p = bytes(out);
  for (int64_t c = 0; c < C; ++c) {
    int64_t hist[256] = {};
    for (int64_t i = 0; i < n; ++i) ++hist[p[i * C + c]];
    uint8_t table[256];
    fn(hist, n, table);
    for (int64_t i = 0; i < n; ++i) p[i * C + c] = table[p[i * C + c]];
  }
  return out;
}

Tensor autocontrast(const Tensor& image) {
  return per_channel_table(image, [](const int64_t* hist, int64_t, uint8_t* table) {
    int lo = 0, hi = 255;
    while (lo < 255 && hist[lo] == 0) ++lo;
    while (hi > 0 && hist[hi] == 0) --hi;
    for (int v = 0; v < 256; ++v)
      table[v] = hi <= lo ? static_cast<uint8_t>(v)
                          : static_cast<uint8_t>(std::clamp(std::lround((v - lo) * 255.0 / (hi - lo)), 0L, 255L));
  });
}

// PIL's ImageOps.equalize: the histogram's cumulative sum, without the last bin, spread over 0..255.
Tensor equalize(const Tensor& image) {
  return per_channel_table(image, [](const int64_t* hist, int64_t n, uint8_t* table) {
    int last = 255;
    while (last > 0 && hist[last] == 0) --last;
    const int64_t step = (n - hist[last]) / 255;
    if (step == 0) {
      for (int v = 0; v < 256; ++v) table[v] = static_cast<uint8_t>(v);
      return;
    }
    int64_t acc = step / 2;
    for (int v = 0; v < 256; ++v) {
      table[v] = static_cast<uint8_t>(std::min<int64_t>(255, acc / step));
      acc += hist[v];
    }
  });
}

// PIL's ImageFilter.SMOOTH kernel; the border keeps the original pixels.
Tensor sharpness(const Tensor& image, double factor) {
  Tensor keep = image.contiguous();
  const int C = static_cast<int>(image_channels(image));
  cv::Mat src(static_cast<int>(image.dim(0)), static_cast<int>(image.dim(1)), CV_8UC(C), keep.raw_data()), smooth;
  cv::Mat kernel = (cv::Mat_<float>(3, 3) << 1, 1, 1, 1, 5, 1, 1, 1, 1) / 13.0f;
  cv::filter2D(src, smooth, -1, kernel);
  Tensor degenerate = image.clone();
  if (src.rows > 2 && src.cols > 2) {
    const cv::Rect inner(1, 1, src.cols - 2, src.rows - 2);
    cv::Mat dst(src.rows, src.cols, src.type(), degenerate.raw_data());
    smooth(inner).copyTo(dst(inner));
  }
  return blend(image, degenerate, factor);
}

Tensor contrast(const Tensor& image, double factor) {
  const Tensor gray = convert_color(image, cv::COLOR_RGB2GRAY);
  double mean = 0;
  for (int64_t i = 0; i < gray.numel(); ++i) mean += static_cast<const uint8_t*>(gray.raw_data())[i];
  mean = std::round(mean / static_cast<double>(gray.numel()));
  Tensor flat = Tensor::empty(image.shape(), DType::UInt8);
  flat.copy_from(Tensor::scalar(mean, DType::UInt8));
  return blend(image, flat, factor);
}

// Forward affine `m` about the origin, warped with the inverse as torchvision does for shear/translate.
Tensor affine(const Tensor& image, double a, double b, double c, double d, double e, double f,
              Interpolation interpolation, const Fill& fill) {
  const double det = a * e - b * d;
  const std::array<double, 6> inverse{e / det, -b / det, (b * f - e * c) / det, -d / det, a / det, (d * c - a * f) / det};
  return warp_affine(image, inverse, image.dim(0), image.dim(1), interpolation, fill);
}

struct PolicyStep {
  const char* op;
  double prob;
  int magnitude_id;  // -1: the op has no magnitude
};
using SubPolicy = std::array<PolicyStep, 2>;

const std::vector<SubPolicy>& policy_table(AutoAugmentPolicy policy) {
  static const std::vector<SubPolicy> imagenet = {
      {{{"Posterize", 0.4, 8}, {"Rotate", 0.6, 9}}},      {{{"Solarize", 0.6, 5}, {"AutoContrast", 0.6, -1}}},
      {{{"Equalize", 0.8, -1}, {"Equalize", 0.6, -1}}},   {{{"Posterize", 0.6, 7}, {"Posterize", 0.6, 6}}},
      {{{"Equalize", 0.4, -1}, {"Solarize", 0.2, 4}}},    {{{"Equalize", 0.4, -1}, {"Rotate", 0.8, 8}}},
      {{{"Solarize", 0.6, 3}, {"Equalize", 0.6, -1}}},    {{{"Posterize", 0.8, 5}, {"Equalize", 1.0, -1}}},
      {{{"Rotate", 0.2, 3}, {"Solarize", 0.6, 8}}},       {{{"Equalize", 0.6, -1}, {"Posterize", 0.4, 6}}},
      {{{"Rotate", 0.8, 8}, {"Color", 0.4, 0}}},          {{{"Rotate", 0.4, 9}, {"Equalize", 0.6, -1}}},
      {{{"Equalize", 0.0, -1}, {"Equalize", 0.8, -1}}},   {{{"Invert", 0.6, -1}, {"Equalize", 1.0, -1}}},
      {{{"Color", 0.6, 4}, {"Contrast", 1.0, 8}}},        {{{"Rotate", 0.8, 8}, {"Color", 1.0, 2}}},
      {{{"Color", 0.8, 8}, {"Solarize", 0.8, 7}}},        {{{"Sharpness", 0.4, 7}, {"Invert", 0.6, -1}}},
      {{{"ShearX", 0.6, 5}, {"Equalize", 1.0, -1}}},      {{{"Color", 0.4, 0}, {"Equalize", 0.6, -1}}},
      {{{"Equalize", 0.4, -1}, {"Solarize", 0.2, 4}}},    {{{"Solarize", 0.6, 5}, {"AutoContrast", 0.6, -1}}},
      {{{"Invert", 0.6, -1}, {"Equalize", 1.0, -1}}},     {{{"Color", 0.6, 4}, {"Contrast", 1.0, 8}}},
      {{{"Equalize", 0.8, -1}, {"Equalize", 0.6, -1}}},
  };
  static const std::vector<SubPolicy> cifar10 = {
      {{{"Invert", 0.1, -1}, {"Contrast", 0.2, 6}}},      {{{"Rotate", 0.7, 2}, {"TranslateX", 0.3, 9}}},
      {{{"Sharpness", 0.8, 1}, {"Sharpness", 0.9, 3}}},   {{{"ShearY", 0.5, 8}, {"TranslateY", 0.7, 9}}},
      {{{"AutoContrast", 0.5, -1}, {"Equalize", 0.9, -1}}}, {{{"ShearY", 0.2, 7}, {"Posterize", 0.3, 7}}},
      {{{"Color", 0.4, 3}, {"Brightness", 0.6, 7}}},      {{{"Sharpness", 0.3, 9}, {"Brightness", 0.7, 9}}},
      {{{"Equalize", 0.6, -1}, {"Equalize", 0.5, -1}}},   {{{"Contrast", 0.6, 7}, {"Sharpness", 0.6, 5}}},
      {{{"Color", 0.7, 7}, {"TranslateX", 0.5, 8}}},      {{{"Equalize", 0.3, -1}, {"AutoContrast", 0.4, -1}}},
      {{{"TranslateY", 0.4, 3}, {"Sharpness", 0.2, 6}}},  {{{"Brightness", 0.9, 6}, {"Color", 0.2, 8}}},
      {{{"Solarize", 0.5, 2}, {"Invert", 0.0, -1}}},      {{{"Equalize", 0.2, -1}, {"AutoContrast", 0.6, -1}}},
      {{{"Equalize", 0.2, -1}, {"Equalize", 0.6, -1}}},   {{{"Color", 0.9, 9}, {"Equalize", 0.6, -1}}},
      {{{"AutoContrast", 0.8, -1}, {"Solarize", 0.2, 8}}}, {{{"Brightness", 0.1, 3}, {"Color", 0.7, 0}}},
      {{{"Solarize", 0.4, 5}, {"AutoContrast", 0.9, -1}}}, {{{"TranslateY", 0.9, 9}, {"TranslateY", 0.7, 9}}},
      {{{"AutoContrast", 0.9, -1}, {"Solarize", 0.8, 3}}}, {{{"Equalize", 0.8, -1}, {"Invert", 0.1, -1}}},
      {{{"TranslateY", 0.7, 9}, {"AutoContrast", 0.9, -1}}},
  };
  static const std::vector<SubPolicy> svhn = {
      {{{"ShearX", 0.9, 4}, {"Invert", 0.2, -1}}},        {{{"ShearY", 0.9, 8}, {"Invert", 0.7, -1}}},
      {{{"Equalize", 0.6, -1}, {"Solarize", 0.6, 6}}},    {{{"Invert", 0.9, -1}, {"Equalize", 0.6, -1}}},
      {{{"Equalize", 0.6, -1}, {"Rotate", 0.9, 3}}},      {{{"ShearX", 0.9, 4}, {"AutoContrast", 0.8, -1}}},
      {{{"ShearY", 0.9, 8}, {"Invert", 0.4, -1}}},        {{{"ShearY", 0.9, 5}, {"Solarize", 0.2, 6}}},
      {{{"Invert", 0.9, -1}, {"AutoContrast", 0.8, -1}}}, {{{"Equalize", 0.6, -1}, {"Rotate", 0.9, 3}}},
      {{{"ShearX", 0.9, 4}, {"Solarize", 0.3, 3}}},       {{{"ShearY", 0.8, 8}, {"Invert", 0.7, -1}}},
      {{{"Equalize", 0.9, -1}, {"TranslateY", 0.6, 6}}},  {{{"Invert", 0.9, -1}, {"Equalize", 0.6, -1}}},
      {{{"Contrast", 0.3, 3}, {"Rotate", 0.8, 4}}},       {{{"Invert", 0.8, -1}, {"TranslateY", 0.0, 2}}},
      {{{"ShearY", 0.7, 6}, {"Solarize", 0.4, 8}}},       {{{"Invert", 0.6, -1}, {"Rotate", 0.8, 4}}},
      {{{"ShearY", 0.3, 7}, {"TranslateX", 0.9, 3}}},     {{{"ShearX", 0.1, 6}, {"Invert", 0.6, -1}}},
      {{{"Solarize", 0.7, 2}, {"TranslateY", 0.6, 7}}},   {{{"ShearY", 0.8, 4}, {"Invert", 0.8, -1}}},
      {{{"ShearX", 0.7, 9}, {"TranslateY", 0.8, 3}}},     {{{"ShearY", 0.8, 5}, {"AutoContrast", 0.7, -1}}},
      {{{"ShearX", 0.7, 2}, {"Invert", 0.1, -1}}},
  };
  switch (policy) {
    case AutoAugmentPolicy::ImageNet: return imagenet;
    case AutoAugmentPolicy::Cifar10: return cifar10;
    case AutoAugmentPolicy::Svhn: return svhn;
  }
  return imagenet;
}

bool is_signed(const std::string& op) {
  return op == "ShearX" || op == "ShearY" || op == "TranslateX" || op == "TranslateY" || op == "Rotate" ||
         op == "Brightness" || op == "Color" || op == "Contrast" || op == "Sharpness";
}

// The magnitude of `op` at bin `id` of `bins` (torchvision's _augmentation_space).
double magnitude_of(const std::string& op, int id, int bins, const Tensor& image) {
  const double t = bins > 1 ? static_cast<double>(id) / (bins - 1) : 0.0;
  if (op == "ShearX" || op == "ShearY") return 0.3 * t;
  if (op == "TranslateX") return 150.0 / 331.0 * static_cast<double>(image.dim(1)) * t;
  if (op == "TranslateY") return 150.0 / 331.0 * static_cast<double>(image.dim(0)) * t;
  if (op == "Rotate") return 30.0 * t;
  if (op == "Brightness" || op == "Color" || op == "Contrast" || op == "Sharpness") return 0.9 * t;
  if (op == "Posterize") return 8.0 - std::round(static_cast<double>(id) / ((bins - 1) / 4.0));
  if (op == "Solarize") return 255.0 * (1.0 - t);
  return 0.0;
}

void check_rgb(const char* api, const Tensor& image) {
  SPROUT_CHECK(image.ndim() == 3 && image.dim(2) == 3 && image.dtype() == DType::UInt8, TypeError, api,
               ": expected a uint8 RGB image (H, W, 3), but got ", name(image.dtype()), " of shape ",
               shape_str(image.shape()));
}

}  // namespace

Tensor augment_image(const Tensor& image, const std::string& op, double m, Interpolation interpolation,
                     const Fill& fill) {
  if (op == "Identity") return image;
  if (op == "ShearX") return affine(image, 1, m, 0, 0, 1, 0, interpolation, fill);
  if (op == "ShearY") return affine(image, 1, 0, 0, m, 1, 0, interpolation, fill);
  if (op == "TranslateX") return affine(image, 1, 0, m, 0, 1, 0, interpolation, fill);
  if (op == "TranslateY") return affine(image, 1, 0, 0, 0, 1, m, interpolation, fill);
  if (op == "Rotate") {
    const double cx = (static_cast<double>(image.dim(1)) - 1) / 2, cy = (static_cast<double>(image.dim(0)) - 1) / 2;
    const double r = m * M_PI / 180.0, a = std::cos(r), b = std::sin(r);
    return affine(image, a, b, (1 - a) * cx - b * cy, -b, a, b * cx + (1 - a) * cy, interpolation, fill);
  }
  if (op == "Brightness") return blend(image, Tensor::zeros(image.shape(), image.dtype()), 1.0 + m);
  if (op == "Color") return blend(image, grayscale_like(image), 1.0 + m);
  if (op == "Contrast") return contrast(image, 1.0 + m);
  if (op == "Sharpness") return sharpness(image, 1.0 + m);
  if (op == "Posterize") return posterize(image, static_cast<int>(m));
  if (op == "Solarize") return solarize(image, m);
  if (op == "AutoContrast") return autocontrast(image);
  if (op == "Equalize") return equalize(image);
  if (op == "Invert") {
    uint8_t table[256];
    for (int v = 0; v < 256; ++v) table[v] = static_cast<uint8_t>(255 - v);
    return map_bytes(image, table);
  }
  throw ValueError(str("augment: unknown operation '", op, "'"));
}

TensorOpPtr auto_augment_op(AutoAugmentPolicy policy, Interpolation interpolation, Fill fill) {
  class AutoAugment final : public ImageOp {
   public:
    AutoAugment(AutoAugmentPolicy policy, Interpolation interpolation, Fill fill)
        : policy_(policy), interpolation_(interpolation), fill_(fill) {}
    std::string name() const override { return "AutoAugment"; }
    Tensor apply_image(const Tensor& input, Rng& rng) const override {
      check_rgb("AutoAugment", input);
      const auto& table = policy_table(policy_);
      const SubPolicy& sub = table[rng.uniform(table.size())];
      Tensor image = input;
      for (const PolicyStep& step : sub) {
        if (rng.uniform_real() > step.prob) continue;
        double m = step.magnitude_id < 0 ? 0.0 : magnitude_of(step.op, step.magnitude_id, 10, image);
        if (is_signed(step.op) && rng.uniform_real() < 0.5) m = -m;
        image = augment_image(image, step.op, m, interpolation_, fill_);
      }
      return image;
    }

   private:
    AutoAugmentPolicy policy_;
    Interpolation interpolation_;
    Fill fill_;
  };
  return std::make_shared<AutoAugment>(policy, interpolation, fill);
}

TensorOpPtr rand_augment_op(int num_ops, int magnitude, int bins, Interpolation interpolation, Fill fill) {
  class RandAugment final : public ImageOp {
   public:
    RandAugment(int num_ops, int magnitude, int bins, Interpolation interpolation, Fill fill)
        : num_ops_(num_ops), magnitude_(magnitude), bins_(bins), interpolation_(interpolation), fill_(fill) {}
    std::string name() const override { return "RandAugment"; }
    Tensor apply_image(const Tensor& input, Rng& rng) const override {
      check_rgb("RandAugment", input);
      static const char* kOps[] = {"Identity", "ShearX",   "ShearY",    "TranslateX", "TranslateY",
                                   "Rotate",   "Brightness", "Color",   "Contrast",   "Sharpness",
                                   "Posterize", "Solarize", "AutoContrast", "Equalize"};
      Tensor image = input;
      for (int k = 0; k < num_ops_; ++k) {
        const std::string op = kOps[rng.uniform(std::size(kOps))];
        double m = magnitude_of(op, magnitude_, bins_, image);
        if (is_signed(op) && rng.uniform_real() < 0.5) m = -m;
        image = augment_image(image, op, m, interpolation_, fill_);
      }
      return image;
    }

   private:
    int num_ops_, magnitude_, bins_;
    Interpolation interpolation_;
    Fill fill_;
  };
  return std::make_shared<RandAugment>(num_ops, magnitude, bins, interpolation, fill);
}

}  // namespace sprout::data
