// Backward data of small convolutions, vectorized across the batch (Note [Batch-vectorized backward
// data]). Highway, compiled once per instruction set and dispatched at run time (Note [Highway dynamic
// dispatch]).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_conv_batched.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>
#include <memory>

#include "base/parallel.h"
#include "kernels/cpu/nn_conv_kernels.h"

// Note [Batch-vectorized backward data]
// oneDNN blocks channels by 16, so backward data of a layer with 6 or 8 channels (LeNet's second layer
// produces dx of 6 channels from dy of 16) spends most of its work on padding: 69 GFLOP/s, a third of
// this machine's peak. Vectorized along a row instead (the direct loops), a 14-wide row fills 14 of 16
// lanes and a third of its taps fall on the padding of dy. Here a vector holds one position of 16
// images (AVX-512; 8 with AVX2), so every lane does useful work whatever the plane's size: dy is copied
// once per block of images into [o][y][x][image] (with zero columns for the taps past its edges), and
// each task computes one dx row of one block, a register tile at a time (6 channels x 3 columns),
// broadcasting each filter tap into the tile's 3 columns and skipping the dy rows and tap columns that
// lie outside dy for the whole tile. Each output is one task's sum in a fixed order: the bits do not
// depend on the thread count. Two threads, batch 64: 140-146 GFLOP/s at LeNet's second layer (oneDNN
// 69-77), 156-190 at shapes oneDNN blocks fully (oneDNN 204-233; nn_conv.cc chooses between them).
// What bounds it: each broadcast feeds only three FMAs, and the tile's tap range still multiplies some
// zero columns at the row's ends (60 FMA slots for 50 useful at k = 5 on 14 columns).

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Output columns per register tile, and the most dx channels one tile accumulates: 6 x 3 accumulators,
// 3 + kw - 1 dy vectors and a broadcast filter tap fill 26 of AVX-512's 32 registers at kw = 5.
constexpr int kTileColumns = 3;
constexpr int kTileChannels = 6;

// The pass's sizes. dy is read from a copy per block of `lanes` images, transposed to
// [o][y][padded x][lane] with kw - 1 zero columns on the left and enough on the right for a tile
// hanging past the last column: a load per tap column, never out of bounds or masked.
struct BatchedBackwardData {
  int64_t n, c, o, h, w, kh, kw, out_h, out_w, pad_top, pad_left;
  int64_t lanes, blocks, padded_w;

  BatchedBackwardData(const ConvGeometry& g, int64_t vector_lanes)
      : n(g.n), c(g.c), o(g.o), h(g.in[1]), w(g.in[2]), kh(g.k[1]), kw(g.k[2]), out_h(g.out[1]), out_w(g.out[2]),
        pad_top(g.pad_before[1]), pad_left(g.pad_before[2]), lanes(vector_lanes),
        blocks((g.n + vector_lanes - 1) / vector_lanes), padded_w(out_w + 2 * (kw - 1) + kTileColumns) {}

  int64_t block_size() const { return o * out_h * padded_w * lanes; }
  int64_t row_columns() const { return (w + kTileColumns - 1) / kTileColumns * kTileColumns; }
};

// dy's images [block * lanes, + lanes) into `block` (BatchedBackwardData's layout); missing images
// (past n) and the padding columns are zeros.
void transpose_dy(const BatchedBackwardData& s, const float* dy, int64_t b, int64_t o, float* block) {
  const int64_t images = std::min(s.lanes, s.n - b * s.lanes), plane = s.out_h * s.out_w;
  for (int64_t y = 0; y < s.out_h; ++y) {
    float* row = block + (o * s.out_h + y) * s.padded_w * s.lanes;
    std::fill(row, row + s.padded_w * s.lanes, 0.0f);
    for (int64_t l = 0; l < images; ++l) {
      const float* src = dy + ((b * s.lanes + l) * s.o + o) * plane + y * s.out_w;
      for (int64_t x = 0; x < s.out_w; ++x) row[(x + s.kw - 1) * s.lanes + l] = src[x];
    }
  }
}

// dx[c0 .. c0 + CB) at row y, columns [x0, x0 + kTileColumns), for one block of images, into
// out[(c * row_columns + x) * lanes + lane]. dx[c][y][x] = sum over o, ky, kx of w[o][c][ky][kx] *
// dy[o][y + pad_top - ky][x + pad_left - kx]: rows of dy outside it and taps that no column of the tile
// takes from inside it are skipped, the rest multiply the zero columns where one column does.
template <int CB, int KW>
HWY_INLINE void backward_data_tile(const BatchedBackwardData& s, const float* block, const float* w, int64_t c0,
                                   int64_t y, int64_t x0, float* out) {
  const hn::ScalableTag<float> d;
  using Vec = hn::Vec<decltype(d)>;
  constexpr int XB = kTileColumns;
  const int64_t lanes = s.lanes, filter = s.kh * KW;
  const int64_t last_x = std::min<int64_t>(x0 + XB, s.w) - 1;
  const int64_t kx_begin = std::max<int64_t>(0, x0 + s.pad_left - s.out_w + 1);
  const int64_t kx_end = std::min<int64_t>(KW, last_x + s.pad_left + 1);
  const int64_t ky_begin = std::max<int64_t>(0, y + s.pad_top - s.out_h + 1);
  const int64_t ky_end = std::min<int64_t>(s.kh, y + s.pad_top + 1);
  Vec acc[CB][XB];
  HWY_UNROLL(32)
  for (int i = 0; i < CB * XB; ++i) acc[i / XB][i % XB] = hn::Zero(d);
  for (int64_t o = 0; o < s.o; ++o) {
    for (int64_t ky = ky_begin; ky < ky_end; ++ky) {
      // Vector t holds dy column x0 + pad_left - (KW - 1) + t, padded column x0 + pad_left + t.
      const float* row = block + ((o * s.out_h + y + s.pad_top - ky) * s.padded_w + x0 + s.pad_left) * lanes;
      Vec v[XB + KW - 1];
      HWY_UNROLL(32)
      for (int t = 0; t < XB + KW - 1; ++t) v[t] = hn::LoadU(d, row + t * lanes);
      const float* taps = w + ((o * s.c + c0) * s.kh + ky) * KW;
      HWY_UNROLL(32)
      for (int kx = 0; kx < KW; ++kx) {
        if (kx < kx_begin || kx >= kx_end) continue;
        HWY_UNROLL(32)
        for (int c = 0; c < CB; ++c) {
          const Vec tap = hn::Set(d, taps[c * filter + kx]);
          HWY_UNROLL(32)
          for (int xi = 0; xi < XB; ++xi) acc[c][xi] = hn::MulAdd(tap, v[xi + KW - 1 - kx], acc[c][xi]);
        }
      }
    }
  }
  HWY_UNROLL(32)
  for (int i = 0; i < CB * XB; ++i) {
    const int c = i / XB, xi = i % XB;
    hn::StoreU(acc[c][xi], d, out + (c * s.row_columns() + x0 + xi) * lanes);
  }
}

template <int KW>
void backward_data_row(const BatchedBackwardData& s, const float* block, const float* w, int64_t y, float* out) {
  for (int64_t c0 = 0; c0 < s.c; c0 += kTileChannels) {
    float* channels = out + c0 * s.row_columns() * s.lanes;
    for (int64_t x0 = 0; x0 < s.w; x0 += kTileColumns) {
      switch (std::min<int64_t>(kTileChannels, s.c - c0)) {
        case 1: backward_data_tile<1, KW>(s, block, w, c0, y, x0, channels); break;
        case 2: backward_data_tile<2, KW>(s, block, w, c0, y, x0, channels); break;
        case 3: backward_data_tile<3, KW>(s, block, w, c0, y, x0, channels); break;
        case 4: backward_data_tile<4, KW>(s, block, w, c0, y, x0, channels); break;
        case 5: backward_data_tile<5, KW>(s, block, w, c0, y, x0, channels); break;
        case 6: backward_data_tile<6, KW>(s, block, w, c0, y, x0, channels); break;
      }
    }
  }
}

void BatchedConvBackwardData(const ConvGeometry& g, const float* dy, const float* w, float* dx) {
  const BatchedBackwardData s(g, static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>())));
  std::unique_ptr<float[]> blocks(new float[static_cast<size_t>(s.blocks * s.block_size())]);
  parallel_for(s.blocks * s.o, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task)
      transpose_dy(s, dy, task / s.o, task % s.o, blocks.get() + task / s.o * s.block_size());
  });
  // One task per block and dx row; its rows of every channel come back to dx's layout through a buffer.
  parallel_for(s.blocks * s.h, 1, [&](int64_t begin, int64_t end) {
    std::unique_ptr<float[]> row(new float[static_cast<size_t>(s.c * s.row_columns() * s.lanes)]);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / s.h, y = task % s.h;
      const float* block = blocks.get() + b * s.block_size();
      if (s.kw == 3) backward_data_row<3>(s, block, w, y, row.get());
      else backward_data_row<5>(s, block, w, y, row.get());
      const int64_t images = std::min(s.lanes, s.n - b * s.lanes);
      for (int64_t l = 0; l < images; ++l)
        for (int64_t c = 0; c < s.c; ++c) {
          float* dst = dx + (((b * s.lanes + l) * s.c + c) * s.h + y) * s.w;
          const float* src = row.get() + c * s.row_columns() * s.lanes + l;
          for (int64_t x = 0; x < s.w; ++x) dst[x] = src[x * s.lanes];
        }
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(BatchedConvBackwardData);

bool batched_conv_backward_data_applies(const ConvGeometry& g) {
  if (g.rank != 2 || g.group != 1 || (g.k[2] != 3 && g.k[2] != 5)) return false;
  for (int axis = 1; axis < 3; ++axis)
    if (g.stride[axis] != 1 || g.dilation[axis] != 1 || g.pad_before[axis] >= g.k[axis] ||
        g.pad_after[axis] >= g.k[axis])
      return false;
  return true;
}

void batched_conv_backward_data(const ConvGeometry& g, const float* dy, const float* w, float* dx) {
  HWY_DYNAMIC_DISPATCH(BatchedConvBackwardData)(g, dy, w, dx);
}

}  // namespace sprout
#endif
