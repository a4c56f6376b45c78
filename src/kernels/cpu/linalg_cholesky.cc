// CPU kernel of Cholesky: LAPACK's potrf per matrix, on the symmetric part of the input (Note [Cholesky
// symmetrizes its input] in ops/linalg_cholesky.cc). A matrix that is not positive-definite is a ValueError
// naming it.
#include <vector>

#include "kernels/cpu/linalg_batch.h"
#include "kernels/cpu/linalg_lapack.h"
#include "ops/linalg.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

using linalg::MatrixBatch;

// potrf with uplo 'U' on a row-major symmetric matrix's memory leaves U_c (A = U_c^T U_c) column-major in
// the upper triangle, which read row-major is the lower L = U_c^T; 'L' gives the upper factor the same way
// (Note [Row-major matrices in LAPACK]). potrf leaves the other triangle as it was: zeroed here.
template <class T>
void cholesky(const CholeskyAttrs& attrs, const Tensor& x, Tensor& out) {
  const MatrixBatch m = linalg::matrix_batch(x);
  if (m.n == 0 || m.count == 0) return;
  const Tensor contiguous = x.contiguous();
  const T* src = contiguous.data<T>();
  T* dst = out.data<T>();
  const int64_t n = m.n;
  std::vector<int> infos(static_cast<size_t>(m.count), 0);
  linalg::for_matrices(m.count, n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T* a = src + i * n * n;
      T* f = dst + i * n * n;
      for (int64_t row = 0; row < n; ++row)
        for (int64_t col = 0; col < n; ++col) f[row * n + col] = (a[row * n + col] + a[col * n + row]) / T(2);
      infos[static_cast<size_t>(i)] = lapack::potrf(attrs.upper ? 'L' : 'U', static_cast<int>(n), f);
      for (int64_t row = 0; row < n; ++row)
        for (int64_t col = 0; col < n; ++col)
          if (attrs.upper ? col < row : col > row) f[row * n + col] = T(0);
    }
  });
  if (const int64_t bad = linalg::first_failure(infos); bad >= 0)
    throw ValueError(str("Cholesky: 'input_x' must hold symmetric positive-definite matrices, but the matrix",
                         linalg::batch_index_str(m.batch, bad), " is not (its leading minor of order ",
                         infos[static_cast<size_t>(bad)], " is not positive-definite)"));
}

void cholesky_kernel(const CholeskyAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].dtype() == DType::Float32) cholesky<float>(attrs, in[0], out[0]);
  else cholesky<double>(attrs, in[0], out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_linalg_cholesky) {
  register_kernel<CholeskyAttrs>("Cholesky", Device::CPU, cholesky_kernel);
}

}  // namespace sprout
