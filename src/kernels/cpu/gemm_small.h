// Float32 GEMM for products too small for a BLAS call to pay off (Note [Small GEMM] in gemm_small.cc).
#pragma once

#include <cstdint>

#include "kernels/cpu/gemm.h"

namespace sprout {

// From this many multiply-adds small_sgemm splits a product across threads; below it one thread does
// all: starting the second costs more than it saves (Xeon: 48^3 3.4 us on two threads, 2.4 on one; 64^3
// 4.4 either way).
inline constexpr int64_t kSmallGemmParallelWork = 72 * 72 * 72;
// Columns of small_sgemm's register tile with AVX-512 (two vectors).
inline constexpr int64_t kSmallGemmTileColumns = 32;

// C (m x n, leading dimension n) = op(A) op(B), or with `accumulate` C = op(A) op(B) + C, for float32
// operands as gemm() takes them. Each element's sum over k runs in an order fixed by the shape: the
// result does not depend on the thread count.
void small_sgemm(const BlasOperand& a, const BlasOperand& b, float* c, int64_t m, int64_t n, int64_t k,
                 bool accumulate);

}  // namespace sprout
