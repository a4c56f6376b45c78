// Convolution as im2col + gemm, per image and group: the unfolded input `cols` (C/g * kernel volume
// rows, one column per output position) turns each pass into one matrix product.
//   forward:         y_g  = W_g  @ cols
//   backward data:   cols = W_g^T @ dy_g, folded back (col2im, accumulating overlaps) into dx
//   backward filter: dW_g += dy_g @ cols^T
// Geometry is 3-d; a 2-d convolution is one of depth 1 (Note [Conv2D geometry]).
#include <cblas.h>

#include <cstring>
#include <vector>

#include "kernels/cpu/nn_conv_kernels.h"

namespace sprout {
namespace {

struct GroupSizes {
  int64_t cg, og, k, in, out;  // channels in / out per group, filter size per output, input/output volume
};

GroupSizes group_sizes(const ConvGeometry& g) {
  int64_t cg = g.c / g.group;
  return {cg, g.o / g.group, cg * g.k_volume(), g.in_volume(), g.out_volume()};
}

// Input offset along one axis of output position `o` and kernel tap `t`, or -1 in the padding.
inline int64_t source(const ConvGeometry& g, int axis, int64_t o, int64_t t) {
  int64_t i = o * g.stride[axis] - g.pad_before[axis] + t * g.dilation[axis];
  return i >= 0 && i < g.in[axis] ? i : -1;
}

// Visits every (row of cols, output position, input offset or -1 when it falls in the padding).
template <class Fn>
void for_each_tap(const ConvGeometry& g, int64_t cg, Fn&& fn) {
  for (int64_t ci = 0; ci < cg; ++ci)
    for (int64_t a = 0; a < g.k[0]; ++a)
      for (int64_t b = 0; b < g.k[1]; ++b)
        for (int64_t c = 0; c < g.k[2]; ++c) {
          const int64_t row = ((ci * g.k[0] + a) * g.k[1] + b) * g.k[2] + c;
          int64_t p = 0;
          for (int64_t od = 0; od < g.out[0]; ++od) {
            const int64_t id = source(g, 0, od, a);
            for (int64_t oh = 0; oh < g.out[1]; ++oh) {
              const int64_t ih = source(g, 1, oh, b);
              for (int64_t ow = 0; ow < g.out[2]; ++ow, ++p) {
                const int64_t iw = source(g, 2, ow, c);
                const bool inside = id >= 0 && ih >= 0 && iw >= 0;
                fn(row, p, inside ? ((ci * g.in[0] + id) * g.in[1] + ih) * g.in[2] + iw : -1);
              }
            }
          }
        }
}

template <class T>
void im2col(const ConvGeometry& g, int64_t cg, const T* x, T* cols) {
  const int64_t out = g.out_volume();
  for_each_tap(g, cg, [&](int64_t row, int64_t p, int64_t src) { cols[row * out + p] = src >= 0 ? x[src] : T(0); });
}

template <class T>
void col2im(const ConvGeometry& g, int64_t cg, const T* cols, T* x) {
  const int64_t out = g.out_volume();
  for_each_tap(g, cg, [&](int64_t row, int64_t p, int64_t dst) {
    if (dst >= 0) x[dst] += cols[row * out + p];
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

template <class T>
void gemm_conv_forward(const ConvGeometry& g, const T* x, const T* w, T* y) {
  GroupSizes s = group_sizes(g);
  std::vector<T> cols(static_cast<size_t>(s.k * s.out));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.group; ++grp) {
      im2col(g, s.cg, x + (n * g.c + grp * s.cg) * s.in, cols.data());
      gemm(false, false, s.og, s.out, s.k, w + grp * s.og * s.k, s.k, cols.data(), s.out, false,
           y + (n * g.o + grp * s.og) * s.out, s.out);
    }
}

template <class T>
void gemm_conv_backward_data(const ConvGeometry& g, const T* dy, const T* w, T* dx) {
  GroupSizes s = group_sizes(g);
  std::vector<T> cols(static_cast<size_t>(s.k * s.out));
  std::memset(dx, 0, static_cast<size_t>(g.n * g.c * s.in) * sizeof(T));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.group; ++grp) {
      gemm(true, false, s.k, s.out, s.og, w + grp * s.og * s.k, s.k, dy + (n * g.o + grp * s.og) * s.out, s.out, false,
           cols.data(), s.out);
      col2im(g, s.cg, cols.data(), dx + (n * g.c + grp * s.cg) * s.in);
    }
}

template <class T>
void gemm_conv_backward_weights(const ConvGeometry& g, const T* dy, const T* x, T* dw) {
  GroupSizes s = group_sizes(g);
  std::vector<T> cols(static_cast<size_t>(s.k * s.out));
  std::memset(dw, 0, static_cast<size_t>(g.o * s.k) * sizeof(T));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t grp = 0; grp < g.group; ++grp) {
      im2col(g, s.cg, x + (n * g.c + grp * s.cg) * s.in, cols.data());
      gemm(false, true, s.og, s.k, s.out, dy + (n * g.o + grp * s.og) * s.out, s.out, cols.data(), s.out, true,
           dw + grp * s.og * s.k, s.k);
    }
}

#define SPROUT_INSTANTIATE(T)                                                                   \
  template void gemm_conv_forward<T>(const ConvGeometry&, const T*, const T*, T*);              \
  template void gemm_conv_backward_data<T>(const ConvGeometry&, const T*, const T*, T*);        \
  template void gemm_conv_backward_weights<T>(const ConvGeometry&, const T*, const T*, T*);
SPROUT_INSTANTIATE(float)
SPROUT_INSTANTIATE(double)
#undef SPROUT_INSTANTIATE

}  // namespace sprout
