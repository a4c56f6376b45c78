// CPU kernels of Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter: dtype dispatch onto the two
// backends of Note [Conv2D backends] (nn_conv_onednn.cc, nn_conv_gemm.cc).
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_conv_kernels.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Runs `f32` or `f64` on dense buffers of a, b and the output.
template <class F32, class F64>
void dispatch(const Tensor& a_in, const Tensor& b_in, const Tensor& out, F32&& f32, F64&& f64) {
  if (out.numel() == 0) return;
  Tensor a = contiguous_compute(a_in), b = contiguous_compute(b_in), o = compute_buffer(out);
  if (o.dtype() == DType::Float64) {
    f64(a.data<double>(), b.data<double>(), o.data<double>());
  } else {
    f32(a.data<float>(), b.data<float>(), o.data<float>());
    store_result(o, out);
  }
}

// Measured single-threaded (2026-11-22), Conv2DBackpropInput, oneDNN vs im2col + sgemm:
//   N=64, 1x32x32 <- 6, k5:      9.8 vs 2.8 ms
//   N=32, 3x224x224 <- 64, k7:  3337 vs 717 ms
//   N=32, 3x32x32 <- 16, k3:     2.9 vs 5.0 ms (the one loss, small in absolute terms)
constexpr int64_t kFewInputChannels = 4;

void conv2d_kernel(const Conv2DOpAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Conv2DGeometry g = conv2d_geometry("Conv2D", a, in[0].shape(), in[1].shape());
  dispatch(in[0], in[1], out[0], [&](auto... p) { onednn_conv2d_forward(g, p...); },
           [&](auto... p) { gemm_conv2d_forward(g, p...); });
}

void backprop_input_kernel(const Conv2DBackpropInputAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Conv2DGeometry g = conv2d_geometry("Conv2DBackpropInput", a, a.input_sizes, in[1].shape());
  // oneDNN's backward-data kernels block the input channels by 16; with very few of them (image
  // inputs, C = 1 or 3) most of that work is padding, and im2col + sgemm wins (kFewInputChannels).
  if (g.c / g.group < kFewInputChannels)
    return dispatch(in[0], in[1], out[0], [&](auto... p) { gemm_conv2d_backward_data(g, p...); },
                    [&](auto... p) { gemm_conv2d_backward_data(g, p...); });
  dispatch(in[0], in[1], out[0], [&](auto... p) { onednn_conv2d_backward_data(g, p...); },
           [&](auto... p) { gemm_conv2d_backward_data(g, p...); });
}

void backprop_filter_kernel(const Conv2DBackpropFilterAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Conv2DGeometry g = conv2d_geometry("Conv2DBackpropFilter", a, in[1].shape(), a.filter_sizes);
  dispatch(in[0], in[1], out[0], [&](auto... p) { onednn_conv2d_backward_weights(g, p...); },
           [&](auto... p) { gemm_conv2d_backward_weights(g, p...); });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_conv) {
  register_kernel<Conv2DOpAttrs>("Conv2D", Device::CPU, conv2d_kernel);
  register_kernel<Conv2DBackpropInputAttrs>("Conv2DBackpropInput", Device::CPU, backprop_input_kernel);
  register_kernel<Conv2DBackpropInputAttrs>("Conv2DTranspose", Device::CPU, backprop_input_kernel);
  register_kernel<Conv2DBackpropFilterAttrs>("Conv2DBackpropFilter", Device::CPU, backprop_filter_kernel);
}

}  // namespace sprout
