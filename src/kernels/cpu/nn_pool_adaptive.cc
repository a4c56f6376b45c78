// CPU kernels of the adaptive pooling ops (Note [Adaptive pooling windows]): direct loops
// over (n, c) planes, in float32 (float16 widened) or float64. oneDNN has no adaptive pooling; the
// windows differ per output cell, and the work is a single pass over memory either way.
#include <algorithm>
#include <cstring>

#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/simd.h"
#include "base/parallel.h"
#include "ops/nn_pool_adaptive.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

struct Planes {
  int64_t count, h, w, oh, ow;
};

Planes planes_of(const Shape& in, const Shape& out) {
  size_t r = in.size();
  return {numel(std::span<const int64_t>(in.data(), r - 2)), in[r - 2], in[r - 1], out[r - 2], out[r - 1]};
}

// Calls before(plane) once per (n, c) plane, then fn(plane, output index, y0, y1, x0, x1) for each of its
// windows; planes split across threads.
template <class Before, class Fn>
void for_each_window(const Planes& p, Before&& before, Fn&& fn) {
  parallel_for(p.count, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, p.h * p.w)), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) {
      before(plane);
      for (int64_t oy = 0; oy < p.oh; ++oy) {
        int64_t y0 = adaptive_start(oy, p.h, p.oh), y1 = adaptive_end(oy, p.h, p.oh);
        for (int64_t ox = 0; ox < p.ow; ++ox)
          fn(plane, oy * p.ow + ox, y0, y1, adaptive_start(ox, p.w, p.ow), adaptive_end(ox, p.w, p.ow));
      }
    }
  });
}

template <class Fn>
void for_each_window(const Planes& p, Fn&& fn) {
  for_each_window(p, [](int64_t) {}, fn);
}

// Global pooling (output 1x1, a ResNet's last pool): each plane's mean, or its gradient spread evenly.
template <class T>
void global_forward(const Planes& p, const T* x, T* y) {
  const int64_t size = p.h * p.w;
  parallel_for(p.count, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, size)), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) y[plane] = simd_reduce(ReduceOp::Sum, x + plane * size, size) / static_cast<T>(size);
  });
}

template <class T>
void global_backward(const Planes& p, const T* dy, T* dx) {
  const int64_t size = p.h * p.w;
  parallel_for(p.count, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, size)), [&](int64_t b, int64_t e) {
    for (int64_t plane = b; plane < e; ++plane) std::fill(dx + plane * size, dx + (plane + 1) * size, dy[plane] / static_cast<T>(size));
  });
}

template <class T>
void forward(const Planes& p, const T* x, T* y) {
  if (p.oh == 1 && p.ow == 1) return global_forward(p, x, y);
  for_each_window(p, [&](int64_t plane, int64_t o, int64_t y0, int64_t y1, int64_t x0, int64_t x1) {
    const T* in = x + plane * p.h * p.w;
    T sum = 0;
    if (x0 == 0 && x1 == p.w) {
      // Whole rows (output width 1): one contiguous block, summed in SIMD instead of one long chain of
      // dependent adds.
      sum = simd_reduce(ReduceOp::Sum, in + y0 * p.w, (y1 - y0) * p.w);
    } else {
      for (int64_t yy = y0; yy < y1; ++yy)
        for (int64_t xx = x0; xx < x1; ++xx) sum += in[yy * p.w + xx];
    }
    y[plane * p.oh * p.ow + o] = sum / static_cast<T>((y1 - y0) * (x1 - x0));
  });
}

template <class T>
void backward(const Planes& p, const T* dy, T* dx) {
  if (p.oh == 1 && p.ow == 1) return global_backward(p, dy, dx);
  const int64_t plane_size = p.h * p.w;
  // Each plane zeroed by the thread that then adds its windows' shares into it (windows may overlap).
  auto zero_plane = [&](int64_t plane) { std::memset(dx + plane * plane_size, 0, static_cast<size_t>(plane_size) * sizeof(T)); };
  for_each_window(p, zero_plane, [&](int64_t plane, int64_t o, int64_t y0, int64_t y1, int64_t x0, int64_t x1) {
    T* out = dx + plane * plane_size;
    T share = dy[plane * p.oh * p.ow + o] / static_cast<T>((y1 - y0) * (x1 - x0));
    for (int64_t yy = y0; yy < y1; ++yy)
      for (int64_t xx = x0; xx < x1; ++xx) out[yy * p.w + xx] += share;
  });
}

// Flat index within its plane of the first maximum of a window.
template <class T>
int64_t window_argmax(const Planes& p, const T* plane, int64_t y0, int64_t y1, int64_t x0, int64_t x1) {
  int64_t best = y0 * p.w + x0;
  for (int64_t yy = y0; yy < y1; ++yy)
    for (int64_t xx = x0; xx < x1; ++xx)
      if (plane[yy * p.w + xx] > plane[best]) best = yy * p.w + xx;
  return best;
}

template <class T>
void max_forward(const Planes& p, const T* x, T* y, int64_t* argmax) {
  for_each_window(p, [&](int64_t plane, int64_t o, int64_t y0, int64_t y1, int64_t x0, int64_t x1) {
    const T* in = x + plane * p.h * p.w;
    int64_t at = window_argmax(p, in, y0, y1, x0, x1);
    y[plane * p.oh * p.ow + o] = in[at];
    argmax[plane * p.oh * p.ow + o] = at;
  });
}

// Scatter (BACKWARD: pooled `src` into x-shaped `dst`) or gather (x-shaped `src` into pooled `dst`)
// through each window's maximum in x.
template <bool SCATTER, class T>
void max_route(const Planes& p, const T* x, const T* src, T* dst) {
  const int64_t plane_size = p.h * p.w;
  auto zero_plane = [&](int64_t plane) {
    if (SCATTER) std::memset(dst + plane * plane_size, 0, static_cast<size_t>(plane_size) * sizeof(T));
  };
  for_each_window(p, zero_plane, [&](int64_t plane, int64_t o, int64_t y0, int64_t y1, int64_t x0, int64_t x1) {
    int64_t at = plane * p.h * p.w + window_argmax(p, x + plane * p.h * p.w, y0, y1, x0, x1);
    if (SCATTER) dst[at] += src[plane * p.oh * p.ow + o];
    else dst[plane * p.oh * p.ow + o] = src[at];
  });
}

// Runs fn<T>(planes, in, out) in float32 or float64 on dense buffers.
template <bool FORWARD>
void run(const Tensor& in_t, const Tensor& out_t) {
  if (out_t.numel() == 0 || in_t.numel() == 0) return;
  Planes p = FORWARD ? planes_of(in_t.shape(), out_t.shape()) : planes_of(out_t.shape(), in_t.shape());
  Tensor in = contiguous_compute(in_t), out = compute_buffer(out_t);
  auto go = [&](auto* in_ptr, auto* out_ptr) { FORWARD ? forward(p, in_ptr, out_ptr) : backward(p, in_ptr, out_ptr); };
  if (out.dtype() == DType::Float64) go(in.data<double>(), out.data<double>());
  else go(in.data<float>(), out.data<float>());
  store_result(out, out_t);
}

void pool_kernel(const AdaptivePool2DAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  run<true>(in[0], out[0]);
}

void pool_grad_kernel(const AdaptiveAvgPool2DGradAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  run<false>(in[0], out[0]);
}

void max_pool_kernel(const AdaptivePool2DAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].numel() == 0) return;
  Planes p = planes_of(in[0].shape(), out[0].shape());
  Tensor x = contiguous_compute(in[0]), y = compute_buffer(out[0]);
  if (y.dtype() == DType::Float64) max_forward(p, x.data<double>(), y.data<double>(), out[1].data<int64_t>());
  else max_forward(p, x.data<float>(), y.data<float>(), out[1].data<int64_t>());
  store_result(y, out[0]);
}

// (y_grad, x) -> dx and (x, grad) -> pooled: both route through the maxima of x.
template <bool SCATTER>
void max_route_kernel(std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& x_t = in[SCATTER ? 1 : 0];
  const Tensor& src_t = in[SCATTER ? 0 : 1];
  if (out[0].numel() == 0 || x_t.numel() == 0) return;
  Planes p = planes_of(x_t.shape(), SCATTER ? src_t.shape() : out[0].shape());
  Tensor x = contiguous_compute(x_t), src = contiguous_compute(src_t), dst = compute_buffer(out[0]);
  if (dst.dtype() == DType::Float64) max_route<SCATTER>(p, x.data<double>(), src.data<double>(), dst.data<double>());
  else max_route<SCATTER>(p, x.data<float>(), src.data<float>(), dst.data<float>());
  store_result(dst, out[0]);
}

void max_pool_grad_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  max_route_kernel<true>(in, out);
}

void max_pool_grad_grad_kernel(const AdaptivePool2DAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  max_route_kernel<false>(in, out);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_pool_adaptive) {
  register_kernel<AdaptivePool2DAttrs>("AdaptiveMaxPool2D", Device::CPU, max_pool_kernel);
  register_kernel<NoAttrs>("AdaptiveMaxPool2DGrad", Device::CPU, max_pool_grad_kernel);
  register_kernel<AdaptivePool2DAttrs>("AdaptiveMaxPool2DGradGrad", Device::CPU, max_pool_grad_grad_kernel);
  register_kernel<AdaptivePool2DAttrs>("AdaptiveAvgPool2D", Device::CPU, pool_kernel);
  register_kernel<AdaptiveAvgPool2DGradAttrs>("AdaptiveAvgPool2DGrad", Device::CPU, pool_grad_kernel);
}

}  // namespace sprout
