// CPU kernel of Qr: LAPACK's Householder geqrf, then orgqr to form Q, per matrix. A is copied in
// column-major order first (Note [Row-major matrices in LAPACK]: geqrf on A's memory would factor A^T).
#include <algorithm>
#include <vector>

#include "kernels/cpu/linalg_batch.h"
#include "kernels/cpu/linalg_lapack.h"
#include "ops/linalg.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

template <class T>
void qr(const QrAttrs& attrs, const Tensor& x, Tensor& q_out, Tensor& r_out) {
  const int64_t rank = x.ndim();
  const int64_t m = x.shape()[rank - 2], n = x.shape()[rank - 1], p = std::min(m, n);
  const int64_t count = numel(std::span<const int64_t>(x.shape().data(), static_cast<size_t>(rank - 2)));
  const int64_t q_cols = attrs.full_matrices ? m : p, r_rows = q_cols;
  if (count == 0 || m == 0) return;  // Q and R are empty
  T* q_data = q_out.data<T>();
  T* r_data = r_out.data<T>();
  if (n == 0) {  // no columns to factor: R is empty; a full Q is the identity (a reduced one is empty)
    if (q_cols == m) {
      std::fill(q_data, q_data + count * m * m, T(0));
      for (int64_t i = 0; i < count; ++i)
        for (int64_t d = 0; d < m; ++d) q_data[(i * m + d) * m + d] = T(1);
    }
    return;
  }
  const Tensor contiguous = x.contiguous();
  const T* src = contiguous.data<T>();
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), pi = static_cast<int>(p);
  const int qi = static_cast<int>(q_cols);
  int lwork = 1;
  {
    T query = 0, dummy = 0;
    lapack::geqrf(mi, ni, &dummy, &dummy, &query, -1);
    lwork = std::max(lwork, static_cast<int>(query));
    lapack::orgqr(mi, qi, pi, &dummy, &dummy, &query, -1);
    lwork = std::max(lwork, static_cast<int>(query));
  }
  // geqrf and orgqr fail only on invalid arguments: nothing a user can cause, so no info to report.
  linalg::for_matrices(count, p, [&](int64_t begin, int64_t end) {
    std::vector<T> a(static_cast<size_t>(m * n)), q(static_cast<size_t>(m * q_cols)), tau(static_cast<size_t>(p)),
        work(static_cast<size_t>(lwork));
    for (int64_t i = begin; i < end; ++i) {
      const T* ai = src + i * m * n;
      for (int64_t row = 0; row < m; ++row)
        for (int64_t col = 0; col < n; ++col) a[col * m + row] = ai[row * n + col];
      lapack::geqrf(mi, ni, a.data(), tau.data(), work.data(), lwork);
      // R: the upper triangle of geqrf's result, its first r_rows rows (rows p.. are zero).
      T* r = r_data + i * r_rows * n;
      for (int64_t row = 0; row < r_rows; ++row)
        for (int64_t col = 0; col < n; ++col) r[row * n + col] = row <= col ? a[col * m + row] : T(0);
      // Q from the p reflectors in the first p columns.
      std::copy(a.begin(), a.begin() + m * p, q.begin());
      lapack::orgqr(mi, qi, pi, q.data(), tau.data(), work.data(), lwork);
      T* qi_out = q_data + i * m * q_cols;
      for (int64_t row = 0; row < m; ++row)
        for (int64_t col = 0; col < q_cols; ++col) qi_out[row * q_cols + col] = q[col * m + row];
    }
  });
}

void qr_kernel(const QrAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  if (in[0].dtype() == DType::Float32) qr<float>(attrs, in[0], out[0], out[1]);
  else qr<double>(attrs, in[0], out[0], out[1]);
}

}  // namespace

SPROUT_REGISTER(cpu_linalg_qr) {
  register_kernel<QrAttrs>("Qr", Device::CPU, qr_kernel);
}

}  // namespace sprout
