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

// Whether a window's element v replaces the maximum m so far: when strictly greater, or when it is the
// window's first NaN (NaN propagates, as in PyTorch: the first NaN is the maximum and its argmax).
template <class T>
inline bool replaces_max(T v, T m) {
  return v > m || (v != v && m == m);
}

// Direct loops, one (n, c) plane per task.
template <class T> void loop_pool2d_forward(PoolKind kind, const Pool2DGeometry& g, const T* x, T* y);
template <class T> void loop_pool2d_backward(PoolKind kind, const Pool2DGeometry& g, const T* x, const T* dy, T* dx);
// r[window] = g[first maximum of x in the window].
// Max pooling again of each output equal to `value` (oneDNN's wrong -FLT_MAX for a window of -inf).
void loop_max_pool2d_recompute(const Pool2DGeometry& g, const float* x, float* y, float value);
template <class T> void loop_max_pool2d_gather(const Pool2DGeometry& g, const T* x, const T* grad, T* r);

// Max pooling whose windows tile the input (nn_pool_tiled.cc): the fast path of both dtypes.
bool pool_windows_tile(const Pool2DGeometry& g);
template <class T> void tiled_max_pool2d_forward(const Pool2DGeometry& g, const T* x, T* y);
template <class T> void tiled_max_pool2d_backward(const Pool2DGeometry& g, const T* x, const T* dy, T* dx);
// 2x2, stride-2 max pooling of a block of `oh` output rows (nn_pool_simd.cc): windows over input rows
// (2r, 2r + 1) of width w, outputs in rows of ow; the gradient writes input rows (2r, 2r + 1) whole
// for columns [0, 2 ow). Consecutive planes whose rows are all covered (h == 2 oh) form one block.
void simd_max_pool2x2_rows(const float* x, float* y, int64_t oh, int64_t ow, int64_t w);
void simd_max_pool2x2_rows(const double* x, double* y, int64_t oh, int64_t ow, int64_t w);
void simd_max_pool2x2_grad_rows(const float* x, const float* dy, float* dx, int64_t oh, int64_t ow, int64_t w);
void simd_max_pool2x2_grad_rows(const double* x, const double* dy, double* dx, int64_t oh, int64_t ow, int64_t w);

}  // namespace sprout
