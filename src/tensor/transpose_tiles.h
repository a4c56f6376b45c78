// Tiles of 32-bit elements transposed by SIMD shuffles, for Tensor's transposing copies (Note
// [Transposing copies] in tensor.cc).
#pragma once

#include <cstdint>

namespace sprout {

// dst[c * dst_stride + r] = src[r * src_stride + c] for r < rows, c < cols: the bits moved, not the
// values (float32 NaN payloads and int32 alike).
void transpose_block32(const uint32_t* src, int64_t src_stride, int64_t rows, int64_t cols, uint32_t* dst,
                       int64_t dst_stride);

}  // namespace sprout
