// Image decoding (OpenCV's imgcodecs: JPEG, PNG, BMP, TIFF, WebP...).
#pragma once

#include <string>

#include "tensor/tensor.h"

namespace sprout::data {

// Encoded bytes (a 1-D UInt8 tensor) -> (H, W, 3) UInt8 RGB, MindSpore's Decode. A corrupt or
// unknown image is a RuntimeError naming `what` (a file path or "row 12").
Tensor decode_image(const Tensor& bytes, const std::string& what);

// (H, W, C) UInt8 -> encoded bytes; `extension` picks the format (".png", ".jpg"). For tests and tools.
Tensor encode_image(const Tensor& image, const std::string& extension);

}  // namespace sprout::data
