// Batches of matrices for the linear-algebra kernels: where each matrix's LAPACK call runs, and how a
// failed one is named in the error.
//
// LAPACK reports a singular or indefinite matrix through `info`, and a kernel may not throw inside a
// parallel region: each matrix's info is recorded, and the kernel raises after the region for the
// first matrix that failed (the same one whatever the thread count).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "base/parallel.h"
#include "base/shape.h"
#include "tensor/tensor.h"

namespace sprout::linalg {

// Below this many multiply-adds per matrix (about n^3) a batch runs its matrices in parallel, one
// thread each (LAPACK then runs single-threaded, seeing omp_in_parallel()); above it they run one
// after another, each on all of OpenBLAS's threads. As BatchMatMul does (kBatchParallelMaxWork).
inline constexpr int64_t kMatrixParallelMaxWork = 256 * 256 * 256;

// A batch of n x n matrices (..., n, n): its batch shape and how many matrices it holds.
struct MatrixBatch {
  Shape batch;
  int64_t count;
  int64_t n;
};

inline MatrixBatch matrix_batch(const Tensor& t) {
  Shape batch(t.shape().begin(), t.shape().end() - 2);
  const int64_t count = numel(batch);
  return {std::move(batch), count, t.shape()[t.ndim() - 2]};
}

// Calls fn(begin, end) over the matrices [0, count) of a batch of n x n matrices, split across threads
// when each is small. fn must not throw.
template <class Fn>
void for_matrices(int64_t count, int64_t n, Fn&& fn) {
  const int64_t work = n * n * n;
  if (count > 1 && work < kMatrixParallelMaxWork) {
    // Enough tiny matrices per thread that a thread's share outweighs starting it.
    parallel_for(count, std::max<int64_t>(1, 4096 / std::max<int64_t>(work, 1)), fn);
  } else if (count > 0) {
    fn(int64_t{0}, count);
  }
}

// The first matrix whose LAPACK info is nonzero, or -1 when every one succeeded.
inline int64_t first_failure(const std::vector<int>& infos) {
  auto it = std::find_if(infos.begin(), infos.end(), [](int info) { return info != 0; });
  return it == infos.end() ? -1 : static_cast<int64_t>(it - infos.begin());
}

// " at batch index (1, 0)" for matrix `flat` (row-major) of a batch of shape `batch`; "" when the input
// is a single matrix.
inline std::string batch_index_str(const Shape& batch, int64_t flat) {
  if (batch.empty()) return "";
  Shape index(batch.size(), 0);
  for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
    index[d] = flat % batch[d];
    flat /= batch[d];
  }
  return " at batch index " + shape_str(index);
}

}  // namespace sprout::linalg
