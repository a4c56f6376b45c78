// Clamps by a pair of numbers in vectors (ops.clamp(x, lo, hi), hardtanh). The build's baseline (SSE2) has
// no 64-bit or signed 8-bit compares, so the compiler left the integer loops scalar: int64 1024 x 1024,
// two threads, 0.43 ms -> below 0.1 (PyTorch 0.12), dispatched to AVX2 / AVX-512; float32 ran four lanes
// wide: 0.13 -> 0.06 ms (PyTorch 0.05). NaN in x stays NaN (the bounds are numbers here).
#pragma once

#include <cstdint>

namespace sprout {

// out[i] = min(max(x[i], lo), hi) for i < n (lo <= hi is not required: hi wins, as in PyTorch).
void simd_clamp(const int64_t* x, int64_t lo, int64_t hi, int64_t* out, int64_t n);
void simd_clamp(const int32_t* x, int32_t lo, int32_t hi, int32_t* out, int64_t n);
void simd_clamp(const int16_t* x, int16_t lo, int16_t hi, int16_t* out, int64_t n);
void simd_clamp(const int8_t* x, int8_t lo, int8_t hi, int8_t* out, int64_t n);
void simd_clamp(const uint8_t* x, uint8_t lo, uint8_t hi, uint8_t* out, int64_t n);
void simd_clamp(const float* x, float lo, float hi, float* out, int64_t n);
void simd_clamp(const double* x, double lo, double hi, double* out, int64_t n);

}  // namespace sprout
