// transpose_tiles.h: 16 x 16 blocks by AVX-512 shuffles (Note [Transposes by shuffles]) where the CPU has
// them, element by element elsewhere. Highway, compiled once per instruction set and dispatched at run
// time (Note [Highway dynamic dispatch]).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tensor/transpose_tiles.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>

#include "base/simd_transpose-inl.h"
#include "tensor/transpose_tiles.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {

void TransposeBlock32(const uint32_t* src, int64_t src_stride, int64_t rows, int64_t cols, uint32_t* dst,
                      int64_t dst_stride) {
#if SPROUT_TRANSPOSE_16X16
  // The shuffles move bits: loads, permutes and stores of float lanes never touch the values.
  const float* s = reinterpret_cast<const float*>(src);
  float* d = reinterpret_cast<float*>(dst);
  for (int64_t r0 = 0; r0 < rows; r0 += 16) {
    const int64_t r = std::min<int64_t>(16, rows - r0);
    for (int64_t c0 = 0; c0 < cols; c0 += 16)
      transpose_16x16(s + r0 * src_stride + c0, src_stride, r, std::min<int64_t>(16, cols - c0),
                      d + c0 * dst_stride + r0, dst_stride, r);
  }
#else
  for (int64_t c = 0; c < cols; ++c)
    for (int64_t r = 0; r < rows; ++r) dst[c * dst_stride + r] = src[r * src_stride + c];
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(TransposeBlock32);

void transpose_block32(const uint32_t* src, int64_t src_stride, int64_t rows, int64_t cols, uint32_t* dst,
                       int64_t dst_stride) {
  HWY_DYNAMIC_DISPATCH(TransposeBlock32)(src, src_stride, rows, cols, dst, dst_stride);
}
}  // namespace sprout
#endif
