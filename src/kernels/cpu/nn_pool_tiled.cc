// Max pooling whose windows tile the input (stride == window, no padding, every window in bounds):
// the shape of almost every CNN's 2x2/stride-2 pooling. Each input element then belongs to at most
// one window, so the backward writes each gradient once instead of accumulating, and a plane is a
// few kilobytes that stay in L1. oneDNN's pooling on plain NCHW buffers is a reference loop (its fast
// paths want blocked layouts), several times slower than this on LeNet's shapes.
// Ties and NaN follow nn_pool_loops.cc: the first maximum in row-major window order wins (`>`).
#include <cstring>

#include "kernels/cpu/nn_pool_kernels.h"
#include "kernels/cpu/parallel.h"

namespace sprout {
namespace {

// Index (y * w + x within the plane) of the first maximum of the window at output (oy, ox).
template <class T>
inline int64_t window_argmax(const Pool2DGeometry& g, const T* plane, int64_t oy, int64_t ox) {
  const T* row = plane + oy * g.kh * g.w + ox * g.kw;
  if (g.kh == 2 && g.kw == 2) {  // the common case, unrolled (the compiler turns the ifs into selects)
    int64_t best = 0;
    T m = row[0];
    if (row[1] > m) best = 1, m = row[1];
    if (row[g.w] > m) best = g.w, m = row[g.w];
    if (row[g.w + 1] > m) best = g.w + 1;
    return (row - plane) + best;
  }
  int64_t best = 0;
  for (int64_t y = 0; y < g.kh; ++y)
    for (int64_t x = 0; x < g.kw; ++x)
      if (row[y * g.w + x] > row[best]) best = y * g.w + x;
  return (row - plane) + best;
}

template <class Fn>
void for_each_plane(const Pool2DGeometry& g, Fn&& fn) {
  parallel_for(g.planes(), std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, g.h * g.w)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t p = begin; p < end; ++p) fn(p);
               });
}

}  // namespace

bool pool_windows_tile(const Pool2DGeometry& g) {
  return g.sh == g.kh && g.sw == g.kw && g.pt == 0 && g.pl == 0 && g.oh * g.kh <= g.h && g.ow * g.kw <= g.w;
}

template <class T>
void tiled_max_pool2d_forward(const Pool2DGeometry& g, const T* x, T* y) {
  for_each_plane(g, [&](int64_t p) {
    const T* in = x + p * g.h * g.w;
    T* out = y + p * g.oh * g.ow;
    for (int64_t oy = 0; oy < g.oh; ++oy)
      for (int64_t ox = 0; ox < g.ow; ++ox) out[oy * g.ow + ox] = in[window_argmax(g, in, oy, ox)];
  });
}

template <class T>
void tiled_max_pool2d_backward(const Pool2DGeometry& g, const T* x, const T* dy, T* dx) {
  for_each_plane(g, [&](int64_t p) {
    const T* in = x + p * g.h * g.w;
    const T* d = dy + p * g.oh * g.ow;
    T* out = dx + p * g.h * g.w;
    std::memset(out, 0, static_cast<size_t>(g.h * g.w) * sizeof(T));
    for (int64_t oy = 0; oy < g.oh; ++oy)
      for (int64_t ox = 0; ox < g.ow; ++ox) out[window_argmax(g, in, oy, ox)] = d[oy * g.ow + ox];
  });
}

template void tiled_max_pool2d_forward<float>(const Pool2DGeometry&, const float*, float*);
template void tiled_max_pool2d_forward<double>(const Pool2DGeometry&, const double*, double*);
template void tiled_max_pool2d_backward<float>(const Pool2DGeometry&, const float*, const float*, float*);
template void tiled_max_pool2d_backward<double>(const Pool2DGeometry&, const double*, const double*, double*);

}  // namespace sprout
