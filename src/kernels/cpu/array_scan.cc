// CPU kernels of Argmax/Argmin and CumSum/CumProd. The input is seen as [outer, n, inner] with the
// walked axis in the middle; the loops step along n in the outer position so the innermost loop runs
// over `inner` contiguous elements (vectorizable), and outer blocks split across threads.
#include <cmath>
#include <type_traits>

#include "base/parallel.h"
#include "ops/array_attrs.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

struct AxisLayout {
  int64_t outer = 1, n = 1, inner = 1;
};

AxisLayout layout(const Tensor& x, int64_t axis) {
  AxisLayout l;
  if (x.ndim() == 0) return l;
  if (axis < 0) axis += x.ndim();
  for (int64_t d = 0; d < axis; ++d) l.outer *= x.shape()[d];
  l.n = x.shape()[axis];
  for (int64_t d = axis + 1; d < x.ndim(); ++d) l.inner *= x.shape()[d];
  return l;
}

// Whether v should replace best: strictly better, or the first NaN (NumPy: NaN wins and the first one
// is kept).
template <bool MAX, class C>
bool better(C v, C best) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(best)) return false;
    if (std::isnan(v)) return true;
  }
  return MAX ? v > best : v < best;
}

// Index of the extremum of a contiguous run. `!(v <= best)` holds for a larger v and for NaN, so one
// comparison per element serves both; the first NaN ends the search.
template <bool MAX, class C, class T>
int64_t arg_run(const T* x, int64_t n) {
  C best = static_cast<C>(x[0]);
  if (best != best) return 0;
  int64_t at = 0;
  for (int64_t j = 1; j < n; ++j) {
    C v = static_cast<C>(x[j]);
    if (MAX ? !(v <= best) : !(v >= best)) {
      if (v != v) return j;
      best = v;
      at = j;
    }
  }
  return at;
}

template <bool MAX>
void arg_kernel(const ArgAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  const AxisLayout l = layout(x, a.axis);
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    // vector<bool> packs bits; compare booleans as bytes
    using C = std::conditional_t<std::is_same_v<T, bool>, uint8_t, compute_t<T>>;
    const T* px = x.template data<T>();
    std::vector<int64_t> best_index(static_cast<size_t>(out[0].numel()), 0);
    parallel_for(l.outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, l.n * l.inner)),
                 [&](int64_t b, int64_t e) {
                   std::vector<C> best(static_cast<size_t>(l.inner));
                   for (int64_t o = b; o < e; ++o) {
                     const T* block = px + o * l.n * l.inner;
                     int64_t* bi = best_index.data() + o * l.inner;
                     if (l.inner == 1) {  // a contiguous run: one scalar best
                       bi[0] = arg_run<MAX, C>(block, l.n);
                       continue;
                     }
                     for (int64_t i = 0; i < l.inner; ++i) best[i] = static_cast<C>(block[i]);
                     for (int64_t j = 1; j < l.n; ++j)
                       for (int64_t i = 0; i < l.inner; ++i) {
                         C v = static_cast<C>(block[j * l.inner + i]);
                         if (better<MAX, C>(v, best[i])) {
                           best[i] = v;
                           bi[i] = j;
                         }
                       }
                   }
                 });
    visit_dtype(out[0].dtype(), [&](auto oz) {
      using O = decltype(oz);
      if constexpr (std::is_integral_v<O>) {
        O* po = out[0].template data<O>();
        for (size_t k = 0; k < best_index.size(); ++k) po[k] = static_cast<O>(best_index[k]);
      }
    });
  });
}

template <bool PRODUCT>
void cum_kernel(const CumAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  const AxisLayout l = layout(x, a.axis);
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = compute_t<T>;
    const T* px = x.template data<T>();
    T* po = out[0].template data<T>();
    const C identity = PRODUCT ? C(1) : C(0);
    parallel_for(l.outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, l.n * l.inner)),
                 [&](int64_t b, int64_t e) {
                   std::vector<C> acc(static_cast<size_t>(l.inner));
                   for (int64_t o = b; o < e; ++o) {
                     std::fill(acc.begin(), acc.end(), identity);
                     for (int64_t step = 0; step < l.n; ++step) {
                       const int64_t j = a.reverse ? l.n - 1 - step : step;
                       const T* src = px + (o * l.n + j) * l.inner;
                       T* dst = po + (o * l.n + j) * l.inner;
                       for (int64_t i = 0; i < l.inner; ++i) {
                         C v = static_cast<C>(src[i]);
                         C next = PRODUCT ? acc[i] * v : acc[i] + v;
                         dst[i] = static_cast<T>(a.exclusive ? acc[i] : next);
                         acc[i] = next;
                       }
                     }
                   }
                 });
  });
}

}  // namespace

SPROUT_REGISTER(cpu_array_scan) {
  register_kernel<ArgAttrs>("Argmax", Device::CPU, arg_kernel<true>);
  register_kernel<ArgAttrs>("Argmin", Device::CPU, arg_kernel<false>);
  register_kernel<CumAttrs>("CumSum", Device::CPU, cum_kernel<false>);
  register_kernel<CumAttrs>("CumProd", Device::CPU, cum_kernel<true>);
}

}  // namespace sprout
