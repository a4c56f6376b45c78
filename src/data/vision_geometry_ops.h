// Geometric and region transforms of sprout.dataset.vision (MindSpore's Affine, Crop, Perspective,
// ResizedCrop, PadToSize, GaussianBlur, Erase, CutOut, SlicePatches, NormalizePad, RandomResize), on
// (H, W, C) or (H, W) images through OpenCV, with MindSpore's geometry (matrices, sizes, rounding).
// Arguments are checked in Python; constructors here only assert what Python guarantees.
#pragma once

#include <array>
#include <vector>

#include "data/vision_ops.h"

namespace sprout::data {

using Point2 = std::pair<double, double>;  // (x, y)

// Rotation by `degrees` about the centre, shift (tx, ty) in fractions of width and height, scale, and
// shears (x, y) in degrees; MindSpore's matrix, applied forward by OpenCV.
TensorOpPtr affine_op(double degrees, Point2 translate, double scale, Point2 shear, Interpolation interpolation,
                      Fill fill);
TensorOpPtr crop_op(int64_t top, int64_t left, Size2 size);
TensorOpPtr flip_op(bool horizontal);
// kernel (width, height), odd; sigma (x, y), positive.
TensorOpPtr gaussian_blur_op(std::pair<int, int> kernel, Point2 sigma);
// Pads to `size`; offset (top, left), or none to centre the image.
TensorOpPtr pad_to_size_op(Size2 size, std::optional<std::pair<int64_t, int64_t>> offset, Fill fill, BorderMode mode);
// The quadrilateral `start` (top-left, top-right, bottom-right, bottom-left) mapped onto `end`.
TensorOpPtr perspective_op(std::array<Point2, 4> start, std::array<Point2, 4> end, Interpolation interpolation);
TensorOpPtr resized_crop_op(int64_t top, int64_t left, int64_t height, int64_t width, Size2 size,
                            Interpolation interpolation);
// Rows [top, top + height), columns [left, left + width) set to `value` (one per channel, or one for all).
TensorOpPtr erase_op(int64_t top, int64_t left, int64_t height, int64_t width, std::vector<double> value);
// `num_patches` squares of side `length` zeroed at random places (partly outside the image allowed).
TensorOpPtr cut_out_op(int64_t length, int num_patches, bool is_hwc);
// The image cut into num_height x num_width patches, one output column each; `pad` pads the bottom and
// right with `fill` to a multiple of the patch size, else the remainder is dropped.
TensorOpPtr slice_patches_op(int num_height, int num_width, bool pad, double fill);
// Normalize, then a fourth channel of zeros; float16 or float32 output.
TensorOpPtr normalize_pad_op(std::vector<double> mean, std::vector<double> std, bool half_output, bool is_hwc);
// Resize to `size` with an interpolation drawn from nearest, bilinear, bicubic and area.
TensorOpPtr random_resize_op(Size2 size, bool keep_ratio);

}  // namespace sprout::data
