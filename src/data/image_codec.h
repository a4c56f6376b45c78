// Image decoding (OpenCV's imgcodecs: JPEG, PNG, BMP, TIFF, WebP...).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace sprout::data {

// Encoded bytes (a 1-D UInt8 tensor) -> (H, W, 3) UInt8 RGB, MindSpore's Decode. A corrupt or
// unknown image is a RuntimeError naming `what` (a file path or "row 12").
Tensor decode_image(const Tensor& bytes, const std::string& what);

// A window of an image, in pixels.
struct ImageWindow {
  int64_t top, left, height, width;
};
// Picks the window to decode once the image's (height, width) is known.
using WindowChooser = std::function<ImageWindow(int64_t height, int64_t width)>;

// decode_image(bytes)[window], where `choose` picks the window; a JPEG decodes only the rows and the iMCU
// columns the window covers (libjpeg's skip_scanlines and crop_scanline), with the same pixels. Errors
// name `api`.
Tensor decode_image_window(const char* api, const Tensor& bytes, const std::string& what,
                           const WindowChooser& choose);

// (H, W, C) or (H, W) UInt8 -> encoded bytes; `extension` picks the format (".png", ".jpg"), `params`
// are OpenCV's imwrite flags (cv::IMWRITE_JPEG_QUALITY, value, ...). vision.encode_jpeg/encode_png, tests, tools.
Tensor encode_image(const Tensor& image, const std::string& extension, const std::vector<int>& params = {});

}  // namespace sprout::data
