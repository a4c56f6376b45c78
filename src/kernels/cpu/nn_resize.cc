// CPU kernels of the resize ops (Note [Resize coordinates]): per-axis taps computed once per call,
// then one pass per (n, c) plane, planes split across threads. Float32 (float16 widened) or float64.
// The gradient kernels scatter into their plane, which only their own thread touches.
#include <cstring>
#include <vector>

#include "kernels/cpu/nn_conv_float32.h"
#include "base/parallel.h"
#include "ops/nn_resize.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// The geometry of one resize: planes of `in_h x in_w` pixels mapped to `out_h x out_w`.
struct Resize {
  int64_t planes, in_h, in_w, out_h, out_w;
};

// Runs fn(plane) over all planes.
template <class Fn>
void for_each_plane(const Resize& r, Fn&& fn) {
  int64_t work = std::max<int64_t>(1, std::max(r.in_h * r.in_w, r.out_h * r.out_w));
  parallel_for(r.planes, std::max<int64_t>(1, kParallelGrain / work), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) fn(p);
  });
}

std::vector<LinearTap> linear_taps(int64_t in, int64_t out, bool align, bool half) {
  std::vector<LinearTap> taps(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) taps[o] = linear_tap(o, in, out, align, half);
  return taps;
}

std::vector<int64_t> nearest_taps(int64_t in, int64_t out, bool align) {
  std::vector<int64_t> taps(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) taps[o] = nearest_tap(o, in, out, align);
  return taps;
}

// BACKWARD: `src` holds output gradients (out_h x out_w) added into `dst` (in_h x in_w) planes.
template <bool BACKWARD, class T>
void bilinear(const Resize& r, bool align, bool half, const T* src, T* dst) {
  auto ty = linear_taps(r.in_h, r.out_h, align, half), tx = linear_taps(r.in_w, r.out_w, align, half);
  for_each_plane(r, [&](int64_t p) {
    const int64_t in_plane = p * r.in_h * r.in_w, out_plane = p * r.out_h * r.out_w;
    if (BACKWARD) std::memset(dst + in_plane, 0, static_cast<size_t>(r.in_h * r.in_w) * sizeof(T));
    for (int64_t oy = 0; oy < r.out_h; ++oy) {
      const LinearTap& y = ty[oy];
      const T fy = static_cast<T>(y.frac);
      for (int64_t ox = 0; ox < r.out_w; ++ox) {
        const LinearTap& x = tx[ox];
        const T fx = static_cast<T>(x.frac);
        const int64_t c00 = in_plane + y.lo * r.in_w + x.lo, c01 = in_plane + y.lo * r.in_w + x.hi;
        const int64_t c10 = in_plane + y.hi * r.in_w + x.lo, c11 = in_plane + y.hi * r.in_w + x.hi;
        const T w00 = (1 - fy) * (1 - fx), w01 = (1 - fy) * fx, w10 = fy * (1 - fx), w11 = fy * fx;
        if (BACKWARD) {
          T g = src[out_plane + oy * r.out_w + ox];
          dst[c00] += w00 * g, dst[c01] += w01 * g, dst[c10] += w10 * g, dst[c11] += w11 * g;
        } else {
          dst[out_plane + oy * r.out_w + ox] = w00 * src[c00] + w01 * src[c01] + w10 * src[c10] + w11 * src[c11];
        }
      }
    }
  });
}

template <bool BACKWARD, class T>
void nearest(const Resize& r, bool align, const T* src, T* dst) {
  auto ty = nearest_taps(r.in_h, r.out_h, align), tx = nearest_taps(r.in_w, r.out_w, align);
  for_each_plane(r, [&](int64_t p) {
    const int64_t in_plane = p * r.in_h * r.in_w, out_plane = p * r.out_h * r.out_w;
    if (BACKWARD) std::memset(dst + in_plane, 0, static_cast<size_t>(r.in_h * r.in_w) * sizeof(T));
    for (int64_t oy = 0; oy < r.out_h; ++oy)
      for (int64_t ox = 0; ox < r.out_w; ++ox) {
        int64_t cell = in_plane + ty[oy] * r.in_w + tx[ox], o = out_plane + oy * r.out_w + ox;
        if (BACKWARD) dst[cell] += src[o];
        else dst[o] = src[cell];
      }
  });
}

// Runs fn(resize, src, dst) on dense float32/float64 buffers; `image` is the (N, C, in_h, in_w) side.
template <class Fn>
void run(const Tensor& src_t, const Tensor& dst_t, bool backward, Fn&& fn) {
  if (dst_t.numel() == 0) return;
  const Shape &image = backward ? dst_t.shape() : src_t.shape(), &resized = backward ? src_t.shape() : dst_t.shape();
  Resize r{image[0] * image[1], image[2], image[3], resized[2], resized[3]};
  Tensor src = contiguous_compute(src_t), dst = compute_buffer(dst_t);
  if (dst.dtype() == DType::Float64) fn(r, src.data<double>(), dst.data<double>());
  else fn(r, src.data<float>(), dst.data<float>());
  store_result(dst, dst_t);
}

void bilinear_kernel(const ResizeBilinearAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run(in[0], out[0], false, [&](const Resize& r, auto* s, auto* d) {
    bilinear<false>(r, a.align_corners, a.half_pixel_centers, s, d);
  });
}

void bilinear_grad_kernel(const ResizeBilinearGradAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run(in[0], out[0], true, [&](const Resize& r, auto* s, auto* d) {
    bilinear<true>(r, a.align_corners, a.half_pixel_centers, s, d);
  });
}

void nearest_kernel(const ResizeNearestNeighborAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run(in[0], out[0], false, [&](const Resize& r, auto* s, auto* d) { nearest<false>(r, a.align_corners, s, d); });
}

void nearest_grad_kernel(const ResizeNearestNeighborGradAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run(in[0], out[0], true, [&](const Resize& r, auto* s, auto* d) { nearest<true>(r, a.align_corners, s, d); });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_resize) {
  register_kernel<ResizeBilinearAttrs>("ResizeBilinearV2", Device::CPU, bilinear_kernel);
  register_kernel<ResizeBilinearGradAttrs>("ResizeBilinearGrad", Device::CPU, bilinear_grad_kernel);
  register_kernel<ResizeNearestNeighborAttrs>("ResizeNearestNeighbor", Device::CPU, nearest_kernel);
  register_kernel<ResizeNearestNeighborGradAttrs>("ResizeNearestNeighborGrad", Device::CPU, nearest_grad_kernel);
}

}  // namespace sprout
