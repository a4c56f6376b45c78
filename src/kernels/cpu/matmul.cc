// CPU kernels of MatMul and BatchMatMul.
//
// Note [Matmul backend]
// Float32 products go to small_sgemm (Note [Small GEMM]), OpenBLAS (its OpenMP build, so all share
// Sprout's thread pool), oneDNN or, on Intel CPUs with the optional MKL installed, MKL (Note [MKL at run
// time]), whichever measured faster for the problem size: see float32_backend in gemm.cc. Float64 uses OpenBLAS.
// Operands are passed by leading dimension, so transposed views (a permuted tensor) cost no copy.
// BFloat16 goes to oneDNN where the CPU multiplies it natively (onednn::native_bfloat16); other half
// products compute in float32; integers use a plain blocked loop.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "kernels/cpu/gemm.h"
#include "kernels/cpu/onednn.h"
#include "kernels/cpu/convert.h"
#include "base/parallel.h"
#include "ops/matmul.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Integer product: i-k-j order so the inner loop streams both b and c rows.
template <class T>
void int_gemm(const Tensor& a, const Tensor& b, T* c, int64_t m, int64_t n, int64_t k, bool ta, bool tb) {
  const T* pa = static_cast<const T*>(a.raw_data());
  const T* pb = static_cast<const T*>(b.raw_data());
  const int64_t as0 = a.strides()[a.ndim() - 2], as1 = a.strides()[a.ndim() - 1];
  const int64_t bs0 = b.strides()[b.ndim() - 2], bs1 = b.strides()[b.ndim() - 1];
  auto at = [&](int64_t i, int64_t p) { return ta ? pa[p * as0 + i * as1] : pa[i * as0 + p * as1]; };
  auto bt = [&](int64_t p, int64_t j) { return tb ? pb[j * bs0 + p * bs1] : pb[p * bs0 + j * bs1]; };
  std::memset(c, 0, static_cast<size_t>(m * n) * sizeof(T));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      T av = at(i, p);
      for (int64_t j = 0; j < n; ++j) c[i * n + j] = static_cast<T>(c[i * n + j] + av * bt(p, j));
    }
}

// Element offset of batch entry i (row-major over `batch`) in t, whose leading dims are `batch`.
int64_t batch_offset(const Tensor& t, const Shape& batch, int64_t i) {
  int64_t offset = 0;
  for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
    offset += (i % batch[d]) * t.strides()[d];
    i /= batch[d];
  }
  return offset;
}

// t (its batch dims expanded to `batch`) as a dense stack of matrices, its broadcast dims (stride 0) still
// broadcast: the layout oneDNN's fast batched kernels read. Attention's heads are strided views (q of
// (N, L, H, D) seen as (N, H, L, D)): oneDNN's generic strided kernel took them at 0.60 ms for 32 heads
// of 128x64x128 in bfloat16, the copy plus its AMX kernel 0.13.
Tensor dense_except_broadcast(const Tensor& t, const Shape& batch) {
  Tensor own = t;
  for (size_t d = 0; d < batch.size(); ++d)
    if (t.strides()[d] == 0 && batch[d] > 1) {
      const auto dim = static_cast<int64_t>(d);
      own = own.select(dim, 0).unsqueeze(dim);
    }
  Shape swap_last(static_cast<size_t>(own.ndim()));
  std::iota(swap_last.begin(), swap_last.end(), 0);
  std::swap(swap_last[swap_last.size() - 1], swap_last[swap_last.size() - 2]);
  if (own.is_contiguous() || own.permute(swap_last).is_contiguous()) return t;  // dense, maybe transposed
  return own.contiguous().expand(t.shape());
}

// Below this many multiply-adds per entry, a batch runs its entries in parallel, one thread each,
// rather than one after another on all threads: attention's per-head products (128 x 128 x 64) are
// too small for a multi-threaded GEMM to pay for its fork and join, 32 or more times per call.
constexpr int64_t kBatchParallelMaxWork = 256 * 256 * 256;

// c[i] = op(a[i]) op(b[i]) for each batch entry i, a and b already expanded to c's batch shape.
template <class T>
void batched_matmul(Tensor a, Tensor b, T* c, const Shape& batch, int64_t m, int64_t n, int64_t k,
                    const MatMulAttrs& attrs) {
  const int64_t batches = numel(batch);
  if (m == 0 || n == 0 || batches == 0) return;
  if (k == 0) {
    std::fill(c, c + batches * m * n, T(0));
    return;
  }
  if constexpr (std::is_same_v<T, bfloat16>) {
    if (batches > 1) {
      a = dense_except_broadcast(a, batch);
      b = dense_except_broadcast(b, batch);
    }
  }
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, bfloat16>) {
    // The matrices' layout is the same in every entry: checked once, copied once if BLAS can't take it.
    BlasOperand oa, ob;
    if (!as_blas_operand(a, a.raw_data(), attrs.transpose_a, oa)) {
      a = a.contiguous();
      as_blas_operand(a, a.raw_data(), attrs.transpose_a, oa);
    }
    if (!as_blas_operand(b, b.raw_data(), attrs.transpose_b, ob)) {
      b = b.contiguous();
      as_blas_operand(b, b.raw_data(), attrs.transpose_b, ob);
    }
    if constexpr (std::is_same_v<T, bfloat16>) {  // one oneDNN call for the whole batch
      const auto steps = [&](const Tensor& t) {
        return Shape(t.strides().begin(), t.strides().begin() + static_cast<int64_t>(batch.size()));
      };
      if (batches > 1) return batched_gemm(oa, steps(a), ob, steps(b), c, batch, m, n, k);
    }
    auto entry = [&](int64_t i) {
      BlasOperand ai = oa, bi = ob;
      ai.data = static_cast<const T*>(oa.data) + batch_offset(a, batch, i);
      bi.data = static_cast<const T*>(ob.data) + batch_offset(b, batch, i);
      gemm<T>(ai, bi, c + i * m * n, m, n, k);
    };
    if (batches > 1 && m * n * k < kBatchParallelMaxWork) {
      // Inside the parallel region OpenBLAS and oneDNN see omp_in_parallel() and run on one thread.
      parallel_for(batches, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) entry(i);
      });
    } else {
      for (int64_t i = 0; i < batches; ++i) entry(i);
    }
  } else {
    for (int64_t i = 0; i < batches; ++i) {
      Tensor ai = a, bi = b;
      for (int64_t d = static_cast<int64_t>(batch.size()) - 1, rest = i; d >= 0; --d) {
        ai = ai.select(d, rest % batch[d]).unsqueeze(d);  // keep rank; offset moves to the entry
        bi = bi.select(d, rest % batch[d]).unsqueeze(d);
        rest /= batch[d];
      }
      int_gemm<T>(ai, bi, c + i * m * n, m, n, k, attrs.transpose_a, attrs.transpose_b);
    }
  }
}

Tensor cast_to_float(const Tensor& t) {
  Tensor out = Tensor::empty(t.shape(), DType::Float32);
  convert_into(t, out);
  return out;
}

void matmul_kernel(const MatMulAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor a = in[0], b = in[1];
  Tensor& c = out[0];
  const int64_t r = c.ndim();
  const int64_t m = c.shape()[r - 2], n = c.shape()[r - 1];
  const int64_t k = attrs.transpose_a ? a.shape()[a.ndim() - 2] : a.shape()[a.ndim() - 1];
  Tensor c_compute = c;
  const bool native = c.dtype() == DType::BFloat16 && onednn::native_bfloat16();
  if ((c.dtype() == DType::Float16 || c.dtype() == DType::BFloat16) && !native) {  // compute in float32
    a = cast_to_float(a);
    b = cast_to_float(b);
    c_compute = Tensor::empty(c.shape(), DType::Float32);
  }
  // Broadcast the batch dims: view a and b with c's batch shape (stride 0 where broadcast).
  Shape batch(c.shape().begin(), c.shape().end() - 2);
  auto with_batch = [&](const Tensor& t) {
    Shape s = batch;
    s.push_back(t.shape()[t.ndim() - 2]);
    s.push_back(t.shape()[t.ndim() - 1]);
    return t.expand(s);
  };
  visit_dtype(c_compute.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t> ||
                  std::is_same_v<T, int64_t> || std::is_same_v<T, bfloat16>) {
      batched_matmul<T>(with_batch(a), with_batch(b), c_compute.template data<T>(), batch, m, n, k, attrs);
    } else {
      SPROUT_ASSERT(false, "MatMul kernel on ", name(c_compute.dtype()));
    }
  });
  if (!c_compute.shares_storage(c)) convert_into(c_compute, c);
}

// var -= alpha op(x) op(y) (ApplyGradientDescentMatMul): the states arrive as `out`, contiguous. The
// smaller operand is scaled by -alpha into a scratch copy (a gradient's operands are batch-sized,
// the weight is not), and the GEMM accumulates into var: oneDNN's sum post-op alone keeps its fast
// kernels, where a runtime output scale measured 10% slower than a separate update pass.
template <class T>
void gradient_descent_matmul(const MatMulAttrs& attrs, const Tensor& x, const Tensor& y, T alpha, Tensor& var) {
  const int64_t m = var.shape()[0], n = var.shape()[1];
  const int64_t k = attrs.transpose_a ? x.shape()[0] : x.shape()[1];
  if (m == 0 || n == 0 || k == 0) return;
  const bool scale_x = x.numel() <= y.numel();
  Tensor scaled = Tensor::empty((scale_x ? x : y).shape(), var.dtype());
  const T* src = (scale_x ? x : y).template data<T>();
  T* dst = scaled.template data<T>();
  for (int64_t i = 0, count = scaled.numel(); i < count; ++i) dst[i] = -alpha * src[i];
  const Tensor& a_t = scale_x ? scaled : x;
  const Tensor& b_t = scale_x ? y : scaled;
  BlasOperand a, b;
  as_blas_operand(a_t, a_t.raw_data(), attrs.transpose_a, a);
  as_blas_operand(b_t, b_t.raw_data(), attrs.transpose_b, b);
  gemm<T>(a, b, var.template data<T>(), m, n, k, true);
}

void gradient_descent_matmul_kernel(const MatMulAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  const double alpha = in[1].element_as_double(0);  // x and y arrive contiguous (run_in_place)
  if (out[0].dtype() == DType::Float32)
    gradient_descent_matmul<float>(attrs, in[2], in[3], static_cast<float>(alpha), out[0]);
  else
    gradient_descent_matmul<double>(attrs, in[2], in[3], alpha, out[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_matmul) {
  register_kernel<MatMulAttrs>("MatMul", Device::CPU, matmul_kernel);
  register_kernel<MatMulAttrs>("BatchMatMul", Device::CPU, matmul_kernel);
  register_kernel<MatMulAttrs>("ApplyGradientDescentMatMul", Device::CPU, gradient_descent_matmul_kernel);
}

}  // namespace sprout
