// Pooling as direct loops over each (n, c) plane (Note [Pool2D geometry]): float64 average pooling, and
// max pooling of planes beyond int32 positions. Each output visits the in-bounds part of its window; the
// first maximum wins ties.
#include <algorithm>
#include <cstring>

#include "kernels/cpu/nn_pool_kernels.h"
#include "base/parallel.h"

namespace sprout {
namespace {

struct Window {
  int64_t y0, y1, x0, x1;  // in-bounds rows [y0, y1) and columns [x0, x1)
  int64_t count() const { return (y1 - y0) * (x1 - x0); }
};

Window window(const Pool2DGeometry& g, int64_t oy, int64_t ox) {
  int64_t y = oy * g.sh - g.pt, x = ox * g.sw - g.pl;
  return {std::max<int64_t>(y, 0), std::min(y + g.kh, g.h), std::max<int64_t>(x, 0), std::min(x + g.kw, g.w)};
}

template <class T>
int64_t first_max(const Pool2DGeometry& g, const T* plane, const Window& win) {
  int64_t best = win.y0 * g.w + win.x0;
  for (int64_t y = win.y0; y < win.y1; ++y)
    for (int64_t x = win.x0; x < win.x1; ++x)
      if (replaces_max(plane[y * g.w + x], plane[best])) best = y * g.w + x;
  return best;
}

// Runs fn(plane index) for every (n, c) plane, splitting planes across threads.
template <class Fn>
void for_each_plane(const Pool2DGeometry& g, Fn&& fn) {
  for_plane_ranges(g, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) fn(p);
  });
}

}  // namespace

template <class T>
void loop_pool2d_forward(PoolKind kind, const Pool2DGeometry& g, const T* x, T* y) {
  for_each_plane(g, [&](int64_t p) {
    const T* in = x + p * g.h * g.w;
    T* out = y + p * g.oh * g.ow;
    for (int64_t oy = 0; oy < g.oh; ++oy)
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        Window win = window(g, oy, ox);
        if (kind == PoolKind::Max) {
          out[oy * g.ow + ox] = in[first_max(g, in, win)];
        } else {
          T sum = 0;
          for (int64_t yy = win.y0; yy < win.y1; ++yy)
            for (int64_t xx = win.x0; xx < win.x1; ++xx) sum += in[yy * g.w + xx];
          out[oy * g.ow + ox] = sum / static_cast<T>(win.count());
        }
      }
  });
}

template <class T>
void loop_pool2d_backward(PoolKind kind, const Pool2DGeometry& g, const T* x, const T* dy, T* dx) {
  for_each_plane(g, [&](int64_t p) {
    const T* in = x + p * g.h * g.w;
    const T* d = dy + p * g.oh * g.ow;
    T* out = dx + p * g.h * g.w;
    std::memset(out, 0, static_cast<size_t>(g.h * g.w) * sizeof(T));
    for (int64_t oy = 0; oy < g.oh; ++oy)
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        Window win = window(g, oy, ox);
        T grad = d[oy * g.ow + ox];
        if (kind == PoolKind::Max) {
          out[first_max(g, in, win)] += grad;
        } else {
          T share = grad / static_cast<T>(win.count());
          for (int64_t yy = win.y0; yy < win.y1; ++yy)
            for (int64_t xx = win.x0; xx < win.x1; ++xx) out[yy * g.w + xx] += share;
        }
      }
  });
}

template <class T>
void loop_max_pool2d_gather(const Pool2DGeometry& g, const T* x, const T* grad, T* r) {
  for_each_plane(g, [&](int64_t p) {
    const T* in = x + p * g.h * g.w;
    for (int64_t oy = 0; oy < g.oh; ++oy)
      for (int64_t ox = 0; ox < g.ow; ++ox)
        r[p * g.oh * g.ow + oy * g.ow + ox] = grad[p * g.h * g.w + first_max(g, in, window(g, oy, ox))];
  });
}

template void loop_pool2d_forward<float>(PoolKind, const Pool2DGeometry&, const float*, float*);
template void loop_pool2d_forward<double>(PoolKind, const Pool2DGeometry&, const double*, double*);
template void loop_pool2d_backward<float>(PoolKind, const Pool2DGeometry&, const float*, const float*, float*);
template void loop_pool2d_backward<double>(PoolKind, const Pool2DGeometry&, const double*, const double*, double*);
template void loop_max_pool2d_gather<float>(const Pool2DGeometry&, const float*, const float*, float*);
template void loop_max_pool2d_gather<double>(const Pool2DGeometry&, const double*, const double*, double*);

}  // namespace sprout
