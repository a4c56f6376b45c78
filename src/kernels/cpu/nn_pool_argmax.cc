// CPU kernels of MaxPoolWithArgmaxV2 and MaxPoolGradWithArgmaxV2 (Note [Max pooling with argmax]): the
// window-tap loops for the values and argmax, a scatter-add by the argmax for the gradient. float16 and
// bfloat16 compute in float32.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/cpu/nn_conv_float32.h"
#include "kernels/cpu/nn_pool_kernels.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

template <class T, class A>
void argmax_forward(const Pool2DGeometry& g, const T* x, T* y, A* argmax) {
  for_plane_ranges(g, [&](int64_t begin, int64_t end) { simd_max_pool_argmax_planes(g, x, y, argmax, begin, end); });
}

void max_pool_argmax_kernel(const MaxPoolArgmaxAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Pool2DGeometry g = max_pool_argmax_geometry("MaxPoolWithArgmaxV2", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor x = contiguous_compute(in[0]), y = compute_buffer(out[0]);
  auto run = [&](auto* argmax) {
    if (y.dtype() == DType::Float64) return argmax_forward(g, x.data<double>(), y.data<double>(), argmax);
    argmax_forward(g, x.data<float>(), y.data<float>(), argmax);
  };
  if (out[1].dtype() == DType::Int32)
    run(out[1].data<int32_t>());
  else
    run(out[1].data<int64_t>());
  store_result(y, out[0]);
}

// Whether each window along one axis holds an input cell: a dilated one can miss them all, and then
// its -inf output gets no gradient.
std::vector<char> windows_with_input(int64_t out, int64_t n, int64_t k, int64_t s, int64_t pad, int64_t d) {
  std::vector<char> has(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    const Taps taps = taps_inside(o * s - pad, k, d, n);
    has[static_cast<size_t>(o)] = taps.first < taps.last;
  }
  return has;
}

// dx = 0, then each window's dy added at its argmax.
template <class T, class A>
void argmax_backward(const Pool2DGeometry& g, const T* dy, const A* argmax, T* dx) {
  const int64_t plane = g.h * g.w, pooled = g.oh * g.ow;
  for (int64_t i = 0; i < g.planes() * pooled; ++i)
    SPROUT_CHECK(static_cast<uint64_t>(argmax[i]) < static_cast<uint64_t>(plane), ValueError,
                 "MaxPoolGradWithArgmaxV2: 'argmax' ", static_cast<int64_t>(argmax[i]), " at position ", i,
                 " is outside the input's ", g.h, " x ", g.w, " plane");
  const std::vector<char> rows = windows_with_input(g.oh, g.h, g.kh, g.sh, g.pt, g.dh);
  const std::vector<char> cols = windows_with_input(g.ow, g.w, g.kw, g.sw, g.pl, g.dw);
  for_plane_ranges(g, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      T* dplane = dx + p * plane;
      std::memset(dplane, 0, static_cast<size_t>(plane) * sizeof(T));
      const T* grad = dy + p * pooled;
      const A* at = argmax + p * pooled;
      for (int64_t oy = 0; oy < g.oh; ++oy) {
        if (!rows[static_cast<size_t>(oy)]) continue;
        for (int64_t ox = 0; ox < g.ow; ++ox)
          if (cols[static_cast<size_t>(ox)]) dplane[at[oy * g.ow + ox]] += grad[oy * g.ow + ox];
      }
    }
  });
}

void max_pool_grad_argmax_kernel(const MaxPoolArgmaxAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Pool2DGeometry g = max_pool_argmax_geometry("MaxPoolGradWithArgmaxV2", a, in[0].shape());
  if (out[0].numel() == 0) return;
  Tensor dy = contiguous_compute(in[1]), argmax = in[2].contiguous(), dx = compute_buffer(out[0]);
  auto run = [&](const auto* at) {
    if (dx.dtype() == DType::Float64) return argmax_backward(g, dy.data<double>(), at, dx.data<double>());
    argmax_backward(g, dy.data<float>(), at, dx.data<float>());
  };
  if (argmax.dtype() == DType::Int32)
    run(argmax.data<int32_t>());
  else
    run(argmax.data<int64_t>());
  store_result(dx, out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_pool_argmax) {
  register_kernel<MaxPoolArgmaxAttrs>("MaxPoolWithArgmaxV2", Device::CPU, max_pool_argmax_kernel);
  register_kernel<MaxPoolArgmaxAttrs>("MaxPoolGradWithArgmaxV2", Device::CPU, max_pool_grad_argmax_kernel);
}

}  // namespace sprout
