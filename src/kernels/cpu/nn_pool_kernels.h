// The implementations behind the pooling kernels: oneDNN for float32 average pooling, direct loops
// (float64 average pooling, and max pooling of planes too large for int32 positions), Highway loops for
// max pooling (2x2 windows tiling the input, and any other window). Buffers are dense NCHW.
#pragma once

#include <algorithm>

#include "base/parallel.h"
#include "ops/nn_pool.h"

namespace sprout {

enum class PoolKind { Max, Avg };

// Runs fn(first plane, end plane) over ranges of the (n, c) planes, split across threads.
template <class Fn>
void for_plane_ranges(const Pool2DGeometry& g, Fn&& fn) {
  parallel_for(g.planes(), std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, g.h * g.w)), fn);
}

// The taps [first, last) of a window starting at `start` with `k` cells spaced by `d` that fall inside
// [0, n); a dilated window can have none (first == last).
struct Taps {
  int64_t first, last;
};

inline Taps taps_inside(int64_t start, int64_t k, int64_t d, int64_t n) {
  const int64_t first = start < 0 ? (-start + d - 1) / d : 0;
  return {first, std::max(first, std::min(k, (n - start + d - 1) / d))};
}

// Float32 average pooling through oneDNN, primitives cached per geometry.
void onednn_avg_pool2d_forward(const Pool2DGeometry& g, const float* x, float* y);
void onednn_avg_pool2d_backward(const Pool2DGeometry& g, const float* dy, float* dx);

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
template <class T> void loop_max_pool2d_gather(const Pool2DGeometry& g, const T* x, const T* grad, T* r);

// Max pooling of any window, stride and padding (nn_pool_windows_simd.cc; Note [Max pooling by window
// taps]) over planes [begin, end): the values; the gradient (each window's dy added at its first
// maximum, zero elsewhere); MaxPoolGradGrad's gather (r = grad at each window's first maximum). The
// float32 ones keep positions in int32: planes of at most INT32_MAX elements.
void simd_max_pool_planes(const Pool2DGeometry& g, const float* x, float* y, int64_t begin, int64_t end);
void simd_max_pool_planes(const Pool2DGeometry& g, const double* x, double* y, int64_t begin, int64_t end);
void simd_max_pool_grad_planes(const Pool2DGeometry& g, const float* x, const float* dy, float* dx, int64_t begin,
                               int64_t end);
void simd_max_pool_grad_planes(const Pool2DGeometry& g, const double* x, const double* dy, double* dx,
                               int64_t begin, int64_t end);
void simd_max_pool_gather_planes(const Pool2DGeometry& g, const float* x, const float* grad, float* r,
                                 int64_t begin, int64_t end);
void simd_max_pool_gather_planes(const Pool2DGeometry& g, const double* x, const double* grad, double* r,
                                 int64_t begin, int64_t end);

// Max pooling's values and argmax (MaxPoolWithArgmaxV2; Note [Max pooling with argmax]) over planes
// [begin, end), any dilation, the argmax a flat offset in each H x W plane.
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const float* x, float* y, int32_t* argmax, int64_t begin,
                                 int64_t end);
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const float* x, float* y, int64_t* argmax, int64_t begin,
                                 int64_t end);
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const double* x, double* y, int32_t* argmax,
                                 int64_t begin, int64_t end);
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const double* x, double* y, int64_t* argmax,
                                 int64_t begin, int64_t end);

// Max pooling by 2x2 windows tiling the input (nn_pool_tiled.cc): the fast path of both dtypes.
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
