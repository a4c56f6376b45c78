// CPU kernel of Svd: LAPACK's divide-and-conquer gesdd per matrix (Note [Row-major matrices in LAPACK]: on
// A's memory it decomposes A^T, whose VT is A's U as it lies and whose U is A's V, transposed into place).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/linalg_batch.h"
#include "kernels/cpu/linalg_lapack.h"
#include "ops/linalg.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// The info recorded for a matrix holding NaN or infinity: gesdd would reject it (info -4, with a message
// on stderr) or not converge, so it is not called.
constexpr int kNonFinite = std::numeric_limits<int>::min();

// Every n x n matrix of `t` (contiguous) set to the identity.
template <class T>
void fill_identities(Tensor& t, int64_t count, int64_t n) {
  T* p = t.data<T>();
  std::fill(p, p + count * n * n, T(0));
  for (int64_t i = 0; i < count; ++i)
    for (int64_t d = 0; d < n; ++d) p[(i * n + d) * n + d] = T(1);
}

template <class T>
void svd(const SvdAttrs& attrs, const Tensor& x, Tensor& s_out, Tensor& u_out, Tensor& v_out) {
  const int64_t rank = x.ndim();
  const int64_t m = x.shape()[rank - 2], n = x.shape()[rank - 1], p = std::min(m, n);
  const Shape batch(x.shape().begin(), x.shape().end() - 2);
  const int64_t count = numel(batch);
  const bool uv = attrs.compute_uv, full = attrs.full_matrices;
  const int64_t u_cols = full ? m : p, v_cols = full ? n : p;
  if (count == 0) return;
  if (p == 0) {  // an empty matrix: no singular values; its full factors are identities, as NumPy's
    if (uv && full) {
      fill_identities<T>(u_out, count, m);
      fill_identities<T>(v_out, count, n);
    }
    return;
  }
  const Tensor contiguous = x.contiguous();
  const T* src = contiguous.data<T>();
  T* s_data = s_out.data<T>();
  T* u_data = uv ? u_out.data<T>() : nullptr;
  T* v_data = uv ? v_out.data<T>() : nullptr;
  // LAPACK decomposes A^T: n x m. Its U (n x v_cols) is our V; its VT (u_cols x m) is our U.
  const int lm = static_cast<int>(n), ln = static_cast<int>(m);
  const char jobz = !uv ? 'N' : full ? 'A' : 'S';
  const int ldu = lm, ldvt = uv ? static_cast<int>(u_cols) : 1;
  int lwork = 0;
  {
    T query = 0, dummy = 0;
    int idummy = 0;
    lapack::gesdd(jobz, lm, ln, &dummy, &dummy, &dummy, ldu, &dummy, ldvt, &query, -1, &idummy);
    lwork = std::max(1, static_cast<int>(query));
  }
  std::vector<int> infos(static_cast<size_t>(count), 0);
  linalg::for_matrices(count, p, [&](int64_t begin, int64_t end) {
    std::vector<T> a(static_cast<size_t>(m * n)), lapack_u(static_cast<size_t>(uv ? n * v_cols : 1)),
        work(static_cast<size_t>(lwork)), unused_vt(1);
    std::vector<int> iwork(static_cast<size_t>(8 * p));
    for (int64_t i = begin; i < end; ++i) {
      std::copy(src + i * m * n, src + (i + 1) * m * n, a.begin());
      if (!std::all_of(a.begin(), a.end(), [](T value) { return std::isfinite(value); })) {
        infos[static_cast<size_t>(i)] = kNonFinite;
        continue;
      }
      T* vt = uv ? u_data + i * m * u_cols : unused_vt.data();
      infos[static_cast<size_t>(i)] = lapack::gesdd(jobz, lm, ln, a.data(), s_data + i * p, lapack_u.data(), ldu, vt,
                                                    ldvt, work.data(), lwork, iwork.data());
      if (!uv) continue;
      T* v = v_data + i * n * v_cols;
      for (int64_t row = 0; row < n; ++row)
        for (int64_t col = 0; col < v_cols; ++col) v[row * v_cols + col] = lapack_u[col * n + row];
    }
  });
  if (const int64_t bad = linalg::first_failure(infos); bad >= 0) {
    const int info = infos[static_cast<size_t>(bad)];
    SPROUT_CHECK(info != kNonFinite, ValueError, "Svd: 'input' must hold finite values, but the matrix",
                 linalg::batch_index_str(batch, bad), " holds NaN or infinity");
    SPROUT_ASSERT(info > 0, "gesdd rejected argument ", -info);
    throw ValueError(str("Svd: the decomposition of the matrix", linalg::batch_index_str(batch, bad),
                         " of 'input' did not converge (LAPACK gesdd info ", info, ")"));
  }
}

void svd_kernel(const SvdAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  if (in[0].dtype() == DType::Float32) svd<float>(attrs, in[0], out[0], out[1], out[2]);
  else svd<double>(attrs, in[0], out[0], out[1], out[2]);
}

}  // namespace

SPROUT_REGISTER(cpu_linalg_svd) {
  register_kernel<SvdAttrs>("Svd", Device::CPU, svd_kernel);
}

}  // namespace sprout
