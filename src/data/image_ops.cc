#include "data/image_ops.h"

#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "base/error.h"
#include "data/image_mat.h"
#include "data/image_simd.h"

namespace sprout::data {

namespace {

int mat_type(const Tensor& image) {
  const int channels = static_cast<int>(image_channels(image));
  return image.dtype() == DType::UInt8 ? CV_8UC(channels) : CV_32FC(channels);
}

}  // namespace

// OpenCV takes rows `step` bytes apart, so a crop's rows are viewed in place.
cv::Mat as_mat(const Tensor& image, Tensor& keep) {
  const Strides& st = image.strides();
  const int64_t C = image_channels(image);
  const bool pixels_contiguous = image.ndim() == 2 ? st[1] == 1 : st[2] == 1 && st[1] == C;
  keep = pixels_contiguous && st[0] >= image_width(image) * C ? image : image.contiguous();
  const auto step = static_cast<size_t>(keep.strides()[0]) * keep.itemsize();
  return cv::Mat(static_cast<int>(image_height(image)), static_cast<int>(image_width(image)), mat_type(image),
                 keep.raw_data(), step);
}

Tensor from_mat(const cv::Mat& mat, const Tensor& like) {
  const DType dtype = mat.depth() == CV_8U ? DType::UInt8 : DType::Float32;
  SPROUT_ASSERT(mat.depth() == CV_8U || mat.depth() == CV_32F);
  Shape shape{mat.rows, mat.cols};
  if (like.ndim() == 3 || mat.channels() > 1) shape.push_back(mat.channels());
  Tensor out = Tensor::empty(shape, dtype);
  cv::Mat dst(mat.rows, mat.cols, mat.type(), out.raw_data());
  mat.copyTo(dst);
  return out;
}

int cv_interpolation(Interpolation i) {
  switch (i) {
    case Interpolation::Nearest: return cv::INTER_NEAREST;
    case Interpolation::Linear: return cv::INTER_LINEAR;
    case Interpolation::Cubic: return cv::INTER_CUBIC;
    case Interpolation::Area: return cv::INTER_AREA;
  }
  return cv::INTER_LINEAR;
}

int cv_border(BorderMode m) {
  switch (m) {
    case BorderMode::Constant: return cv::BORDER_CONSTANT;
    case BorderMode::Edge: return cv::BORDER_REPLICATE;
    case BorderMode::Reflect: return cv::BORDER_REFLECT_101;  // mirror without repeating the edge
    case BorderMode::Symmetric: return cv::BORDER_REFLECT;    // mirror repeating the edge
  }
  return cv::BORDER_CONSTANT;
}

void check_image(const std::string& api, const Tensor& image) {
  SPROUT_CHECK(image.ndim() == 2 || image.ndim() == 3, TypeError, api,
               ": expected an image of shape (H, W) or (H, W, C), but got shape ", shape_str(image.shape()));
  SPROUT_CHECK(image.dtype() == DType::UInt8 || image.dtype() == DType::Float32, TypeError, api,
               ": expected a uint8 or float32 image, but got ", name(image.dtype()));
  SPROUT_CHECK(image.dim(0) > 0 && image.dim(1) > 0, ValueError, api, ": the image is empty, shape ",
               shape_str(image.shape()));
}

int64_t image_height(const Tensor& image) { return image.dim(0); }
int64_t image_width(const Tensor& image) { return image.dim(1); }
int64_t image_channels(const Tensor& image) { return image.ndim() == 3 ? image.dim(2) : 1; }

Tensor resize(const Tensor& image, int64_t height, int64_t width, Interpolation interpolation) {
  Tensor keep;
  cv::Mat src = as_mat(image, keep);
  Shape shape{height, width};
  if (image.ndim() == 3) shape.push_back(image.dim(2));
  Tensor out = Tensor::empty(shape, image.dtype());
  cv::Mat dst(static_cast<int>(height), static_cast<int>(width), src.type(), out.raw_data());
  cv::resize(src, dst, dst.size(), 0, 0, cv_interpolation(interpolation));  // into `out`: dst has its size and type
  return out;
}

Tensor crop(const Tensor& image, int64_t top, int64_t left, int64_t height, int64_t width) {
  SPROUT_ASSERT(top >= 0 && left >= 0 && top + height <= image_height(image) && left + width <= image_width(image),
                "crop outside the image");
  return image.slice(0, top, top + height, 1).slice(1, left, left + width, 1).contiguous();
}

Tensor pad(const Tensor& image, int64_t top, int64_t bottom, int64_t left, int64_t right, BorderMode mode,
           const Fill& fill) {
  Tensor keep;
  cv::Mat src = as_mat(image, keep), dst;
  cv::copyMakeBorder(src, dst, static_cast<int>(top), static_cast<int>(bottom), static_cast<int>(left),
                     static_cast<int>(right), cv_border(mode), cv_fill(fill));
  return from_mat(dst, image);
}

Tensor flip(const Tensor& image, bool horizontal) {
  Tensor keep;
  cv::Mat src = as_mat(image, keep), dst;
  cv::flip(src, dst, horizontal ? 1 : 0);
  return from_mat(dst, image);
}

Tensor warp_affine(const Tensor& image, const std::array<double, 6>& m, int64_t out_height, int64_t out_width,
                   Interpolation interpolation, const Fill& fill) {
  Tensor keep;
  cv::Mat src = as_mat(image, keep), dst;
  cv::Mat matrix = (cv::Mat_<double>(2, 3) << m[0], m[1], m[2], m[3], m[4], m[5]);
  cv::warpAffine(src, dst, matrix, cv::Size(static_cast<int>(out_width), static_cast<int>(out_height)),
                 cv_interpolation(interpolation) | cv::WARP_INVERSE_MAP, cv::BORDER_CONSTANT, cv_fill(fill));
  return from_mat(dst, image);
}

Tensor convert_color(const Tensor& image, int code) {
  Tensor keep;
  cv::Mat src = as_mat(image, keep), dst;
  cv::cvtColor(src, dst, code);
  return from_mat(dst, image);  // a 1-channel result of a 3-D image stays 3-D: (H, W, 1)
}

Tensor blend(const Tensor& a, const Tensor& b, double factor) {
  Tensor ka, kb;
  cv::Mat ma = as_mat(a, ka), mb = as_mat(b, kb), dst;
  cv::addWeighted(ma, factor, mb, 1.0 - factor, 0.0, dst);  // saturates for uint8
  if (a.dtype() == DType::Float32) cv::min(cv::max(dst, 0.0), 1.0, dst);
  return from_mat(dst, a);
}

Tensor grayscale_like(const Tensor& rgb) {
  Tensor keep;
  cv::Mat src = as_mat(rgb, keep), gray, dst;
  cv::cvtColor(src, gray, cv::COLOR_RGB2GRAY);
  cv::cvtColor(gray, dst, cv::COLOR_GRAY2RGB);
  return from_mat(dst, rgb);
}

Tensor adjust_hue(const Tensor& rgb, double hue_shift) {
  SPROUT_ASSERT(rgb.dtype() == DType::UInt8);
  Tensor keep;
  cv::Mat src = as_mat(rgb, keep), hsv, dst;
  cv::cvtColor(src, hsv, cv::COLOR_RGB2HSV_FULL);  // hue over the full 0..255 range
  const int shift = static_cast<int>(std::lround(hue_shift * 256.0));
  for (int y = 0; y < hsv.rows; ++y) {
    auto* p = hsv.ptr<cv::Vec3b>(y);
    for (int x = 0; x < hsv.cols; ++x) p[x][0] = static_cast<uchar>((p[x][0] + shift + 256) & 255);
  }
  cv::cvtColor(hsv, dst, cv::COLOR_HSV2RGB_FULL);
  return from_mat(dst, rgb);
}

Tensor to_float(const Tensor& image, double scale, double shift) {
  Tensor keep;
  cv::Mat src = as_mat(image, keep), dst;
  src.convertTo(dst, CV_32F, scale, shift);
  return from_mat(dst, image);
}

Tensor hwc_to_chw(const Tensor& image) {
  if (image.ndim() == 2) return image.unsqueeze(0).contiguous();
  const Tensor src = image.contiguous();
  const int64_t H = image.dim(0), W = image.dim(1), C = image.dim(2), plane = H * W;
  Tensor out = Tensor::empty(Shape{C, H, W}, image.dtype());
  // A direct de-interleave: the generic strided copy is several times slower on this layout.
  auto run = [&](const auto* in, auto* dst) {
    if (C == 3) return simd_deinterleave_rgb(in, dst, plane);
    for (int64_t p = 0; p < plane; ++p)
      for (int64_t c = 0; c < C; ++c) dst[c * plane + p] = in[p * C + c];
  };
  if (image.dtype() == DType::UInt8)
    run(static_cast<const uint8_t*>(src.raw_data()), static_cast<uint8_t*>(out.raw_data()));
  else
    run(src.data<float>(), out.data<float>());
  return out;
}

}  // namespace sprout::data
