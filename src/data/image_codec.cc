#include "data/image_codec.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "base/error.h"
#include "data/jpeg_decoder.h"
#include "data/opencv_codecs.h"

namespace sprout::data {

namespace {

// decode_image, or its window when `choose` is given (see decode_image_window); errors name `api`.
Tensor decode(const char* api, const Tensor& bytes, const std::string& what, const WindowChooser* choose) {
  SPROUT_CHECK(bytes.dtype() == DType::UInt8 && bytes.ndim() == 1, TypeError, api, ": ", what,
               " must be encoded image bytes (a 1-D UInt8 array), but got ", name(bytes.dtype()), " of shape ",
               shape_str(bytes.shape()));
  Tensor contiguous = bytes.contiguous();
  const auto* data = static_cast<const uint8_t*>(contiguous.raw_data());
  const auto size = static_cast<size_t>(contiguous.numel());
  if (looks_like_jpeg(data, size)) {
    // libjpeg straight to RGB: OpenCV would decode to RGB, swap to BGR in a scalar loop, and we would swap
    // back (a JPEG -> RandomResizedCrop -> Normalize pipeline on one worker: 635 -> 1111 rows/s).
    Tensor out;
    std::string error;
    switch (decode_jpeg_rgb(data, size, out, error, choose)) {
      case JpegDecode::Decoded: return out;
      case JpegDecode::Failed:
        throw RuntimeError(str(api, ": ", what, " (", size, " bytes) is a corrupt JPEG: ", error));
      case JpegDecode::NeedsOpenCv: break;
    }
  }
  const cv::Mat encoded(1, static_cast<int>(size), CV_8UC1, contiguous.raw_data());
  cv::Mat bgr;
  if (size > 0) bgr = opencv_decode_bgr(api, encoded);
  SPROUT_CHECK(!bgr.empty(), RuntimeError, api, ": ", what, " (", size,
               " bytes) is not an image OpenCV can decode: corrupt, truncated, or not JPEG/PNG/BMP/TIFF/WebP");
  if (choose) {
    const ImageWindow w = (*choose)(bgr.rows, bgr.cols);
    bgr = bgr(cv::Rect(static_cast<int>(w.left), static_cast<int>(w.top), static_cast<int>(w.width),
                       static_cast<int>(w.height)));
  }
  Tensor out = Tensor::empty(Shape{bgr.rows, bgr.cols, 3}, DType::UInt8);
  cv::Mat rgb(bgr.rows, bgr.cols, CV_8UC3, out.raw_data());
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  return out;
}

}  // namespace

Tensor decode_image(const Tensor& bytes, const std::string& what) { return decode("Decode", bytes, what, nullptr); }

Tensor decode_image_window(const char* api, const Tensor& bytes, const std::string& what,
                           const WindowChooser& choose) {
  return decode(api, bytes, what, &choose);
}

Tensor encode_image(const Tensor& image, const std::string& extension, const std::vector<int>& params) {
  SPROUT_CHECK(image.dtype() == DType::UInt8 &&
                   (image.ndim() == 2 || (image.ndim() == 3 && (image.dim(2) == 3 || image.dim(2) == 1))),
               TypeError, "encode_image: expected an (H, W, 3), (H, W, 1) or (H, W) UInt8 image, but got ",
               name(image.dtype()), " of shape ", shape_str(image.shape()));
  Tensor src = image.contiguous();
  const int channels = image.ndim() == 3 ? static_cast<int>(image.dim(2)) : 1;
  cv::Mat mat(static_cast<int>(image.dim(0)), static_cast<int>(image.dim(1)), CV_8UC(channels), src.raw_data());
  cv::Mat bgr;
  if (channels == 3)
    cv::cvtColor(mat, bgr, cv::COLOR_RGB2BGR);
  else
    bgr = mat;
  std::vector<uchar> buffer;
  std::string error;
  const bool ok = opencv_encode("encode_image", extension, bgr, params, buffer, error);
  SPROUT_CHECK(ok, ValueError, "encode_image: OpenCV cannot encode '", extension, "'", error.empty() ? "" : ": ",
               error);
  Tensor out = Tensor::empty(Shape{static_cast<int64_t>(buffer.size())}, DType::UInt8);
  std::copy(buffer.begin(), buffer.end(), static_cast<uchar*>(out.raw_data()));
  return out;
}

}  // namespace sprout::data
