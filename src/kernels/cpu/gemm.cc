// GEMM backends (Note [Matmul backend] in matmul.cc) and FixedRightGemm's reordered weight.
#include "kernels/cpu/gemm.h"

#include <cblas.h>
#include <omp.h>

#include <atomic>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "base/parallel.h"
#include "kernels/cpu/gemm_small.h"
#include "kernels/cpu/mkl_blas.h"
#include "kernels/cpu/onednn.h"

namespace sprout {
namespace {

enum class MatmulBackend { Auto, Small, Blas, OneDnn, Mkl };

// Backend names for SPROUT_MATMUL_BACKEND and set_matmul_backend; anything else is Auto.
MatmulBackend backend_named(const std::string& name) {
  if (name == "onednn") return MatmulBackend::OneDnn;
  if (name == "blas") return MatmulBackend::Blas;
  if (name == "mkl") return MatmulBackend::Mkl;
  if (name == "small") return MatmulBackend::Small;
  return MatmulBackend::Auto;
}

// The backend every float32 product is forced to, Auto for the choice by size: from
// SPROUT_MATMUL_BACKEND=small|blas|onednn|mkl, or set_matmul_backend (benchmarks/matmul_backends.py
// switches it between the calls it compares).
std::atomic<MatmulBackend>& forced_backend_setting() {
  static std::atomic<MatmulBackend> backend{[] {
    const char* env = std::getenv("SPROUT_MATMUL_BACKEND");
    return backend_named(env ? env : "");
  }()};
  return backend;
}

MatmulBackend forced_backend() { return forced_backend_setting().load(std::memory_order_relaxed); }

// Measured with benchmarks/matmul_backends.py (backends interleaved in one process, two threads; Xeon
// "Emerald Rapids", 2026-11-27, median of 9 rounds, in a slow phase of the host; Zen 4, 2026-11-27, 5-7
// rounds). small_sgemm (Note [Small GEMM]) is the fastest or level from the products it splits across
// threads up to SmallGemmLimits::b_in_place when it reads B in place (Xeon: 80^3 9.2 us vs MKL 10.4,
// OpenBLAS 11.2; 96^3 12.1 vs MKL 14.0; 128^3 22.0 vs 23.4; LeNet's 64x400x120 40.5 vs oneDNN 39.7), and
// with B^T up to b_copied where B^T is at least a tile wide, which OpenBLAS multiplies slowly (64^3 5.0 vs
// 7.1; 80^3 11.8 vs MKL 11.0; narrower, OpenBLAS is faster: 64x512x10 5.8 vs 11.3). Plain products small
// enough for one thread go to OpenBLAS, its kernel being slightly faster there (Xeon 64^3 4.1 vs 4.4;
// with its rows split across the threads, as they were before, 5.3; Zen 4 level, 5.7 vs 5.8).
// The limits differ by vendor. On the Xeon, products above 3M multiply-adds ran up to twice as fast in
// oneDNN or MKL (64x784x512: 571 vs 278 us), and MKL multiplies a B^T of 96^3 and more as fast as
// small_sgemm does after copying it. On Zen 4, where oneDNN is the library (MKL trails it there),
// small_sgemm stays ahead to the MLP's products: 64x512x512 149 vs oneDNN 164 us, 64x784x512 231 vs 252,
// its weight gradients 512x64x512 with A^T 159 vs 166, 512x64x784 level (243 vs 239), 192^3 63 vs 66; from
// 1024x256x768 up oneDNN leads (1.89 vs 2.04 ms). With B^T it leads to 192^3 (66 vs 72 us; 96^3 13.3 vs
// 16.4; 64x400x120 35.9 vs 41.7), is level at 128x256x256 (80 vs 82) and behind from 64x512x512 (180 vs
// 165), where copying B^T costs more than oneDNN's own packing. Above the limits, oneDNN beats OpenBLAS
// (Zen 4: 128^3 184 vs 74 GFLOP/s; 1024^3 219 vs 176. Xeon: 128^3 292 vs 179, 64x784x512 352 vs 249,
// level at 1024^3).
struct SmallGemmLimits {
  int64_t b_in_place;  // most multiply-adds for small_sgemm with B read in place
  int64_t b_copied;    // ... with B^T, which it copies
};

const SmallGemmLimits& small_gemm_limits() {
  static const SmallGemmLimits limits = cpu_is_intel() ? SmallGemmLimits{3 * 1024 * 1024, 96 * 96 * 96 - 1}
                                                       : SmallGemmLimits{32 * 1024 * 1024, 8 * 1024 * 1024};
  return limits;
}

enum class SmallBackend { SmallGemm, Blas, Library };

// Which of small_sgemm and OpenBLAS a product goes to by the measurements above, or neither (Library:
// oneDNN or MKL by the constants below).
SmallBackend small_backend(int64_t m, int64_t n, int64_t k, bool b_trans) {
  const int64_t work = m * n * k;
  const SmallGemmLimits& limits = small_gemm_limits();
  if (b_trans) {
    if (work > limits.b_copied) return SmallBackend::Library;
    return n >= kSmallGemmTileColumns ? SmallBackend::SmallGemm : SmallBackend::Blas;
  }
  if (work < kSmallGemmParallelWork) return SmallBackend::Blas;
  return work <= limits.b_in_place ? SmallBackend::SmallGemm : SmallBackend::Library;
}

// With MKL loaded (Xeon, 2026-11-25), MKL beats OpenBLAS from 96^3 up (96^3: 7.5 vs 10.1 us; attention's
// 32 x 128x64x128 batch, one entry per thread: 215 vs 304 us), and oneDNN below 2M multiply-adds and
// from 4M up, transposed operands included (64x784x512 with A^T: 145 vs 212 us; 1024x64x1024: 351 vs
// 370 us); in between oneDNN wins on long, thin products (LeNet's 64x400x120: 25 vs 35 us; 64x784x64:
// 23 vs 31 us). On Zen 4 MKL stays 10-30% behind oneDNN, so it is not used there unasked.
constexpr int64_t kOneDnnOverMklMinWork = 128 * 128 * 128;
constexpr int64_t kMklOverOneDnnMinWork = 4 * 1024 * 1024;

// MKL's sgemm when products of this process may go to MKL (Note [MKL at run time]): unasked only on
// Intel CPUs with the library installed.
MklSgemm mkl_for_products() {
  switch (forced_backend()) {
    case MatmulBackend::Mkl: return mkl_sgemm();
    case MatmulBackend::Auto: {
      static const bool intel = cpu_is_intel();
      return intel ? mkl_sgemm() : nullptr;
    }
    default: return nullptr;
  }
}

// The backend of a float32 product, by size (the constants above). Inside a parallel region (a batch
// running one entry per thread) oneDNN is left out: its stream and primitive cache are shared by the
// process, and entries from two threads measured 2x slower there than on OpenBLAS.
MatmulBackend float32_backend(int64_t m, int64_t n, int64_t k, bool b_trans) {
  const bool one_thread = omp_in_parallel();
  switch (forced_backend()) {
    case MatmulBackend::Auto: break;
    case MatmulBackend::OneDnn: return one_thread ? MatmulBackend::Blas : MatmulBackend::OneDnn;
    case MatmulBackend::Mkl: {
      // Nothing may throw inside a parallel region: there a missing MKL means OpenBLAS, and the next
      // product outside one reports it.
      const bool mkl = mkl_for_products() != nullptr;
      SPROUT_CHECK(mkl || one_thread, RuntimeError, "SPROUT_MATMUL_BACKEND=mkl, but ", mkl_status());
      return mkl ? MatmulBackend::Mkl : MatmulBackend::Blas;
    }
    case MatmulBackend::Small: return MatmulBackend::Small;
    case MatmulBackend::Blas: return MatmulBackend::Blas;
  }
  switch (small_backend(m, n, k, b_trans)) {  // before MKL is looked up: loading it takes time
    case SmallBackend::SmallGemm: return MatmulBackend::Small;
    case SmallBackend::Blas: return MatmulBackend::Blas;
    case SmallBackend::Library: break;
  }
  const int64_t work = m * n * k;
  const bool mkl = mkl_for_products() != nullptr;
  if (one_thread) return mkl ? MatmulBackend::Mkl : MatmulBackend::Blas;
  if (mkl && (work < kOneDnnOverMklMinWork || work >= kMklOverOneDnnMinWork)) return MatmulBackend::Mkl;
  return MatmulBackend::OneDnn;
}

// C = op(A) op(B) through a cached oneDNN matmul primitive, float32 or bfloat16 (accumulating in float32,
// the result rounded once); with `accumulate`, C = op(A) op(B) + C (a sum post-op: one pass over C).
// With `batch` dims, A, B and C are stacks of matrices over them: A's batch dim d steps a_steps[d]
// elements (0: the same matrices along d, which oneDNN takes as a broadcast dim of size 1), likewise B;
// C is dense.
void onednn_gemm(const BlasOperand& a, const BlasOperand& b, void* c, int64_t m, int64_t n, int64_t k, bool accumulate,
                 dnnl::memory::data_type type, const Shape& batch = {}, const Shape& a_steps = {},
                 const Shape& b_steps = {}) {
  using dnnl::memory;
  // Strides of op(A) (m x k) and op(B) (k x n) as row-major matrices with leading dimension ld.
  memory::dims a_strides = a.trans ? memory::dims{1, a.ld} : memory::dims{a.ld, 1};
  memory::dims b_strides = b.trans ? memory::dims{1, b.ld} : memory::dims{b.ld, 1};
  std::string key = str(m, ",", n, ",", k, ",", a_strides[0], ",", a_strides[1], ",", b_strides[0], ",", b_strides[1],
                        accumulate ? ",acc" : "", ",", static_cast<int>(type), ",", shape_str(batch),
                        shape_str(a_steps), shape_str(b_steps));
  auto desc = [&](int64_t rows, int64_t cols, const memory::dims& matrix_strides, const Shape& steps) {
    memory::dims dims, strides;
    for (size_t d = 0; d < batch.size(); ++d) {
      dims.push_back(steps[d] == 0 ? 1 : batch[d]);
      strides.push_back(steps[d] == 0 ? rows * cols : steps[d]);
    }
    dims.insert(dims.end(), {rows, cols});
    strides.insert(strides.end(), matrix_strides.begin(), matrix_strides.end());
    return memory::desc(dims, type, strides);
  };
  Shape c_steps(batch.size());
  for (int64_t d = static_cast<int64_t>(batch.size()) - 1, step = m * n; d >= 0; step *= batch[d], --d)
    c_steps[d] = step;
  memory::desc a_md = desc(m, k, a_strides, a_steps), b_md = desc(k, n, b_strides, b_steps);
  memory::desc c_md = desc(m, n, {n, 1}, c_steps);
  auto& prim = onednn::cached<dnnl::matmul>(key, [&] {
    dnnl::primitive_attr attr;
    if (accumulate) {
      dnnl::post_ops ops;
      ops.append_sum(1.0f);
      attr.set_post_ops(ops);
    }
    return dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), attr, onednn::engine()));
  });
  memory am(a_md, onednn::engine(), const_cast<void*>(a.data));
  memory bm(b_md, onednn::engine(), const_cast<void*>(b.data));
  memory cm(c_md, onednn::engine(), c);
  prim.execute(onednn::stream(), {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
  onednn::stream().wait();
}

bool fits_int32(std::initializer_list<int64_t> sizes) {
  for (int64_t v : sizes)
    if (v > std::numeric_limits<int>::max()) return false;
  return true;
}

}  // namespace

void set_matmul_backend(const std::string& name) {
  SPROUT_CHECK(name.empty() || name == "auto" || backend_named(name) != MatmulBackend::Auto, ValueError,
               "set_matmul_backend: 'name' must be one of 'auto', 'small', 'blas', 'onednn', 'mkl', but got '", name,
               "'");
  forced_backend_setting().store(backend_named(name), std::memory_order_relaxed);
}

bool as_blas_operand(const Tensor& t, const void* data, bool user_trans, BlasOperand& op) {
  int64_t r = t.shape()[t.ndim() - 2], c = t.shape()[t.ndim() - 1];
  int64_t s0 = t.strides()[t.ndim() - 2], s1 = t.strides()[t.ndim() - 1];
  if ((s1 == 1 || c == 1) && s0 >= std::max<int64_t>(c, 1)) {
    op = {data, s0, user_trans};
    return true;
  }
  if ((s0 == 1 || r == 1) && s1 >= std::max<int64_t>(r, 1)) {
    op = {data, s1, !user_trans};
    return true;
  }
  return false;
}

template <class T>
void gemm(const BlasOperand& a, const BlasOperand& b, T* c, int64_t m, int64_t n, int64_t k, bool accumulate) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    return onednn_gemm(a, b, c, m, n, k, accumulate, dnnl::memory::data_type::bf16);
  }
  auto ta = a.trans ? CblasTrans : CblasNoTrans, tb = b.trans ? CblasTrans : CblasNoTrans;
  const T beta = accumulate ? T(1) : T(0);
  if constexpr (std::is_same_v<T, float>) {
    switch (float32_backend(m, n, k, b.trans)) {
      case MatmulBackend::Small:
        return small_sgemm(a, b, c, m, n, k, accumulate);
      case MatmulBackend::OneDnn:
        return onednn_gemm(a, b, c, m, n, k, accumulate, dnnl::memory::data_type::f32);
      case MatmulBackend::Mkl:
        if (fits_int32({a.ld, b.ld, m, n, k}))
          return mkl_for_products()(CblasRowMajor, ta, tb, int(m), int(n), int(k), 1.0f,
                                    static_cast<const float*>(a.data), int(a.ld), static_cast<const float*>(b.data),
                                    int(b.ld), beta, c, int(n));
        break;  // beyond MKL's LP64 interface: OpenBLAS
      default:
        break;
    }
    cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, static_cast<const float*>(a.data), a.ld,
                static_cast<const float*>(b.data), b.ld, beta, c, n);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, static_cast<const double*>(a.data), a.ld,
                static_cast<const double*>(b.data), b.ld, beta, c, n);
  }
}

// The oneDNN side of FixedRightGemm<float>: the primitive, B in its layout, and the scratchpad.
template <class T>
struct FixedRightGemm<T>::Packed {
  dnnl::matmul prim;
  dnnl::memory::desc a_md, c_md;
  onednn::Temporaries temporaries;
  dnnl::memory b, scratchpad;
};

template <class T>
FixedRightGemm<T>::FixedRightGemm(const BlasOperand& b, int64_t m, int64_t n, int64_t k, int64_t lda)
    : b_(b), m_(m), n_(n), k_(k), lda_(lda) {
  if constexpr (std::is_same_v<T, float>) {
    // oneDNN's packed weight serves every product big enough for oneDNN, also where MKL would take a
    // single one: packing B once beats MKL's plain sgemm, which packs it at every call.
    const int64_t work = m * n * k;
    const MatmulBackend forced = forced_backend();
    const bool library = forced == MatmulBackend::Auto
                             ? small_backend(m, n, k, b.trans) == SmallBackend::Library
                             : forced == MatmulBackend::OneDnn || forced == MatmulBackend::Mkl;
    const bool packs =
        library && !omp_in_parallel() && (work >= kOneDnnOverMklMinWork || mkl_for_products() == nullptr);
    if (!packs) {
      copy_transposed_b();
      return;
    }
    using dnnl::memory;
    const std::string key = str("fixed_right:", m, ",", n, ",", k, ",", lda);
    memory::desc a_md({m, k}, memory::data_type::f32, memory::dims{lda, 1});
    memory::desc b_any({k, n}, memory::data_type::f32, memory::format_tag::any);
    memory::desc c_md({m, n}, memory::data_type::f32, memory::dims{n, 1});
    using Built = std::pair<dnnl::matmul::primitive_desc, dnnl::matmul>;
    const auto& [pd, prim] = onednn::cached<Built>(key, [&] {
      dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_any, c_md), onednn::user_scratchpad(),
                                      onednn::engine());
      return Built{pd, dnnl::matmul(pd)};
    });
    packed_.reset(new Packed{prim, a_md, c_md, {}, {}, {}});
    memory::dims b_strides = b.trans ? memory::dims{1, b.ld} : memory::dims{b.ld, 1};
    memory user_b(memory::desc({k, n}, memory::data_type::f32, b_strides), onednn::engine(), const_cast<void*>(b.data));
    packed_->b = packed_->temporaries.memory(pd.weights_desc());
    dnnl::reorder(user_b, packed_->b).execute(onednn::stream(), user_b, packed_->b);
    if (pd.scratchpad_desc().get_size() > 0) packed_->scratchpad = packed_->temporaries.memory(pd.scratchpad_desc());
    onednn::stream().wait();
  }
}

template <class T>
FixedRightGemm<T>::~FixedRightGemm() = default;

template <class T>
void FixedRightGemm<T>::copy_transposed_b() {
  if (!b_.trans) return;
  b_transposed_.resize(static_cast<size_t>(k_ * n_));
  const T* b = static_cast<const T*>(b_.data);  // (n, k) with leading dimension ld
  constexpr int64_t kTile = 32;  // 32 x 32 tiles: neither side's lines leave the cache before they are used up
  parallel_for(n_, std::max<int64_t>(kTile, kParallelGrain / std::max<int64_t>(k_, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t j0 = begin; j0 < end; j0 += kTile)
      for (int64_t i0 = 0; i0 < k_; i0 += kTile)
        for (int64_t j = j0; j < std::min(j0 + kTile, end); ++j)
          for (int64_t i = i0; i < std::min(i0 + kTile, k_); ++i)
            b_transposed_[static_cast<size_t>(i * n_ + j)] = b[j * b_.ld + i];
  });
  b_ = {b_transposed_.data(), n_, false};
}

template <class T>
void FixedRightGemm<T>::run(const T* a, T* c) {
  if (!packed_) return gemm<T>({a, lda_, false}, b_, c, m_, n_, k_);
  dnnl::memory am(packed_->a_md, onednn::engine(), const_cast<T*>(a));
  dnnl::memory cm(packed_->c_md, onednn::engine(), c);
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, packed_->b}, {DNNL_ARG_DST, cm}};
  if (packed_->scratchpad) args.emplace(DNNL_ARG_SCRATCHPAD, packed_->scratchpad);
  packed_->prim.execute(onednn::stream(), args);
  onednn::stream().wait();
}

template class FixedRightGemm<float>;
template class FixedRightGemm<double>;

template void gemm<float>(const BlasOperand&, const BlasOperand&, float*, int64_t, int64_t, int64_t, bool);
template void gemm<double>(const BlasOperand&, const BlasOperand&, double*, int64_t, int64_t, int64_t, bool);
template void gemm<bfloat16>(const BlasOperand&, const BlasOperand&, bfloat16*, int64_t, int64_t, int64_t, bool);

void batched_gemm(const BlasOperand& a, const Shape& a_steps, const BlasOperand& b, const Shape& b_steps,
                  bfloat16* c, const Shape& batch, int64_t m, int64_t n, int64_t k) {
  onednn_gemm(a, b, c, m, n, k, false, dnnl::memory::data_type::bf16, batch, a_steps, b_steps);
}


}  // namespace sprout
