// Small float32 GEMM (Note [Small GEMM]). Highway, compiled once per instruction set and dispatched at
// run time (Note [Highway dynamic dispatch] in simd.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/gemm_small.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "base/aligned_vector.h"
#include "base/parallel.h"
#include "kernels/cpu/gemm_small.h"
#include "base/simd_transpose-inl.h"

// Pieces shared by every instruction set, compiled once.
#ifndef SPROUT_GEMM_SMALL_SHARED
#define SPROUT_GEMM_SMALL_SHARED
namespace sprout {
namespace {

// op(B) as the tiles read it: row p of k at b + p * ld, at least `n` readable floats per row, whole
// vectors of them (padded with zeros where the caller's B was copied).
struct RowMajorB {
  const float* b;
  int64_t ld;
};

// The product's shape and operands, shared by the tiles of one call: C is m x n with rows ldc apart (a
// band of the caller's columns when B was copied per band).
struct SmallGemm {
  BlasOperand a;
  RowMajorB b;
  float* c;
  int64_t ldc, m, n, k;
  bool accumulate;
};

}  // namespace
}  // namespace sprout
#endif

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// Rows of a tile: its rows x 2 vectors of accumulators, the two vectors of B and a broadcast of A fill
// the registers without spilling (AVX-512 and NEON/SVE have 32, AVX2 and SSE 16).
#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3
constexpr int kTileRows = 6;
#else
constexpr int kTileRows = 8;
#endif
constexpr int kTileVectors = 2;

// Whether B's last partial vector of a row can be read under a mask (AVX-512: masked-off lanes never
// fault); elsewhere B is copied into rows of whole vectors first.
constexpr bool kMaskedTail = !HWY_MEM_OPS_MIGHT_FAULT;

// One step p of k for a tile's accumulators: acc[r][v] += a(r, p) * (row p of B)[v]; b points at the
// tile's columns of that row, a(r, p) is a_rows[r][p] or, with kTransA, a_col[r].
template <int R, int NV, bool kPartial, bool kTransA, class M>
HWY_INLINE void fma_step(V (&acc)[R][NV], const float* b, const float* const (&a_rows)[R], const float* a_col,
                         int64_t p, M last_mask) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  V bv[NV];
  HWY_UNROLL(16)
  for (int v = 0; v < NV; ++v) {
    const bool masked = kPartial && kMaskedTail && v == NV - 1;
    bv[v] = masked ? hn::MaskedLoad(last_mask, d, b + v * lanes) : hn::LoadU(d, b + v * lanes);
  }
  HWY_UNROLL(16)
  for (int r = 0; r < R; ++r) {
    const V av = hn::Set(d, kTransA ? a_col[r] : a_rows[r][p]);
    HWY_UNROLL(16)
    for (int v = 0; v < NV; ++v) acc[r][v] = hn::MulAdd(av, bv[v], acc[r][v]);
  }
}

// One tile: rows [row0, row0 + R) x NV vectors of columns from `col`, summed over all of k. With
// kPartial its last vector reaches past n: only its first `last_lanes` are read from B (or B's zero
// padding is) and written to C. a(r, p) is read where op(A) keeps it, as a broadcast: no packing.
// Every loop over R and NV is unrolled completely: an accumulator array indexed by a variable anywhere
// makes GCC keep it on the stack.
template <int R, int NV, bool kPartial, bool kTransA>
HWY_INLINE void tile(const SmallGemm& s, int64_t row0, int64_t col, int64_t last_lanes) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto last_mask = hn::FirstN(d, static_cast<size_t>(last_lanes));
  const float* a = static_cast<const float*>(s.a.data);
  const int64_t lda = s.a.ld, ldb = s.b.ld;
  const float* a_rows[R];  // without kTransA: row r of op(A)
  HWY_UNROLL(16)
  for (int r = 0; r < R; ++r) a_rows[r] = a + (row0 + r) * lda;
  const float* a_col = a + row0;  // with kTransA: column p of op(A) is row p of A
  // A one-vector tile has half the accumulators that FMA latency needs in flight, so it keeps two sets,
  // for even and odd steps of k, added at the end (64x512x10 with B^T: 19 -> 14 us).
  constexpr int kSets = NV == 1 ? 2 : 1;
  V acc[kSets][R][NV];
  HWY_UNROLL(32)
  for (int i = 0; i < kSets * R * NV; ++i) acc[i / (R * NV)][i / NV % R][i % NV] = hn::Zero(d);
  const float* b = s.b.b + col;
  int64_t p = 0;
  if constexpr (kSets == 2) {
    for (; p + 2 <= s.k; p += 2, b += 2 * ldb, a_col += 2 * lda) {
      fma_step<R, NV, kPartial, kTransA>(acc[0], b, a_rows, a_col, p, last_mask);
      fma_step<R, NV, kPartial, kTransA>(acc[1], b + ldb, a_rows, a_col + lda, p + 1, last_mask);
    }
  }
  for (; p < s.k; ++p, b += ldb, a_col += lda)
    fma_step<R, NV, kPartial, kTransA>(acc[0], b, a_rows, a_col, p, last_mask);
  if constexpr (kSets == 2) {
    HWY_UNROLL(16)
    for (int r = 0; r < R; ++r) acc[0][r][0] = hn::Add(acc[0][r][0], acc[1][r][0]);
  }
  float* c = s.c + row0 * s.ldc + col;
  const int64_t ldc = s.ldc;
  const bool accumulate = s.accumulate;
  HWY_UNROLL(16)
  for (int i = 0; i < R * NV; ++i) {
    const int r = i / NV, v = i % NV;
    float* dst = c + r * ldc + v * lanes;
    if (kPartial && v == NV - 1) {
      if constexpr (kMaskedTail) {
        const V sum = accumulate ? hn::Add(acc[0][r][v], hn::MaskedLoad(last_mask, d, dst)) : acc[0][r][v];
        hn::BlendedStore(sum, last_mask, d, dst);
      } else {  // through a buffer: an emulated masked store rewrites the lanes past n, racing other threads
        HWY_ALIGN float part[hn::MaxLanes(d)] = {};
        if (accumulate) std::memcpy(part, dst, static_cast<size_t>(last_lanes) * sizeof(float));
        hn::Store(accumulate ? hn::Add(acc[0][r][v], hn::Load(d, part)) : acc[0][r][v], d, part);
        std::memcpy(dst, part, static_cast<size_t>(last_lanes) * sizeof(float));
      }
    } else {
      hn::StoreU(accumulate ? hn::Add(acc[0][r][v], hn::LoadU(d, dst)) : acc[0][r][v], d, dst);
    }
  }
}

// Rows [row0, row0 + R) by columns [col, col_end), in tiles of kTileVectors vectors; col is a multiple of
// the tile width, col_end one too unless it is n.
template <int R, bool kTransA>
void row_block(const SmallGemm& s, int64_t row0, int64_t col, int64_t col_end) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(D()));
  const int64_t tile_cols = kTileVectors * lanes;
  for (; col + tile_cols <= col_end; col += tile_cols) tile<R, kTileVectors, false, kTransA>(s, row0, col, lanes);
  const int64_t rest = col_end - col;
  if (rest == 0) return;
  const int64_t last_lanes = rest - (rest - 1) / lanes * lanes;  // lanes of the last vector, 1 .. lanes
  if (rest > lanes) {
    last_lanes < lanes ? tile<R, 2, true, kTransA>(s, row0, col, last_lanes)
                       : tile<R, 2, false, kTransA>(s, row0, col, lanes);
  } else {
    last_lanes < lanes ? tile<R, 1, true, kTransA>(s, row0, col, last_lanes)
                       : tile<R, 1, false, kTransA>(s, row0, col, lanes);
  }
}

static_assert(kTileVectors == 2, "row_block's tail covers one or two vectors");

// row_block for a block of `rows` <= R rows.
template <bool kTransA, int R = kTileRows>
void run_row_block(const SmallGemm& s, int64_t row0, int64_t rows, int64_t col, int64_t col_end) {
  if (rows == R) return row_block<R, kTransA>(s, row0, col, col_end);
  if constexpr (R > 1) run_row_block<kTransA, R - 1>(s, row0, rows, col, col_end);
}

// Tasks [first, last) of the product: task t is block t / parts of kTileRows rows, by part t % parts of
// its tiles' columns.
void run_tasks(const SmallGemm& s, int64_t parts, int64_t first, int64_t last) {
  const int64_t tile_cols = kTileVectors * static_cast<int64_t>(hn::Lanes(D()));
  const int64_t tiles = (s.n + tile_cols - 1) / tile_cols;
  for (int64_t task = first; task < last; ++task) {
    const int64_t block = task / parts, part = task % parts;
    const int64_t row0 = block * kTileRows, rows = std::min<int64_t>(kTileRows, s.m - row0);
    const int64_t col = tiles * part / parts * tile_cols;
    const int64_t col_end = std::min(s.n, tiles * (part + 1) / parts * tile_cols);
    s.a.trans ? run_row_block<true>(s, row0, rows, col, col_end) : run_row_block<false>(s, row0, rows, col, col_end);
  }
}

// Columns [col, col + n) of op(B) (k x n) copied into `copy` as rows of whole vectors, ld = n rounded up
// to a vector, zeros after n.
RowMajorB copy_b(const BlasOperand& b, int64_t col, int64_t n, int64_t k, AlignedVector<float>& copy) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(D()));
  const int64_t ld = (n + lanes - 1) / lanes * lanes;
  const float* src = static_cast<const float*>(b.data);
  if (!b.trans) {
    copy.assign(static_cast<size_t>(k * ld), 0.0f);
    for (int64_t p = 0; p < k; ++p)
      std::memcpy(copy.data() + p * ld, src + p * b.ld + col, static_cast<size_t>(n) * sizeof(float));
    return {copy.data(), ld};
  }
  src += col * b.ld;  // B is n x k
#ifdef SPROUT_TRANSPOSE_16X16  // 16 x 16 blocks of B become blocks of the copy's rows
  copy.resize(static_cast<size_t>(k * ld));
  for (int64_t j = 0; j < n; j += 16)
    for (int64_t p = 0; p < k; p += 16)
      transpose_16x16(src + j * b.ld + p, b.ld, std::min<int64_t>(16, n - j), std::min<int64_t>(16, k - p),
                      copy.data() + p * ld + j, ld, 16);
#else
  copy.assign(static_cast<size_t>(k * ld), 0.0f);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p) copy[static_cast<size_t>(p * ld + j)] = src[j * b.ld + p];
#endif
  return {copy.data(), ld};
}

// With B copied, threads split the columns: each copies its band of B and multiplies all rows by it.
// (Split by rows, every thread would read the whole copy just written by one of them, from that core's
// cache: on the two-L3 host 72^3 with B^T took 22.6 us on two threads against 7.2 on one.) When B is
// too narrow for a band per thread, each copies all of it and takes a share of the rows.
void SmallSgemm(const BlasOperand& a, const BlasOperand& b, float* c, int64_t m, int64_t n, int64_t k,
                bool accumulate) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(D()));
  const int64_t blocks = (m + kTileRows - 1) / kTileRows;
  const int threads = m * n * k < kSmallGemmParallelWork ? 1 : num_threads();
  const int64_t serial = std::numeric_limits<int64_t>::max();
  if (b.trans || (!kMaskedTail && n % lanes != 0)) {
    const int64_t tile_cols = kTileVectors * lanes, tiles = (n + tile_cols - 1) / tile_cols;
    const int64_t bands = tiles >= threads ? threads : 1;
    const int64_t row_parts = bands == 1 ? std::min<int64_t>(threads, blocks) : 1;
    parallel_for(bands * row_parts, threads > 1 ? 1 : serial, [&](int64_t first, int64_t last) {
      thread_local AlignedVector<float> copied_b;  // Note [Aligned scratch]
      for (int64_t task = first; task < last; ++task) {
        const int64_t band = task / row_parts, part = task % row_parts;
        const int64_t col = tiles * band / bands * tile_cols;
        const int64_t col_end = std::min(n, tiles * (band + 1) / bands * tile_cols);
        const SmallGemm s{a, copy_b(b, col, col_end - col, k, copied_b), c + col, n, m, col_end - col, k, accumulate};
        run_tasks(s, 1, blocks * part / row_parts, blocks * (part + 1) / row_parts);
      }
    });
    return;
  }
  const SmallGemm s{a, {static_cast<const float*>(b.data), b.ld}, c, n, m, n, k, accumulate};
  // Too few row blocks to go round (a product of few rows): each block's columns are split as well.
  const int64_t parts = blocks >= 2 * threads ? 1 : threads;
  parallel_for(blocks * parts, threads > 1 ? 1 : serial,
               [&](int64_t first, int64_t last) { run_tasks(s, parts, first, last); });
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(SmallSgemm);

// Note [Small GEMM]
// A product of a few million multiply-adds or fewer is mostly what the libraries do around its
// arithmetic, and up to some tens of millions on Zen 4 this kernel still beats oneDNN's (gemm.cc): 80^3, 96^3 and 64^3 with B^T took 10.4 (MKL), 14.0 (MKL) and 7.1 us (OpenBLAS, whose
// transposed kernels are slower), where the arithmetic at both cores' peak is 2.9, 5.0 and 1.5 us (gemm.cc
// has the comparison). Here such products run as register tiles of 8 rows (6 on AVX2) by two vectors of
// columns: per step of k, two vectors of B, a broadcast of A per row, 16 FMAs. A is broadcast from where
// it lies, transposed or not; B is read in place when it is row-major (its last partial vector under a
// mask on AVX-512), else copied into rows of whole vectors (B^T through 16x16 register transposes).
// Threads split a product from kSmallGemmParallelWork multiply-adds up: by blocks of rows (and columns too
// when rows are few), or, when B is copied, by columns, each thread copying its own band. gemm.cc picks
// the products this wins (Note [Matmul backend]). Each element of C is summed over k in an order fixed by
// the shape alone (one FMA chain, or two for a one-vector tile): the result does not depend on the thread
// count.
void small_sgemm(const BlasOperand& a, const BlasOperand& b, float* c, int64_t m, int64_t n, int64_t k,
                 bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    if (!accumulate) std::fill(c, c + m * n, 0.0f);
    return;
  }
  HWY_DYNAMIC_DISPATCH(SmallSgemm)(a, b, c, m, n, k, accumulate);
}

}  // namespace sprout
#endif
