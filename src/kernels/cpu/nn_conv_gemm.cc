// Float64 convolution as im2col + dgemm, per image and group: the unfolded input `cols`
// (C/g * kH * kW rows, one column per output pixel) turns each pass into one matrix product.
//   forward:        y_g  = W_g  @ cols
//   backward data:  cols = W_g^T @ dy_g, folded back (col2im, accumulating overlaps) into dx
//   backward filter: dW_g += dy_g @ cols^T
#include <cblas.h>

#include <cstring>
#include <vector>

#include "kernels/cpu/nn_conv_kernels.h"

namespace sprout {
namespace {

struct GroupSizes {
  int64_t cg, og, k, hw, ohw;  // channels in / out per group, filter size per output, input/output pixels
};

GroupSizes group_sizes(const Conv2DGeometry& g) {
  int64_t cg = g.c / g.group;
  return {cg, g.o / g.group, cg * g.kh * g.kw, g.h * g.w, g.oh * g.ow};
}

// Visits every (row of cols, output pixel, input offset or -1 when it falls in the padding).
template <class Fn>
void for_each_tap(const Conv2DGeometry& g, int64_t cg, Fn&& fn) {
  for (int64_t ci = 0; ci < cg; ++ci)
    for (int64_t i = 0; i < g.kh; ++i)
      for (int64_t j = 0; j < g.kw; ++j) {
        int64_t row = (ci * g.kh + i) * g.kw + j;
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          int64_t iy = oy * g.sh - g.pt + i * g.dh;
          for (int64_t ox = 0; ox < g.ow; ++ox) {
            int64_t ix = ox * g.sw - g.pl + j * g.dw;
            bool inside = iy >= 0 && iy < g.h && ix >= 0 && ix < g.w;
            fn(row, oy * g.ow + ox, inside ? (ci * g.h + iy) * g.w + ix : -1);
          }
        }
      }
}

template <class T>
void im2col(const Conv2DGeometry& g, int64_t cg, const T* x, T* cols) {
  const int64_t ohw = g.oh * g.ow;
  for_each_tap(g, cg, [&](int64_t row, int64_t p, int64_t src) { cols[row * ohw + p] = src >= 0 ? x[src] : T(0); });
}

template <class T>
void col2im(const Conv2DGeometry& g, int64_t cg, const T* cols, T* x) {
  const int64_t ohw = g.oh * g.ow;
  for_each_tap(g, cg, [&](int64_t row, int64_t p, int64_t dst) {
    if (dst >= 0) x[dst] += cols[row * ohw + p];
  });
}

// C = op(A) op(B) (+ C when accumulate), row-major.
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda, const double* b, int64_t ldb,
          bool accumulate, double* c, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a, lda, b,
              ldb, accumulate ? 1.0 : 0.0, c, ldc);
}
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb,
          bool accumulate, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b,
              ldb, accumulate ? 1.0f : 0.0f, c, ldc);
}

}  // namespace

void gemm_conv2d_forward(const Conv2DGeometry& g, const double* x, const double* w, double* y) {
  GroupSizes s = group_sizes(g);
  std::vector<double> cols(static_cast<size_t>(s.k * s.ohw));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.group; ++grp) {
      im2col(g, s.cg, x + (n * g.c + grp * s.cg) * s.hw, cols.data());
      gemm(false, false, s.og, s.ohw, s.k, w + grp * s.og * s.k, s.k, cols.data(), s.ohw, false,
           y + (n * g.o + grp * s.og) * s.ohw, s.ohw);
    }
}

template <class T>
void gemm_conv2d_backward_data(const Conv2DGeometry& g, const T* dy, const T* w, T* dx) {
  GroupSizes s = group_sizes(g);
  std::vector<T> cols(static_cast<size_t>(s.k * s.ohw));
  std::memset(dx, 0, static_cast<size_t>(g.n * g.c * s.hw) * sizeof(T));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.group; ++grp) {
      gemm(true, false, s.k, s.ohw, s.og, w + grp * s.og * s.k, s.k, dy + (n * g.o + grp * s.og) * s.ohw, s.ohw, false,
           cols.data(), s.ohw);
      col2im(g, s.cg, cols.data(), dx + (n * g.c + grp * s.cg) * s.hw);
    }
}

template void gemm_conv2d_backward_data<float>(const Conv2DGeometry&, const float*, const float*, float*);
template void gemm_conv2d_backward_data<double>(const Conv2DGeometry&, const double*, const double*, double*);

void gemm_conv2d_backward_weights(const Conv2DGeometry& g, const double* dy, const double* x, double* dw) {
  GroupSizes s = group_sizes(g);
  std::vector<double> cols(static_cast<size_t>(s.k * s.ohw));
  std::memset(dw, 0, static_cast<size_t>(g.o * s.k) * sizeof(double));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.group; ++grp) {
      im2col(g, s.cg, x + (n * g.c + grp * s.cg) * s.hw, cols.data());
      gemm(false, true, s.og, s.k, s.ohw, dy + (n * g.o + grp * s.og) * s.ohw, s.ohw, cols.data(), s.ohw, true,
           dw + grp * s.og * s.k, s.k);
    }
}

}  // namespace sprout
