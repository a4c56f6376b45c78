// Highway rows of 2x2, stride-2 max pooling (nn_pool_tiled.cc's hot path; Note [Highway dynamic
// dispatch] in simd.cc). Two input rows are loaded de-interleaved into even and odd columns, so one
// vector holds the same corner of `lanes` consecutive windows. The maximum is taken in the scalar
// loop's order (a, then b, c, d replacing it when strictly greater or the first NaN), so ties and NaN
// pick the same element: the first maximum in row-major window order, a NaN being the maximum.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_pool_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>

#include "kernels/cpu/nn_pool_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// replaces_max of nn_pool_kernels.h, lane by lane.
template <class V>
HWY_INLINE auto replaces_max_lanes(V v, V m) {
  return hn::Or(hn::Gt(v, m), hn::AndNot(hn::IsNaN(m), hn::IsNaN(v)));
}

// Which corner of each window holds its first maximum: masks for b, c, d (a where none is set).
template <class D, class V>
struct Corners {
  hn::Mask<D> b, c, d;
  V max;
};

template <class D, class V>
HWY_INLINE Corners<D, V> first_max(V a, V b, V c, V d) {
  V m = a;
  auto take_b = replaces_max_lanes(b, m);
  m = hn::IfThenElse(take_b, b, m);
  auto take_c = replaces_max_lanes(c, m);
  m = hn::IfThenElse(take_c, c, m);
  auto take_d = replaces_max_lanes(d, m);
  m = hn::IfThenElse(take_d, d, m);
  return {take_b, take_c, take_d, m};
}

// Note [Short pooling rows]
// A row's windows go `lanes` at a time; a row at least a vector wide ends with its last `lanes`
// windows, overlapping ones already done (they are written again with the same values). LeNet's pooled
// rows are 14 and 5 windows wide, shorter than one AVX-512 vector of 16; such a row's one vector may
// run on past its end into the following rows, as long as it stays inside the block: what it writes
// there is garbage that those rows overwrite when their turn comes (rows go in order, and every
// output of a later row is written). That needs every element written to belong to some window:
// always true of outputs; true of input gradients only when the windows cover the rows exactly
// (w == 2 ow). Otherwise, and at the block's end, the short row goes through padded buffers.

// Output rows [0, oh) of windows over input rows (2r, 2r + 1) of width `w`, in vectors of d.
template <class D, class T>
void max_pool2x2_rows_in(D d, const T* x, T* y, int64_t oh, int64_t ow, int64_t w) {
  using V = hn::Vec<D>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto windows = [&](const T* p0, const T* p1, T* o) {
    V a, b, c, e;
    hn::LoadInterleaved2(d, p0, a, b);
    hn::LoadInterleaved2(d, p1, c, e);
    hn::StoreU(first_max<D>(a, b, c, e).max, d, o);
  };
  const T *x_end = x + 2 * oh * w, *y_end = y + oh * ow;
  for (int64_t r = 0; r < oh; ++r) {
    const T *r0 = x + 2 * r * w, *r1 = r0 + w;
    T* out = y + r * ow;
    int64_t ox = 0;
    for (; ox + lanes <= ow; ox += lanes) windows(r0 + 2 * ox, r1 + 2 * ox, out + ox);
    if (ox == ow) continue;
    if (ow >= lanes) {  // the row's last `lanes` windows again, overlapping the ones just done
      windows(r0 + 2 * (ow - lanes), r1 + 2 * (ow - lanes), out + ow - lanes);
      continue;
    }
    if (r1 + 2 * lanes <= x_end && out + lanes <= y_end) {  // Note [Short pooling rows]
      windows(r0, r1, out);
      continue;
    }
    const size_t n = static_cast<size_t>(ow - ox);
    HWY_ALIGN T p0[2 * hn::MaxLanes(d)] = {}, p1[2 * hn::MaxLanes(d)] = {}, o[hn::MaxLanes(d)];
    std::memcpy(p0, r0 + 2 * ox, 2 * n * sizeof(T));
    std::memcpy(p1, r1 + 2 * ox, 2 * n * sizeof(T));
    windows(p0, p1, o);
    std::memcpy(out + ox, o, n * sizeof(T));
  }
}

// The gradient of the same: input-gradient rows (2r, 2r + 1) of width w from dy's rows of ow.
template <class D, class T>
void max_pool2x2_grad_rows_in(D d, const T* x, const T* dy, T* dx, int64_t oh, int64_t ow, int64_t w) {
  using V = hn::Vec<D>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto windows = [&](const T* p0, const T* p1, const T* pg, T* o0, T* o1) {
    V a, b, c, e;
    hn::LoadInterleaved2(d, p0, a, b);
    hn::LoadInterleaved2(d, p1, c, e);
    auto k = first_max<D>(a, b, c, e);
    const V g = hn::LoadU(d, pg);
    // A later corner's mask means it beat every earlier one: the last mask set is the first maximum.
    const auto not_d = hn::Not(k.d), not_cd = hn::AndNot(k.c, not_d);
    const V gd = hn::IfThenElseZero(k.d, g);
    const V gc = hn::IfThenElseZero(hn::And(k.c, not_d), g);
    const V gb = hn::IfThenElseZero(hn::And(k.b, not_cd), g);
    const V ga = hn::IfThenZeroElse(hn::Or(k.b, hn::Or(k.c, k.d)), g);
    hn::StoreInterleaved2(ga, gb, d, o0);
    hn::StoreInterleaved2(gc, gd, d, o1);
  };
  const T *x_end = x + 2 * oh * w, *dy_end = dy + oh * ow;
  const bool exact = w == 2 * ow;
  for (int64_t r = 0; r < oh; ++r) {
    const T *r0 = x + 2 * r * w, *r1 = r0 + w, *g = dy + r * ow;
    T *d0 = dx + 2 * r * w, *d1 = d0 + w;
    int64_t ox = 0;
    for (; ox + lanes <= ow; ox += lanes) windows(r0 + 2 * ox, r1 + 2 * ox, g + ox, d0 + 2 * ox, d1 + 2 * ox);
    if (ox == ow) continue;
    if (ow >= lanes) {  // the row's last `lanes` windows again, overlapping the ones just done
      const int64_t at = ow - lanes;
      windows(r0 + 2 * at, r1 + 2 * at, g + at, d0 + 2 * at, d1 + 2 * at);
      continue;
    }
    // Row 2r's vector runs on into row 2r + 1, which the second store then writes whole.
    if (exact && r1 + 2 * lanes <= x_end && g + lanes <= dy_end) {  // Note [Short pooling rows]
      windows(r0, r1, g, d0, d1);
      continue;
    }
    const size_t n = static_cast<size_t>(ow - ox);
    HWY_ALIGN T p0[2 * hn::MaxLanes(d)] = {}, p1[2 * hn::MaxLanes(d)] = {}, pg[hn::MaxLanes(d)] = {};
    HWY_ALIGN T o0[2 * hn::MaxLanes(d)], o1[2 * hn::MaxLanes(d)];
    std::memcpy(p0, r0 + 2 * ox, 2 * n * sizeof(T));
    std::memcpy(p1, r1 + 2 * ox, 2 * n * sizeof(T));
    std::memcpy(pg, g + ox, n * sizeof(T));
    windows(p0, p1, pg, o0, o1);
    std::memcpy(d0 + 2 * ox, o0, 2 * n * sizeof(T));
    std::memcpy(d1 + 2 * ox, o1, 2 * n * sizeof(T));
  }
}

// Note [Half-width pooling vectors]
// Rows at most half a vector wide go in half-width vectors: a row's vector then wastes fewer lanes,
// and on Zen 4, which runs AVX-512's shuffles (the de-interleaving loads) at half rate, 256-bit ones
// cost a quarter as much. LeNet's second pooling (64x16x10x10, 5 windows a row), two threads,
// alternating builds: forward 15.6-16.0 -> 10.7-11.3 us, backward 21.1-21.5 -> 12.4-12.6 us.
template <class T, class Run>
HWY_INLINE void in_vectors_for(int64_t ow, const Run& run) {
  const hn::ScalableTag<T> d;
  if constexpr (hn::MaxLanes(d) >= 8) {
    if (2 * ow <= static_cast<int64_t>(hn::Lanes(d))) return run(hn::Half<decltype(d)>());
  }
  run(d);
}

template <class T>
void max_pool2x2_rows_impl(const T* x, T* y, int64_t oh, int64_t ow, int64_t w) {
  in_vectors_for<T>(ow, [&](auto d) { max_pool2x2_rows_in(d, x, y, oh, ow, w); });
}

template <class T>
void max_pool2x2_grad_rows_impl(const T* x, const T* dy, T* dx, int64_t oh, int64_t ow, int64_t w) {
  in_vectors_for<T>(ow, [&](auto d) { max_pool2x2_grad_rows_in(d, x, dy, dx, oh, ow, w); });
}

void MaxPool2x2RowsF32(const float* x, float* y, int64_t oh, int64_t ow, int64_t w) {
  max_pool2x2_rows_impl(x, y, oh, ow, w);
}
void MaxPool2x2RowsF64(const double* x, double* y, int64_t oh, int64_t ow, int64_t w) {
  max_pool2x2_rows_impl(x, y, oh, ow, w);
}
void MaxPool2x2GradRowsF32(const float* x, const float* dy, float* dx, int64_t oh, int64_t ow, int64_t w) {
  max_pool2x2_grad_rows_impl(x, dy, dx, oh, ow, w);
}
void MaxPool2x2GradRowsF64(const double* x, const double* dy, double* dx, int64_t oh, int64_t ow, int64_t w) {
  max_pool2x2_grad_rows_impl(x, dy, dx, oh, ow, w);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(MaxPool2x2RowsF32);
HWY_EXPORT(MaxPool2x2RowsF64);
HWY_EXPORT(MaxPool2x2GradRowsF32);
HWY_EXPORT(MaxPool2x2GradRowsF64);

void simd_max_pool2x2_rows(const float* x, float* y, int64_t oh, int64_t ow, int64_t w) {
  HWY_DYNAMIC_DISPATCH(MaxPool2x2RowsF32)(x, y, oh, ow, w);
}
void simd_max_pool2x2_rows(const double* x, double* y, int64_t oh, int64_t ow, int64_t w) {
  HWY_DYNAMIC_DISPATCH(MaxPool2x2RowsF64)(x, y, oh, ow, w);
}
void simd_max_pool2x2_grad_rows(const float* x, const float* dy, float* dx, int64_t oh, int64_t ow, int64_t w) {
  HWY_DYNAMIC_DISPATCH(MaxPool2x2GradRowsF32)(x, dy, dx, oh, ow, w);
}
void simd_max_pool2x2_grad_rows(const double* x, const double* dy, double* dx, int64_t oh, int64_t ow, int64_t w) {
  HWY_DYNAMIC_DISPATCH(MaxPool2x2GradRowsF64)(x, dy, dx, oh, ow, w);
}
}  // namespace sprout
#endif  // HWY_ONCE
