// Attributes of the convolutions (Conv2D, Conv3D and their backward ops) and the geometry they share
// with the kernels.
//
// Note [Conv2D geometry]
// MindSpore gives a convolution's hyper-parameters loosely: `kernel_size`, `stride` and `dilation` as an
// int or a tuple (stride/dilation may also carry the two leading 1s of the NC.. layout), `pad` as an int
// or one (before, after) pair per spatial axis that only counts with pad_mode "pad". conv_geometry()
// turns one attribute set and the input/filter shapes into explicit sizes once, with every user error
// raised there, so the infer functions, the bprop rules and the kernels all see the same numbers.
// "same" pads so that out = ceil(in / stride), the odd pixel going to the end (as MindSpore).
// Geometry is always three spatial axes (depth, height, width): a 2-d convolution has depth 1, so one
// implementation of each kernel serves Conv2D and Conv3D.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct ConvAttrs {
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

// The attribute list of a convolution, shared by its backward ops (which add the size of what they produce).
template <class S>
constexpr auto conv_fields() {
  return std::tuple{
      attr<S, int64_t>("out_channel", &S::out_channel, "Number of output channels."),
      attr<S, std::vector<int64_t>>("kernel_size", &S::kernel_size, "Kernel size per spatial axis (an int for all)."),
      attr<S, int64_t>("mode", &S::mode, "Convolution mode; only 1 (cross-correlation) exists."),
      attr<S, std::string>("pad_mode", &S::pad_mode, "'valid', 'same' or 'pad'."),
      attr<S, std::vector<int64_t>>("pad", &S::pad, "Padding with pad_mode 'pad': an int or (before, after) per axis."),
      attr<S, std::vector<int64_t>>("stride", &S::stride, "Stride: an int or one per spatial axis (or with 1, 1 first)."),
      attr<S, std::vector<int64_t>>("dilation", &S::dilation, "Dilation: an int or one per spatial axis (or with 1, 1 first)."),
      attr<S, int64_t>("group", &S::group, "Number of groups the channels are split into."),
      attr<S, std::string>("data_format", &S::data_format, "Layout of the input: 'NCHW' (2-d) or 'NCDHW' (3-d).")};
}

struct Conv2DOpAttrs : ConvAttrs {
  static constexpr auto fields() { return conv_fields<Conv2DOpAttrs>(); }
};

struct Conv2DBackpropInputAttrs : ConvAttrs {
  std::vector<int64_t> input_sizes;
  static constexpr auto fields() {
    return std::tuple_cat(conv_fields<Conv2DBackpropInputAttrs>(),
                          std::tuple{attr("input_sizes", &Conv2DBackpropInputAttrs::input_sizes,
                                          "Shape (N, C, H, W) of the convolution's input.")
                                         .call()});
  }
};

struct Conv2DBackpropFilterAttrs : ConvAttrs {
  std::vector<int64_t> filter_sizes;
  static constexpr auto fields() {
    return std::tuple_cat(conv_fields<Conv2DBackpropFilterAttrs>(),
                          std::tuple{attr("filter_sizes", &Conv2DBackpropFilterAttrs::filter_sizes,
                                          "Shape (C_out, C_in / group, kH, kW) of the convolution's filter.")
                                         .call()});
  }
};

struct Conv3DOpAttrs : ConvAttrs {
  Conv3DOpAttrs() { data_format = "NCDHW"; }
  static constexpr auto fields() { return conv_fields<Conv3DOpAttrs>(); }
};

struct Conv3DBackpropInputAttrs : ConvAttrs {
  std::vector<int64_t> input_size;
  Conv3DBackpropInputAttrs() { data_format = "NCDHW"; }
  static constexpr auto fields() {
    return std::tuple_cat(conv_fields<Conv3DBackpropInputAttrs>(),
                          std::tuple{attr("input_size", &Conv3DBackpropInputAttrs::input_size,
                                          "Shape (N, C, D, H, W) of the convolution's input.")
                                         .call()});
  }
};

struct Conv3DBackpropFilterAttrs : ConvAttrs {
  std::vector<int64_t> filter_size;
  Conv3DBackpropFilterAttrs() { data_format = "NCDHW"; }
  static constexpr auto fields() {
    return std::tuple_cat(conv_fields<Conv3DBackpropFilterAttrs>(),
                          std::tuple{attr("filter_size", &Conv3DBackpropFilterAttrs::filter_size,
                                          "Shape (C_out, C_in / group, kD, kH, kW) of the convolution's filter.")
                                         .call()});
  }
};

// Explicit sizes of one convolution (Note [Conv2D geometry]); spatial arrays are (depth, height, width).
struct ConvGeometry {
  int rank;  // spatial axes the op has: 2 or 3
  int64_t n, c, o, group;
  int64_t in[3], k[3], out[3], stride[3], dilation[3], pad_before[3], pad_after[3];
  int64_t in_volume() const { return in[0] * in[1] * in[2]; }
  int64_t out_volume() const { return out[0] * out[1] * out[2]; }
  int64_t k_volume() const { return k[0] * k[1] * k[2]; }
};

// Validates a rank-`rank` convolution's attributes against the input shape `x` and filter shape `w`;
// user errors name `op`.
ConvGeometry conv_geometry(std::string_view op, int rank, const ConvAttrs& a, std::span<const int64_t> x,
                           std::span<const int64_t> w);

}  // namespace sprout
