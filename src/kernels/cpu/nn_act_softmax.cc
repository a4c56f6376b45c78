// CPU kernels of Softmax and LogSoftmax. The input is viewed as [outer, n, inner] around the axis.
//   inner == 1 (the last axis, the common case): each row is max -> exp(x - max) with its sum in one
//     pass (which also takes the next row's max: Note [Softmax rows pipelined]) -> scale (or subtract
//     the log-sum-exp), all SIMD; rows split across threads. Rows shorter
//     than kShortRow are done many at a time (one SIMD exp per block of rows): 5x faster at n = 10.
//   inner > 1: rows of `inner` contiguous values are combined columnwise (running max, then exp and
//     running sum), so memory is never walked with stride `inner` in an inner loop; work splits
//     across threads by (outer, column block).
// Float16/BFloat16 rows are widened a block at a time (half_rows_in_float); other half and strided
// inputs are first converted to a contiguous float copy.
// SoftmaxGrad and LogSoftmaxGrad take the same layouts: each row's (or column block's) sum, then one
// pass writing dx, the row still in L1.
#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/cpu/nn_act_common.h"
#include "kernels/cpu/nn_act_simd.h"
#include "base/parallel.h"
#include "kernels/cpu/simd.h"
#include "ops/nn_act.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Rows shorter than this go through softmax_short_rows: per-row SIMD calls would cost more in
// dispatch and tail handling than the row's arithmetic.
constexpr int64_t kShortRow = 64;

template <bool LOG, class C>
void softmax_long_rows(const C* x, C* out, int64_t rows, int64_t n) {
  parallel_for(rows, std::max<int64_t>(1, kParallelGrain / 8 / n), [&](int64_t b, int64_t e) {
    // The first row's max on its own, every later one in the exp loop of the row before it (Note
    // [Softmax rows pipelined]).
    C max = simd_reduce(ReduceOp::Max, x + b * n, n);
    for (int64_t r = b; r < e; ++r) {
      const C* xr = x + r * n;
      C* orow = out + r * n;
      const C* next = r + 1 < e ? xr + n : nullptr;
      C next_max = 0;
      if constexpr (LOG) {
        const C lse = max + std::log(simd_exp_shifted_sum(xr, max, static_cast<C*>(nullptr), n, next, &next_max));
        simd_binary(BinaryOp::Sub, xr, 1, &lse, 0, orow, n);
      } else {
        const C inv = C(1) / simd_exp_shifted_sum(xr, max, orow, n, next, &next_max);
        simd_binary(BinaryOp::Mul, orow, 1, &inv, 0, orow, n);
      }
      max = next_max;
    }
  });
}

// Short rows, many at a time: x - max(row) with scalar loops, one SIMD exp over the whole block,
// then each row's sum and scaling.
template <bool LOG, class C>
void softmax_short_rows(const C* x, C* out, int64_t rows, int64_t n) {
  const int64_t block_rows = std::max<int64_t>(1, 2048 / n);
  const int64_t blocks = (rows + block_rows - 1) / block_rows;
  parallel_for(blocks, std::max<int64_t>(1, kParallelGrain / 8 / (block_rows * n)), [&](int64_t b, int64_t e) {
    C shifted[2048 + kShortRow];
    for (int64_t blk = b; blk < e; ++blk) {
      const int64_t r0 = blk * block_rows, r1 = std::min(rows, r0 + block_rows);
      const C* xb = x + r0 * n;
      C* ob = out + r0 * n;
      for (int64_t r = 0; r < r1 - r0; ++r) {
        const C* xr = xb + r * n;
        C max = xr[0];
        for (int64_t c = 1; c < n; ++c) max = xr[c] > max || std::isnan(xr[c]) ? xr[c] : max;
        for (int64_t c = 0; c < n; ++c) shifted[r * n + c] = xr[c] - max;
      }
      const int64_t count = (r1 - r0) * n;
      simd_exp_shifted_sum(shifted, C(0), ob, count);  // ob = exp(shifted)
      for (int64_t r = 0; r < r1 - r0; ++r) {
        C* orow = ob + r * n;
        C sum = 0;
        for (int64_t c = 0; c < n; ++c) sum += orow[c];
        if constexpr (LOG) {
          const C log_sum = std::log(sum);
          for (int64_t c = 0; c < n; ++c) orow[c] = shifted[r * n + c] - log_sum;
        } else {
          const C inv = C(1) / sum;
          for (int64_t c = 0; c < n; ++c) orow[c] *= inv;
        }
      }
    }
  });
}

template <bool LOG, class C>
void softmax_rows(const C* x, C* out, int64_t rows, int64_t n) {
  if (n < kShortRow) softmax_short_rows<LOG>(x, out, rows, n);
  else softmax_long_rows<LOG>(x, out, rows, n);
}

template <bool LOG, class C>
void softmax_columns(const C* x, C* out, int64_t outer, int64_t n, int64_t inner) {
  constexpr int64_t kCols = 512;  // one block's running max and sum stay in L1
  const int64_t blocks = (inner + kCols - 1) / kCols;
  parallel_for(outer * blocks, std::max<int64_t>(1, kParallelGrain / 8 / std::max<int64_t>(n * kCols, 1)),
               [&](int64_t b, int64_t e) {
    C max[kCols], sum[kCols], part[kCols], lse[kCols];
    for (int64_t task = b; task < e; ++task) {
      const int64_t o = task / blocks, c0 = task % blocks * kCols, w = std::min(kCols, inner - c0);
      const C* xs = x + o * n * inner + c0;
      C* os = out + o * n * inner + c0;
      simd_reduce_columns(ReduceOp::Max, xs, n, inner, max, w);
      // Sums run over blocks of 64 rows, then into the total: the rounding error grows with n / 64 + 64
      // additions instead of n (5x smaller at n = 5000 in float).
      std::fill(sum, sum + w, C(0));
      for (int64_t r0 = 0; r0 < n; r0 += 64) {
        std::fill(part, part + w, C(0));
        for (int64_t r = r0; r < std::min(n, r0 + 64); ++r)
          simd_exp_shifted_accumulate(xs + r * inner, max, os + r * inner, part, w);
        simd_binary(BinaryOp::Add, sum, 1, part, 1, sum, w);
      }
      if constexpr (LOG) {
        simd_unary(UnaryOp::Log, sum, lse, w);  // simd_unary must not run in place (it re-reads its input)
        simd_binary(BinaryOp::Add, max, 1, lse, 1, lse, w);
        for (int64_t r = 0; r < n; ++r) simd_binary(BinaryOp::Sub, xs + r * inner, 1, lse, 1, os + r * inner, w);
      } else {
        const C one = 1;
        simd_binary(BinaryOp::Div, &one, 0, sum, 1, sum, w);
        for (int64_t r = 0; r < n; ++r) simd_binary(BinaryOp::Mul, os + r * inner, 1, sum, 1, os + r * inner, w);
      }
    }
  });
}

// The shape as [outer, n, inner] around `axis` (negative counts from the end; a 0-d tensor is 1, 1, 1).
struct AxisSplit {
  int64_t outer = 1, n = 1, inner = 1;
};

AxisSplit split_at(const Shape& shape, int64_t axis) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  if (ndim > 0 && axis < 0) axis += ndim;
  AxisSplit s;
  for (int64_t d = 0; d < ndim; ++d) (d < axis ? s.outer : d == axis ? s.n : s.inner) *= shape[d];
  return s;
}

// Runs body(inputs, out) with the inputs as contiguous arrays of the compute type C (float for the half
// types) and `out` written straight into `o` when it already is that, converted into it otherwise.
template <size_t N, class Body>
void in_compute_type(const std::array<const Tensor*, N>& inputs, const Tensor& o, Body&& body) {
  if (o.numel() == 0) return;
  visit_dtype(o.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = act_compute_t<T>;
      constexpr DType kC = dtype_of<C>();
      std::array<Tensor, N> held;
      std::array<const C*, N> in;
      for (size_t k = 0; k < N; ++k) {
        held[k] = contiguous_as(*inputs[k], kC);
        in[k] = held[k].template data<C>();
      }
      Tensor oc = std::is_same_v<T, C> ? o : Tensor::empty(o.shape(), kC);
      body(in, oc.template data<C>());
      if (!oc.shares_storage(o)) convert_into(oc, o);
    } else {
      SPROUT_ASSERT(false, "softmax kernel on ", name(o.dtype()));
    }
  });
}

template <bool LOG>
void run_softmax(int64_t axis, const Tensor& x, const Tensor& o) {
  const AxisSplit s = split_at(x.shape(), axis);
  if (s.inner == 1 && x.dtype() != DType::Float32 && x.dtype() != DType::Float64 && o.is_contiguous()) {
    return half_rows_in_float(x.contiguous(), o, s.outer, s.n, [&](const float* in, float* out, int64_t, int64_t rows) {
      softmax_rows<LOG>(in, out, rows, s.n);
    });
  }
  in_compute_type<1>({&x}, o, [&](const auto& in, auto* out) {
    if (s.inner == 1) softmax_rows<LOG>(in[0], out, s.outer, s.n);
    else softmax_columns<LOG>(in[0], out, s.outer, s.n, s.inner);
  });
}

// dx from (y, dy) over rows of n: softmax (dy - sum(dy y)) y, a thread's rows in one vector call.
template <class C>
void softmax_grad_rows(const C* y, const C* dy, C* dx, int64_t rows, int64_t n) {
  parallel_for(rows, std::max<int64_t>(1, kParallelGrain / 8 / n), [&](int64_t b, int64_t e) {
    simd_softmax_grad_rows(y + b * n, dy + b * n, dx + b * n, e - b, n);
  });
}

// Log-softmax's: dy - exp(y) sum(dy), row by row.
template <class C>
void log_softmax_grad_rows(const C* y, const C* dy, C* dx, int64_t rows, int64_t n) {
  parallel_for(rows, std::max<int64_t>(1, kParallelGrain / 8 / n), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const C* yr = y + r * n;
      const C* dyr = dy + r * n;
      C* dxr = dx + r * n;
      if (n < kShortRow) {  // a few classes: per-row SIMD calls would cost more than the arithmetic
        C s = 0;
        for (int64_t c = 0; c < n; ++c) s += dyr[c];
        for (int64_t c = 0; c < n; ++c) dxr[c] = dyr[c] - std::exp(yr[c]) * s;
        continue;
      }
      // dx = dy - s exp(y) in one pass after the sum (three passes before: exp, scale, subtract).
      const C s = simd_reduce(ReduceOp::Sum, dyr, n);
      simd_scaled_exp_shifted(yr, C(0), -s, dyr, C(-1), dxr, n);
    }
  });
}

// The same over [outer, n, inner] with inner > 1: a block of columns' sums over the n rows, then dx row by row.
template <bool LOG, class C>
void softmax_grad_columns(const C* y, const C* dy, C* dx, int64_t outer, int64_t n, int64_t inner) {
  constexpr int64_t kCols = 512;
  const int64_t blocks = (inner + kCols - 1) / kCols;
  parallel_for(outer * blocks, std::max<int64_t>(1, kParallelGrain / 8 / std::max<int64_t>(n * kCols, 1)),
               [&](int64_t b, int64_t e) {
    C sum[kCols], term[kCols];
    for (int64_t task = b; task < e; ++task) {
      const int64_t o = task / blocks, c0 = task % blocks * kCols, w = std::min(kCols, inner - c0);
      const int64_t base = o * n * inner + c0;
      std::fill(sum, sum + w, C(0));
      for (int64_t r = 0; r < n; ++r) {
        const C* dyr = dy + base + r * inner;
        if constexpr (LOG) {
          simd_binary(BinaryOp::Add, sum, 1, dyr, 1, sum, w);
        } else {
          simd_binary(BinaryOp::Mul, dyr, 1, y + base + r * inner, 1, term, w);
          simd_binary(BinaryOp::Add, sum, 1, term, 1, sum, w);
        }
      }
      for (int64_t r = 0; r < n; ++r) {
        const C* yr = y + base + r * inner;
        const C* dyr = dy + base + r * inner;
        C* dxr = dx + base + r * inner;
        if constexpr (LOG) {
          simd_unary(UnaryOp::Exp, yr, term, w);
          simd_binary(BinaryOp::Mul, term, 1, sum, 1, term, w);
          simd_binary(BinaryOp::Sub, dyr, 1, term, 1, dxr, w);
        } else {
          simd_binary(BinaryOp::Sub, dyr, 1, sum, 1, term, w);
          simd_binary(BinaryOp::Mul, term, 1, yr, 1, dxr, w);
        }
      }
    }
  });
}

template <bool LOG>
void run_softmax_grad(int64_t axis, const Tensor& y, const Tensor& dy, const Tensor& dx) {
  const AxisSplit s = split_at(y.shape(), axis);
  in_compute_type<2>({&y, &dy}, dx, [&](const auto& in, auto* out) {
    if (s.inner > 1) return softmax_grad_columns<LOG>(in[0], in[1], out, s.outer, s.n, s.inner);
    if constexpr (LOG) log_softmax_grad_rows(in[0], in[1], out, s.outer, s.n);
    else softmax_grad_rows(in[0], in[1], out, s.outer, s.n);
  });
}

void softmax_kernel(const SoftmaxAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_softmax<false>(a.axis[0], in[0], out[0]);
}

void log_softmax_kernel(const LogSoftmaxAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  run_softmax<true>(a.axis, in[0], out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_nn_act_softmax) {
  register_kernel<SoftmaxAttrs>("Softmax", Device::CPU, softmax_kernel);
  register_kernel<LogSoftmaxAttrs>("LogSoftmax", Device::CPU, log_softmax_kernel);
  register_kernel<SoftmaxAttrs>("SoftmaxGrad", Device::CPU,
                                [](const SoftmaxAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
                                  run_softmax_grad<false>(a.axis[0], in[0], in[1], out[0]);
                                });
  register_kernel<LogSoftmaxAttrs>("LogSoftmaxGrad", Device::CPU,
                                   [](const LogSoftmaxAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
                                     run_softmax_grad<true>(a.axis, in[0], in[1], out[0]);
                                   });
}

}  // namespace sprout
