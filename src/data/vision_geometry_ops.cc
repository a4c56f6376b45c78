#include "data/vision_geometry_ops.h"

#include <cmath>
#include <opencv2/imgproc.hpp>

#include "base/error.h"
#include "base/half.h"
#include "data/image_mat.h"
#include "data/lambda_image_op.h"
#include "data/random_util.h"

namespace sprout::data {

namespace {

// cv::warpAffine with a forward matrix (OpenCV inverts it), fill outside.
Tensor warp_forward(const Tensor& image, const cv::Mat& matrix, Interpolation interpolation, const Fill& fill) {
  Tensor keep;
  cv::Mat src = as_mat(image, keep), dst;
  cv::warpAffine(src, dst, matrix, src.size(), cv_interpolation(interpolation), cv::BORDER_CONSTANT, cv_fill(fill));
  return from_mat(dst, image);
}

// MindSpore's Affine matrix: T * C * R(a) S(s) SHy(sy) SHx(sx) * C^-1, entries rounded to float as its are.
cv::Mat affine_matrix(int64_t height, int64_t width, double degrees, double tx, double ty, double scale,
                      Point2 shear) {
  const double a = degrees * M_PI / 180.0, sx = shear.first * M_PI / 180.0, sy = -shear.second * M_PI / 180.0;
  const double cx = (static_cast<double>(width) - 1) / 2.0, cy = (static_cast<double>(height) - 1) / 2.0;
  float m[6];
  m[0] = static_cast<float>(scale * std::cos(a + sy) / std::cos(sy));
  m[1] = static_cast<float>(scale * (-std::cos(a + sy) * std::tan(sx) / std::cos(sy) - std::sin(a)));
  m[3] = static_cast<float>(scale * std::sin(a + sy) / std::cos(sy));
  m[4] = static_cast<float>(scale * (-std::sin(a + sy) * std::tan(sx) / std::cos(sy) + std::cos(a)));
  const auto fcx = static_cast<float>(cx), fcy = static_cast<float>(cy);
  m[2] = (1 - m[0]) * fcx - m[1] * fcy + static_cast<float>(tx);
  m[5] = (1 - m[4]) * fcy - m[3] * fcx + static_cast<float>(ty);
  return (cv::Mat_<float>(2, 3) << m[0], m[1], m[2], m[3], m[4], m[5]);
}

// Fills rows [top, bottom) and columns [left, right) of an (H, W, C) tensor (or of each plane of a
// (C, H, W) one when `chw`) with `value` per channel.
void fill_box(Tensor& out, bool chw, int64_t top, int64_t bottom, int64_t left, int64_t right,
              const std::vector<double>& value) {
  if (top >= bottom || left >= right) return;
  const int64_t C = chw ? out.dim(0) : image_channels(out);
  for (int64_t c = 0; c < C; ++c) {
    Tensor plane = chw ? out.select(0, c) : (out.ndim() == 3 ? out.select(2, c) : out);
    plane.slice(0, top, bottom, 1).slice(1, left, right, 1).copy_from(
        Tensor::scalar(value[static_cast<size_t>(c) % value.size()], out.dtype()));
  }
}

Tensor resize_to(const Tensor& image, Size2 size, bool keep_ratio, Interpolation interpolation) {
  int64_t h = size.first, w = size.second;
  if (keep_ratio) {  // as Resize: the shorter side becomes size.first
    const int64_t H = image_height(image), W = image_width(image);
    if (H <= W) {
      w = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(W) * h / H));
    } else {
      w = size.first;
      h = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(H) * w / W));
    }
  }
  return resize(image, h, w, interpolation);
}

}  // namespace

TensorOpPtr affine_op(double degrees, Point2 translate, double scale, Point2 shear, Interpolation interpolation,
                      Fill fill) {
  return image_op("Affine", [=](const Tensor& image, Rng&) {
    const int64_t H = image_height(image), W = image_width(image);
    const double tx = static_cast<float>(translate.first) * static_cast<float>(W);
    const double ty = static_cast<float>(translate.second) * static_cast<float>(H);
    return warp_forward(image, affine_matrix(H, W, degrees, tx, ty, scale, shear), interpolation, fill);
  });
}

TensorOpPtr crop_op(int64_t top, int64_t left, Size2 size) {
  return image_op("Crop", [=](const Tensor& image, Rng&) {
    SPROUT_CHECK(top + size.first <= image_height(image) && left + size.second <= image_width(image), ValueError,
                 "Crop: the window at (top, left) = (", top, ", ", left, ") of size (", size.first, ", ", size.second,
                 ") does not fit in the image of shape ", shape_str(image.shape()));
    return crop(image, top, left, size.first, size.second);
  });
}

TensorOpPtr flip_op(bool horizontal) {
  return image_op(horizontal ? "HorizontalFlip" : "VerticalFlip",
                  [=](const Tensor& image, Rng&) { return flip(image, horizontal); });
}

TensorOpPtr gaussian_blur_op(std::pair<int, int> kernel, Point2 sigma) {
  return image_op("GaussianBlur", [=](const Tensor& image, Rng&) {
    Tensor keep;
    cv::Mat src = as_mat(image, keep), dst;
    cv::GaussianBlur(src, dst, cv::Size(kernel.first, kernel.second), static_cast<double>(static_cast<float>(sigma.first)),
                     static_cast<double>(static_cast<float>(sigma.second)));
    return from_mat(dst, image);
  });
}

TensorOpPtr pad_to_size_op(Size2 size, std::optional<std::pair<int64_t, int64_t>> offset, Fill fill, BorderMode mode) {
  return image_op("PadToSize", [=](const Tensor& image, Rng&) {
    const int64_t H = image_height(image), W = image_width(image);
    SPROUT_CHECK(size.first >= H && size.second >= W, ValueError, "PadToSize: the target size (", size.first, ", ",
                 size.second, ") is smaller than the image of shape ", shape_str(image.shape()));
    const int64_t top = offset ? offset->first : (size.first - H) / 2;
    const int64_t left = offset ? offset->second : (size.second - W) / 2;
    SPROUT_CHECK(top + H <= size.first && left + W <= size.second, ValueError, "PadToSize: offset (", top, ", ", left,
                 ") puts the image of shape ", shape_str(image.shape()), " outside the target size (", size.first,
                 ", ", size.second, ")");
    return pad(image, top, size.first - H - top, left, size.second - W - left, mode, fill);
  });
}

TensorOpPtr perspective_op(std::array<Point2, 4> start, std::array<Point2, 4> end, Interpolation interpolation) {
  std::vector<cv::Point2f> from, to;
  for (int i = 0; i < 4; ++i) {
    from.emplace_back(static_cast<float>(start[i].first), static_cast<float>(start[i].second));
    to.emplace_back(static_cast<float>(end[i].first), static_cast<float>(end[i].second));
  }
  const cv::Mat matrix = cv::getPerspectiveTransform(from, to);
  return image_op("Perspective", [=](const Tensor& image, Rng&) {
    Tensor keep;
    cv::Mat src = as_mat(image, keep), dst;
    cv::warpPerspective(src, dst, matrix, src.size(), cv_interpolation(interpolation), cv::BORDER_CONSTANT);
    return from_mat(dst, image);
  });
}

TensorOpPtr resized_crop_op(int64_t top, int64_t left, int64_t height, int64_t width, Size2 size,
                            Interpolation interpolation) {
  return image_op("ResizedCrop", [=](const Tensor& image, Rng&) {
    SPROUT_CHECK(top + height <= image_height(image) && left + width <= image_width(image), ValueError,
                 "ResizedCrop: the window at (top, left) = (", top, ", ", left, ") of size (", height, ", ", width,
                 ") does not fit in the image of shape ", shape_str(image.shape()));
    return resize(image.slice(0, top, top + height, 1).slice(1, left, left + width, 1), size.first, size.second,
                  interpolation);
  });
}

TensorOpPtr erase_op(int64_t top, int64_t left, int64_t height, int64_t width, std::vector<double> value) {
  return image_op("Erase", [=](const Tensor& image, Rng&) {
    SPROUT_CHECK(top < image_height(image) && left < image_width(image), ValueError, "Erase: (top, left) = (", top,
                 ", ", left, ") is outside the image of shape ", shape_str(image.shape()));
    Tensor out = image.clone();
    fill_box(out, false, top, std::min(top + height, image_height(image)), left,
             std::min(left + width, image_width(image)), value);
    return out;
  });
}

TensorOpPtr cut_out_op(int64_t length, int num_patches, bool is_hwc) {
  return image_op("CutOut", [=](const Tensor& image, Rng& rng) {
    SPROUT_CHECK(is_hwc || image.ndim() == 3, ValueError, "CutOut: is_hwc=False needs a (C, H, W) image, but got shape ",
                 shape_str(image.shape()));
    const int64_t H = is_hwc ? image.dim(0) : image.dim(1), W = is_hwc ? image.dim(1) : image.dim(2);
    SPROUT_CHECK(length <= H && length <= W, ValueError, "CutOut: 'length' ", length,
                 " is larger than the image's height or width (", H, ", ", W, ")");
    Tensor out = image.clone();
    for (int k = 0; k < num_patches; ++k) {
      // A patch's corner anywhere from (-length, -length) to (H, W): patches may hang over the edge.
      const int64_t top = uniform_int(rng, 0, H + length) - length, left = uniform_int(rng, 0, W + length) - length;
      fill_box(out, !is_hwc, std::max<int64_t>(top, 0), std::min(top + length, H), std::max<int64_t>(left, 0),
               std::min(left + length, W), {0.0});
    }
    return out;
  });
}

TensorOpPtr slice_patches_op(int num_height, int num_width, bool pad_mode, double fill) {
  class SlicePatches final : public ImageOp {
   public:
    SlicePatches(int nh, int nw, bool pad_mode, double fill) : nh_(nh), nw_(nw), pad_(pad_mode), fill_(fill) {}
    std::string name() const override { return "SlicePatches"; }
    Row apply(Row columns, Rng& rng) const override {
      SPROUT_CHECK(columns.size() == 1 && !columns[0].is_string(), TypeError, "SlicePatches: takes one image column");
      const Tensor& image = columns[0].tensor();
      check_image(name(), image);
      const int64_t H = image_height(image), W = image_width(image);
      SPROUT_CHECK(nh_ <= H && nw_ <= W, ValueError, "SlicePatches: ", nh_, " x ", nw_,
                   " patches do not fit in the image of shape ", shape_str(image.shape()));
      if (nh_ == 1 && nw_ == 1) return columns;
      const int64_t ph = H / nh_ + (pad_ && H % nh_ ? 1 : 0), pw = W / nw_ + (pad_ && W % nw_ ? 1 : 0);
      Tensor padded = image;
      if (pad_ && (ph * nh_ > H || pw * nw_ > W))
        padded = pad(image, 0, ph * nh_ - H, 0, pw * nw_ - W, BorderMode::Constant, {fill_, fill_, fill_});
      Row out;
      for (int i = 0; i < nh_; ++i)
        for (int j = 0; j < nw_; ++j) out.push_back(crop(padded, i * ph, j * pw, ph, pw));
      (void)rng;
      return out;
    }
    Tensor apply_image(const Tensor& image, Rng&) const override { return image; }  // unused: apply is the op

   private:
    int nh_, nw_;
    bool pad_;
    double fill_;
  };
  return std::make_shared<SlicePatches>(num_height, num_width, pad_mode, fill);
}

TensorOpPtr normalize_pad_op(std::vector<double> mean, std::vector<double> std, bool half_output, bool is_hwc) {
  return image_op("NormalizePad", [=](const Tensor& input, Rng&) {
    const int64_t C = is_hwc ? image_channels(input) : input.dim(0);
    SPROUT_CHECK(input.ndim() == 3 && C == static_cast<int64_t>(mean.size()), ValueError, "NormalizePad: expected a ",
                 is_hwc ? "(H, W, " : "(", mean.size(), is_hwc ? ")" : ", H, W)", " image, but got shape ",
                 shape_str(input.shape()));
    const Tensor image = input.contiguous();
    const int64_t H = is_hwc ? image.dim(0) : image.dim(1), W = is_hwc ? image.dim(1) : image.dim(2), n = H * W;
    const Shape shape = is_hwc ? Shape{H, W, C + 1} : Shape{C + 1, H, W};
    Tensor out = Tensor::zeros(shape, half_output ? DType::Float16 : DType::Float32);
    auto run = [&](auto* src) {
      for (int64_t c = 0; c < C; ++c) {
        // x * (1 / std) + (-mean / std), in float: OpenCV's convertTo, which MindSpore uses.
        const auto scale = static_cast<float>(1.0 / static_cast<float>(std[c]));
        const auto shift = static_cast<float>(-static_cast<float>(mean[c]) / static_cast<float>(std[c]));
        for (int64_t p = 0; p < n; ++p) {
          const float v = static_cast<float>(src[is_hwc ? p * C + c : c * n + p]) * scale + shift;
          const int64_t at = is_hwc ? p * (C + 1) + c : c * n + p;
          if (half_output)
            static_cast<float16*>(out.raw_data())[at] = float16(v);
          else
            out.data<float>()[at] = v;
        }
      }
    };
    if (image.dtype() == DType::UInt8)
      run(static_cast<const uint8_t*>(image.raw_data()));
    else
      run(image.data<float>());
    return out;
  });
}

TensorOpPtr random_resize_op(Size2 size, bool keep_ratio) {
  return image_op("RandomResize", [=](const Tensor& image, Rng& rng) {
    static constexpr Interpolation kChoices[] = {Interpolation::Linear, Interpolation::Nearest, Interpolation::Cubic,
                                                 Interpolation::Area};
    return resize_to(image, size, keep_ratio, kChoices[rng.uniform(4)]);
  });
}

}  // namespace sprout::data
