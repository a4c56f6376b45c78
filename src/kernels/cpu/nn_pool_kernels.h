// The implementations behind the pooling kernels: oneDNN for float32, direct loops (float64, and
// MaxPoolGradGrad, which oneDNN has no primitive for), and a tiled fast path for max pooling whose
// windows do not overlap. Buffers are dense NCHW.
#pragma once

#include "ops/nn_pool.h"

namespace sprout {

enum class PoolKind { Max, Avg };

// Float32 through oneDNN, primitives cached per geometry.
void onednn_pool2d_forward(PoolKind kind, const Pool2DGeometry& g, const float* x, float* y);
void onednn_pool2d_backward(PoolKind kind, const Pool2DGeometry& g, const float* x, const float* dy, float* dx);

// Direct loops, one (n, c) plane per task.
template <class T> void loop_pool2d_forward(PoolKind kind, const Pool2DGeometry& g, const T* x, T* y);
template <class T> void loop_pool2d_backward(PoolKind kind, const Pool2DGeometry& g, const T* x, const T* dy, T* dx);
// r[window] = g[first maximum of x in the window].
template <class T> void loop_max_pool2d_gather(const Pool2DGeometry& g, const T* x, const T* grad, T* r);

// Max pooling whose windows tile the input (nn_pool_tiled.cc): the fast path of both dtypes.
bool pool_windows_tile(const Pool2DGeometry& g);
template <class T> void tiled_max_pool2d_forward(const Pool2DGeometry& g, const T* x, T* y);
template <class T> void tiled_max_pool2d_backward(const Pool2DGeometry& g, const T* x, const T* dy, T* dx);

}  // namespace sprout
