// Row-major GEMM on raw operands, for kernels that multiply (MatMul, the LSTM recurrence's steps):
// float32 through OpenBLAS, oneDNN or MKL by problem size (Note [Matmul backend] in matmul.cc),
// float64 through OpenBLAS.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/aligned_vector.h"
#include "tensor/tensor.h"

namespace sprout {

// A 2-d operand as BLAS sees it: row-major data with leading dimension `ld`, possibly transposed.
struct BlasOperand {
  const void* data;
  int64_t ld;
  bool trans;
};

// Forces every float32 product onto one backend ("small", "blas", "onednn", "mkl"), or back to the
// choice by size ("auto"): for comparing them in one process (benchmarks/matmul_backends.py).
void set_matmul_backend(const std::string& name);

// Describes the last two dims of `t` (rows x cols, after the user's transpose flag) for BLAS, or
// returns false when neither dimension is unit-stride.
bool as_blas_operand(const Tensor& t, const void* data, bool user_trans, BlasOperand& op);

// C (m x n, leading dimension n) = op(A) op(B), or with `accumulate` C = op(A) op(B) + C. T is float,
// double, or bfloat16 where onednn::native_bfloat16() (accumulated in float32, the result rounded once:
// 1024^3 in 3.0 ms where widening to float32 took 10; PyTorch 2.1).
template <class T>
void gemm(const BlasOperand& a, const BlasOperand& b, T* c, int64_t m, int64_t n, int64_t k, bool accumulate = false);

// C[i] = op(A[i]) op(B[i]) over the `batch` dims (C dense) in one oneDNN call, A's batch dim d stepping
// a_steps[d] elements (0: broadcast along d), likewise B. Attention's per-head products in bfloat16
// (32 x 128x64x128): 0.52 ms as one call per head, 0.11 as one batch. (For float32 one batch measured
// within noise of OpenBLAS per entry, entries split across threads.)
void batched_gemm(const BlasOperand& a, const Shape& a_steps, const BlasOperand& b, const Shape& b_steps,
                  bfloat16* c, const Shape& batch, int64_t m, int64_t n, int64_t k);

// C (m x n) = A op(B) for many A and one B (a weight multiplied at every step of a recurrence). Float32
// problems that gemm chooses oneDNN for by size (Note [Matmul backend]; from 128^3 where MKL takes
// smaller ones) reorder B once into the blocked layout oneDNN's kernel reads, which a plain call repacks
// every time; the rest call gemm, with a B^T copied once into B's row-major layout (the small GEMM
// copied it at every product: 14% of an LSTM layer's forward, 32 x 256 x 1024 per step). A is
// row-major with leading dimension `lda`. B must outlive this object; run() may be called from one thread at a time.
template <class T>
class FixedRightGemm {
 public:
  FixedRightGemm(const BlasOperand& b, int64_t m, int64_t n, int64_t k, int64_t lda);
  ~FixedRightGemm();
  FixedRightGemm(const FixedRightGemm&) = delete;
  FixedRightGemm& operator=(const FixedRightGemm&) = delete;
  void run(const T* a, T* c);

 private:
  struct Packed;
  void copy_transposed_b();
  BlasOperand b_;
  int64_t m_, n_, k_, lda_;
  std::unique_ptr<Packed> packed_;  // set when oneDNN runs the products
  AlignedVector<T> b_transposed_;   // else a B^T copied once, so each product reads B in place
};

extern template class FixedRightGemm<float>;
extern template class FixedRightGemm<double>;

extern template void gemm<float>(const BlasOperand&, const BlasOperand&, float*, int64_t, int64_t, int64_t, bool);
extern template void gemm<double>(const BlasOperand&, const BlasOperand&, double*, int64_t, int64_t, int64_t, bool);

}  // namespace sprout
