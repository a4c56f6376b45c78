// CPU kernels of MaxPool, AvgPool, MaxPoolGrad, AvgPoolGrad and MaxPoolGradGrad: float32 (and
// float16, widened) through oneDNN, float64 through direct loops (nn_pool_onednn.cc, nn_pool_loops.cc);
// max pooling with non-overlapping windows in either dtype through nn_pool_tiled.cc.
#include <limits>

#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_pool_kernels.h"
#include "kernels/cpu/simd.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// oneDNN's max pooling starts each window from the lowest finite float and skips NaN: a window of -inf
// gives -FLT_MAX and a NaN is lost. Such inputs (one min-reduction finds them) take the direct loops.
bool onednn_max_pool_exact(const Tensor& x) {
  return simd_reduce(ReduceOp::Min, x.data<float>(), x.numel()) > -std::numeric_limits<float>::infinity();
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
  else if (KIND == PoolKind::Max && !onednn_max_pool_exact(x))
    loop_pool2d_forward(KIND, g, x.data<float>(), y.data<float>());
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
  else if (KIND == PoolKind::Max && !onednn_max_pool_exact(x))
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
