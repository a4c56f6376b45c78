// CPU kernel of Cdist (ops/math_cdist.cc): the second set packed in panels once per call, then tiles
// of distances (Note [Distances by tiles]) across threads by rows of the first set. Half types compute in
// float32.
#include <algorithm>
#include <type_traits>

#include "base/aligned_vector.h"
#include "base/parallel.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/simd_cdist.h"
#include "ops/math_cdist.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

template <class C>
void cdist_in(double p, const Tensor& x, const Tensor& y, const Tensor& out) {
  const int64_t rank = x.ndim();
  const int64_t batches = rank == 3 ? x.shape()[0] : 1;
  const int64_t P = x.shape()[rank - 2], M = x.shape()[rank - 1], R = y.shape()[rank - 2];
  const DType compute = std::is_same_v<C, double> ? DType::Float64 : DType::Float32;
  auto as_compute = [&](const Tensor& t) {  // contiguous, in C
    if (t.dtype() == compute && t.is_contiguous()) return t;
    Tensor copy = Tensor::empty(t.shape(), compute, "Cdist");
    convert_into(t, copy);
    return copy;
  };
  const Tensor xs = as_compute(x), ys = as_compute(y);
  const bool direct = out.dtype() == compute && out.is_contiguous();
  const Tensor result = direct ? out : Tensor::empty(out.shape(), compute, "Cdist");
  const C* a = static_cast<const C*>(xs.raw_data());
  const C* b = static_cast<const C*>(ys.raw_data());
  C* o = static_cast<C*>(result.raw_data());

  // The second set packed in panels (simd_cdist.h), zero-padded to whole panels.
  const int64_t panels = (R + kCdistPanel - 1) / kCdistPanel, packed = panels * M * kCdistPanel;
  AlignedVector<C> bt(static_cast<size_t>(batches * packed), C(0));
  for (int64_t n = 0; n < batches; ++n)
    for (int64_t j = 0; j < R; ++j)
      for (int64_t k = 0; k < M; ++k)
        bt[n * packed + ((j / kCdistPanel) * M + k) * kCdistPanel + j % kCdistPanel] = b[(n * R + j) * M + k];

  // Threads take rows of the first set (across batches); a row costs R * M differences.
  const int64_t grain = std::max<int64_t>(4, kParallelGrain / std::max<int64_t>(1, R * M));
  parallel_for(batches * P, grain, [&](int64_t begin, int64_t end) {
    while (begin < end) {
      const int64_t n = begin / P, stop = std::min(end, (n + 1) * P);
      simd_cdist(p, a + n * P * M, bt.data() + n * packed, M, R, begin - n * P, stop - n * P, o + n * P * R);
      begin = stop;
    }
  });
  if (!direct) convert_into(result, out);
}

void cdist_kernel(const CdistAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].numel() == 0) return;
  if (in[0].dtype() == DType::Float64) return cdist_in<double>(attrs.p, in[0], in[1], out[0]);
  cdist_in<float>(attrs.p, in[0], in[1], out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_math_cdist) { register_kernel<CdistAttrs>("Cdist", Device::CPU, cdist_kernel); }

}  // namespace sprout
