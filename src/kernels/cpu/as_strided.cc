// AsStridedScatter: zeros, then each element of x added at its window position (overlapping windows
// accumulate, which is what the gradient of a broadcasting view needs). Serial: windows may overlap.
#include <cstring>

#include "ops/as_strided.h"
#include "ops/op_def.h"
#include "tensor/nd_loop.h"

namespace sprout {
namespace {

void scatter_kernel(const AsStridedScatterAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor& o = out[0];
  std::memset(o.raw_data(), 0, o.nbytes());
  const Tensor& x = in[0];
  visit_dtype(o.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = compute_t<T>;
    T* po = o.template data<T>() + a.storage_offset;
    const T* px = static_cast<const T*>(x.raw_data());
    NdLoop<2> loop(x.shape(), {std::span<const int64_t>(a.stride), std::span<const int64_t>(x.strides())});
    const int64_t so = loop.inner_stride(0), sx = loop.inner_stride(1);
    loop.run(0, loop.rows(), [&](const std::array<int64_t, 2>& off, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        T& dst = po[off[0] + i * so];
        dst = static_cast<T>(static_cast<C>(dst) + static_cast<C>(px[off[1] + i * sx]));
      }
    });
  });
}

}  // namespace

SPROUT_REGISTER(cpu_as_strided) { register_kernel<AsStridedScatterAttrs>("AsStridedScatter", Device::CPU, scatter_kernel); }

}  // namespace sprout
