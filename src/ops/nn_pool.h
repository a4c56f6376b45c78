// Attributes of the 2-d pooling ops (MaxPool, AvgPool and their gradients) and the geometry they
// share with the kernels.
//
// Note [Pool2D geometry]
// MindSpore's MaxPool/AvgPool take `kernel_size` and `strides` as an int, (h, w) or (1, 1, h, w), and
// pad_mode "valid" (no padding, out = floor((in - k) / s) + 1) or "same" (out = ceil(in / s), padded so,
// the odd pixel going to the bottom/right). Sprout's max pooling ops add pad_mode "pad" with an explicit
// `pad_list` (top, bottom, left, right), as MindSpore's MaxPool3D has: out = floor((in + before + after - k) / s)
// + 1, every window overlapping the input. ops.max_pool2d's padding (ResNet's 3x3 / 2 stem pooling)
// and ceil_mode's extra cells come this way instead of as a padded copy of the input; a model file
// gets the copy (Note [Ops written as compositions]). Padded cells never win a max and, as in
// MindSpore's AvgPool, are not counted in an average.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"
#include "ops/attrs.h"

namespace sprout {

struct Pool2DAttrs {
  std::vector<int64_t> kernel_size = {1};
  std::vector<int64_t> strides = {1};
  std::string pad_mode = "valid";
  std::string data_format = "NCHW";
  std::vector<int64_t> pad_list = {0, 0, 0, 0};  // last: MindSpore's positional order stays (kernel, strides, mode, format)
  static constexpr auto fields() {
    return std::tuple{
        attr("kernel_size", &Pool2DAttrs::kernel_size, "Window height and width: an int, (h, w) or (1, 1, h, w)."),
        attr("strides", &Pool2DAttrs::strides, "Window stride: an int, (h, w) or (1, 1, h, w)."),
        attr("pad_mode", &Pool2DAttrs::pad_mode, "'valid', 'same' or (max pooling) 'pad', padding by pad_list."),
        attr("data_format", &Pool2DAttrs::data_format, "Layout of the input; 'NCHW'."),
        attr("pad_list", &Pool2DAttrs::pad_list, "Padding (top, bottom, left, right) with pad_mode 'pad'.")};
  }
};

// Attributes of MaxPoolWithArgmaxV2 and its gradient, MindSpore's (Note [Max pooling with argmax]).
struct MaxPoolArgmaxAttrs {
  std::vector<int64_t> kernel_size = {1};
  std::vector<int64_t> strides = {1};
  std::vector<int64_t> pads = {0};
  std::vector<int64_t> dilation = {1};
  bool ceil_mode = false;
  DType argmax_type = DType::Int64;
  static constexpr auto fields() {
    return std::tuple{
        attr("kernel_size", &MaxPoolArgmaxAttrs::kernel_size, "Window height and width: an int, (h, w) or (1, 1, h, w)."),
        attr("strides", &MaxPoolArgmaxAttrs::strides, "Window stride: an int, (h, w) or (1, 1, h, w)."),
        attr("pads", &MaxPoolArgmaxAttrs::pads,
             "Padding on both sides of each axis: an int, (h, w) or (1, 1, h, w); at most half the window."),
        attr("dilation", &MaxPoolArgmaxAttrs::dilation, "Spacing of a window's cells: an int, (h, w) or (1, 1, h, w)."),
        attr("ceil_mode", &MaxPoolArgmaxAttrs::ceil_mode,
             "Keep a last partial window that starts inside the input or its leading padding."),
        attr("argmax_type", &MaxPoolArgmaxAttrs::argmax_type, "Dtype of the argmax (Int32 or Int64).")};
  }
};

struct Pool2DGeometry {
  int64_t n, c, h, w;      // input (N, C, H, W)
  int64_t kh, kw, sh, sw;  // window and stride
  int64_t oh, ow;          // output spatial size
  int64_t pt, pb, pl, pr;  // padding: top, bottom, left, right
  int64_t dh = 1, dw = 1;  // dilation: MaxPoolWithArgmaxV2's only; the other kernels take 1
  int64_t planes() const { return n * c; }
  Shape pooled_shape() const { return Shape{n, c, oh, ow}; }
};

// The dtypes the 2-d max and average pooling ops take.
inline constexpr std::initializer_list<DType> kPool2DTypes = {DType::Float16, DType::BFloat16, DType::Float32,
                                                              DType::Float64};

// Validates the attributes against the input shape `x`; user errors name `op` (Note [Pool2D geometry]).
Pool2DGeometry pool2d_geometry(std::string_view op, const Pool2DAttrs& a, std::span<const int64_t> x);
// The same for MaxPoolWithArgmaxV2 and its gradient (Note [Max pooling with argmax]).
Pool2DGeometry max_pool_argmax_geometry(std::string_view op, const MaxPoolArgmaxAttrs& a, std::span<const int64_t> x);

}  // namespace sprout
