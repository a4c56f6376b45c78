// Highway loops of the vision transforms whose scalar form strides over 3 interleaved channels
// (Note [Highway dynamic dispatch] in kernels/cpu/simd.cc).
#pragma once

#include <cstdint>

namespace sprout::data {

// dst[3p + c] = (src[3p + c] - mean[c]) * inv_std[c] over `pixels` RGB pixels (Normalize on HWC).
void simd_normalize_rgb(const uint8_t* src, float* dst, int64_t pixels, const float mean[3], const float inv_std[3]);
void simd_normalize_rgb(const float* src, float* dst, int64_t pixels, const float mean[3], const float inv_std[3]);

// planes[c * pixels + p] = src[3p + c] (HWC2CHW of a 3-channel image).
void simd_deinterleave_rgb(const uint8_t* src, uint8_t* planes, int64_t pixels);
void simd_deinterleave_rgb(const float* src, float* planes, int64_t pixels);

}  // namespace sprout::data
