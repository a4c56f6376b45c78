// CPU kernels of MatrixInverse, MatrixDeterminant, LogMatrixDeterminant and MatrixSolve: one LAPACK LU
// factorization (getrf) per matrix, then getri or getrs (Note [Row-major matrices in LAPACK]).
// A singular matrix (an exact zero pivot, LAPACK's info > 0) is a ValueError naming the op and the
// matrix for the inverse and the solve, and a determinant of 0 (sign 0, log -inf) for the others.
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/cpu/linalg_batch.h"
#include "kernels/cpu/linalg_lapack.h"
#include "ops/linalg.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

using linalg::MatrixBatch;

[[noreturn]] void raise_singular(std::string_view op, std::string_view arg, const MatrixBatch& m, int64_t entry,
                                 int info) {
  throw ValueError(str(op, ": '", arg, "' must hold invertible matrices, but the matrix",
                       linalg::batch_index_str(m.batch, entry), " is singular (its LU factorization has an exact "
                       "zero pivot at U[", info - 1, ", ", info - 1, "])"));
}

// The inverse of each matrix, in place in y: y's memory holds A (A^T with `adjoint`), LAPACK's A^T,
// whose inverse read row-major is inv(A).
template <class T>
void inverse(const LinalgAdjointAttrs& attrs, const Tensor& x, Tensor& y) {
  const MatrixBatch m = linalg::matrix_batch(y);
  if (m.n == 0 || m.count == 0) return;
  const int64_t r = x.ndim();
  y.copy_from(attrs.adjoint ? x.transpose(r - 2, r - 1) : x);
  T* data = y.data<T>();
  const int n = static_cast<int>(m.n);
  const int lwork = lapack::getri_work_size<T>(n);
  std::vector<int> infos(static_cast<size_t>(m.count), 0);
  linalg::for_matrices(m.count, m.n, [&](int64_t begin, int64_t end) {
    std::vector<int> ipiv(static_cast<size_t>(n));
    std::vector<T> work(static_cast<size_t>(lwork));
    for (int64_t i = begin; i < end; ++i) {
      T* a = data + i * m.n * m.n;
      int info = lapack::getrf(n, a, ipiv.data());
      if (info == 0) info = lapack::getri(n, a, ipiv.data(), work.data(), lwork);
      infos[static_cast<size_t>(i)] = info;
    }
  });
  if (const int64_t bad = linalg::first_failure(infos); bad >= 0)
    raise_singular("MatrixInverse", "x", m, bad, infos[static_cast<size_t>(bad)]);
}

// Sign and log|det| from getrf's factors of an n x n matrix: the diagonal of U and the parity of the row
// swaps (ipiv is 1-based). Logs accumulate in double; a singular matrix gives (0, -inf), as NumPy's slogdet.
template <class T>
std::pair<double, double> lu_slogdet(const T* lu, const int* ipiv, int64_t n, int info) {
  if (info > 0) return {0.0, -std::numeric_limits<double>::infinity()};
  bool negative = false;
  double log_abs = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double u = static_cast<double>(lu[i * n + i]);
    negative ^= (u < 0) != (ipiv[i] != i + 1);
    log_abs += std::log(std::abs(u));
  }
  return {negative ? -1.0 : 1.0, log_abs};
}

// Calls put(i, sign, log|det|) for each matrix i of x (det(A^T) = det(A): no transpose needed).
template <class T, class Put>
void slogdet_each(const Tensor& x, Put put) {
  const MatrixBatch m = linalg::matrix_batch(x);
  if (m.n == 0) {  // the empty product: det 1
    for (int64_t i = 0; i < m.count; ++i) put(i, 1.0, 0.0);
    return;
  }
  const Tensor contiguous = x.contiguous();
  const T* data = contiguous.data<T>();
  const int n = static_cast<int>(m.n);
  linalg::for_matrices(m.count, m.n, [&](int64_t begin, int64_t end) {
    std::vector<T> lu(static_cast<size_t>(m.n * m.n));
    std::vector<int> ipiv(static_cast<size_t>(n));
    for (int64_t i = begin; i < end; ++i) {
      std::copy(data + i * m.n * m.n, data + (i + 1) * m.n * m.n, lu.begin());
      const int info = lapack::getrf(n, lu.data(), ipiv.data());
      const auto [sign, log_abs] = lu_slogdet(lu.data(), ipiv.data(), m.n, info);
      put(i, sign, log_abs);
    }
  });
}

template <class T>
void determinant(const Tensor& x, Tensor& y) {
  T* out = y.data<T>();
  // sign * exp(log|det|), as NumPy's det: no intermediate product overflows or underflows.
  slogdet_each<T>(x, [out](int64_t i, double sign, double log_abs) {
    out[i] = static_cast<T>(sign == 0 ? 0.0 : sign * std::exp(log_abs));
  });
}

template <class T>
void log_determinant(const Tensor& x, Tensor& sign, Tensor& y) {
  T* out_sign = sign.data<T>();
  T* out_log = y.data<T>();
  slogdet_each<T>(x, [=](int64_t i, double s, double log_abs) {
    out_sign[i] = static_cast<T>(s);
    out_log[i] = static_cast<T>(log_abs);
  });
}

// X = inv(A) B per matrix: getrf on A's memory factors A^T (Note [Row-major matrices in LAPACK]), so
// trans 'T' solves A X = B and 'N' (adjoint) A^T X = B. B's columns are copied out column-major for
// getrs and the solution copied back row-major.
template <class T>
void solve(const LinalgAdjointAttrs& attrs, const Tensor& matrix, const Tensor& rhs, Tensor& x) {
  const MatrixBatch m = linalg::matrix_batch(matrix);
  const int64_t k = rhs.shape()[rhs.ndim() - 1];
  if (m.n == 0 || k == 0 || m.count == 0) return;
  const Tensor a_all = matrix.contiguous(), b_all = rhs.contiguous();
  const T* a_data = a_all.data<T>();
  const T* b_data = b_all.data<T>();
  T* x_data = x.data<T>();
  const int n = static_cast<int>(m.n);
  const char trans = attrs.adjoint ? 'N' : 'T';
  std::vector<int> infos(static_cast<size_t>(m.count), 0);
  linalg::for_matrices(m.count, m.n, [&](int64_t begin, int64_t end) {
    std::vector<T> lu(static_cast<size_t>(m.n * m.n)), columns(static_cast<size_t>(m.n * k));
    std::vector<int> ipiv(static_cast<size_t>(n));
    for (int64_t i = begin; i < end; ++i) {
      std::copy(a_data + i * m.n * m.n, a_data + (i + 1) * m.n * m.n, lu.begin());
      int info = lapack::getrf(n, lu.data(), ipiv.data());
      if (info != 0) {
        infos[static_cast<size_t>(i)] = info;
        continue;
      }
      const T* b = b_data + i * m.n * k;
      for (int64_t row = 0; row < m.n; ++row)
        for (int64_t col = 0; col < k; ++col) columns[col * m.n + row] = b[row * k + col];
      infos[static_cast<size_t>(i)] = lapack::getrs(trans, n, static_cast<int>(k), lu.data(), ipiv.data(),
                                                    columns.data());
      T* out = x_data + i * m.n * k;
      for (int64_t row = 0; row < m.n; ++row)
        for (int64_t col = 0; col < k; ++col) out[row * k + col] = columns[col * m.n + row];
    }
  });
  if (const int64_t bad = linalg::first_failure(infos); bad >= 0)
    raise_singular("MatrixSolve", "matrix", m, bad, infos[static_cast<size_t>(bad)]);
}

void inverse_kernel(const LinalgAdjointAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].dtype() == DType::Float32) inverse<float>(attrs, in[0], out[0]);
  else inverse<double>(attrs, in[0], out[0]);
}

void determinant_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].dtype() == DType::Float32) determinant<float>(in[0], out[0]);
  else determinant<double>(in[0], out[0]);
}

void log_determinant_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].dtype() == DType::Float32) log_determinant<float>(in[0], out[0], out[1]);
  else log_determinant<double>(in[0], out[0], out[1]);
}

void solve_kernel(const LinalgAdjointAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].dtype() == DType::Float32) solve<float>(attrs, in[0], in[1], out[0]);
  else solve<double>(attrs, in[0], in[1], out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_linalg_lu) {
  register_kernel<LinalgAdjointAttrs>("MatrixInverse", Device::CPU, inverse_kernel);
  register_kernel<NoAttrs>("MatrixDeterminant", Device::CPU, determinant_kernel);
  register_kernel<NoAttrs>("LogMatrixDeterminant", Device::CPU, log_determinant_kernel);
  register_kernel<LinalgAdjointAttrs>("MatrixSolve", Device::CPU, solve_kernel);
}

}  // namespace sprout
