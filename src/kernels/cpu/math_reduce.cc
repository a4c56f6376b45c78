// CPU kernels of ReduceProd, ReduceAll, ReduceAny, in the two layouts of Note [Reduction layouts]
// (kernels/cpu/reduce.cc): contiguous runs per output (rows), or output rows combined elementwise
// (columns). All and Any take Bool only; over a run they are a memchr for the deciding byte.
#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/reduce_axes.h"
#include "ops/op_def.h"
#include "ops/reduce.h"

namespace sprout {
namespace {

enum class Fold { Prod, All, Any };

// Products accumulate in uint64 for integers (wrapping as the output dtype would, with no signed
// overflow) and in the compute type for floats; All and Any in bool.
template <Fold F, class T>
using acc_t =
    std::conditional_t<F != Fold::Prod, bool, std::conditional_t<std::is_integral_v<T>, uint64_t, compute_t<T>>>;

template <Fold F, class A>
constexpr A identity() { return F == Fold::Prod ? A(1) : A(F == Fold::All); }

template <Fold F, class A>
A combine(A a, A b) {
  if constexpr (F == Fold::Prod) return a * b;
  if constexpr (F == Fold::All) return a && b;
  if constexpr (F == Fold::Any) return a || b;
}

template <Fold F, class T>
acc_t<F, T> fold_run(const T* x, int64_t n) {
  using A = acc_t<F, T>;
  if constexpr (F == Fold::All) return std::memchr(x, 0, static_cast<size_t>(n)) == nullptr;
  if constexpr (F == Fold::Any) return std::memchr(x, 1, static_cast<size_t>(n)) != nullptr;
  if constexpr (F == Fold::Prod) {
    // Eight independent partial products: the loop vectorizes without reassociating one chain.
    A part[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) part[j] *= static_cast<A>(x[i + j]);
    A acc = ((part[0] * part[1]) * (part[2] * part[3])) * ((part[4] * part[5]) * (part[6] * part[7]));
    for (; i < n; ++i) acc *= static_cast<A>(x[i]);
    return acc;
  }
}

// rows layout: x is [kn, rn] contiguous.
template <Fold F, class T>
void fold_rows(const T* x, int64_t kn, int64_t rn, acc_t<F, T>* acc) {
  using A = acc_t<F, T>;
  const int threads = num_threads();
  if (kn >= threads || kn * rn < kParallelGrain) {
    parallel_for(kn, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(rn, 1)), [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) acc[k] = fold_run<F>(x + k * rn, rn);
    });
    return;
  }
  for (int64_t k = 0; k < kn; ++k) {  // few long runs: split each across threads
    std::vector<A> partial(static_cast<size_t>(threads), identity<F, A>());
    parallel_for(threads, 1, [&](int64_t b, int64_t e) {
      for (int64_t c = b; c < e; ++c) {
        int64_t lo = rn * c / threads, hi = rn * (c + 1) / threads;
        partial[static_cast<size_t>(c)] = fold_run<F>(x + k * rn + lo, hi - lo);
      }
    });
    A total = identity<F, A>();
    for (A p : partial) total = combine<F, A>(total, p);
    acc[k] = total;
  }
}

// columns layout: x is [rn, kn] contiguous; the inner loop over k vectorizes.
template <Fold F, class T>
void fold_columns(const T* x, int64_t rn, int64_t kn, acc_t<F, T>* acc) {
  using A = acc_t<F, T>;
  parallel_for(kn, std::max<int64_t>(64, kParallelGrain / std::max<int64_t>(rn, 1)), [&](int64_t b, int64_t e) {
    std::fill(acc + b, acc + e, identity<F, A>());
    for (int64_t r = 0; r < rn; ++r) {
      const T* row = x + r * kn;
      for (int64_t k = b; k < e; ++k) acc[k] = combine<F, A>(acc[k], static_cast<A>(row[k]));
    }
  });
}

template <Fold F>
void fold_kernel(const ReduceAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& x = in[0];
  const auto [kept, reduced, kn, rn] = split_reduce_axes(x, attrs.axis);
  if (kn == 0) return;
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using A = acc_t<F, T>;
    if constexpr ((F == Fold::Prod) == std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "ReduceProd takes numbers, ReduceAll/ReduceAny take Bool; infer lets nothing else through");
    } else {
      std::unique_ptr<A[]> acc(new A[static_cast<size_t>(kn)]);
      Shape order = reduced;
      for (int64_t d : kept) order.push_back(d);
      Tensor columns = x.permute(order);
      if (kn > 1 && rn > 0 && columns.is_contiguous()) {
        fold_columns<F>(columns.template data<T>(), rn, kn, acc.get());
      } else {
        order = kept;
        for (int64_t d : reduced) order.push_back(d);
        Tensor rows = x.permute(order).contiguous();
        fold_rows<F>(rows.template data<T>(), kn, rn, acc.get());
      }
      T* po = out[0].template data<T>();
      for (int64_t k = 0; k < kn; ++k) po[k] = static_cast<T>(acc[k]);
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_math_reduce) {
  register_kernel<ReduceAttrs>("ReduceProd", Device::CPU, fold_kernel<Fold::Prod>);
  register_kernel<ReduceAttrs>("ReduceAll", Device::CPU, fold_kernel<Fold::All>);
  register_kernel<ReduceAttrs>("ReduceAny", Device::CPU, fold_kernel<Fold::Any>);
}

}  // namespace sprout
