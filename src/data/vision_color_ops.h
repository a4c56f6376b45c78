// Colour transforms of sprout.dataset.vision (MindSpore's AdjustBrightness ... RandomLighting) on
// (H, W, C) or (H, W) images, each computed as MindSpore's OpenCV kernels compute it, so uint8 results
// match to the byte (or within one where OpenCV's rounding is all that differs).
// Arguments are checked in Python; constructors here only assert what Python guarantees.
#pragma once

#include <vector>

#include "data/vision_ops.h"

namespace sprout::data {

// Blends with black / the mean gray / the grayscale image / PIL's SMOOTH-filtered image by `factor`.
TensorOpPtr adjust_brightness_op(double factor);
TensorOpPtr adjust_contrast_op(double factor);
TensorOpPtr adjust_saturation_op(double factor);
TensorOpPtr adjust_sharpness_op(double factor);
// uint8: 255 * gain * (x / 255) ^ gamma through MindSpore's table; float: clamp((x * gain) ^ gamma, 0, 1).
TensorOpPtr adjust_gamma_op(double gamma, double gain);
// Hue rotated by `factor` of a turn, in [-0.5, 0.5] (OpenCV's full-range HSV on uint8 RGB).
TensorOpPtr adjust_hue_op(double factor);
// Per channel: the histogram without the `ignore` values and `cutoff` percent at each end, stretched to 0..255.
TensorOpPtr auto_contrast_op(double cutoff, std::vector<int> ignore);
TensorOpPtr equalize_op();   // OpenCV's equalizeHist per channel
TensorOpPtr invert_op();     // 255 - x
TensorOpPtr posterize_op(int bits);
// Values in [low, high] become 255 - x.
TensorOpPtr solarize_op(double low, double high);

// Random forms: a factor drawn uniformly from the range each call.
TensorOpPtr random_color_op(Range degrees);       // saturation
TensorOpPtr random_sharpness_op(Range degrees);
TensorOpPtr random_posterize_op(std::pair<int, int> bits);
// A sub-range [a, b] of `threshold` drawn each call; its values are inverted.
TensorOpPtr random_solarize_op(Range threshold);
// AlexNet's PCA lighting noise: ImageNet's RGB eigenvectors scaled by N(0, alpha) draws.
TensorOpPtr random_lighting_op(double alpha);
// Runs `op` with probability `prob`, else returns the input (RandomEqualize, RandomInvert...); `name`
// names the op in errors.
TensorOpPtr random_apply_op(std::string name, double prob, TensorOpPtr op);

}  // namespace sprout::data
