// A fused elementwise program (ir/fused.h) of binary and unary steps, run a few vectors of each step at
// a time inside one vector routine. Note [Fused blocks]
#pragma once

#include <cstdint>

#include "ir/fused.h"
#include "kernels/cpu/simd.h"

namespace sprout {

// Elements of a step's block: 512 bytes, a whole number of vectors on every target.
template <class T>
inline constexpr int64_t kProgramBlock = 512 / sizeof(T);

// Whether simd_program runs every step of `f`: its steps are all BinaryOp or UnaryOp ones.
bool simd_program_runs(const FusedElementwise& f);

// out[i] = f(inputs)[i] for begin <= i < end. inputs[k] is input k's element 0: the output's length with
// strides[k] == 1, or one element broadcast with strides[k] == 0. `scratch` holds f.steps.size() *
// kProgramBlock<T> elements. With Stores::Streaming the output is written around the caches.
void simd_program(const FusedElementwise& f, const float* const* inputs, const int64_t* strides, float* out,
                  int64_t begin, int64_t end, Stores stores, float* scratch);
void simd_program(const FusedElementwise& f, const double* const* inputs, const int64_t* strides, double* out,
                  int64_t begin, int64_t end, Stores stores, double* scratch);

}  // namespace sprout
