// CPU kernels of MaxPool, AvgPool, MaxPoolGrad, AvgPoolGrad and MaxPoolGradGrad: float32 (and
// float16, widened) through oneDNN, float64 through direct loops (nn_pool_onednn.cc, nn_pool_loops.cc);
// max pooling with non-overlapping windows in either dtype through nn_pool_tiled.cc.
#include <atomic>
#include <cmath>
#include <limits>

#include "base/parallel.h"
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_pool_kernels.h"
#include "kernels/cpu/simd.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Note [Max pooling through oneDNN]
// oneDNN's max pooling starts each window from the lowest finite float and skips NaN: a window of -inf
// (padding, as max_pool2d pads with -inf, or data) gives -FLT_MAX, and a NaN is lost. An input holding
// NaN (a max-reduction, which propagates NaN, finds it) takes the direct loops; otherwise oneDNN runs, and
// outputs of -FLT_MAX are computed again (a min-reduction over the output finds whether there are any).
// The reduction is one more read of the input: 3x3 / 2 max pooling of (32, 64, 112, 112) takes 22-23 ms
// where oneDNN's average pooling of it takes 12 and the reduction alone 6 (Xeon, two threads). The price
// of PyTorch's NaN semantics until the loops are as fast as oneDNN's.
bool has_nan(const float* x, int64_t n) {
  std::atomic<bool> found{false};
  parallel_for(n, int64_t{1} << 16, [&](int64_t begin, int64_t end) {
    if (std::isnan(simd_reduce(ReduceOp::Max, x + begin, end - begin))) found = true;
  });
  return found;
}

void onednn_max_pool2d_forward(const Pool2DGeometry& g, const float* x, float* y) {
  onednn_pool2d_forward(PoolKind::Max, g, x, y);
  const int64_t n = g.planes() * g.oh * g.ow;
  if (simd_reduce(ReduceOp::Min, y, n) <= std::numeric_limits<float>::lowest())
    loop_max_pool2d_recompute(g, x, y, std::numeric_limits<float>::lowest());
}

template <PoolKind KIND>
void pool_kernel(const Pool2DAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Pool2DGeometry g = pool2d_geometry(KIND == PoolKind::Max ? "MaxPool" : "AvgPool", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor x = contiguous_compute(in[0]), y = compute_buffer(out[0]);
  const bool tiled = KIND == PoolKind::Max && pool_windows_tile(g);
  if (y.dtype() == DType::Float64) {
    if (tiled) return tiled_max_pool2d_forward(g, x.data<double>(), y.data<double>());
    return loop_pool2d_forward(KIND, g, x.data<double>(), y.data<double>());
  }
  if (tiled)
    tiled_max_pool2d_forward(g, x.data<float>(), y.data<float>());
  else if (KIND == PoolKind::Max && has_nan(x.data<float>(), x.numel()))
    loop_pool2d_forward(KIND, g, x.data<float>(), y.data<float>());
  else if (KIND == PoolKind::Max)
    onednn_max_pool2d_forward(g, x.data<float>(), y.data<float>());
  else
    onednn_pool2d_forward(KIND, g, x.data<float>(), y.data<float>());
  store_result(y, out[0]);
}

template <PoolKind KIND>
void pool_grad_kernel(const Pool2DAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Pool2DGeometry g = pool2d_geometry(KIND == PoolKind::Max ? "MaxPoolGrad" : "AvgPoolGrad", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor x = contiguous_compute(in[0]), dy = contiguous_compute(in[2]), dx = compute_buffer(out[0]);
  const bool tiled = KIND == PoolKind::Max && pool_windows_tile(g);
  if (dx.dtype() == DType::Float64) {
    if (tiled) return tiled_max_pool2d_backward(g, x.data<double>(), dy.data<double>(), dx.data<double>());
    return loop_pool2d_backward(KIND, g, x.data<double>(), dy.data<double>(), dx.data<double>());
  }
  if (tiled)
    tiled_max_pool2d_backward(g, x.data<float>(), dy.data<float>(), dx.data<float>());
  else if (KIND == PoolKind::Max && has_nan(x.data<float>(), x.numel()))
    loop_pool2d_backward(KIND, g, x.data<float>(), dy.data<float>(), dx.data<float>());
  else
    onednn_pool2d_backward(KIND, g, x.data<float>(), dy.data<float>(), dx.data<float>());
  store_result(dx, out[0]);
}

void max_pool_grad_grad_kernel(const Pool2DAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Pool2DGeometry g = pool2d_geometry("MaxPoolGradGrad", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor x = contiguous_compute(in[0]), grad = contiguous_compute(in[2]), r = compute_buffer(out[0]);
  if (r.dtype() == DType::Float64)
    return loop_max_pool2d_gather(g, x.data<double>(), grad.data<double>(), r.data<double>());
  loop_max_pool2d_gather(g, x.data<float>(), grad.data<float>(), r.data<float>());
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
