// CPU kernels of MaxPool, AvgPool, MaxPoolGrad, AvgPoolGrad and MaxPoolGradGrad: float32 (and
// float16, widened): max pooling through loops of Sprout's own in both dtypes (Note [Max pooling
// kernels]), average pooling through oneDNN in float32 and direct loops in float64 (nn_pool_onednn.cc,
// nn_pool_loops.cc).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "base/parallel.h"
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_pool_kernels.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Note [Max pooling kernels]
// Max pooling runs Sprout's own loops in both dtypes: 2x2 windows tiling the input (LeNet's, VGG's)
// through nn_pool_tiled.cc, every other window through nn_pool_windows_simd.cc (Note [Max pooling by
// window taps]). oneDNN's max pooling on NCHW buffers is a reference loop, and it starts each window
// from the lowest finite float and skips NaN, which took a NaN scan of the input and a recomputation of
// its -FLT_MAX outputs to correct. ResNet-50's stem, 32x64x112x112, 3x3 / 2 with padding 1, two
// threads on the Zen 4 host (the padding then a Concat copy of the input): forward 23.9 -> 6.2 ms,
// forward and backward 40.5 -> 20.2 ms (PyTorch's NCHW pooling: 128 and 142). Average pooling stays on
// oneDNN in float32.
template <class T>
bool positions_fit(const Pool2DGeometry& g) {
  return sizeof(T) == 8 || g.h * g.w <= std::numeric_limits<int32_t>::max();
}

template <class T>
void max_pool_forward(const Pool2DGeometry& g, const T* x, T* y) {
  if (pool_windows_tile(g)) return tiled_max_pool2d_forward(g, x, y);
  if (!positions_fit<T>(g)) return loop_pool2d_forward(PoolKind::Max, g, x, y);
  for_plane_ranges(g, [&](int64_t begin, int64_t end) { simd_max_pool_planes(g, x, y, begin, end); });
}

template <class T>
void max_pool_backward(const Pool2DGeometry& g, const T* x, const T* dy, T* dx) {
  if (pool_windows_tile(g)) return tiled_max_pool2d_backward(g, x, dy, dx);
  if (!positions_fit<T>(g)) return loop_pool2d_backward(PoolKind::Max, g, x, dy, dx);
  for_plane_ranges(g, [&](int64_t begin, int64_t end) { simd_max_pool_grad_planes(g, x, dy, dx, begin, end); });
}

template <class T>
void max_pool_gather(const Pool2DGeometry& g, const T* x, const T* grad, T* r) {
  if (!positions_fit<T>(g)) return loop_max_pool2d_gather(g, x, grad, r);
  for_plane_ranges(g, [&](int64_t begin, int64_t end) { simd_max_pool_gather_planes(g, x, grad, r, begin, end); });
}

template <PoolKind KIND>
void pool_kernel(const Pool2DAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Pool2DGeometry g = pool2d_geometry(KIND == PoolKind::Max ? "MaxPool" : "AvgPool", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor x = contiguous_compute(in[0]), y = compute_buffer(out[0]);
  if (y.dtype() == DType::Float64) {
    if (KIND == PoolKind::Max) return max_pool_forward(g, x.data<double>(), y.data<double>());
    return loop_pool2d_forward(KIND, g, x.data<double>(), y.data<double>());
  }
  if (KIND == PoolKind::Max)
    max_pool_forward(g, x.data<float>(), y.data<float>());
  else
    onednn_avg_pool2d_forward(g, x.data<float>(), y.data<float>());
  store_result(y, out[0]);
}

template <PoolKind KIND>
void pool_grad_kernel(const Pool2DAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Pool2DGeometry g = pool2d_geometry(KIND == PoolKind::Max ? "MaxPoolGrad" : "AvgPoolGrad", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor x = contiguous_compute(in[0]), dy = contiguous_compute(in[2]), dx = compute_buffer(out[0]);
  if (dx.dtype() == DType::Float64) {
    if (KIND == PoolKind::Max) return max_pool_backward(g, x.data<double>(), dy.data<double>(), dx.data<double>());
    return loop_pool2d_backward(KIND, g, x.data<double>(), dy.data<double>(), dx.data<double>());
  }
  if (KIND == PoolKind::Max)
    max_pool_backward(g, x.data<float>(), dy.data<float>(), dx.data<float>());
  else
    onednn_avg_pool2d_backward(g, dy.data<float>(), dx.data<float>());
  store_result(dx, out[0]);
}

void max_pool_grad_grad_kernel(const Pool2DAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Pool2DGeometry g = pool2d_geometry("MaxPoolGradGrad", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor x = contiguous_compute(in[0]), grad = contiguous_compute(in[2]), r = compute_buffer(out[0]);
  if (r.dtype() == DType::Float64) return max_pool_gather(g, x.data<double>(), grad.data<double>(), r.data<double>());
  max_pool_gather(g, x.data<float>(), grad.data<float>(), r.data<float>());
  store_result(r, out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_pool) {
  register_kernel<Pool2DAttrs>("MaxPool", Device::CPU, pool_kernel<PoolKind::Max>);
  register_kernel<Pool2DAttrs>("AvgPool", Device::CPU, pool_kernel<PoolKind::Avg>);
  register_kernel<Pool2DAttrs>("MaxPoolGrad", Device::CPU, pool_grad_kernel<PoolKind::Max>);
  register_kernel<Pool2DAttrs>("AvgPoolGrad", Device::CPU, pool_grad_kernel<PoolKind::Avg>);
  register_kernel<Pool2DAttrs>("MaxPoolGradGrad", Device::CPU, max_pool_grad_grad_kernel);
}

}  // namespace sprout
