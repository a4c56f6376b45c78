// transpose_16x16, a block transpose by AVX-512 shuffles shared by the Highway kernels that reorder
// operands (nn_conv_batched.cc, gemm_small.cc) and by Tensor's transposing copies
// (tensor/transpose_tiles.cc). Compiled per target like those files: include it after
// hwy/highway.h in a file that foreach_target.h re-includes. SPROUT_TRANSPOSE_16X16 says whether this
// target has it (AVX-512 on x86).
// The guard toggles with HWY_TARGET_TOGGLE, Highway's pattern for per-target headers.
#if defined(SPROUT_BASE_SIMD_TRANSPOSE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SPROUT_BASE_SIMD_TRANSPOSE_INL_H_
#undef SPROUT_BASE_SIMD_TRANSPOSE_INL_H_
#else
#define SPROUT_BASE_SIMD_TRANSPOSE_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {

// Note [Transposes by shuffles]
// nn_conv_batched.cc's copies between NCHW and [channel][y][x][image] transpose 16 x 16 blocks: 16
// images' rows against 16 positions' vectors. Element by element (a load and a store per float, strided
// on one side) they took 16% of backward data's time at LeNet's second layer; as 16 row loads, four
// rounds of 16 shuffles and 16 masked stores, 5% (one thread, 425 -> 370 us; backward filter 350 -> 307).
// Masks cut partial blocks: a batch's last images, a row's last columns.
#undef SPROUT_TRANSPOSE_16X16  // set per target: this file is compiled once for each
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
#define SPROUT_TRANSPOSE_16X16 1
// dst[c * dst_stride + r] = src[r * src_stride + c] for r < rows, c < cols (both at most 16), and
// dst[c * dst_stride + r] = 0 for rows <= r < stored_rows.
HWY_INLINE void transpose_16x16(const float* src, int64_t src_stride, int64_t rows, int64_t cols, float* dst,
                                int64_t dst_stride, int64_t stored_rows) {
  const __mmask16 first_cols = static_cast<__mmask16>((1u << cols) - 1);
  const __mmask16 first_rows = static_cast<__mmask16>((1u << std::max(rows, stored_rows)) - 1);
  __m512 r[16], t[16];
  HWY_UNROLL(16)
  for (int i = 0; i < 16; ++i) r[i] = i < rows ? _mm512_maskz_loadu_ps(first_cols, src + i * src_stride) : _mm512_setzero_ps();
  // Within 128-bit lanes, twice: then r[4i + c] holds, in lane k, column 4k + c of rows 4i .. 4i + 3.
  HWY_UNROLL(8)
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  HWY_UNROLL(4)
  for (int i = 0; i < 4; ++i) {
    r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  // Then whole 128-bit lanes, twice: r[q] becomes column q.
  HWY_UNROLL(8)
  for (int i = 0; i < 8; ++i) {
    const int j = i / 4 * 8 + i % 4;
    t[j] = _mm512_shuffle_f32x4(r[j], r[j + 4], 0x88);
    t[j + 4] = _mm512_shuffle_f32x4(r[j], r[j + 4], 0xDD);
  }
  HWY_UNROLL(8)
  for (int j = 0; j < 8; ++j) {
    r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
    r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xDD);
  }
  HWY_UNROLL(16)
  for (int c = 0; c < 16; ++c)
    if (c < cols) _mm512_mask_storeu_ps(dst + c * dst_stride, first_rows, r[c]);
}
#endif

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#endif  // SPROUT_BASE_SIMD_TRANSPOSE_INL_H_ toggle
