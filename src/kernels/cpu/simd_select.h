// Select and MaskedFill's inner loop in Highway vectors: each bool byte widened to a lane mask, then a
// blend of 4- or 8-byte values (any dtype of that size: the blend moves bits). The baseline build kept
// the byte-to-lane widening scalar. 1M float32, two threads: Select 0.48 -> 0.23 ms, with a broadcast
// value 0.53 -> 0.11 (MaskedFill alike).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sprout {

// out[i] = c[i * sc] ? x[i * sx] : y[i * sy] over values of `size` bytes, each stride 0 (one value
// broadcast) or 1. False, writing nothing, for sizes other than 4 and 8.
bool simd_select(size_t size, const bool* c, int64_t sc, const void* x, int64_t sx, const void* y, int64_t sy,
                 void* out, int64_t n);

}  // namespace sprout
