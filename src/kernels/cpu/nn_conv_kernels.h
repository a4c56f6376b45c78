// The two implementations of 2-d convolution behind the Conv2D kernels (Note [Conv2D backends]).
// All pointers are dense NCHW / OIHW buffers described by the geometry.
#pragma once

#include "ops/nn_conv.h"

namespace sprout {

// Float32: oneDNN primitives, cached per geometry.
void onednn_conv2d_forward(const Conv2DGeometry& g, const float* x, const float* w, float* y);
void onednn_conv2d_backward_data(const Conv2DGeometry& g, const float* dy, const float* w, float* dx);
void onednn_conv2d_backward_weights(const Conv2DGeometry& g, const float* dy, const float* x, float* dw);

// Float64: im2col + BLAS dgemm (oneDNN has no float64 convolution).
void gemm_conv2d_forward(const Conv2DGeometry& g, const double* x, const double* w, double* y);
template <class T>  // float and double: float32 uses it where oneDNN is slow (see nn_conv.cc)
void gemm_conv2d_backward_data(const Conv2DGeometry& g, const T* dy, const T* w, T* dx);
void gemm_conv2d_backward_weights(const Conv2DGeometry& g, const double* dy, const double* x, double* dw);

}  // namespace sprout
