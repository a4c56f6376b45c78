// Lerp and Addcmul of float and double rows in Highway vectors, each operand contiguous (stride 1) or one
// value broadcast (stride 0). Same operations in the same order as the scalar loops of math_nary.cc (no
// fused multiply-add), so a result does not depend on the layout that picked the path. The baseline build
// ran them four lanes wide: 1M float32, two threads, lerp by a number 0.19 -> 0.08-0.09 ms, addcmul 0.16 ->
// 0.12-0.13 (PyTorch 0.075, 0.10).
#pragma once

#include <cstdint>

namespace sprout {

// out[i] = start + weight * (end - start), the operands read at i * their stride.
void simd_lerp(const float* start, int64_t ss, const float* end, int64_t se, const float* weight, int64_t sw,
               float* out, int64_t n);
void simd_lerp(const double* start, int64_t ss, const double* end, int64_t se, const double* weight, int64_t sw,
               double* out, int64_t n);

// out[i] = a + (value * x1) * x2, the operands read at i * their stride.
void simd_addcmul(const float* a, int64_t sa, const float* x1, int64_t s1, const float* x2, int64_t s2,
                  const float* value, int64_t sv, float* out, int64_t n);
void simd_addcmul(const double* a, int64_t sa, const double* x1, int64_t s1, const double* x2, int64_t s2,
                  const double* value, int64_t sv, double* out, int64_t n);

}  // namespace sprout
