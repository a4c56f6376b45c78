// Max pooling of any window, stride, padding and dilation, a plane at a time (Highway; Note [Highway
// dynamic dispatch] in simd.cc): the values, the gradient, MaxPoolGradGrad's gather, and the values with
// their argmax (Note [Max pooling with argmax]).
//
// Note [Max pooling by window taps]
// A vector holds `lanes` consecutive windows of one output row, and each tap (ky, kx) of the window is
// one load of those windows' elements: contiguous with stride 1, de-interleaved with stride 2, gathered
// otherwise. Taps go in row-major window order and a tap replaces the running maximum only when it is
// strictly greater, or the window's first NaN (replaces_max), so both the value and the position agree
// with the scalar loops: the first maximum wins ties, a NaN is the maximum. The position (an offset in
// the plane) rides along in an integer vector where the gradient needs it. Rows of windows clip to the
// input vertically; windows that reach into the left or right padding, a few per row, take the scalar
// loop. The gradient adds each window's dy at its position, within a plane still in L2, so overlapping
// windows (3x3 / 2) add up as they must. A dilated window's taps step by the dilation; with it a
// window can miss the input altogether (a 2-cell window at dilation n + 1 over n cells padded by 1):
// its value is -inf and its position the first input cell of its clipped rows and columns, as in
// Sprout's composite of before. Measurements: Note [Max pooling kernels]. Writing the planes
// around the caches (a scratch plane in L2, then streaming stores) was slower here: the gradient of
// ResNet-50's stem pooling 12.5 -> 16.8 ms.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_pool_windows_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernels/cpu/nn_pool_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The output columns whose windows lie wholly inside the input's columns: [lo, hi).
struct InteriorColumns {
  int64_t lo, hi;
};

InteriorColumns interior_columns(const Pool2DGeometry& g) {
  const int64_t lo = std::min(g.ow, (g.pl + g.sw - 1) / g.sw);
  const int64_t last_start = g.w + g.pl - ((g.kw - 1) * g.dw + 1);  // ox * sw may not exceed it
  const int64_t hi = last_start < 0 ? lo : std::clamp(last_start / g.sw + 1, lo, g.ow);
  return {lo, hi};
}

// The first maximum of window (oy, ox) clipped to the input: its value and offset in the plane; a window
// holding no input cell gives -inf at the first cell of its clipped rows and columns.
template <class T>
std::pair<T, int64_t> first_max_scalar(const Pool2DGeometry& g, const T* plane, int64_t oy, int64_t ox) {
  const int64_t y = oy * g.sh - g.pt, x = ox * g.sw - g.pl;
  const Taps rows = taps_inside(y, g.kh, g.dh, g.h), cols = taps_inside(x, g.kw, g.dw, g.w);
  if (rows.first == rows.last || cols.first == cols.last) {
    const int64_t yy = rows.first < rows.last ? y + rows.first * g.dh : std::clamp<int64_t>(y, 0, g.h - 1);
    const int64_t xx = cols.first < cols.last ? x + cols.first * g.dw : std::clamp<int64_t>(x, 0, g.w - 1);
    return {-std::numeric_limits<T>::infinity(), yy * g.w + xx};
  }
  int64_t best = (y + rows.first * g.dh) * g.w + x + cols.first * g.dw;
  T max = plane[best];
  for (int64_t ky = rows.first; ky < rows.last; ++ky)
    for (int64_t kx = cols.first; kx < cols.last; ++kx) {  // the running maximum in a register
      const int64_t at = (y + ky * g.dh) * g.w + x + kx * g.dw;
      const T v = plane[at];
      const bool take = replaces_max(v, max);
      max = take ? v : max;
      best = take ? at : best;
    }
  return {max, best};
}

// One output row's windows, `lanes` at a time (Note [Max pooling by window taps]). kPositions: also the
// first maximum's offset in the plane, written to at[ox]; values go to out[ox] when out is not null.
template <bool kPositions, class T, class TI>
void max_pool_row(const Pool2DGeometry& g, const T* plane, int64_t oy, T* out, TI* at) {
  const hn::ScalableTag<T> d;
  const hn::RebindToSigned<decltype(d)> di;
  using V = hn::Vec<decltype(d)>;
  using VI = hn::Vec<decltype(di)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t plane_size = g.h * g.w;
  const int64_t y = oy * g.sh - g.pt;
  const Taps rows = taps_inside(y, g.kh, g.dh, g.h);
  HWY_ALIGN TI step[hn::MaxLanes(di)];  // lane l's offset from lane 0: l * sw
  for (int64_t l = 0; l < lanes; ++l) step[l] = static_cast<TI>(l * g.sw);
  const VI lane_offsets = hn::Load(di, step);

  // The `lanes` elements p[l * sw], l < lanes. A de-interleaving load reads one element past the last
  // one used: only where that stays inside the plane.
  auto load = [&](const T* p) -> V {
    if (g.sw == 1) return hn::LoadU(d, p);
    if (g.sw == 2 && (p - plane) + 2 * lanes <= plane_size) {
      V even, odd;
      hn::LoadInterleaved2(d, p, even, odd);
      return even;
    }
    return hn::GatherIndex(d, p, lane_offsets);
  };
  auto windows = [&](int64_t ox) {
    const int64_t col = ox * g.sw - g.pl;
    const int64_t first = (y + rows.first * g.dh) * g.w + col;
    V max = load(plane + first);
    VI pos = hn::Add(lane_offsets, hn::Set(di, static_cast<TI>(first)));
    for (int64_t ky = rows.first; ky < rows.last; ++ky) {
      const int64_t row = (y + ky * g.dh) * g.w + col;
      for (int64_t kx = ky == rows.first ? 1 : 0; kx < g.kw; ++kx) {
        const int64_t offset = row + kx * g.dw;
        const V v = load(plane + offset);
        const auto take = hn::Or(hn::Gt(v, max), hn::AndNot(hn::IsNaN(max), hn::IsNaN(v)));  // replaces_max
        max = hn::IfThenElse(take, v, max);
        if constexpr (kPositions)
          pos = hn::IfThenElse(hn::RebindMask(di, take), hn::Add(lane_offsets, hn::Set(di, static_cast<TI>(offset))), pos);
      }
    }
    if (out) hn::StoreU(max, d, out + ox);
    if constexpr (kPositions) hn::StoreU(pos, di, at + ox);
  };
  auto scalar = [&](int64_t ox) {
    const auto [max, best] = first_max_scalar(g, plane, oy, ox);
    if (out) out[ox] = max;
    if constexpr (kPositions) at[ox] = static_cast<TI>(best);
  };

  // Rows of windows that miss the input (dilated ones only) take the scalar loop.
  const auto [lo, hi] = rows.first < rows.last ? interior_columns(g) : InteriorColumns{0, 0};
  for (int64_t ox = 0; ox < lo; ++ox) scalar(ox);
  if (hi - lo >= lanes) {
    // The last vector overlaps the one before it rather than running past hi: its windows are computed
    // twice, with the same result.
    for (int64_t ox = lo; ox < hi; ox += lanes) windows(std::min(ox, hi - lanes));
  } else {
    for (int64_t ox = lo; ox < hi; ++ox) scalar(ox);
  }
  for (int64_t ox = hi; ox < g.ow; ++ox) scalar(ox);
}

template <class T>
using Position = hn::TFromD<hn::RebindToSigned<hn::ScalableTag<T>>>;

template <class T>
void max_pool_planes_impl(const Pool2DGeometry& g, const T* x, T* y, int64_t begin, int64_t end) {
  for (int64_t p = begin; p < end; ++p)
    for (int64_t oy = 0; oy < g.oh; ++oy)
      max_pool_row<false, T, Position<T>>(g, x + p * g.h * g.w, oy, y + (p * g.oh + oy) * g.ow, nullptr);
}

template <class T>
void max_pool_grad_planes_impl(const Pool2DGeometry& g, const T* x, const T* dy, T* dx, int64_t begin, int64_t end) {
  std::vector<Position<T>> at(static_cast<size_t>(g.ow));
  for (int64_t p = begin; p < end; ++p) {
    T* dplane = dx + p * g.h * g.w;
    std::memset(dplane, 0, static_cast<size_t>(g.h * g.w) * sizeof(T));
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      max_pool_row<true>(g, x + p * g.h * g.w, oy, static_cast<T*>(nullptr), at.data());
      const T* grad = dy + (p * g.oh + oy) * g.ow;
      for (int64_t ox = 0; ox < g.ow; ++ox) dplane[at[ox]] += grad[ox];
    }
  }
}

template <class T>
void max_pool_gather_planes_impl(const Pool2DGeometry& g, const T* x, const T* grad, T* r, int64_t begin,
                                 int64_t end) {
  std::vector<Position<T>> at(static_cast<size_t>(g.ow));
  for (int64_t p = begin; p < end; ++p) {
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      max_pool_row<true>(g, x + p * g.h * g.w, oy, static_cast<T*>(nullptr), at.data());
      const T* gplane = grad + p * g.h * g.w;
      T* row = r + (p * g.oh + oy) * g.ow;
      for (int64_t ox = 0; ox < g.ow; ++ox) row[ox] = gplane[at[ox]];
    }
  }
}

// Values and argmax (Note [Max pooling with argmax]) of planes [begin, end): the positions in the
// argmax's own type A, through a row of the loop's when the two differ. Planes too large for the float32
// loop's int32 positions take the scalar loop.
template <class T, class A>
void max_pool_argmax_planes_impl(const Pool2DGeometry& g, const T* x, T* y, A* argmax, int64_t begin, int64_t end) {
  using P = Position<T>;
  constexpr bool kSameType = std::is_same_v<A, P>;
  const bool vector_positions = g.h * g.w <= std::numeric_limits<P>::max();
  std::vector<P> at(kSameType ? 0 : static_cast<size_t>(g.ow));
  for (int64_t p = begin; p < end; ++p) {
    const T* plane = x + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy) {
      T* out = y + (p * g.oh + oy) * g.ow;
      A* arg = argmax + (p * g.oh + oy) * g.ow;
      if (!vector_positions) {
        for (int64_t ox = 0; ox < g.ow; ++ox) {
          const auto [max, best] = first_max_scalar(g, plane, oy, ox);
          out[ox] = max, arg[ox] = static_cast<A>(best);
        }
      } else if constexpr (kSameType) {
        max_pool_row<true>(g, plane, oy, out, arg);
      } else {
        max_pool_row<true>(g, plane, oy, out, at.data());
        std::copy(at.begin(), at.end(), arg);
      }
    }
  }
}

void MaxPoolPlanesF32(const Pool2DGeometry& g, const float* x, float* y, int64_t begin, int64_t end) {
  max_pool_planes_impl(g, x, y, begin, end);
}
void MaxPoolPlanesF64(const Pool2DGeometry& g, const double* x, double* y, int64_t begin, int64_t end) {
  max_pool_planes_impl(g, x, y, begin, end);
}
void MaxPoolGradPlanesF32(const Pool2DGeometry& g, const float* x, const float* dy, float* dx, int64_t begin,
                          int64_t end) {
  max_pool_grad_planes_impl(g, x, dy, dx, begin, end);
}
void MaxPoolGradPlanesF64(const Pool2DGeometry& g, const double* x, const double* dy, double* dx, int64_t begin,
                          int64_t end) {
  max_pool_grad_planes_impl(g, x, dy, dx, begin, end);
}
void MaxPoolGatherPlanesF32(const Pool2DGeometry& g, const float* x, const float* grad, float* r, int64_t begin,
                            int64_t end) {
  max_pool_gather_planes_impl(g, x, grad, r, begin, end);
}
void MaxPoolGatherPlanesF64(const Pool2DGeometry& g, const double* x, const double* grad, double* r,
                            int64_t begin, int64_t end) {
  max_pool_gather_planes_impl(g, x, grad, r, begin, end);
}

void MaxPoolArgmaxPlanesF32I32(const Pool2DGeometry& g, const float* x, float* y, int32_t* argmax, int64_t begin,
                               int64_t end) {
  max_pool_argmax_planes_impl(g, x, y, argmax, begin, end);
}
void MaxPoolArgmaxPlanesF32I64(const Pool2DGeometry& g, const float* x, float* y, int64_t* argmax, int64_t begin,
                               int64_t end) {
  max_pool_argmax_planes_impl(g, x, y, argmax, begin, end);
}
void MaxPoolArgmaxPlanesF64I32(const Pool2DGeometry& g, const double* x, double* y, int32_t* argmax, int64_t begin,
                               int64_t end) {
  max_pool_argmax_planes_impl(g, x, y, argmax, begin, end);
}
void MaxPoolArgmaxPlanesF64I64(const Pool2DGeometry& g, const double* x, double* y, int64_t* argmax, int64_t begin,
                               int64_t end) {
  max_pool_argmax_planes_impl(g, x, y, argmax, begin, end);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(MaxPoolPlanesF32);
HWY_EXPORT(MaxPoolPlanesF64);
HWY_EXPORT(MaxPoolGradPlanesF32);
HWY_EXPORT(MaxPoolGradPlanesF64);
HWY_EXPORT(MaxPoolGatherPlanesF32);
HWY_EXPORT(MaxPoolGatherPlanesF64);
HWY_EXPORT(MaxPoolArgmaxPlanesF32I32);
HWY_EXPORT(MaxPoolArgmaxPlanesF32I64);
HWY_EXPORT(MaxPoolArgmaxPlanesF64I32);
HWY_EXPORT(MaxPoolArgmaxPlanesF64I64);

void simd_max_pool_planes(const Pool2DGeometry& g, const float* x, float* y, int64_t begin, int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolPlanesF32)(g, x, y, begin, end);
}
void simd_max_pool_planes(const Pool2DGeometry& g, const double* x, double* y, int64_t begin, int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolPlanesF64)(g, x, y, begin, end);
}
void simd_max_pool_grad_planes(const Pool2DGeometry& g, const float* x, const float* dy, float* dx, int64_t begin,
                               int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolGradPlanesF32)(g, x, dy, dx, begin, end);
}
void simd_max_pool_grad_planes(const Pool2DGeometry& g, const double* x, const double* dy, double* dx,
                               int64_t begin, int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolGradPlanesF64)(g, x, dy, dx, begin, end);
}
void simd_max_pool_gather_planes(const Pool2DGeometry& g, const float* x, const float* grad, float* r,
                                 int64_t begin, int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolGatherPlanesF32)(g, x, grad, r, begin, end);
}
void simd_max_pool_gather_planes(const Pool2DGeometry& g, const double* x, const double* grad, double* r,
                                 int64_t begin, int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolGatherPlanesF64)(g, x, grad, r, begin, end);
}
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const float* x, float* y, int32_t* argmax, int64_t begin,
                                 int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolArgmaxPlanesF32I32)(g, x, y, argmax, begin, end);
}
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const float* x, float* y, int64_t* argmax, int64_t begin,
                                 int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolArgmaxPlanesF32I64)(g, x, y, argmax, begin, end);
}
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const double* x, double* y, int32_t* argmax,
                                 int64_t begin, int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolArgmaxPlanesF64I32)(g, x, y, argmax, begin, end);
}
void simd_max_pool_argmax_planes(const Pool2DGeometry& g, const double* x, double* y, int64_t* argmax,
                                 int64_t begin, int64_t end) {
  HWY_DYNAMIC_DISPATCH(MaxPoolArgmaxPlanesF64I64)(g, x, y, argmax, begin, end);
}
}  // namespace sprout
#endif  // HWY_ONCE
