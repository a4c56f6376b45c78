// CPU kernels of Argmax/Argmin, CumSum/CumProd and Cummax/Cummin. The input is seen as [outer, n, inner]
// with the walked axis in the middle; the loops step along n in the outer position so the innermost loop
// runs over `inner` contiguous elements (vectorizable), and outer blocks split across threads.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "base/parallel.h"
#include "kernels/cpu/simd.h"
#include "kernels/cpu/wrapping_arith.h"
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

// The same for float32 and float64 runs of at least kVectorArgRun: the extremum by a vector reduction
// (NaN propagating), then the first element equal to it, or the first NaN, a vector compared at a time.
// The scalar loop above waits on a compare and a branch per element: float32 along the last axis, two
// threads, Zen 4: (8, 128, 1024) 0.61 -> 0.095 ms, (4096, 1000) 1.07 -> 0.39 (NumPy, one thread: 0.08, 0.41).
constexpr int64_t kVectorArgRun = 32;

template <bool MAX, class T>
int64_t arg_run_vectorized(const T* x, int64_t n) {
  // A NaN extremum: the first NaN. +0 and -0 compare equal: the first zero, as arg_run finds. The
  // extremum is one of the elements, so it is found.
  const int64_t at = simd_index_of(x, n, simd_reduce(MAX ? ReduceOp::Max : ReduceOp::Min, x, n));
  SPROUT_ASSERT(at >= 0, "Argmax/Argmin: the extremum of a run is not among its elements");
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
                       if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
                         if (l.n >= kVectorArgRun) {
                           bi[0] = arg_run_vectorized<MAX>(block, l.n);
                           continue;
                         }
                       }
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

// Note [Scans along contiguous runs]
// A cumulative sum along contiguous runs (inner == 1, the last axis) is one dependent chain of adds per
// run: about four cycles an element, 3.6x slower than PyTorch on (512, 512) along axis 1. Runs are
// scanned kLockstep at a time instead, each with its own accumulator, so the chains overlap. Runs left
// over, or one long run (1-d), are cut into kLockstep chunks scanned the same way; a second pass then
// combines each chunk with the total of the chunks before it in scan order. The sums associate
// differently from a left-to-right loop: a rounding-level difference.
constexpr int kLockstep = 8;
constexpr int64_t kMinChunk = 64;  // shorter runs scan left to right

template <bool PRODUCT, class C>
C combine(C a, C b) {
  return PRODUCT ? wrap_mul(a, b) : wrap_add(a, b);  // integers wrap (kernels/cpu/wrapping_arith.h)
}

// Scans K runs of `len` steps in lockstep. Run r reads src[r] and writes dst[r] at position
// reverse ? len - 1 - step : step; acc[r] holds its running value, starting from what it holds.
template <bool PRODUCT, int K, class T, class C>
void scan_lockstep(const T* const (&src)[K], T* const (&dst)[K], int64_t len, bool reverse, bool exclusive,
                   C (&acc)[K]) {
  // Local copies: a store through dst could alias the caller's arrays, which would keep the chains in memory.
  C run[K];
  const T* in[K];
  T* out[K];
  for (int r = 0; r < K; ++r) {
    run[r] = acc[r];
    in[r] = src[r];
    out[r] = dst[r];
  }
  const int64_t first = reverse ? len - 1 : 0, dir = reverse ? -1 : 1;
  for (int64_t step = 0, j = first; step < len; ++step, j += dir) {
    for (int r = 0; r < K; ++r) {
      const C next = combine<PRODUCT>(run[r], static_cast<C>(in[r][j]));
      out[r][j] = static_cast<T>(exclusive ? run[r] : next);
      run[r] = next;
    }
  }
  for (int r = 0; r < K; ++r) acc[r] = run[r];
}

// One run of n elements, cut into kLockstep chunks of about n / kLockstep (the last one takes the rest).
template <bool PRODUCT, class T, class C>
void scan_run_chunked(const T* src, T* dst, int64_t n, bool reverse, bool exclusive) {
  // A chunk length of 16 modulo 64 elements: chunks a power of two apart (n = 2^18) put every
  // chain's loads and stores at the same offset within a 4 KiB page, and the CPU's store-to-load
  // address check, which compares only those 12 bits, serialized them (3x slower).
  int64_t chunk = n / kLockstep;
  chunk -= chunk % 64;
  if (chunk >= 64) chunk -= 48;
  // Chunk c covers scan steps [c * chunk, (c + 1) * chunk): memory [lo(c), lo(c) + chunk).
  auto lo = [&](int64_t c) { return reverse ? n - (c + 1) * chunk : c * chunk; };
  const T* srcs[kLockstep];
  T* dsts[kLockstep];
  C acc[kLockstep];
  for (int c = 0; c < kLockstep; ++c) {
    srcs[c] = src + lo(c);
    dsts[c] = dst + lo(c);
    acc[c] = PRODUCT ? C(1) : C(0);
  }
  scan_lockstep<PRODUCT>(srcs, dsts, chunk, reverse, exclusive, acc);
  // The last chunk's remaining steps, continuing its chain.
  for (int64_t step = kLockstep * chunk; step < n; ++step) {
    const int64_t j = reverse ? n - 1 - step : step;
    const C next = combine<PRODUCT>(acc[kLockstep - 1], static_cast<C>(src[j]));
    dst[j] = static_cast<T>(exclusive ? acc[kLockstep - 1] : next);
    acc[kLockstep - 1] = next;
  }
  C offset = acc[0];
  for (int c = 1; c < kLockstep; ++c) {
    const bool last = c == kLockstep - 1;
    const int64_t len = last ? n - (kLockstep - 1) * chunk : chunk;
    T* d = dst + (reverse ? (last ? 0 : lo(c)) : c * chunk);
    for (int64_t i = 0; i < len; ++i) d[i] = static_cast<T>(combine<PRODUCT>(offset, static_cast<C>(d[i])));
    offset = combine<PRODUCT>(offset, acc[c]);
  }
}

template <bool PRODUCT, class T, class C>
void scan_run(const T* src, T* dst, int64_t n, bool reverse, bool exclusive) {
  if (n >= kLockstep * kMinChunk) return scan_run_chunked<PRODUCT, T, C>(src, dst, n, reverse, exclusive);
  const T* s[1] = {src};
  T* d[1] = {dst};
  C acc[1] = {PRODUCT ? C(1) : C(0)};
  scan_lockstep<PRODUCT>(s, d, n, reverse, exclusive, acc);
}

// Contiguous runs (inner == 1): rows `begin` to `end` of n elements. Rows a multiple of 1 KiB long in
// lockstep would put at least two chains at each offset within a 4 KiB page (all eight at 4 KiB), which
// serializes them as in scan_run_chunked; long ones are scanned one at a time in chunks instead (float32
// (8, 128, 1024) along the last axis, two threads: 2.76 -> 0.31-0.41 ms; NumPy 3.5).
template <bool PRODUCT, class T, class C>
void scan_rows(const T* px, T* po, int64_t begin, int64_t end, int64_t n, bool reverse, bool exclusive) {
  int64_t o = begin;
  const bool rows_alias = n * static_cast<int64_t>(sizeof(T)) % 1024 == 0 && n >= kLockstep * kMinChunk;
  for (; !rows_alias && o + kLockstep <= end; o += kLockstep) {
    const T* srcs[kLockstep];
    T* dsts[kLockstep];
    C acc[kLockstep];
    for (int r = 0; r < kLockstep; ++r) {
      srcs[r] = px + (o + r) * n;
      dsts[r] = po + (o + r) * n;
      acc[r] = PRODUCT ? C(1) : C(0);
    }
    scan_lockstep<PRODUCT>(srcs, dsts, n, reverse, exclusive, acc);
  }
  for (; o < end; ++o) scan_run<PRODUCT, T, C>(px + o * n, po + o * n, n, reverse, exclusive);
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
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, l.n * l.inner));
    if (l.inner == 1) {  // Note [Scans along contiguous runs]
      parallel_for(l.outer, grain, [&](int64_t b, int64_t e) {
        scan_rows<PRODUCT, T, C>(px, po, b, e, l.n, a.reverse, a.exclusive);
      });
      return;
    }
    parallel_for(l.outer, grain, [&](int64_t b, int64_t e) {
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

// Whether v takes over as the running extreme from best: at least as good (ties move the index to the
// latest position), or NaN, which beats every number and stays.
template <bool MAX, class C>
bool takes_over(C v, C best) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(v)) return true;
    if (std::isnan(best)) return false;
  }
  return MAX ? v >= best : v <= best;
}

// Running extremes along the axis with their positions; tasks are (outer, block of inner columns), each
// column carried down the axis with its best value and index.
template <bool MAX>
void cum_extreme_kernel(const CumExtremeAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor x = in[0].contiguous();
  const AxisLayout l = layout(x, a.axis);
  constexpr int64_t kColumns = 256;
  const int64_t blocks = (l.inner + kColumns - 1) / kColumns;
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = std::conditional_t<std::is_same_v<T, bool>, uint8_t, compute_t<T>>;
    const T* px = x.template data<T>();
    T* py = out[0].template data<T>();
    auto run = [&](auto* pi) {
      using I = std::remove_pointer_t<decltype(pi)>;
      const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, l.n * std::min(l.inner, kColumns)));
      parallel_for(l.outer * blocks, grain, [&](int64_t begin, int64_t end) {
        C best[kColumns];
        I where[kColumns];
        for (int64_t task = begin; task < end; ++task) {
          const int64_t o = task / blocks, c0 = task % blocks * kColumns, w = std::min(kColumns, l.inner - c0);
          for (int64_t j = 0; j < l.n; ++j) {
            const int64_t at = (o * l.n + j) * l.inner + c0;
            for (int64_t c = 0; c < w; ++c) {
              const C v = static_cast<C>(px[at + c]);
              if (j == 0 || takes_over<MAX>(v, best[c])) {
                best[c] = v;
                where[c] = static_cast<I>(j);
              }
              py[at + c] = static_cast<T>(best[c]);
              pi[at + c] = where[c];
            }
          }
        }
      });
    };
    if (out[1].dtype() == DType::Int64) run(out[1].template data<int64_t>());
    else run(out[1].template data<int32_t>());
  });
}

}  // namespace

SPROUT_REGISTER(cpu_array_scan) {
  register_kernel<ArgAttrs>("Argmax", Device::CPU, arg_kernel<true>);
  register_kernel<ArgAttrs>("Argmin", Device::CPU, arg_kernel<false>);
  register_kernel<CumAttrs>("CumSum", Device::CPU, cum_kernel<false>);
  register_kernel<CumAttrs>("CumProd", Device::CPU, cum_kernel<true>);
  register_kernel<CumExtremeAttrs>("Cummax", Device::CPU, cum_extreme_kernel<true>);
  register_kernel<CumExtremeAttrs>("Cummin", Device::CPU, cum_extreme_kernel<false>);
}

}  // namespace sprout
