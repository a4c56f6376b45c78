// The vision transforms of sprout.dataset.vision, as TensorOps (MindSpore semantics; OpenCV below).
// Arguments are checked in Python, where the error can name the argument; constructors here
// only assert what Python guarantees.
#pragma once

#include <optional>
#include <utility>

#include "data/image_ops.h"
#include "data/tensor_op.h"

namespace sprout::data {

using Size2 = std::pair<int64_t, int64_t>;   // (height, width)
using Range = std::pair<double, double>;     // [low, high]

TensorOpPtr decode_op();
// size (h, w); or, with keep_ratio, the shorter side becomes size.first.
TensorOpPtr resize_op(Size2 size, bool keep_ratio, Interpolation interpolation);
TensorOpPtr center_crop_op(Size2 size);
TensorOpPtr random_crop_op(Size2 size, std::array<int64_t, 4> padding /*t, b, l, r*/, bool pad_if_needed,
                           Fill fill, BorderMode mode);
TensorOpPtr random_resized_crop_op(Size2 size, Range scale, Range ratio, Interpolation interpolation,
                                   int max_attempts);
// MindSpore's RandomCropDecodeResize: Decode, then RandomResizedCrop's window (the same draws), then Resize;
// a JPEG decodes only the window's rows and iMCU columns.
TensorOpPtr random_crop_decode_resize_op(Size2 size, Range scale, Range ratio, Interpolation interpolation,
                                         int max_attempts);
TensorOpPtr random_flip_op(double prob, bool horizontal);
TensorOpPtr random_rotation_op(Range degrees, Interpolation interpolation, bool expand,
                               std::optional<std::pair<double, double>> center, Fill fill);
// translate: ranges of the shift as fractions of width and height; scale range; shear ranges in degrees.
TensorOpPtr random_affine_op(Range degrees, Range translate_x, Range translate_y, Range scale, Range shear_x,
                             Range shear_y, Interpolation interpolation, Fill fill);
TensorOpPtr random_color_adjust_op(Range brightness, Range contrast, Range saturation, Range hue);
// On (C, H, W) float images, as MindSpore's (and torchvision's) RandomErasing; value: fill per channel.
TensorOpPtr random_erasing_op(double prob, Range scale, Range ratio, std::vector<double> value, bool random_value,
                              int max_attempts);
TensorOpPtr pad_op(std::array<int64_t, 4> padding, Fill fill, BorderMode mode);
TensorOpPtr rescale_op(double rescale, double shift);
TensorOpPtr normalize_op(std::vector<double> mean, std::vector<double> std, bool is_hwc);
TensorOpPtr hwc2chw_op();
TensorOpPtr to_tensor_op();  // (H, W, C) uint8 -> (C, H, W) float32 in [0, 1]
// mode: a MindSpore ConvertMode name such as "COLOR_BGR2RGB".
TensorOpPtr convert_color_op(const std::string& mode);
TensorOpPtr grayscale_op(int num_output_channels);
// Batch ops on (images, labels): images (N, H, W, C) or (N, C, H, W), labels one-hot (N, classes).
TensorOpPtr cutmix_batch_op(bool nhwc, double alpha, double prob);
TensorOpPtr mixup_batch_op(double alpha);

}  // namespace sprout::data
