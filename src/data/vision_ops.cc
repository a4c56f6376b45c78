#include "data/vision_ops.h"

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>

#include "base/error.h"
#include "data/image_codec.h"
#include "data/image_simd.h"
#include "data/lambda_image_op.h"
#include "data/random_util.h"

namespace sprout::data {

namespace {

// Forward 2x3 affine matrix -> its inverse (what warp_affine takes).
std::array<double, 6> invert_affine(const std::array<double, 6>& m) {
  const double det = m[0] * m[4] - m[1] * m[3];
  SPROUT_ASSERT(det != 0, "singular affine matrix");
  const double a = m[4] / det, b = -m[1] / det, d = -m[3] / det, e = m[0] / det;
  return {a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])};
}

Tensor center_crop(const Tensor& image, Size2 size) {
  auto [h, w] = size;
  const int64_t H = image_height(image), W = image_width(image);
  // Smaller images are padded with zeros first, as MindSpore does.
  if (h > H || w > W) {
    const int64_t ph = std::max<int64_t>(0, h - H), pw = std::max<int64_t>(0, w - W);
    return center_crop(pad(image, ph / 2, ph - ph / 2, pw / 2, pw - pw / 2, BorderMode::Constant, {0, 0, 0}), size);
  }
  return crop(image, (H - h) / 2, (W - w) / 2, h, w);
}

// RandomResizedCrop's window of an H x W image: up to max_attempts draws of an area share from `scale` and
// a log-uniform aspect ratio from `ratio`, placed uniformly; else the largest central window within `ratio`.
ImageWindow random_resized_crop_window(int64_t H, int64_t W, Range scale, Range ratio, int max_attempts, Rng& rng) {
  const double area = static_cast<double>(H * W);
  const Range log_ratio{std::log(ratio.first), std::log(ratio.second)};
  for (int attempt = 0; attempt < max_attempts; ++attempt) {
    const double target = area * uniform(rng, scale.first, scale.second);
    const double aspect = std::exp(uniform(rng, log_ratio.first, log_ratio.second));
    const auto w = static_cast<int64_t>(std::lround(std::sqrt(target * aspect)));
    const auto h = static_cast<int64_t>(std::lround(std::sqrt(target / aspect)));
    if (w > 0 && h > 0 && w <= W && h <= H) {
      const int64_t top = uniform_int(rng, 0, H - h), left = uniform_int(rng, 0, W - w);
      return {top, left, h, w};
    }
  }
  const double in_ratio = static_cast<double>(W) / static_cast<double>(H);
  int64_t w = W, h = H;
  if (in_ratio < ratio.first) {
    h = static_cast<int64_t>(std::lround(static_cast<double>(W) / ratio.first));
  } else if (in_ratio > ratio.second) {
    w = static_cast<int64_t>(std::lround(static_cast<double>(H) * ratio.second));
  }
  return {(H - h) / 2, (W - w) / 2, h, w};
}

}  // namespace

TensorOpPtr decode_op() {
  class Decode final : public TensorOp {
   public:
    std::string name() const override { return "Decode"; }
    Row apply(Row columns, Rng&) const override {
      SPROUT_CHECK(columns.size() == 1 && !columns[0].is_string(), TypeError,
                   "Decode: takes one column of encoded image bytes");
      return Row{decode_image(columns[0].tensor(), "the image")};
    }
  };
  return std::make_shared<Decode>();
}

TensorOpPtr resize_op(Size2 size, bool keep_ratio, Interpolation interpolation) {
  return image_op("Resize", [=](const Tensor& image, Rng&) {
    int64_t h = size.first, w = size.second;
    if (keep_ratio) {  // the shorter side becomes size.first, the longer keeps the aspect ratio
      const int64_t H = image_height(image), W = image_width(image);
      if (H <= W) {
        w = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(W) * h / H));
      } else {
        w = size.first;
        h = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(H) * w / W));
      }
    }
    return resize(image, h, w, interpolation);
  });
}

TensorOpPtr center_crop_op(Size2 size) {
  return image_op("CenterCrop", [=](const Tensor& image, Rng&) { return center_crop(image, size); });
}

TensorOpPtr random_crop_op(Size2 size, std::array<int64_t, 4> padding, bool pad_if_needed, Fill fill,
                           BorderMode mode) {
  return image_op("RandomCrop", [=](const Tensor& input, Rng& rng) {
    Tensor image = input;
    if (padding[0] || padding[1] || padding[2] || padding[3])
      image = pad(image, padding[0], padding[1], padding[2], padding[3], mode, fill);
    auto [h, w] = size;
    if (pad_if_needed) {
      const int64_t ph = std::max<int64_t>(0, h - image_height(image)), pw = std::max<int64_t>(0, w - image_width(image));
      if (ph || pw) image = pad(image, ph / 2, ph - ph / 2, pw / 2, pw - pw / 2, mode, fill);
    }
    SPROUT_CHECK(image_height(image) >= h && image_width(image) >= w, ValueError, "RandomCrop: crop size (", h,
                 ", ", w, ") is larger than the (padded) image ", shape_str(image.shape()),
                 "; pass pad_if_needed=True or a smaller size");
    const int64_t top = uniform_int(rng, 0, image_height(image) - h), left = uniform_int(rng, 0, image_width(image) - w);
    return crop(image, top, left, h, w);
  });
}

TensorOpPtr random_resized_crop_op(Size2 size, Range scale, Range ratio, Interpolation interpolation,
                                   int max_attempts) {
  return image_op("RandomResizedCrop", [=](const Tensor& image, Rng& rng) {
    const ImageWindow w = random_resized_crop_window(image_height(image), image_width(image), scale, ratio,
                                                     max_attempts, rng);
    return resize(image.slice(0, w.top, w.top + w.height, 1).slice(1, w.left, w.left + w.width, 1), size.first,
                  size.second, interpolation);
  });
}

TensorOpPtr random_crop_decode_resize_op(Size2 size, Range scale, Range ratio, Interpolation interpolation,
                                         int max_attempts) {
  class RandomCropDecodeResize final : public TensorOp {
   public:
    RandomCropDecodeResize(Size2 size, Range scale, Range ratio, Interpolation interpolation, int max_attempts)
        : size_(size), scale_(scale), ratio_(ratio), interpolation_(interpolation), max_attempts_(max_attempts) {}
    std::string name() const override { return "RandomCropDecodeResize"; }
    Row apply(Row columns, Rng& rng) const override {
      SPROUT_CHECK(columns.size() == 1 && !columns[0].is_string(), TypeError,
                   "RandomCropDecodeResize: takes one column of encoded image bytes");
      // The window is drawn as RandomResizedCrop draws it, once the image's size is known; a JPEG then
      // decodes only the rows and the iMCU columns the window covers.
      auto draw_window = [&](int64_t height, int64_t width) {
        return random_resized_crop_window(height, width, scale_, ratio_, max_attempts_, rng);
      };
      const Tensor window = decode_image_window(name().c_str(), columns[0].tensor(), "the image", draw_window);
      return Row{resize(window, size_.first, size_.second, interpolation_)};
    }

   private:
    Size2 size_;
    Range scale_, ratio_;
    Interpolation interpolation_;
    int max_attempts_;
  };
  return std::make_shared<RandomCropDecodeResize>(size, scale, ratio, interpolation, max_attempts);
}

TensorOpPtr random_flip_op(double prob, bool horizontal) {
  return image_op(horizontal ? "RandomHorizontalFlip" : "RandomVerticalFlip", [=](const Tensor& image, Rng& rng) {
    return rng.uniform_real() < prob ? flip(image, horizontal) : image;
  });
}

TensorOpPtr random_rotation_op(Range degrees, Interpolation interpolation, bool expand,
                               std::optional<std::pair<double, double>> center, Fill fill) {
  return image_op("RandomRotation", [=](const Tensor& image, Rng& rng) {
    const double angle = uniform(rng, degrees.first, degrees.second);
    const double H = static_cast<double>(image_height(image)), W = static_cast<double>(image_width(image));
    const auto [cx, cy] = center.value_or(std::make_pair((W - 1) / 2, (H - 1) / 2));
    // Counter-clockwise for positive angles, as PIL and OpenCV rotate.
    const double rad = angle * M_PI / 180.0, a = std::cos(rad), b = std::sin(rad);
    std::array<double, 6> m{a, b, (1 - a) * cx - b * cy, -b, a, b * cx + (1 - a) * cy};
    int64_t out_h = image_height(image), out_w = image_width(image);
    if (expand) {  // grow the canvas to hold the whole rotated image, centred
      const double new_w = std::abs(a) * W + std::abs(b) * H, new_h = std::abs(b) * W + std::abs(a) * H;
      out_w = static_cast<int64_t>(std::ceil(new_w - 1e-9));
      out_h = static_cast<int64_t>(std::ceil(new_h - 1e-9));
      m[2] += (static_cast<double>(out_w) - W) / 2;
      m[5] += (static_cast<double>(out_h) - H) / 2;
    }
    return warp_affine(image, invert_affine(m), out_h, out_w, interpolation, fill);
  });
}

TensorOpPtr random_affine_op(Range degrees, Range translate_x, Range translate_y, Range scale, Range shear_x,
                             Range shear_y, Interpolation interpolation, Fill fill) {
  return image_op("RandomAffine", [=](const Tensor& image, Rng& rng) {
    const double H = static_cast<double>(image_height(image)), W = static_cast<double>(image_width(image));
    const double angle = uniform(rng, degrees.first, degrees.second) * M_PI / 180.0;
    const double tx = std::round(uniform(rng, translate_x.first, translate_x.second) * W);
    const double ty = std::round(uniform(rng, translate_y.first, translate_y.second) * H);
    const double s = uniform(rng, scale.first, scale.second);
    const double sx = std::tan(uniform(rng, shear_x.first, shear_x.second) * M_PI / 180.0);
    const double sy = std::tan(uniform(rng, shear_y.first, shear_y.second) * M_PI / 180.0);
    const double cx = (W - 1) / 2, cy = (H - 1) / 2;
    // Forward map: x' = s * R * Shear * (x - c) + c + t, R counter-clockwise in image coordinates.
    const double r00 = std::cos(angle), r01 = std::sin(angle), r10 = -std::sin(angle), r11 = std::cos(angle);
    const double a = s * (r00 + r01 * sy), b = s * (r00 * sx + r01), d = s * (r10 + r11 * sy), e = s * (r10 * sx + r11);
    const std::array<double, 6> m{a, b, cx + tx - a * cx - b * cy, d, e, cy + ty - d * cx - e * cy};
    return warp_affine(image, invert_affine(m), image_height(image), image_width(image), interpolation, fill);
  });
}

TensorOpPtr random_color_adjust_op(Range brightness, Range contrast, Range saturation, Range hue) {
  return image_op("RandomColorAdjust", [=](const Tensor& input, Rng& rng) {
    SPROUT_CHECK(image_channels(input) == 3, ValueError, "RandomColorAdjust: expected an RGB image (H, W, 3), but got ",
                 shape_str(input.shape()));
    Tensor image = input;
    std::vector<int> order{0, 1, 2, 3};
    rng.shuffle(order);  // adjustments in random order, as torchvision's ColorJitter
    for (int which : order) {
      if (which == 0 && brightness != Range{1, 1}) {
        image = blend(image, Tensor::zeros(image.shape(), image.dtype()), uniform(rng, brightness.first, brightness.second));
      } else if (which == 1 && contrast != Range{1, 1}) {
        const Tensor gray = grayscale_like(image);
        double mean = 0;
        for (int64_t i = 0; i < gray.numel(); i += 3) mean += gray.element_as_double(i);
        mean /= static_cast<double>(gray.numel() / 3);
        if (image.dtype() == DType::UInt8) mean = std::round(mean);
        Tensor flat = Tensor::empty(image.shape(), image.dtype());
        flat.copy_from(Tensor::scalar(mean, image.dtype()));
        image = blend(image, flat, uniform(rng, contrast.first, contrast.second));
      } else if (which == 2 && saturation != Range{1, 1}) {
        image = blend(image, grayscale_like(image), uniform(rng, saturation.first, saturation.second));
      } else if (which == 3 && hue != Range{0, 0}) {
        SPROUT_CHECK(image.dtype() == DType::UInt8, TypeError, "RandomColorAdjust: hue needs a uint8 image");
        image = adjust_hue(image, uniform(rng, hue.first, hue.second));
      }
    }
    return image;
  });
}

TensorOpPtr random_erasing_op(double prob, Range scale, Range ratio, std::vector<double> value, bool random_value,
                              int max_attempts) {
  return image_op("RandomErasing", [=](const Tensor& image, Rng& rng) {
    SPROUT_CHECK(image.ndim() == 3, ValueError, "RandomErasing: expected a (C, H, W) image, but got shape ",
                 shape_str(image.shape()));
    if (rng.uniform_real() >= prob) return image;
    const int64_t C = image.dim(0), H = image.dim(1), W = image.dim(2);
    const double area = static_cast<double>(H * W);
    for (int attempt = 0; attempt < max_attempts; ++attempt) {
      const double erase = area * uniform(rng, scale.first, scale.second);
      const double aspect = std::exp(uniform(rng, std::log(ratio.first), std::log(ratio.second)));
      const auto h = static_cast<int64_t>(std::lround(std::sqrt(erase * aspect)));
      const auto w = static_cast<int64_t>(std::lround(std::sqrt(erase / aspect)));
      if (h >= H || w >= W || h < 1 || w < 1) continue;
      const int64_t top = uniform_int(rng, 0, H - h), left = uniform_int(rng, 0, W - w);
      Tensor out = image.clone();
      for (int64_t c = 0; c < C; ++c) {
        Tensor patch = out.select(0, c).slice(0, top, top + h, 1).slice(1, left, left + w, 1);
        if (random_value) {  // standard normal noise; uniform bytes for a uint8 image
          Tensor noise = Tensor::empty(Shape{h, w}, image.dtype());
          for (int64_t i = 0; i < h * w; ++i) {
            if (image.dtype() == DType::Float32)
              noise.data<float>()[i] = static_cast<float>(normal(rng));
            else
              static_cast<uint8_t*>(noise.raw_data())[i] = static_cast<uint8_t>(uniform_int(rng, 0, 255));
          }
          patch.copy_from(noise);
        } else {
          patch.copy_from(Tensor::scalar(value[static_cast<size_t>(c) % value.size()], image.dtype()));
        }
      }
      return out;
    }
    return image;
  });
}

TensorOpPtr pad_op(std::array<int64_t, 4> padding, Fill fill, BorderMode mode) {
  return image_op("Pad", [=](const Tensor& image, Rng&) {
    return pad(image, padding[0], padding[1], padding[2], padding[3], mode, fill);
  });
}

TensorOpPtr rescale_op(double rescale, double shift) {
  return image_op("Rescale", [=](const Tensor& image, Rng&) { return to_float(image, rescale, shift); });
}

TensorOpPtr normalize_op(std::vector<double> mean, std::vector<double> std, bool is_hwc) {
  return image_op("Normalize", [=](const Tensor& input, Rng&) {
    const int64_t C = is_hwc ? image_channels(input) : input.dim(0);
    SPROUT_CHECK(static_cast<int64_t>(mean.size()) == C || mean.size() == 1, ValueError, "Normalize: ", mean.size(),
                 " mean values for an image of ", C, " channels (shape ", shape_str(input.shape()), ")");
    Tensor image = input.contiguous();
    Tensor out = Tensor::empty(image.shape(), DType::Float32);
    std::vector<float> m(static_cast<size_t>(C)), inv(static_cast<size_t>(C));
    for (int64_t c = 0; c < C; ++c) {
      m[c] = static_cast<float>(mean[mean.size() == 1 ? 0 : c]);
      inv[c] = static_cast<float>(1.0 / std[std.size() == 1 ? 0 : c]);
    }
    float* dst = out.data<float>();
    const int64_t n = image.numel();
    const int64_t plane = is_hwc ? 1 : n / C;  // CHW: a channel is a contiguous plane
    auto run = [&](auto* src) {
      if (is_hwc && C == 3) {
        simd_normalize_rgb(src, dst, n / 3, m.data(), inv.data());
      } else if (is_hwc) {
        for (int64_t i = 0; i < n; i += C)
          for (int64_t c = 0; c < C; ++c) dst[i + c] = (static_cast<float>(src[i + c]) - m[c]) * inv[c];
      } else {
        for (int64_t c = 0; c < C; ++c)
          for (int64_t i = c * plane; i < (c + 1) * plane; ++i) dst[i] = (static_cast<float>(src[i]) - m[c]) * inv[c];
      }
    };
    if (image.dtype() == DType::UInt8)
      run(static_cast<const uint8_t*>(image.raw_data()));
    else
      run(image.data<float>());
    return out;
  });
}

TensorOpPtr hwc2chw_op() {
  return image_op("HWC2CHW", [](const Tensor& image, Rng&) { return hwc_to_chw(image); });
}

TensorOpPtr to_tensor_op() {
  return image_op("ToTensor", [](const Tensor& image, Rng&) {
    return hwc_to_chw(image.dtype() == DType::UInt8 ? to_float(image, 1.0 / 255.0, 0.0) : image);
  });
}

TensorOpPtr convert_color_op(const std::string& mode) {
  static const std::pair<const char*, int> kCodes[] = {
      {"COLOR_BGR2BGRA", cv::COLOR_BGR2BGRA}, {"COLOR_RGB2RGBA", cv::COLOR_RGB2RGBA},
      {"COLOR_BGRA2BGR", cv::COLOR_BGRA2BGR}, {"COLOR_RGBA2RGB", cv::COLOR_RGBA2RGB},
      {"COLOR_BGR2RGBA", cv::COLOR_BGR2RGBA}, {"COLOR_RGB2BGRA", cv::COLOR_RGB2BGRA},
      {"COLOR_RGBA2BGR", cv::COLOR_RGBA2BGR}, {"COLOR_BGRA2RGB", cv::COLOR_BGRA2RGB},
      {"COLOR_BGR2RGB", cv::COLOR_BGR2RGB},   {"COLOR_RGB2BGR", cv::COLOR_RGB2BGR},
      {"COLOR_BGRA2RGBA", cv::COLOR_BGRA2RGBA}, {"COLOR_RGBA2BGRA", cv::COLOR_RGBA2BGRA},
      {"COLOR_BGR2GRAY", cv::COLOR_BGR2GRAY}, {"COLOR_RGB2GRAY", cv::COLOR_RGB2GRAY},
      {"COLOR_GRAY2BGR", cv::COLOR_GRAY2BGR}, {"COLOR_GRAY2RGB", cv::COLOR_GRAY2RGB},
      {"COLOR_GRAY2BGRA", cv::COLOR_GRAY2BGRA}, {"COLOR_GRAY2RGBA", cv::COLOR_GRAY2RGBA},
      {"COLOR_BGRA2GRAY", cv::COLOR_BGRA2GRAY}, {"COLOR_RGBA2GRAY", cv::COLOR_RGBA2GRAY},
  };
  int code = -1;
  for (const auto& [name, value] : kCodes)
    if (mode == name) code = value;
  SPROUT_CHECK(code >= 0, ValueError, "ConvertColor: unknown convert_mode '", mode, "'");
  return image_op("ConvertColor", [=](const Tensor& image, Rng&) {
    try {
      Tensor out = convert_color(image, code);
      if (out.ndim() == 3 && out.dim(2) == 1) {  // MindSpore gives a gray image as (H, W)
        const int64_t plane[] = {out.dim(0), out.dim(1)};
        out = out.reshape(plane);
      }
      return out;
    } catch (const cv::Exception&) {
      throw ValueError(str("ConvertColor: ", mode, " does not apply to an image of shape ", shape_str(image.shape())));
    }
  });
}

TensorOpPtr grayscale_op(int num_output_channels) {
  return image_op("Grayscale", [=](const Tensor& image, Rng&) {
    SPROUT_CHECK(image_channels(image) == 3, ValueError, "Grayscale: expected an RGB image (H, W, 3), but got shape ",
                 shape_str(image.shape()));
    return num_output_channels == 3 ? grayscale_like(image) : convert_color(image, cv::COLOR_RGB2GRAY);
  });
}

}  // namespace sprout::data
