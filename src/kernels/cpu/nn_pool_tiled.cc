// Max pooling whose windows tile the input (stride == window, no padding, every window in bounds):
// the shape of almost every CNN's 2x2/stride-2 pooling. Each input element then belongs to at most
// one window, so the backward writes each gradient once instead of accumulating, and a plane is a
// few kilobytes that stay in L1. oneDNN's pooling on plain NCHW buffers is a reference loop (its fast
// paths want blocked layouts), several times slower than this on LeNet's shapes.
// Ties and NaN follow nn_pool_loops.cc: the first maximum in row-major window order wins, a NaN being
// the maximum (replaces_max).
#include <cstring>

#include "kernels/cpu/nn_pool_kernels.h"
#include "base/parallel.h"

namespace sprout {
namespace {

// Index (y * w + x within the plane) of the first maximum of the window at output (oy, ox).
template <class T>
inline int64_t window_argmax(const Pool2DGeometry& g, const T* plane, int64_t oy, int64_t ox) {
  const T* row = plane + oy * g.kh * g.w + ox * g.kw;
  int64_t best = 0;
  for (int64_t y = 0; y < g.kh; ++y)
    for (int64_t x = 0; x < g.kw; ++x)
      if (replaces_max(row[y * g.w + x], row[best])) best = y * g.w + x;
  return (row - plane) + best;
}

// Runs fn(first plane, end plane) over the (n, c) planes, split across threads.
template <class Fn>
void for_each_planes(const Pool2DGeometry& g, Fn&& fn) {
  parallel_for(g.planes(), std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, g.h * g.w)), fn);
}

}  // namespace

bool pool_windows_tile(const Pool2DGeometry& g) {
  return g.sh == g.kh && g.sw == g.kw && g.pt == 0 && g.pl == 0 && g.oh * g.kh <= g.h && g.ow * g.kw <= g.w;
}

template <class T>
void tiled_max_pool2d_forward(const Pool2DGeometry& g, const T* x, T* y) {
  const int64_t in_plane = g.h * g.w, out_plane = g.oh * g.ow;
  for_each_planes(g, [&](int64_t begin, int64_t end) {
    if (g.kh == 2 && g.kw == 2) {
      if (g.h == 2 * g.oh)  // the planes' rows follow each other with no row left over: one block
        return simd_max_pool2x2_rows(x + begin * in_plane, y + begin * out_plane, (end - begin) * g.oh, g.ow, g.w);
      for (int64_t p = begin; p < end; ++p) simd_max_pool2x2_rows(x + p * in_plane, y + p * out_plane, g.oh, g.ow, g.w);
      return;
    }
    for (int64_t p = begin; p < end; ++p) {
      const T* in = x + p * in_plane;
      T* out = y + p * out_plane;
      for (int64_t oy = 0; oy < g.oh; ++oy)
        for (int64_t ox = 0; ox < g.ow; ++ox) out[oy * g.ow + ox] = in[window_argmax(g, in, oy, ox)];
    }
  });
}

template <class T>
void tiled_max_pool2d_backward(const Pool2DGeometry& g, const T* x, const T* dy, T* dx) {
  const int64_t in_plane = g.h * g.w, out_plane = g.oh * g.ow;
  const bool covered = g.h == g.kh * g.oh && g.w == g.kw * g.ow;  // every input element is in a window
  for_each_planes(g, [&](int64_t begin, int64_t end) {
    if (!covered) std::memset(dx + begin * in_plane, 0, static_cast<size_t>((end - begin) * in_plane) * sizeof(T));
    if (g.kh == 2 && g.kw == 2) {
      if (covered)
        return simd_max_pool2x2_grad_rows(x + begin * in_plane, dy + begin * out_plane, dx + begin * in_plane,
                                          (end - begin) * g.oh, g.ow, g.w);
      for (int64_t p = begin; p < end; ++p)
        simd_max_pool2x2_grad_rows(x + p * in_plane, dy + p * out_plane, dx + p * in_plane, g.oh, g.ow, g.w);
      return;
    }
    if (covered) std::memset(dx + begin * in_plane, 0, static_cast<size_t>((end - begin) * in_plane) * sizeof(T));
    for (int64_t p = begin; p < end; ++p) {
      const T *in = x + p * in_plane, *d = dy + p * out_plane;
      T* out = dx + p * in_plane;
      for (int64_t oy = 0; oy < g.oh; ++oy)
        for (int64_t ox = 0; ox < g.ow; ++ox) out[window_argmax(g, in, oy, ox)] = d[oy * g.ow + ox];
    }
  });
}

template void tiled_max_pool2d_forward<float>(const Pool2DGeometry&, const float*, float*);
template void tiled_max_pool2d_forward<double>(const Pool2DGeometry&, const double*, double*);
template void tiled_max_pool2d_backward<float>(const Pool2DGeometry&, const float*, const float*, float*);
template void tiled_max_pool2d_backward<double>(const Pool2DGeometry&, const double*, const double*, double*);

}  // namespace sprout
