// Direct float32 convolution for convolutions with few channels (Note [Direct convolution]).
// Highway, compiled once per instruction set and dispatched at run time (Note [Highway dynamic dispatch]).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_conv_direct.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/aligned_vector.h"
#include "base/error.h"
#include "base/parallel.h"
#include "kernels/cpu/nn_conv_kernels.h"

// Pieces shared by every instruction set, compiled once.
#ifndef SPROUT_NN_CONV_DIRECT_SHARED
#define SPROUT_NN_CONV_DIRECT_SHARED
namespace sprout {
namespace {

// The largest vector (AVX-512: 16 floats); scratch planes are sized for it whatever the target.
constexpr int64_t kMaxLanes = 16;
// Forward: output columns per tile, in vectors (two vectors cover LeNet's 28-wide rows).
constexpr int64_t kTileVectors = 2;

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// One image's input planes copied into a scratch of `height` x `width` per channel with the source's
// top-left element at (top, left), zeros around it where the convolution's padding is. Output (y, x)
// reads rows y .. y + kh - 1 and columns x .. x + kw - 1: the zeros go only where valid outputs read
// (`used_h` x `used_w`); the rest of the scratch, read by tiles running past the last row or column,
// feeds only outputs that are never stored (or lanes masked off) and keeps whatever it held. Only rows
// [top, top + source_h) hold the source: the others add nothing to a stored output.
struct PaddedPlanes {
  int64_t channels, height, width, top, left, used_h, used_w, source_h;

  int64_t plane_size() const { return height * width; }

  int64_t image_size() const { return channels * plane_size(); }

  // One image's planes into planes[0 .. image_size()): rows [row_begin, row_end) of each.
  void fill(const float* src, int64_t src_w, float* planes, int64_t row_begin, int64_t row_end) const {
    const size_t row_bytes = static_cast<size_t>(used_w) * sizeof(float);
    for (int64_t c = 0; c < channels; ++c) {
      float* plane = planes + c * plane_size();
      for (int64_t y = row_begin; y < row_end; ++y) {
        float* row = plane + y * width;
        const int64_t sy = y - top;
        if (sy < 0 || sy >= source_h) {
          std::memset(row, 0, row_bytes);
          continue;
        }
        std::fill(row, row + left, 0.0f);
        std::memcpy(row + left, src + (c * source_h + sy) * src_w, static_cast<size_t>(src_w) * sizeof(float));
        std::fill(row + left + src_w, row + used_w, 0.0f);
      }
    }
  }
};

// A valid correlation of padded planes with a filter bank: out[o][y][x] = sum over c, ky, kx of
// plane[c][y + ky][x + kx] * filter(o, c, ky, kx); the filters packed as [c][ky][kx][o]. The forward
// loops compute output rows [row_begin, row_end) (a band of the image: all of it unless split).
struct Correlation {
  int64_t channels, outputs, kh, kw, out_h, out_w;
  int64_t row_begin = 0, row_end = out_h;
};

}  // namespace
}  // namespace sprout
#endif

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Stores the first `count` lanes of v at dst (count <= the vector's lanes).
template <class D, class V>
HWY_INLINE void store_first(D d, V v, int64_t count, float* dst) {
  if (count >= static_cast<int64_t>(hn::Lanes(d))) return hn::StoreU(v, d, dst);
#if !HWY_MEM_OPS_MIGHT_FAULT  // a true masked store (AVX-512)
  hn::BlendedStore(v, hn::FirstN(d, static_cast<size_t>(count)), d, dst);
#else  // through a buffer: an emulated masked store rewrites the lanes past the row, racing other threads
  HWY_ALIGN float part[hn::MaxLanes(d)];
  hn::Store(v, d, part);
  std::memcpy(dst, part, static_cast<size_t>(count) * sizeof(float));
#endif
}

// Rows of a tile: OB * R * V accumulators, at most 24 of AVX-512's 32 registers.
constexpr int tile_rows(int outputs, int vectors) { return std::max(1, 24 / (outputs * vectors)); }

// The band's output in tiles of R rows by V vectors of columns, all OB output channels at once:
// accumulate(acc, plane at the tile's top-left, the tile's first row) fills a tile's accumulators, which are
// then stored. Every loop over OB, R or V is unrolled completely (and the lambda forced inline): an
// accumulator array indexed by a variable anywhere makes GCC keep it on the stack, storing it every
// iteration.
#define SPROUT_INLINE_LAMBDA __attribute__((always_inline))
template <int OB, int V, class Accumulate>
HWY_INLINE void for_each_tile(const Correlation& p, const PaddedPlanes& planes, const float* plane, float* out,
                              Accumulate&& accumulate) {
  constexpr int R = tile_rows(OB, V);
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t out_h = p.out_h, out_w = p.out_w;
  for (int64_t x0 = 0; x0 < out_w; x0 += V * lanes) {
    for (int64_t y0 = p.row_begin; y0 < p.row_end; y0 += R) {
      hn::Vec<decltype(d)> acc[OB][R][V];
      HWY_UNROLL(32)
      for (int i = 0; i < OB * R * V; ++i) acc[i / (R * V)][i / V % R][i % V] = hn::Zero(d);
      accumulate(acc, plane + y0 * planes.width + x0, y0);
      HWY_UNROLL(32)
      for (int i = 0; i < OB * R * V; ++i) {
        const int ob = i / (R * V), r = i / V % R, v = i % V;
        const int64_t x = x0 + v * lanes;
        if (y0 + r < p.row_end && x < out_w)
          store_first(d, acc[ob][r][v], out_w - x, out + (ob * out_h + y0 + r) * out_w + x);
      }
    }
  }
}

// Each filter tap broadcast once per tile and multiplied into the tile's rows and output channels.
template <int OB, int V>
HWY_INLINE void correlate_image(const Correlation& p, const PaddedPlanes& planes, const float* plane,
                                const float* filters, float* out) {
  constexpr int R = tile_rows(OB, V);
  const hn::ScalableTag<float> d;
  using Vec = hn::Vec<decltype(d)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), kh = p.kh, kw = p.kw, width = planes.width;
  for_each_tile<OB, V>(p, planes, plane, out, [&](Vec (&acc)[OB][R][V], const float* tile, int64_t) SPROUT_INLINE_LAMBDA {
    for (int64_t c = 0; c < p.channels; ++c) {
      const float* base = tile + c * planes.plane_size();
      for (int64_t ky = 0; ky < kh; ++ky) {
        for (int64_t kx = 0; kx < kw; ++kx) {
          const float* f = filters + ((c * kh + ky) * kw + kx) * OB;
          Vec w[OB];
          HWY_UNROLL(32)
          for (int ob = 0; ob < OB; ++ob) w[ob] = hn::Set(d, f[ob]);
          HWY_UNROLL(32)
          for (int i = 0; i < R * V; ++i) {
            const int r = i / V, v = i % V;
            const Vec in = hn::LoadU(d, base + (r + ky) * width + kx + v * lanes);
            HWY_UNROLL(32)
            for (int ob = 0; ob < OB; ++ob) acc[ob][r][v] = hn::MulAdd(w[ob], in, acc[ob][r][v]);
          }
        }
      }
    }
  });
}

// The same tiles, looping over input rows instead of filter taps: each input vector loaded feeds every
// tile row its filter rows reach, KH a compile-time constant so that which rows those are is known to
// the compiler (no branch survives the unrolling). Rows of padding are skipped (one predictable branch
// per row): with backward data's k - 1 rows of it on both sides, LeNet's first layer does 22% fewer FMAs.
template <int OB, int V, int KH>
HWY_INLINE void correlate_image_reusing_rows(const Correlation& p, const PaddedPlanes& planes, const float* plane,
                                             const float* filters, float* out) {
  constexpr int R = tile_rows(OB, V);
  const hn::ScalableTag<float> d;
  using Vec = hn::Vec<decltype(d)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d)), kw = p.kw, width = planes.width;
  for_each_tile<OB, V>(p, planes, plane, out, [&](Vec (&acc)[OB][R][V], const float* tile, int64_t y0) SPROUT_INLINE_LAMBDA {
    const int64_t first_row = planes.top - y0, end_row = planes.top + planes.source_h - y0;  // the tile's source rows
    for (int64_t c = 0; c < p.channels; ++c) {
      const float* base = tile + c * planes.plane_size();
      const float* fc = filters + c * KH * kw * OB;
      for (int64_t kx = 0; kx < kw; ++kx) {
        Vec w[KH][OB];  // this column of taps, broadcast once
        HWY_UNROLL(32)
        for (int i = 0; i < KH * OB; ++i) w[i / OB][i % OB] = hn::Set(d, fc[((i / OB) * kw + kx) * OB + i % OB]);
        const float* row = base + kx;
        HWY_UNROLL(64)
        for (int i = 0; i < R + KH - 1; ++i, row += width) {
          if (i < first_row || i >= end_row) continue;
          Vec in[V];
          HWY_UNROLL(32)
          for (int v = 0; v < V; ++v) in[v] = hn::LoadU(d, row + v * lanes);
          HWY_UNROLL(64)
          for (int r = 0; r < R; ++r) {
            const int ky = i - r;
            if (ky < 0 || ky >= KH) continue;
            HWY_UNROLL(32)
            for (int ob = 0; ob < OB; ++ob) {
              HWY_UNROLL(32)
              for (int v = 0; v < V; ++v) acc[ob][r][v] = hn::MulAdd(w[ky][ob], in[v], acc[ob][r][v]);
            }
          }
        }
      }
    }
  });
}

// With one or two output channels a tap's broadcast feeds only OB * V FMAs per row loaded, and the
// loads (most of them split across two cache lines) bound the loop: there the rows are reused instead.
template <int OB, int V>
HWY_INLINE void correlate_tiles(const Correlation& p, const PaddedPlanes& planes, const float* plane,
                                const float* filters, float* out) {
  if constexpr (OB <= 2) {
    switch (p.kh) {
      case 1: return correlate_image_reusing_rows<OB, V, 1>(p, planes, plane, filters, out);
      case 2: return correlate_image_reusing_rows<OB, V, 2>(p, planes, plane, filters, out);
      case 3: return correlate_image_reusing_rows<OB, V, 3>(p, planes, plane, filters, out);
      case 4: return correlate_image_reusing_rows<OB, V, 4>(p, planes, plane, filters, out);
      case 5: return correlate_image_reusing_rows<OB, V, 5>(p, planes, plane, filters, out);
    }
  }
  correlate_image<OB, V>(p, planes, plane, filters, out);
}

template <int OB>
HWY_INLINE void correlate_image_width(const Correlation& p, const PaddedPlanes& planes, const float* plane,
                                      const float* filters, float* out) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>()));
  if (p.out_w <= lanes) return correlate_tiles<OB, 1>(p, planes, plane, filters, out);
  correlate_tiles<OB, kTileVectors>(p, planes, plane, filters, out);
}

void CorrelateImage(const Correlation& p, const PaddedPlanes& planes, const float* plane, const float* filters,
                    float* out) {
  switch (p.outputs) {
    case 1: return correlate_image_width<1>(p, planes, plane, filters, out);
    case 2: return correlate_image_width<2>(p, planes, plane, filters, out);
    case 3: return correlate_image_width<3>(p, planes, plane, filters, out);
    case 4: return correlate_image_width<4>(p, planes, plane, filters, out);
    case 5: return correlate_image_width<5>(p, planes, plane, filters, out);
    case 6: return correlate_image_width<6>(p, planes, plane, filters, out);
    case 7: return correlate_image_width<7>(p, planes, plane, filters, out);
    case 8: return correlate_image_width<8>(p, planes, plane, filters, out);
  }
}

// Filter gradients of a few images: sums[((o * channels + c) * kh + ky) * kw + kx] += sum over images,
// y, x of dy[o][y][x] * plane[c][y + ky][x + kx]. For each (c, ky) and block of OB output channels,
// OB x kw vector accumulators run over the images' rows; lanes past a row's end load as 0.
template <int OB, int KW>
HWY_INLINE void filter_sums_block(const Correlation& p, const PaddedPlanes& planes, int64_t images, const float* plane,
                                  const float* dy, int64_t o0, double* sums) {
  const hn::ScalableTag<float> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  using Vec = hn::Vec<decltype(d)>;
  // Locals, so the loops need not reload them after every store (the compiler cannot rule out aliasing).
  const int64_t out_h = p.out_h, out_w = p.out_w, dy_plane = p.out_h * p.out_w, width = planes.width;
  for (int64_t c = 0; c < p.channels; ++c) {
    for (int64_t ky = 0; ky < p.kh; ++ky) {
      Vec acc[OB][KW];
      HWY_UNROLL(32)
      for (int i = 0; i < OB * KW; ++i) acc[i / KW][i % KW] = hn::Zero(d);
      for (int64_t m = 0; m < images; ++m)
      for (int64_t y = 0; y < out_h; ++y) {
        const float* row = plane + (m * p.channels + c) * planes.plane_size() + (y + ky) * width;
        const float* grad = dy + (m * p.outputs + o0) * dy_plane + y * out_w;
        for (int64_t x = 0; x < out_w; x += lanes) {
          const auto valid = hn::FirstN(d, static_cast<size_t>(std::min(lanes, out_w - x)));
          Vec g[OB];
          HWY_UNROLL(32)
          for (int ob = 0; ob < OB; ++ob) g[ob] = hn::MaskedLoad(valid, d, grad + ob * dy_plane + x);
          HWY_UNROLL(32)
          for (int kx = 0; kx < KW; ++kx) {
            // Masked too: past the row's end, an inf in the input times dy's 0 would add a NaN.
            const Vec in = hn::MaskedLoad(valid, d, row + x + kx);
            HWY_UNROLL(32)
            for (int ob = 0; ob < OB; ++ob) acc[ob][kx] = hn::MulAdd(g[ob], in, acc[ob][kx]);
          }
        }
      }
      HWY_UNROLL(32)  // every index constant, so acc stays in registers (else GCC keeps it on the stack)
      for (int i = 0; i < OB * KW; ++i) {
        const int ob = i / KW, kx = i % KW;
        sums[(((o0 + ob) * p.channels + c) * p.kh + ky) * KW + kx] += hn::GetLane(hn::SumOfLanes(d, acc[ob][kx]));
      }
    }
  }
}

// Blocks of 4 output channels (4 x kw <= 20 accumulators, 4 dy vectors and one input vector), then the
// remaining 1-3.
template <int KW>
HWY_INLINE void filter_sums_images(const Correlation& p, const PaddedPlanes& planes, int64_t images, const float* plane,
                                   const float* dy, double* sums) {
  constexpr int64_t kBlock = 4;
  int64_t o0 = 0;
  for (; o0 + kBlock <= p.outputs; o0 += kBlock) filter_sums_block<kBlock, KW>(p, planes, images, plane, dy, o0, sums);
  switch (p.outputs - o0) {
    case 1: return filter_sums_block<1, KW>(p, planes, images, plane, dy, o0, sums);
    case 2: return filter_sums_block<2, KW>(p, planes, images, plane, dy, o0, sums);
    case 3: return filter_sums_block<3, KW>(p, planes, images, plane, dy, o0, sums);
  }
}

void FilterSumsImages(const Correlation& p, const PaddedPlanes& planes, int64_t images, const float* plane,
                      const float* dy, double* sums) {
  switch (p.kw) {
    case 1: return filter_sums_images<1>(p, planes, images, plane, dy, sums);
    case 2: return filter_sums_images<2>(p, planes, images, plane, dy, sums);
    case 3: return filter_sums_images<3>(p, planes, images, plane, dy, sums);
    case 4: return filter_sums_images<4>(p, planes, images, plane, dy, sums);
    case 5: return filter_sums_images<5>(p, planes, images, plane, dy, sums);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(CorrelateImage);
HWY_EXPORT(FilterSumsImages);

namespace {

// Note [Direct convolution]
// oneDNN blocks channels by 16 (nChw16c), so a convolution with one input channel (an image's first
// layer) or one whose backward data has few channels to produce spends most of its work on padding:
// LeNet's first layer, N=64 1x32x32 -> 6 k5, ran at 46 GFLOP/s forward and 55 backward-filter (20-23% of
// this machine's peak), and backward data through im2col + sgemm at 7. Here the convolution runs as
// loops over the output rows instead, vectorized along the row (x) with all output channels of a tile
// in registers (correlate_image; correlate_image_reusing_rows where one or two channels leave the loads
// as the limit). Backward data is the same correlation of dy, padded by k - 1 - pad, with the filters
// flipped and their channel axes swapped; backward filter accumulates dy times shifted input rows
// (filter_sums_block). Each image's input is first copied into zero-padded planes. Images are split
// across threads; filter gradients are summed per group of up to four images in double, then in
// order, so results do not depend on the thread count. Fewer images than threads split each image's
// rows into bands (forward and backward data; backward filter has one task per group). Now 160-167,
// 119 and 131-137 GFLOP/s on two threads (about 74%, 55%, 62% of peak; backward data was 96 before
// its rows of padding were skipped; nn_conv.cc has the comparison and which convolutions come here).

// Runs fn(i, scratch) for i in [0, tasks), split across threads, each thread with its own scratch.
template <class Fn>
void for_each_task(int64_t tasks, Fn&& fn) {
  parallel_for(tasks, 1, [&](int64_t begin, int64_t end) {
    thread_local AlignedVector<float> scratch;  // Note [Aligned scratch]
    for (int64_t i = begin; i < end; ++i) fn(i, scratch);
  });
}

// Tiles run up to 24 rows and kTileVectors vectors past the last output; each reads the filter's
// reach beyond.
PaddedPlanes padded_planes(const Correlation& p, int64_t source_h, int64_t top, int64_t left) {
  return {p.channels, p.out_h + 24 + p.kh - 1, round_up(p.out_w, kTileVectors * kMaxLanes) + p.kw - 1, top, left,
          p.out_h + p.kh - 1, p.out_w + p.kw - 1, source_h};
}

void correlate(const Correlation& p, const PaddedPlanes& planes, int64_t images, const float* src, int64_t src_w,
               const float* filters, float* out) {
  SPROUT_ASSERT(p.outputs >= 1 && p.outputs <= kMaxDirectOutputs, "direct convolution producing ", p.outputs,
                " channels");
  // Fewer images than threads: each image's rows in bands, one task per band (a band needs its rows
  // of the planes and kh - 1 more). Each output is the same sum whichever task computes it.
  const int64_t bands = images >= num_threads() ? 1 : std::min<int64_t>(p.out_h, (num_threads() + images - 1) / images);
  for_each_task(images * bands, [&](int64_t task, AlignedVector<float>& scratch) {
    const int64_t n = task / bands, band = task % bands;
    Correlation rows = p;
    rows.row_begin = p.out_h * band / bands;
    rows.row_end = p.out_h * (band + 1) / bands;
    if (scratch.size() < static_cast<size_t>(planes.image_size())) scratch.resize(static_cast<size_t>(planes.image_size()));
    planes.fill(src + n * p.channels * planes.source_h * src_w, src_w, scratch.data(), rows.row_begin, rows.row_end + p.kh - 1);
    HWY_DYNAMIC_DISPATCH(CorrelateImage)(rows, planes, scratch.data(), filters, out + n * p.outputs * p.out_h * p.out_w);
  });
}

}  // namespace

bool plain_2d_convolution(const ConvGeometry& g) {
  if (g.rank != 2 || g.group != 1) return false;
  for (int axis = 1; axis < 3; ++axis)
    if (g.stride[axis] != 1 || g.dilation[axis] != 1 || g.pad_before[axis] >= g.k[axis] ||
        g.pad_after[axis] >= g.k[axis])
      return false;
  return true;
}

bool direct_conv_applies(const ConvGeometry& g) { return plain_2d_convolution(g) && g.k[2] <= kMaxDirectWidth; }

void direct_conv_forward(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const Correlation p{g.c, g.o, g.k[1], g.k[2], g.out[1], g.out[2]};
  AlignedVector<float> filters(static_cast<size_t>(g.o * g.c * p.kh * p.kw));  // [c][ky][kx][o]
  for (int64_t o = 0; o < g.o; ++o)
    for (int64_t i = 0; i < g.c * p.kh * p.kw; ++i) filters[static_cast<size_t>(i * g.o + o)] = w[o * g.c * p.kh * p.kw + i];
  const PaddedPlanes planes = padded_planes(p, g.in[1], g.pad_before[1], g.pad_before[2]);
  correlate(p, planes, g.n, x, g.in[2], filters.data(), y);
}

void direct_conv_backward_data(const ConvGeometry& g, const float* dy, const float* w, float* dx) {
  // dx[c][y][x] = sum over o, ky, kx of dy[o][y - ky + pad][x - kx + pad] * w[o][c][ky][kx]: a correlation of
  // dy padded by k - 1 - pad with w flipped, dy's channels as its inputs and dx's as its outputs.
  const int64_t kh = g.k[1], kw = g.k[2];
  const Correlation p{g.o, g.c, kh, kw, g.in[1], g.in[2]};
  AlignedVector<float> filters(static_cast<size_t>(g.o * g.c * kh * kw));  // [o][ky][kx][c], flipped
  for (int64_t o = 0; o < g.o; ++o)
    for (int64_t c = 0; c < g.c; ++c)
      for (int64_t ky = 0; ky < kh; ++ky)
        for (int64_t kx = 0; kx < kw; ++kx)
          filters[static_cast<size_t>(((o * kh + ky) * kw + kx) * g.c + c)] =
              w[((o * g.c + c) * kh + (kh - 1 - ky)) * kw + (kw - 1 - kx)];
  const PaddedPlanes planes = padded_planes(p, g.out[1], kh - 1 - g.pad_before[1], kw - 1 - g.pad_before[2]);
  correlate(p, planes, g.n, dy, g.out[2], filters.data(), dx);
}

void direct_conv_backward_weights(const ConvGeometry& g, const float* dy, const float* x, float* dw) {
  // Sums over up to four images at a time, so fewer horizontal reductions (LeNet's first layer, one
  // thread: 218 -> 211 us), but one image per task in batches under 16, so that they still have a task
  // for every thread. The groups depend on the batch only, not on the thread count: neither do the results.
  const int64_t images_per_sum = std::clamp<int64_t>(g.n / 8, 1, 4);
  const Correlation p{g.c, g.o, g.k[1], g.k[2], g.out[1], g.out[2]};
  const int64_t filter_size = g.o * g.c * p.kh * p.kw, groups = (g.n + images_per_sum - 1) / images_per_sum;
  const PaddedPlanes planes = padded_planes(p, g.in[1], g.pad_before[1], g.pad_before[2]);
  std::vector<double> per_group(static_cast<size_t>(groups * filter_size), 0.0);
  for_each_task(groups, [&](int64_t group, AlignedVector<float>& scratch) {
    const int64_t first = group * images_per_sum, count = std::min(images_per_sum, g.n - first);
    if (scratch.size() < static_cast<size_t>(count * planes.image_size()))
      scratch.resize(static_cast<size_t>(count * planes.image_size()));
    for (int64_t m = 0; m < count; ++m)
      planes.fill(x + (first + m) * g.c * g.in[1] * g.in[2], g.in[2], scratch.data() + m * planes.image_size(), 0,
                  planes.used_h);
    HWY_DYNAMIC_DISPATCH(FilterSumsImages)(p, planes, count, scratch.data(), dy + first * g.o * p.out_h * p.out_w,
                                           per_group.data() + group * filter_size);
  });
  for (int64_t i = 0; i < filter_size; ++i) {
    double sum = 0.0;
    for (int64_t group = 0; group < groups; ++group) sum += per_group[static_cast<size_t>(group * filter_size + i)];
    dw[i] = static_cast<float>(sum);
  }
}

}  // namespace sprout
#endif
