// Highway implementation of nn_norm_simd.h (Note [Highway dynamic dispatch] in simd.cc). BatchNorm's
// sums widen a vector of floats at a time to doubles; the last n % lanes go through the scalar formula.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_norm_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/cache_control.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels/cpu/nn_norm_simd.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

const hn::ScalableTag<double> dd;
const hn::Rebind<float, decltype(dd)> df;  // as many floats as dd has doubles
using VD = hn::Vec<decltype(dd)>;

VD widen(const float* p) { return hn::PromoteTo(dd, hn::LoadU(df, p)); }

double total(const VD (&acc)[4]) {
  return hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(acc[0], acc[1]), hn::Add(acc[2], acc[3]))));
}

}  // namespace

// Note [BatchNorm channel sums]
// A channel of an NCHW tensor is N runs of H*W floats, one per image, C*H*W apart. Its sums are taken
// over all runs in the same vector accumulators, reduced across lanes once per channel: with ResNet's
// 4x4 and 8x8 planes, a horizontal reduction per run (as when each run was summed on its own) cost more
// than the loads (32x512x4x4 forward 394 us, against 25 for a ReLU over the same tensor). A run's last
// plane % lanes floats go through scalar sums.

// Calls step(k, at) for every whole vector of the runs, tail(at) for every float past them. k picks one of
// four accumulators, each an independent add chain: four in turn along a run, and where a run holds
// fewer vectors, 0 and 1 on even runs and 2 and 3 on odd ones. k is a constant at every call, so the
// accumulators stay in registers (chosen at run time, they lived on the stack: a store and a load per
// add).
template <class Step, class Tail>
HWY_INLINE void for_each_vector(int64_t plane, int64_t runs, int64_t stride, Step step, Tail tail) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(dd));
  const int64_t whole = plane / lanes * lanes;
  auto run = [&](auto first, int64_t base) {
    constexpr int k = decltype(first)::value;
    int64_t j = 0;
    for (; j + 4 * lanes <= whole; j += 4 * lanes) {
      step(0, base + j);
      step(1, base + j + lanes);
      step(2, base + j + 2 * lanes);
      step(3, base + j + 3 * lanes);
    }
    for (; j + 2 * lanes <= whole; j += 2 * lanes) {
      step(k, base + j);
      step(k + 1, base + j + lanes);
    }
    if (j < whole) step(k, base + j);
    for (j = whole; j < plane; ++j) tail(base + j);
  };
  int64_t r = 0;
  for (; r + 2 <= runs; r += 2) {
    run(std::integral_constant<int, 0>{}, r * stride);
    run(std::integral_constant<int, 2>{}, (r + 1) * stride);
  }
  if (r < runs) run(std::integral_constant<int, 0>{}, r * stride);
}

void ChannelMoments(const float* x, int64_t plane, int64_t runs, int64_t stride, double shift, double* sum,
                    double* sum_sq) {
  const VD k0 = hn::Set(dd, shift);
  VD s[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  VD q[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  double s_tail = 0, q_tail = 0;
  for_each_vector(
      plane, runs, stride,
      [&](int k, int64_t at) {
        const VD d = hn::Sub(widen(x + at), k0);
        s[k] = hn::Add(s[k], d);
        q[k] = hn::MulAdd(d, d, q[k]);
      },
      [&](int64_t at) {
        const double d = x[at] - shift;
        s_tail += d;
        q_tail += d * d;
      });
  *sum = total(s) + s_tail;
  *sum_sq = total(q) + q_tail;
}

void ChannelGradSums(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                     double* sum_dy, double* sum_dy_dev) {
  const VD m = hn::Set(dd, mu);
  VD dys[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  VD devs[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  double dy_tail = 0, dev_tail = 0;
  for_each_vector(
      plane, runs, stride,
      [&](int k, int64_t at) {
        const VD g = widen(dy + at);
        dys[k] = hn::Add(dys[k], g);
        devs[k] = hn::MulAdd(g, hn::Sub(widen(x + at), m), devs[k]);
      },
      [&](int64_t at) {
        dy_tail += dy[at];
        dev_tail += static_cast<double>(dy[at]) * (x[at] - mu);
      });
  *sum_dy = total(dys) + dy_tail;
  *sum_dy_dev = total(devs) + dev_tail;
}

// y = (x - mu) * gain + beta over one channel's runs. (nn_norm_batch.cc is built for the baseline
// instruction set: its own loop moved 4 floats at a time.)
void ChannelAffine(const float* x, int64_t plane, int64_t runs, int64_t stride, float mu, float gain, float beta,
                   float* y) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto m = hn::Set(d, mu), g = hn::Set(d, gain), b = hn::Set(d, beta);
  for (int64_t r = 0; r < runs; ++r) {
    const float* xr = x + r * stride;
    float* yr = y + r * stride;
    int64_t j = 0;
    for (; j + lanes <= plane; j += lanes) hn::StoreU(hn::MulAdd(hn::Sub(hn::LoadU(d, xr + j), m), g, b), d, yr + j);
    for (; j < plane; ++j) yr[j] = (xr[j] - mu) * gain + beta;
  }
}

// dx = gain * (dy - c_dy - (x - mu) * c_xhat) over one channel's runs.
void ChannelGradApply(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, float mu, float gain,
                      float c_dy, float c_xhat, float* dx) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto m = hn::Set(d, mu), g = hn::Set(d, gain), cd = hn::Set(d, c_dy), cx = hn::Set(d, c_xhat);
  for (int64_t r = 0; r < runs; ++r) {
    const int64_t at = r * stride;
    int64_t j = 0;
    for (; j + lanes <= plane; j += lanes) {
      const auto dev = hn::Sub(hn::LoadU(d, x + at + j), m);
      const auto centered = hn::NegMulAdd(dev, cx, hn::Sub(hn::LoadU(d, dy + at + j), cd));
      hn::StoreU(hn::Mul(g, centered), d, dx + at + j);
    }
    for (; j < plane; ++j) dx[at + j] = gain * (dy[at + j] - c_dy - (x[at + j] - mu) * c_xhat);
  }
}

// dx = a * dy - u * (x - mu) - v (GroupNorm's backward, per channel of a group).
void ChannelGradCombine(const float* dy, const float* x, int64_t n, float mu, float a, float u, float v, float* dx) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto m = hn::Set(d, mu), va = hn::Set(d, a), vu = hn::Set(d, u), vv = hn::Set(d, v);
  int64_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    const auto dev = hn::Sub(hn::LoadU(d, x + j), m);
    hn::StoreU(hn::MulSub(va, hn::LoadU(d, dy + j), hn::MulAdd(vu, dev, vv)), d, dx + j);
  }
  for (; j < n; ++j) dx[j] = a * dy[j] - u * (x[j] - mu) - v;
}

// Note [LayerNorm rows]
// A row is normalized in three passes while it sits in L1 (a 1024-float row is 4 KiB): its sum, its
// sum of squared deviations from the mean (two passes, not sum and sum of squares, which cancel
// catastrophically when the mean is large next to the spread), then y. Only the first pass reads
// memory. Writing a row's y right after its statistics made the memory traffic come in bursts, all
// loads then all stores; instead y of row r - 1 is written in the same loop that loads row r for its
// sum, so loads and stores interleave as in an elementwise op. Sums are float32 in four vector
// accumulators within blocks of kSumBlock elements and double across blocks (a cascade: the rounding
// error grows with the block, not the row). Measured against oneDNN's layer_normalization_forward,
// which this replaces, alternating builds, two threads, 1024 floats per row: 256 rows 31 -> 27 us,
// 4096 rows (16 MiB, past the L3) 830-1000 -> 700-760 us; one row at a time, as oneDNN does, was no
// faster than oneDNN. At transformer sizes: (1024, 256) 40 -> 29 us, (4096, 256) 138 -> 103 us.
// Past the last-level cache y goes around it (Note [Streaming stores]; rows of whole aligned vectors):
// no read of y's lines before writing them. (8192, 1024), two threads: 1.64-1.92 -> 1.31-1.42 ms; the
// harness's (4096, 1024), started from DRAM: 41 -> 50-52 GB/s.
namespace {

constexpr int64_t kSumBlock = 4096;
// Rows per block of LayerNorm's parameter gradients (Note [LayerNorm gradient rows]).
constexpr int64_t kGradBlockRows = 16;
const hn::ScalableTag<float> d32;
using V32 = hn::Vec<decltype(d32)>;

// sum over [0, n) of term(i), where term(i) gives the vector of elements i .. i + lanes and
// scalar(i) one element: float32 vector sums per block, double across blocks.
template <class VecTerm, class ScalarTerm>
HWY_INLINE double cascade_sum(int64_t n, VecTerm term, ScalarTerm scalar) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d32));
  double total = 0;
  int64_t i = 0;
  while (i + lanes <= n) {
    const int64_t block_end = std::min(n, i + kSumBlock);
    V32 acc[4] = {hn::Zero(d32), hn::Zero(d32), hn::Zero(d32), hn::Zero(d32)};
    for (; i + 4 * lanes <= block_end; i += 4 * lanes) {
      acc[0] = hn::Add(acc[0], term(i));
      acc[1] = hn::Add(acc[1], term(i + lanes));
      acc[2] = hn::Add(acc[2], term(i + 2 * lanes));
      acc[3] = hn::Add(acc[3], term(i + 3 * lanes));
    }
    for (; i + lanes <= block_end; i += lanes) acc[0] = hn::Add(acc[0], term(i));
    total += hn::GetLane(hn::SumOfLanes(d32, hn::Add(hn::Add(acc[0], acc[1]), hn::Add(acc[2], acc[3]))));
  }
  for (; i < n; ++i) total += scalar(i);
  return total;
}

// Writes one row's outputs, its mean and rstd known: y = (x - mean) * rstd [* gamma + beta]. kStream:
// with streaming stores (Note [Streaming stores]), y's rows whole vectors at aligned addresses.
template <bool kAffine, bool kStream>
struct RowWriter {
  const float *x, *gamma, *beta;
  float* y;
  float mean, rstd;

  HWY_INLINE void vector_at(int64_t i) const {
    const V32 dev = hn::Sub(hn::LoadU(d32, x + i), hn::Set(d32, mean));
    V32 out;
    if constexpr (kAffine) {
      const V32 scale = hn::Mul(hn::Set(d32, rstd), hn::LoadU(d32, gamma + i));
      out = hn::MulAdd(dev, scale, hn::LoadU(d32, beta + i));
    } else {
      out = hn::Mul(dev, hn::Set(d32, rstd));
    }
    if constexpr (kStream) hn::Stream(out, d32, y + i);
    else hn::StoreU(out, d32, y + i);
  }
  HWY_INLINE void element_at(int64_t i) const {
    if constexpr (kAffine) y[i] = (x[i] - mean) * (rstd * gamma[i]) + beta[i];
    else y[i] = (x[i] - mean) * rstd;
  }
};

// Has `writer` write a whole row of n elements.
template <class Writer>
void write_row(const Writer& writer, int64_t n) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d32));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) writer.vector_at(i);
  for (; i < n; ++i) writer.element_at(i);
}

struct NoWriter {
  HWY_INLINE void vector_at(int64_t) const {}
  HWY_INLINE void element_at(int64_t) const {}
};

// The mean and rstd of row x. The pass that streams x in for its sum also has `prev` write the
// previous row's outputs at the same offsets, so that loads of one row and stores of the other
// interleave as in an elementwise op.
template <class Writer>
HWY_INLINE void row_stats(const float* x, int64_t n, double epsilon, const Writer& prev, float* mean_out,
                          float* rstd_out) {
  const double sum = cascade_sum(
      n,
      [&](int64_t i) {
        prev.vector_at(i);
        return hn::LoadU(d32, x + i);
      },
      [&](int64_t i) {
        prev.element_at(i);
        return static_cast<double>(x[i]);
      });
  const float mean = static_cast<float>(sum / static_cast<double>(n));
  const V32 m = hn::Set(d32, mean);
  const double sq = cascade_sum(
      n,
      [&](int64_t i) {
        const V32 dev = hn::Sub(hn::LoadU(d32, x + i), m);
        return hn::Mul(dev, dev);
      },
      [&](int64_t i) {
        const double dev = static_cast<double>(x[i]) - mean;
        return dev * dev;
      });
  *mean_out = mean;
  *rstd_out = static_cast<float>(1.0 / std::sqrt(sq / static_cast<double>(n) + epsilon));
}

template <bool kAffine, bool kStream>
void layer_norm_rows(const float* x, int64_t rows, int64_t n, const float* gamma, const float* beta,
                     double epsilon, float* y, float* mean, float* rstd) {
  auto writer = [&](int64_t r) {
    return RowWriter<kAffine, kStream>{x + r * n, gamma, beta, y + r * n, mean[r], rstd[r]};
  };
  row_stats(x, n, epsilon, NoWriter{}, &mean[0], &rstd[0]);
  for (int64_t r = 1; r < rows; ++r) row_stats(x + r * n, n, epsilon, writer(r - 1), &mean[r], &rstd[r]);
  write_row(writer(rows - 1), n);
  if constexpr (kStream) hwy::FlushStream();
}

}  // namespace

void LayerNormRows(const float* x, int64_t rows, int64_t n, const float* gamma, const float* beta, double epsilon,
                   float* y, float* mean, float* rstd, Stores stores) {
  if (rows <= 0) return;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d32));
  const bool aligned_rows = n % lanes == 0 && reinterpret_cast<uintptr_t>(y) % (lanes * sizeof(float)) == 0;
  if (stores == Stores::Streaming && aligned_rows) {
    if (gamma) return layer_norm_rows<true, true>(x, rows, n, gamma, beta, epsilon, y, mean, rstd);
    return layer_norm_rows<false, true>(x, rows, n, gamma, beta, epsilon, y, mean, rstd);
  }
  if (gamma) layer_norm_rows<true, false>(x, rows, n, gamma, beta, epsilon, y, mean, rstd);
  else layer_norm_rows<false, false>(x, rows, n, gamma, beta, epsilon, y, mean, rstd);
}

namespace {

// Note [LayerNorm gradient rows]
// The gradient of a row (Note [LayerNorm gradients]) takes two passes: the first reads x and dy for
// the row sums of g = dy * gamma and g * xhat, the second writes dx from the same x and dy, now in L1.
// dgamma and dbeta (sums over rows of dy * xhat and dy) are taken once per block of kGradBlockRows rows,
// columns outward, rows inward, four vectors of columns at a time in registers: adding each row into
// this thread's partials in memory made every row's pass load and store them, and on the Intel host
// those read-modify-writes cost more than the rest (2048 x 256: 300 -> ~110 us). As in the forward kernel
// (Note [LayerNorm rows]), dx of row r - 1 is written in the loop that reads row r, and the sums keep
// two vector accumulators each, float32 within a block and double across blocks. Against the previous
// `omp simd` loops (one accumulator per sum), alternating builds, two threads: (1024, 256) 78 -> 30 us,
// (4096, 256) 303 -> 109 us, (3136, 384) 325 -> 150 us. The pass is bound by its three stores per
// vector (dx, and the dgamma and dbeta partials).
template <class Writer>
HWY_INLINE void grad_row_sums(const float* x, const float* dy, const float* gamma, int64_t n, float mean,
                              float rstd, const Writer& prev, double* sum_g, double* sum_gx) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d32));
  const V32 m = hn::Set(d32, mean), rs = hn::Set(d32, rstd);
  auto step = [&](int64_t i, V32& acc_g, V32& acc_gx) {
    prev.vector_at(i);
    const V32 d = hn::LoadU(d32, dy + i);
    const V32 xhat = hn::Mul(hn::Sub(hn::LoadU(d32, x + i), m), rs);
    const V32 g = hn::Mul(d, hn::LoadU(d32, gamma + i));
    acc_g = hn::Add(acc_g, g);
    acc_gx = hn::MulAdd(g, xhat, acc_gx);
  };
  double total_g = 0, total_gx = 0;
  int64_t i = 0;
  while (i + lanes <= n) {
    const int64_t block_end = std::min(n, i + kSumBlock);
    V32 acc_g[2] = {hn::Zero(d32), hn::Zero(d32)}, acc_gx[2] = {hn::Zero(d32), hn::Zero(d32)};
    for (; i + 2 * lanes <= block_end; i += 2 * lanes) {
      step(i, acc_g[0], acc_gx[0]);
      step(i + lanes, acc_g[1], acc_gx[1]);
    }
    for (; i + lanes <= block_end; i += lanes) step(i, acc_g[0], acc_gx[0]);
    total_g += hn::GetLane(hn::SumOfLanes(d32, hn::Add(acc_g[0], acc_g[1])));
    total_gx += hn::GetLane(hn::SumOfLanes(d32, hn::Add(acc_gx[0], acc_gx[1])));
  }
  for (; i < n; ++i) {
    prev.element_at(i);
    const float xhat = (x[i] - mean) * rstd, g = dy[i] * gamma[i];
    total_g += g;
    total_gx += static_cast<double>(g) * xhat;
  }
  *sum_g = total_g;
  *sum_gx = total_gx;
}

// Writes dx of one row: rstd * (g - mean(g) - xhat * mean(g * xhat)).
struct GradWriter {
  const float *x, *dy, *gamma;
  float* dx;
  float mean, rstd, mean_g, mean_gx;

  HWY_INLINE void vector_at(int64_t i) const {
    const V32 rs = hn::Set(d32, rstd);
    const V32 xhat = hn::Mul(hn::Sub(hn::LoadU(d32, x + i), hn::Set(d32, mean)), rs);
    const V32 g = hn::Mul(hn::LoadU(d32, dy + i), hn::LoadU(d32, gamma + i));
    const V32 centered = hn::NegMulAdd(xhat, hn::Set(d32, mean_gx), hn::Sub(g, hn::Set(d32, mean_g)));
    hn::StoreU(hn::Mul(rs, centered), d32, dx + i);
  }
  HWY_INLINE void element_at(int64_t i) const {
    dx[i] = rstd * (dy[i] * gamma[i] - mean_g - (x[i] - mean) * rstd * mean_gx);
  }
};

}  // namespace

// Adds sum over the rows of dy * xhat to dgamma and of dy to dbeta, for `rows` rows of n from x and dy.
void add_param_grads(const float* x, const float* dy, int64_t rows, int64_t n, const float* mean, const float* rstd,
                     float* dgamma, float* dbeta) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d32));
  int64_t c = 0;
  for (; c + 4 * lanes <= n; c += 4 * lanes) {
    V32 acc_g[4], acc_b[4];
    for (int v = 0; v < 4; ++v) acc_g[v] = hn::LoadU(d32, dgamma + c + v * lanes), acc_b[v] = hn::LoadU(d32, dbeta + c + v * lanes);
    for (int64_t r = 0; r < rows; ++r) {
      const V32 m = hn::Set(d32, mean[r]), rs = hn::Set(d32, rstd[r]);
      for (int v = 0; v < 4; ++v) {
        const V32 d = hn::LoadU(d32, dy + r * n + c + v * lanes);
        acc_g[v] = hn::MulAdd(d, hn::Mul(hn::Sub(hn::LoadU(d32, x + r * n + c + v * lanes), m), rs), acc_g[v]);
        acc_b[v] = hn::Add(acc_b[v], d);
      }
    }
    for (int v = 0; v < 4; ++v) hn::StoreU(acc_g[v], d32, dgamma + c + v * lanes), hn::StoreU(acc_b[v], d32, dbeta + c + v * lanes);
  }
  for (; c < n; ++c) {  // the last columns one at a time
    float g = dgamma[c], b = dbeta[c];
    for (int64_t r = 0; r < rows; ++r) {
      g += dy[r * n + c] * ((x[r * n + c] - mean[r]) * rstd[r]);
      b += dy[r * n + c];
    }
    dgamma[c] = g, dbeta[c] = b;
  }
}

void LayerNormGradRows(const float* x, const float* dy, int64_t rows, int64_t n, const float* mean,
                       const float* rstd, const float* gamma, float* dx, float* dgamma, float* dbeta) {
  if (rows <= 0) return;
  double sum_g = 0, sum_gx = 0;
  auto writer = [&](int64_t r) {
    const float inv_n = 1.0f / static_cast<float>(n);
    return GradWriter{x + r * n, dy + r * n, gamma, dx + r * n, mean[r], rstd[r],
                      static_cast<float>(sum_g) * inv_n, static_cast<float>(sum_gx) * inv_n};
  };
  grad_row_sums(x, dy, gamma, n, mean[0], rstd[0], NoWriter{}, &sum_g, &sum_gx);
  for (int64_t r = 1; r < rows; ++r) {
    const GradWriter prev = writer(r - 1);
    grad_row_sums(x + r * n, dy + r * n, gamma, n, mean[r], rstd[r], prev, &sum_g, &sum_gx);
    if (r % kGradBlockRows == 0)  // the block just read, still in cache
      add_param_grads(x + (r - kGradBlockRows) * n, dy + (r - kGradBlockRows) * n, kGradBlockRows, n,
                      mean + r - kGradBlockRows, rstd + r - kGradBlockRows, dgamma, dbeta);
  }
  write_row(writer(rows - 1), n);
  const int64_t done = (rows - 1) / kGradBlockRows * kGradBlockRows;
  add_param_grads(x + done * n, dy + done * n, rows - done, n, mean + done, rstd + done, dgamma, dbeta);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(ChannelMoments);
HWY_EXPORT(ChannelGradSums);
HWY_EXPORT(ChannelAffine);
HWY_EXPORT(ChannelGradApply);
HWY_EXPORT(ChannelGradCombine);
HWY_EXPORT(LayerNormRows);
HWY_EXPORT(LayerNormGradRows);

void simd_channel_moments(const float* x, int64_t plane, int64_t runs, int64_t stride, double shift, double* sum,
                          double* sum_sq) {
  HWY_DYNAMIC_DISPATCH(ChannelMoments)(x, plane, runs, stride, shift, sum, sum_sq);
}
void simd_channel_grad_sums(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, double mu,
                            double* sum_dy, double* sum_dy_dev) {
  HWY_DYNAMIC_DISPATCH(ChannelGradSums)(dy, x, plane, runs, stride, mu, sum_dy, sum_dy_dev);
}
void simd_channel_affine(const float* x, int64_t plane, int64_t runs, int64_t stride, float mu, float gain, float beta,
                         float* y) {
  HWY_DYNAMIC_DISPATCH(ChannelAffine)(x, plane, runs, stride, mu, gain, beta, y);
}
void simd_channel_grad_apply(const float* dy, const float* x, int64_t plane, int64_t runs, int64_t stride, float mu,
                             float gain, float c_dy, float c_xhat, float* dx) {
  HWY_DYNAMIC_DISPATCH(ChannelGradApply)(dy, x, plane, runs, stride, mu, gain, c_dy, c_xhat, dx);
}
void simd_channel_grad_combine(const float* dy, const float* x, int64_t n, float mu, float a, float u, float v,
                               float* dx) {
  HWY_DYNAMIC_DISPATCH(ChannelGradCombine)(dy, x, n, mu, a, u, v, dx);
}
void simd_layer_norm_rows(const float* x, int64_t rows, int64_t n, const float* gamma, const float* beta,
                          double epsilon, float* y, float* mean, float* rstd, Stores stores) {
  HWY_DYNAMIC_DISPATCH(LayerNormRows)(x, rows, n, gamma, beta, epsilon, y, mean, rstd, stores);
}
void simd_layer_norm_grad_rows(const float* x, const float* dy, int64_t rows, int64_t n, const float* mean,
                               const float* rstd, const float* gamma, float* dx, float* dgamma, float* dbeta) {
  HWY_DYNAMIC_DISPATCH(LayerNormGradRows)(x, dy, rows, n, mean, rstd, gamma, dx, dgamma, dbeta);
}
}  // namespace sprout
#endif
