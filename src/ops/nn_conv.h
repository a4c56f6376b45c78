// Attributes of Conv2D and its two backward ops, and the geometry they share with the kernels.
//
// Note [Conv2D geometry]
// MindSpore gives Conv2D's hyper-parameters loosely: `kernel_size`, `stride` and `dilation` as an int
// or a tuple (stride/dilation may also be 4-tuples (1, 1, h, w) in NCHW), `pad` as an int or a
// 4-tuple (top, bottom, left, right) that only counts with pad_mode "pad". conv2d_geometry() turns one
// attribute set and the input/filter shapes into explicit sizes once, with every user error raised
// there, so the infer functions, the bprop rules and the kernels all see the same numbers.
// "same" pads so that out = ceil(in / stride), the odd pixel going to the bottom/right (as MindSpore).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct Conv2DAttrs {
  int64_t out_channel = 0;
  std::vector<int64_t> kernel_size;
  int64_t mode = 1;
  std::string pad_mode = "valid";
  std::vector<int64_t> pad = {0};
  std::vector<int64_t> stride = {1};
  std::vector<int64_t> dilation = {1};
  int64_t group = 1;
  std::string data_format = "NCHW";
};

// The attribute list of Conv2D, shared by its backward ops (which add the size of what they produce).
template <class S>
constexpr auto conv2d_fields() {
  return std::tuple{
      attr<S, int64_t>("out_channel", &S::out_channel, "Number of output channels."),
      attr<S, std::vector<int64_t>>("kernel_size", &S::kernel_size, "Kernel height and width (an int for both)."),
      attr<S, int64_t>("mode", &S::mode, "Convolution mode; only 1 (cross-correlation) exists."),
      attr<S, std::string>("pad_mode", &S::pad_mode, "'valid', 'same' or 'pad'."),
      attr<S, std::vector<int64_t>>("pad", &S::pad, "Padding with pad_mode 'pad': an int or (top, bottom, left, right)."),
      attr<S, std::vector<int64_t>>("stride", &S::stride, "Stride: an int, (h, w) or (1, 1, h, w)."),
      attr<S, std::vector<int64_t>>("dilation", &S::dilation, "Dilation: an int, (h, w) or (1, 1, h, w)."),
      attr<S, int64_t>("group", &S::group, "Number of groups the channels are split into."),
      attr<S, std::string>("data_format", &S::data_format, "Layout of the input; 'NCHW'.")};
}

struct Conv2DOpAttrs : Conv2DAttrs {
  static constexpr auto fields() { return conv2d_fields<Conv2DOpAttrs>(); }
};

struct Conv2DBackpropInputAttrs : Conv2DAttrs {
  std::vector<int64_t> input_sizes;
  static constexpr auto fields() {
    return std::tuple_cat(conv2d_fields<Conv2DBackpropInputAttrs>(),
                          std::tuple{attr("input_sizes", &Conv2DBackpropInputAttrs::input_sizes,
                                          "Shape (N, C, H, W) of the convolution's input.")
                                         .call()});
  }
};

struct Conv2DBackpropFilterAttrs : Conv2DAttrs {
  std::vector<int64_t> filter_sizes;
  static constexpr auto fields() {
    return std::tuple_cat(conv2d_fields<Conv2DBackpropFilterAttrs>(),
                          std::tuple{attr("filter_sizes", &Conv2DBackpropFilterAttrs::filter_sizes,
                                          "Shape (C_out, C_in / group, kH, kW) of the convolution's filter.")
                                         .call()});
  }
};

// Explicit sizes of one 2-d convolution (Note [Conv2D geometry]).
struct Conv2DGeometry {
  int64_t n, c, h, w;            // input (N, C, H, W)
  int64_t o, kh, kw;             // filter (O, C / group, kH, kW)
  int64_t oh, ow;                // output spatial size
  int64_t sh, sw, dh, dw;        // stride and dilation
  int64_t pt, pb, pl, pr;        // padding: top, bottom, left, right
  int64_t group;
  int64_t out_elems_per_image() const { return o * oh * ow; }
};

// Validates the attributes against the input shape `x` and filter shape `w`; user errors name `op`.
Conv2DGeometry conv2d_geometry(std::string_view op, const Conv2DAttrs& a, std::span<const int64_t> x,
                               std::span<const int64_t> w);

}  // namespace sprout
