// JPEG decoding straight to RGB with libjpeg(-turbo), the fast path of decode_image (image_codec.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "data/image_codec.h"
#include "tensor/tensor.h"

namespace sprout::data {

enum class JpegDecode { Decoded, NeedsOpenCv, Failed };

// Whether `bytes` start with a JPEG's SOI marker and a marker after it.
bool looks_like_jpeg(const uint8_t* bytes, size_t size);

// Decodes a JPEG into `out`, an (H, W, 3) UInt8 RGB tensor, exactly as OpenCV's imdecode(IMREAD_COLOR)
// would (the same libjpeg, the same settings), without OpenCV's RGB -> BGR -> RGB swaps. NeedsOpenCv for
// what this path leaves to OpenCV: CMYK/YCCK colour, and an EXIF orientation other than 1 (OpenCV turns
// the image upright). Failed sets `error` to libjpeg's message; warnings (a truncated file decoded as far
// as it goes, as OpenCV does) are not printed. With `choose`, only the window it picks from the image's size
// is decoded (rows skipped above it, iMCU columns cropped around it, nothing read below it) and returned.
JpegDecode decode_jpeg_rgb(const uint8_t* bytes, size_t size, Tensor& out, std::string& error,
                           const WindowChooser* choose = nullptr);

}  // namespace sprout::data
