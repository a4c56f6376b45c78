// Backward passes of convolutions with channel counts oneDNN pads, vectorized across the batch (Note
// [Batch-vectorized backward passes]). Highway, compiled once per instruction set and dispatched at run
// time (Note [Highway dynamic dispatch]).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_conv_batched.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/nn_conv_kernels.h"
#include "base/simd_transpose-inl.h"
#include "tensor/allocator.h"

// Note [Batch-vectorized backward passes]
// oneDNN blocks channels by 16, so the backward passes of a layer with 6 or 8 channels (LeNet's second
// layer: 6 channels of 14x14 in, 16 of 10x10 out) spend most of their work on padding: 69 GFLOP/s for
// backward data, a third of this machine's peak. Vectorized along a row instead (the direct loops), a
// 14-wide row fills 14 of 16 lanes and a third of backward data's taps fall on the padding of dy. Here a
// vector holds one position of 16 images (AVX-512; 8 with AVX2), so every lane does useful work whatever
// the plane's size: dy (and x) are copied once per block of images into [channel][y][x][image], with
// zero rows and columns where taps reach past the edges.
//   Backward data: each task computes one dx row of one block, a register tile at a time (6 channels x 3
//   columns), broadcasting each filter tap into the tile's 3 columns and skipping the dy rows and tap
//   columns that lie outside dy for the whole tile. What bounds it: each broadcast feeds only three
//   FMAs, and a tile's tap range still multiplies some zero columns at a row's ends (60 FMA slots for 50
//   useful at k = 5 on 14 columns).
//   Backward filter: each task sums one input channel and 4 output channels over one block of images
//   (Note [Threads keep their blocks]), all filter taps of a row in registers: a load of dy feeds kw
//   FMAs, a load of x 4.
//   The block's planes are read once per filter row, from L1 while they fit, so nn_conv.cc sends only
//   planes up to 28x28 here.
// Every output is a sum in a fixed order: the bits do not depend on the thread count. Two threads,
// batch 64, alternating in one process: LeNet's second layer, backward data 189 against oneDNN's 447
// us, backward filter 165 against 298 (with Note [Transposes by shuffles]); at shapes oneDNN blocks
// fully it is slower (backward data 156-190 GFLOP/s against 204-233), which nn_conv.cc
// weighs against the padding. The copies come from the caching allocator.

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// Zeros at p[0 .. count), count a multiple of 16: a plane's borders (the transposes write its middle
// whole, lanes past the batch as zeros, so the plane is not cleared first).
HWY_INLINE void store_zeros(float* p, int64_t count) {
  for (int64_t i = 0; i < count; i += 16) _mm512_storeu_ps(p + i, _mm512_setzero_ps());
}
#endif

// A batch's planes copied per block of `lanes` images to [channel][y][x][lane] (one vector per position,
// Note [Batch-vectorized backward passes]), with zero rows and columns around them so that every load
// of a tile is in bounds: `top` rows and `left` columns before the data, the rest after.
struct TransposedPlanes {
  int64_t n, channels, h, w, lanes, top, left, padded_h, padded_w;

  int64_t blocks() const { return (n + lanes - 1) / lanes; }
  int64_t plane_size() const { return padded_h * padded_w * lanes; }
  int64_t block_size() const { return channels * plane_size(); }

  // Plane `channel` of block b from src (NCHW); images past n are zeros.
  void fill(const float* src, int64_t b, int64_t channel, float* blocks) const {
    float* plane = blocks + b * block_size() + channel * plane_size();
    const int64_t images = std::min(lanes, n - b * lanes), image_size = channels * h * w;
    const float* first = src + (b * lanes * channels + channel) * h * w;
#ifdef SPROUT_TRANSPOSE_16X16
    if (lanes == 16) {  // each row of the images 16 columns at a time, the zeros only around them
      for (int64_t py = 0; py < padded_h; ++py) {
        float* row = plane + py * padded_w * lanes;
        const int64_t y = py - top;
        if (y < 0 || y >= h) {
          store_zeros(row, padded_w * lanes);
          continue;
        }
        store_zeros(row, left * lanes);
        store_zeros(row + (left + w) * lanes, (padded_w - left - w) * lanes);
        for (int64_t x0 = 0; x0 < w; x0 += 16)
          transpose_16x16(first + y * w + x0, image_size, images, std::min<int64_t>(16, w - x0),
                          row + (left + x0) * lanes, lanes, 16);
      }
      return;
    }
#endif
    std::fill(plane, plane + plane_size(), 0.0f);
    for (int64_t l = 0; l < images; ++l) {
      const float* image = first + l * image_size;
      for (int64_t y = 0; y < h; ++y) {
        float* row = plane + ((y + top) * padded_w + left) * lanes + l;
        for (int64_t x = 0; x < w; ++x) row[x * lanes] = image[y * w + x];
      }
    }
  }
};

// Floats from the caching allocator (Note [Caching allocator]), 64-byte aligned: reused from call to call
// without the page faults of a fresh mmap'd buffer (that was a fifth of backward filter's time at LeNet's
// second layer), and counted and released like tensors' memory.
class CachedFloats {
 public:
  explicit CachedFloats(int64_t count)
      : bytes_(static_cast<size_t>(std::max<int64_t>(count, 1)) * sizeof(float)),
        data_(static_cast<float*>(CpuAllocator::instance().allocate(bytes_))) {}
  ~CachedFloats() { CpuAllocator::instance().deallocate(data_, bytes_); }
  CachedFloats(const CachedFloats&) = delete;
  CachedFloats& operator=(const CachedFloats&) = delete;

  float* get() const { return data_; }

 private:
  size_t bytes_;
  float* data_;
};

// Note [Threads keep their blocks]
// Both passes split their work by blocks of images first, the way transpose() splits the copies, so
// that with a block count divisible by the thread count each thread reads only copies it wrote itself.
// On this host the two vCPUs sometimes sit on different core complexes (a cache line's round trip
// between them about 60 ns, or 330 for minutes at a time: benchmarks/machine.py measures it), where
// lines one core wrote are dear for the other. Backward filter split by channels, every thread reading
// every block, ran at 185 us on two threads in most processes and at 310-330 us, one thread's speed,
// in about one in five, the copies' stores stalling. Split by blocks, each block's filter sums go to a
// buffer of their own and are added in block order afterwards (the order the single task per weight
// used): 163-171 us, ten processes of ten.

// Every plane of a batch transposed into `blocks`, in parallel.
void transpose(const TransposedPlanes& t, const float* src, float* blocks) {
  parallel_for(t.blocks() * t.channels, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) t.fill(src, task / t.channels, task % t.channels, blocks);
  });
}

// Backward data: output columns per register tile, and the most dx channels one tile accumulates: 6 x 3
// accumulators, 3 + kw - 1 dy vectors and a broadcast filter tap fill 26 of AVX-512's 32 registers at
// kw = 5.
constexpr int kTileColumns = 3;
constexpr int kTileChannels = 6;

// Backward data's sizes. dy is transposed with kw - 1 zero columns on the left and enough on the right
// for a tile hanging past the last column.
struct BatchedBackwardData {
  int64_t n, c, o, h, w, kh, kw, out_h, out_w, pad_top, pad_left, lanes;
  TransposedPlanes dy;

  BatchedBackwardData(const ConvGeometry& g, int64_t vector_lanes)
      : n(g.n), c(g.c), o(g.o), h(g.in[1]), w(g.in[2]), kh(g.k[1]), kw(g.k[2]), out_h(g.out[1]), out_w(g.out[2]),
        pad_top(g.pad_before[1]), pad_left(g.pad_before[2]), lanes(vector_lanes),
        dy{n, o, out_h, out_w, lanes, 0, kw - 1, out_h, out_w + 2 * (kw - 1) + kTileColumns} {}

  int64_t row_columns() const { return (w + kTileColumns - 1) / kTileColumns * kTileColumns; }
};

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
      const float* row = block + ((o * s.out_h + y + s.pad_top - ky) * s.dy.padded_w + x0 + s.pad_left) * lanes;
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
  const CachedFloats copy(s.dy.blocks() * s.dy.block_size());
  const float* blocks = copy.get();
  transpose(s.dy, dy, copy.get());
  // One task per block and dx row; its rows of every channel come back to dx's layout through a buffer.
  parallel_for(s.dy.blocks() * s.h, 1, [&](int64_t begin, int64_t end) {
    const CachedFloats row(s.c * s.row_columns() * s.lanes);
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / s.h, y = task % s.h;
      const float* block = blocks + b * s.dy.block_size();
      if (s.kw == 3) backward_data_row<3>(s, block, w, y, row.get());
      else backward_data_row<5>(s, block, w, y, row.get());
      const int64_t images = std::min(s.lanes, s.n - b * s.lanes), image_size = s.c * s.h * s.w;
      float* first = dx + (b * s.lanes * s.c * s.h + y) * s.w;
#ifdef SPROUT_TRANSPOSE_16X16
      if (s.lanes == 16) {
        for (int64_t c = 0; c < s.c; ++c)
          for (int64_t x0 = 0; x0 < s.w; x0 += 16)
            transpose_16x16(row.get() + (c * s.row_columns() + x0) * s.lanes, s.lanes, std::min<int64_t>(16, s.w - x0),
                            images, first + c * s.h * s.w + x0, image_size, 0);
        continue;
      }
#endif
      for (int64_t l = 0; l < images; ++l)
        for (int64_t c = 0; c < s.c; ++c) {
          float* dst = first + l * image_size + c * s.h * s.w;
          const float* src = row.get() + c * s.row_columns() * s.lanes + l;
          for (int64_t x = 0; x < s.w; ++x) dst[x] = src[x * s.lanes];
        }
    }
  });
}

// Backward filter: blocks of output channels per tile (4 x kw accumulators, kw input vectors and one dy
// vector: 26 registers at kw = 5).
constexpr int kFilterTileOutputs = 4;

// Backward filter's sizes: dy transposed as it is, x with the convolution's padding around it.
struct BatchedBackwardFilter {
  int64_t c, o, kh, kw, out_h, out_w, lanes;
  TransposedPlanes dy, x;

  BatchedBackwardFilter(const ConvGeometry& g, int64_t vector_lanes)
      : c(g.c), o(g.o), kh(g.k[1]), kw(g.k[2]), out_h(g.out[1]), out_w(g.out[2]), lanes(vector_lanes),
        dy{g.n, o, out_h, out_w, lanes, 0, 0, out_h, out_w},
        x{g.n, c, g.in[1], g.in[2], lanes, g.pad_before[1], g.pad_before[2], g.in[1] + g.pad_before[1] + g.pad_after[1],
          g.in[2] + g.pad_before[2] + g.pad_after[2]} {}
};

// One block's share of dw[o0 .. o0 + OB)[c][every ky][every kx]: the sum over its images, y and x of
// dy[o][y][x] * x[c][y + ky][x + kx] (padded coordinates), into block_sums (laid out as dw, in double).
// For each ky, OB x KW vector accumulators run over the block's positions; their lanes are added in
// double, so float sums run over one plane only. The block's dy planes and x plane are read once per ky:
// at LeNet's second layer they stay in L1.
template <int OB, int KW>
HWY_INLINE void backward_filter_tile(const BatchedBackwardFilter& s, const float* dy_block, const float* x_block,
                                     int64_t c, int64_t o0, double* block_sums) {
  const hn::ScalableTag<float> d;
  using Vec = hn::Vec<decltype(d)>;
  const int64_t lanes = s.lanes, dy_plane = s.dy.plane_size(), padded_w = s.x.padded_w;
  const float* dy = dy_block + o0 * dy_plane;
  const float* x = x_block + c * s.x.plane_size();
  for (int64_t ky = 0; ky < s.kh; ++ky) {
    Vec acc[OB][KW];
    HWY_UNROLL(32)
    for (int i = 0; i < OB * KW; ++i) acc[i / KW][i % KW] = hn::Zero(d);
    for (int64_t y = 0; y < s.out_h; ++y) {
      const float* x_row = x + (y + ky) * padded_w * lanes;
      const float* dy_row = dy + y * s.out_w * lanes;
      for (int64_t col = 0; col < s.out_w; ++col) {
        Vec in[KW];
        HWY_UNROLL(32)
        for (int kx = 0; kx < KW; ++kx) in[kx] = hn::Load(d, x_row + (col + kx) * lanes);
        HWY_UNROLL(32)
        for (int ob = 0; ob < OB; ++ob) {
          const Vec grad = hn::Load(d, dy_row + ob * dy_plane + col * lanes);
          HWY_UNROLL(32)
          for (int kx = 0; kx < KW; ++kx) acc[ob][kx] = hn::MulAdd(grad, in[kx], acc[ob][kx]);
        }
      }
    }
    HWY_UNROLL(32)
    for (int i = 0; i < OB * KW; ++i) {
      const int ob = i / KW, kx = i % KW;
      block_sums[(((o0 + ob) * s.c + c) * s.kh + ky) * KW + kx] = hn::GetLane(hn::SumOfLanes(d, acc[ob][kx]));
    }
  }
}

// Task (b, c, block of output channels), b slowest: see BatchedConvBackwardFilter.
template <int KW>
void backward_filter_task(const BatchedBackwardFilter& s, const float* dy, const float* x, int64_t task,
                          double* block_sums) {
  const int64_t o_blocks = (s.o + kFilterTileOutputs - 1) / kFilterTileOutputs;
  const int64_t o0 = task % o_blocks * kFilterTileOutputs, c = task / o_blocks % s.c, b = task / o_blocks / s.c;
  const float* dy_block = dy + b * s.dy.block_size();
  const float* x_block = x + b * s.x.block_size();
  double* sums = block_sums + b * s.o * s.c * s.kh * KW;
  switch (std::min<int64_t>(kFilterTileOutputs, s.o - o0)) {
    case 1: return backward_filter_tile<1, KW>(s, dy_block, x_block, c, o0, sums);
    case 2: return backward_filter_tile<2, KW>(s, dy_block, x_block, c, o0, sums);
    case 3: return backward_filter_tile<3, KW>(s, dy_block, x_block, c, o0, sums);
    case 4: return backward_filter_tile<4, KW>(s, dy_block, x_block, c, o0, sums);
  }
}

void BatchedConvBackwardFilter(const ConvGeometry& g, const float* dy, const float* x, float* dw) {
  const BatchedBackwardFilter s(g, static_cast<int64_t>(hn::Lanes(hn::ScalableTag<float>())));
  const CachedFloats dy_copy(s.dy.blocks() * s.dy.block_size()), x_copy(s.x.blocks() * s.x.block_size());
  transpose(s.dy, dy, dy_copy.get());
  transpose(s.x, x, x_copy.get());
  // One task per (block of images, input channel, block of output channels), blocks slowest: the threads
  // split the blocks as the transposes did, so each reads the copies it wrote (Note [Threads keep their
  // blocks]). Each block's sums are added in block order: the bits do not depend on the thread count.
  const int64_t filter_size = s.o * s.c * s.kh * s.kw, blocks = s.dy.blocks();
  std::vector<double> block_sums(static_cast<size_t>(blocks * filter_size));
  const int64_t tasks = blocks * s.c * ((s.o + kFilterTileOutputs - 1) / kFilterTileOutputs);
  parallel_for(tasks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      if (s.kw == 3) backward_filter_task<3>(s, dy_copy.get(), x_copy.get(), task, block_sums.data());
      else backward_filter_task<5>(s, dy_copy.get(), x_copy.get(), task, block_sums.data());
    }
  });
  for (int64_t i = 0; i < filter_size; ++i) {
    double sum = 0.0;
    for (int64_t b = 0; b < blocks; ++b) sum += block_sums[static_cast<size_t>(b * filter_size + i)];
    dw[i] = static_cast<float>(sum);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(BatchedConvBackwardData);
HWY_EXPORT(BatchedConvBackwardFilter);

bool batched_conv_applies(const ConvGeometry& g) {
  return plain_2d_convolution(g) && (g.k[2] == 3 || g.k[2] == 5);
}

void batched_conv_backward_data(const ConvGeometry& g, const float* dy, const float* w, float* dx) {
  HWY_DYNAMIC_DISPATCH(BatchedConvBackwardData)(g, dy, w, dx);
}

void batched_conv_backward_weights(const ConvGeometry& g, const float* dy, const float* x, float* dw) {
  HWY_DYNAMIC_DISPATCH(BatchedConvBackwardFilter)(g, dy, x, dw);
}

}  // namespace sprout
#endif
