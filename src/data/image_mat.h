// OpenCV views of image Tensors, shared by the files that call OpenCV on images (image_ops.cc,
// vision_color_ops.cc, vision_geometry_ops.cc): a Mat header over a tensor's memory, a tensor copied
// from a Mat, and the OpenCV codes of Sprout's interpolation and border enums.
#pragma once

#include <opencv2/core.hpp>

#include "data/image_ops.h"

namespace sprout::data {

// A cv::Mat header over `image`'s memory; `keep` owns that memory. A window of a larger image (a crop)
// is viewed as it is; only an image whose pixels are not contiguous within a row is copied first.
cv::Mat as_mat(const Tensor& image, Tensor& keep);
// A new tensor holding `mat`, shaped like `like` ((H, W) stays 2-D, (H, W, C) 3-D).
Tensor from_mat(const cv::Mat& mat, const Tensor& like);
int cv_interpolation(Interpolation i);
int cv_border(BorderMode m);
inline cv::Scalar cv_fill(const Fill& f) { return cv::Scalar(f[0], f[1], f[2]); }

}  // namespace sprout::data
