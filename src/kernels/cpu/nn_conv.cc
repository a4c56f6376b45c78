// CPU kernels of the convolutions (Conv2D, Conv2DBackpropInput/Conv2DTranspose, Conv2DBackpropFilter and
// their Conv3D counterparts): dtype dispatch onto the backends of Note [Conv2D backends]
// (nn_conv_onednn.cc, nn_conv_gemm.cc, nn_conv_direct.cc, nn_conv_batched.cc).
#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_conv_kernels.h"
#include "kernels/cpu/onednn.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// oneDNN blocks channels by 16, so with very few input channels (image inputs, C = 1 or 3) most of its
// work is padding. There the direct loops of Note [Direct convolution] run all three passes (forward
// and backward data when they produce at most kMaxDirectOutputs channels); otherwise backward data
// takes im2col + sgemm. Measured on two threads (2026-11-25), oneDNN or im2col vs direct:
//   N=64 1x32x32 -> 6 k5 (LeNet's first layer): forward 345 vs 90 us, backward data 2030 vs 157,
//     backward filter 270 vs 115
//   N=32 3x32x32 -> 8 k5 pad 2: forward 432 vs 192, backward data 3763 vs 322, backward filter 435 vs 249
//   N=16 2x64x64 -> 4 k3 pad 1: forward 351 vs 61, backward data 1800 vs 71, backward filter 432 vs 64
// With C = 6 (LeNet's second layer, 6x14x14 -> 16) oneDNN beat them (backward filter 306 vs 599 us); its
// backward passes now go to the batch-vectorized loops (`batched` below), and so does backward filter
// with few input channels when the batch fills their vectors better than dy's rows fill the direct ones.
constexpr int64_t kFewInputChannels = 4;

static_assert(kFewInputChannels <= kMaxDirectOutputs, "backward data through the direct loops produces g.c channels");

bool direct(const ConvGeometry& g) { return g.c < kFewInputChannels && direct_conv_applies(g); }

// The fraction of whole blocks of 16 that `count` elements fill.
double filled(int64_t count) { return static_cast<double>(count) / static_cast<double>((count + 15) / 16 * 16); }

// oneDNN pads both channel counts to blocks of 16, the loops of Note [Batch-vectorized backward passes]
// pad the batch to whole vectors and run at about 70% of oneDNN's speed where nothing is padded.
bool batched(const ConvGeometry& g) { return batched_conv_applies(g) && 0.7 * filled(g.n) > filled(g.c) * filled(g.o); }

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

// dispatch for oneDNN's primitives: bfloat16 tensors stay bfloat16 where the CPU computes them natively
// (32x64x28x28 -> 64, 3x3 as float32 through the widening route: forward 7.1 ms, with both backward
// passes 25; natively 2.6 and 8.0, PyTorch 2.2 and 8.1).
template <class OneDnn, class F64>
void dispatch_onednn(const Tensor& a, const Tensor& b, const Tensor& out, OneDnn&& onednn_call, F64&& f64) {
  if (out.dtype() == DType::BFloat16 && onednn::native_bfloat16() && out.numel() > 0 && out.is_contiguous()) {
    Tensor ac = a.contiguous(), bc = b.contiguous();
    return onednn_call(ac.data<bfloat16>(), bc.data<bfloat16>(), out.data<bfloat16>());
  }
  dispatch(a, b, out, onednn_call, f64);
}

template <class A, int RANK>
void forward_kernel(const A& a, std::span<const Tensor> in, std::span<Tensor> out) {
  ConvGeometry g = conv_geometry(RANK == 2 ? "Conv2D" : "Conv3D", RANK, a, in[0].shape(), in[1].shape());
  if (g.c == 0) return out[0].copy_from(Tensor::zeros(Shape{}, out[0].dtype()));  // a sum over no channels
  auto gemm = [&](auto... p) { gemm_conv_forward(g, p...); };
  if (direct(g) && g.o <= kMaxDirectOutputs)
    return dispatch(in[0], in[1], out[0], [&](auto... p) { direct_conv_forward(g, p...); }, gemm);
  dispatch_onednn(in[0], in[1], out[0], [&](auto... p) { onednn_conv_forward(g, p...); }, gemm);
}

// (dout, weight) -> dx.
void backprop_input(const ConvGeometry& g, const Tensor& dout, const Tensor& w, const Tensor& out) {
  auto gemm = [&](auto... p) { gemm_conv_backward_data(g, p...); };
  if (direct(g))
    return dispatch(dout, w, out, [&](auto... p) { direct_conv_backward_data(g, p...); }, gemm);
  // Few channels to produce and no groups: oneDNN would pad them to 16. Grouped ones (depthwise) go to
  // oneDNN, whose depthwise loops beat im2col + one sgemm per group by far (16x128x56x56, 3x3, 128 groups:
  // 181 -> 15 ms backward data; PyTorch takes 60 ms for forward and both backward passes, Sprout now 45).
  if (g.group == 1 && g.c < kFewInputChannels) return dispatch(dout, w, out, gemm, gemm);
  if (batched(g)) return dispatch(dout, w, out, [&](auto... p) { batched_conv_backward_data(g, p...); }, gemm);
  dispatch_onednn(dout, w, out, [&](auto... p) { onednn_conv_backward_data(g, p...); }, gemm);
}

void backprop_filter(const ConvGeometry& g, const Tensor& dout, const Tensor& x, const Tensor& out) {
  auto gemm = [&](auto... p) { gemm_conv_backward_weights(g, p...); };
  // Each block of images streams its dy planes once per filter row: from L1 up to about 28x28.
  const bool batched_fits = batched(g) && g.out[1] * g.out[2] <= 28 * 28;
  // With few input channels both loops apply: the direct ones fill vectors along dy's rows, the batched
  // ones across the images, and the fuller vectors win (LeNet's first layer, batch 64, two threads:
  // direct 107 us, batched 99).
  if (direct(g) && !(batched_fits && filled(g.n) >= filled(g.out[2])))
    return dispatch(dout, x, out, [&](auto... p) { direct_conv_backward_weights(g, p...); }, gemm);
  if (batched_fits) return dispatch(dout, x, out, [&](auto... p) { batched_conv_backward_weights(g, p...); }, gemm);
  dispatch_onednn(dout, x, out, [&](auto... p) { onednn_conv_backward_weights(g, p...); }, gemm);
}

void backprop_input_2d(const Conv2DBackpropInputAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  backprop_input(conv_geometry("Conv2DBackpropInput", 2, a, a.input_sizes, in[1].shape()), in[0], in[1], out[0]);
}

void backprop_filter_2d(const Conv2DBackpropFilterAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  backprop_filter(conv_geometry("Conv2DBackpropFilter", 2, a, in[1].shape(), a.filter_sizes), in[0], in[1], out[0]);
}

// Conv3D's backward ops take (weight, dout) and (x, dout).
void backprop_input_3d(const Conv3DBackpropInputAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  backprop_input(conv_geometry("Conv3DBackpropInput", 3, a, a.input_size, in[0].shape()), in[1], in[0], out[0]);
}

void backprop_filter_3d(const Conv3DBackpropFilterAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  backprop_filter(conv_geometry("Conv3DBackpropFilter", 3, a, in[0].shape(), a.filter_size), in[1], in[0], out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_conv) {
  register_kernel<Conv2DOpAttrs>("Conv2D", Device::CPU, forward_kernel<Conv2DOpAttrs, 2>);
  register_kernel<Conv2DBackpropInputAttrs>("Conv2DBackpropInput", Device::CPU, backprop_input_2d);
  register_kernel<Conv2DBackpropInputAttrs>("Conv2DTranspose", Device::CPU, backprop_input_2d);
  register_kernel<Conv2DBackpropFilterAttrs>("Conv2DBackpropFilter", Device::CPU, backprop_filter_2d);
  register_kernel<Conv3DOpAttrs>("Conv3D", Device::CPU, forward_kernel<Conv3DOpAttrs, 3>);
  register_kernel<Conv3DBackpropInputAttrs>("Conv3DBackpropInput", Device::CPU, backprop_input_3d);
  register_kernel<Conv3DBackpropFilterAttrs>("Conv3DBackpropFilter", Device::CPU, backprop_filter_3d);
}

}  // namespace sprout
