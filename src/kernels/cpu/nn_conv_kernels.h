// The two implementations of convolution behind the Conv2D/Conv3D kernels (Note [Conv2D backends]).
// All pointers are dense NC(D)HW / OI(D)HW buffers described by the geometry.
#pragma once

#include "ops/nn_conv.h"

namespace sprout {

// Float32: oneDNN primitives, cached per geometry. BFloat16 (where onednn::native_bfloat16()): the same
// primitives on bfloat16 buffers, accumulating in float32 and rounding once.
void onednn_conv_forward(const ConvGeometry& g, const float* x, const float* w, float* y);
void onednn_conv_backward_data(const ConvGeometry& g, const float* dy, const float* w, float* dx);
void onednn_conv_backward_weights(const ConvGeometry& g, const float* dy, const float* x, float* dw);
void onednn_conv_forward(const ConvGeometry& g, const bfloat16* x, const bfloat16* w, bfloat16* y);
void onednn_conv_backward_data(const ConvGeometry& g, const bfloat16* dy, const bfloat16* w, bfloat16* dx);
void onednn_conv_backward_weights(const ConvGeometry& g, const bfloat16* dy, const bfloat16* x, bfloat16* dw);

// A 2-d convolution with stride and dilation 1, one group and padding under the filter's size: the
// shapes both sets of loops below take (with limits of their own).
bool plain_2d_convolution(const ConvGeometry& g);

// Float32 direct loops for convolutions with few channels (Note [Direct convolution]). They take plain
// 2-d convolutions with filters at most kMaxDirectWidth wide (direct_conv_applies); the forward and
// backward data passes produce at most kMaxDirectOutputs channels (o for forward, c for backward data),
// which the caller checks.
inline constexpr int64_t kMaxDirectOutputs = 8;
inline constexpr int64_t kMaxDirectWidth = 5;
bool direct_conv_applies(const ConvGeometry& g);
void direct_conv_forward(const ConvGeometry& g, const float* x, const float* w, float* y);
void direct_conv_backward_data(const ConvGeometry& g, const float* dy, const float* w, float* dx);
void direct_conv_backward_weights(const ConvGeometry& g, const float* dy, const float* x, float* dw);

// Float32 backward passes vectorized across the batch, for channel counts oneDNN pads (Note
// [Batch-vectorized backward passes]): plain 2-d convolutions with filters 3 or 5 wide
// (batched_conv_applies).
bool batched_conv_applies(const ConvGeometry& g);
void batched_conv_backward_data(const ConvGeometry& g, const float* dy, const float* w, float* dx);
void batched_conv_backward_weights(const ConvGeometry& g, const float* dy, const float* x, float* dw);

// im2col + BLAS gemm: float64 (oneDNN has no float64 convolution), and float32 backward data where
// oneDNN is slow (nn_conv.cc).
template <class T> void gemm_conv_forward(const ConvGeometry& g, const T* x, const T* w, T* y);
template <class T> void gemm_conv_backward_data(const ConvGeometry& g, const T* dy, const T* w, T* dx);
template <class T> void gemm_conv_backward_weights(const ConvGeometry& g, const T* dy, const T* x, T* dw);

}  // namespace sprout
