// Image primitives on Tensors, implemented with OpenCV. Images are (H, W, C) or (H, W), UInt8 or
// Float32, as MindSpore's vision ops take them; results are new contiguous tensors.
#pragma once

#include <array>
#include <string>

#include "tensor/tensor.h"

namespace sprout::data {

enum class Interpolation { Nearest, Linear, Cubic, Area };
enum class BorderMode { Constant, Edge, Reflect, Symmetric };
using Fill = std::array<double, 3>;  // per channel (R, G, B); one value repeated for gray

// Checks `image` is (H, W) or (H, W, C) of UInt8 or Float32; `api` names the op in the TypeError.
void check_image(const std::string& api, const Tensor& image);
int64_t image_height(const Tensor& image);
int64_t image_width(const Tensor& image);
int64_t image_channels(const Tensor& image);

Tensor resize(const Tensor& image, int64_t height, int64_t width, Interpolation interpolation);
// Rows [top, top + height) and columns [left, left + width); must lie inside the image.
Tensor crop(const Tensor& image, int64_t top, int64_t left, int64_t height, int64_t width);
Tensor pad(const Tensor& image, int64_t top, int64_t bottom, int64_t left, int64_t right, BorderMode mode,
           const Fill& fill);
Tensor flip(const Tensor& image, bool horizontal);
// 2x3 affine matrix mapping output pixel coordinates back to input ones (OpenCV WARP_INVERSE_MAP).
Tensor warp_affine(const Tensor& image, const std::array<double, 6>& inverse_matrix, int64_t out_height,
                   int64_t out_width, Interpolation interpolation, const Fill& fill);
// Channel conversions by OpenCV code (cv::COLOR_*), e.g. RGB -> gray.
Tensor convert_color(const Tensor& image, int code);
// a * factor + b * (1 - factor), saturated to the image's range (the blend of PIL's ImageEnhance).
Tensor blend(const Tensor& a, const Tensor& b, double factor);
Tensor grayscale_like(const Tensor& rgb);  // gray, repeated to 3 channels
Tensor adjust_hue(const Tensor& rgb, double hue_shift);  // shift in [-0.5, 0.5] of a turn
Tensor to_float(const Tensor& image, double scale, double shift);  // image * scale + shift, Float32
Tensor hwc_to_chw(const Tensor& image);

}  // namespace sprout::data
