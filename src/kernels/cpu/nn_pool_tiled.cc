// Max pooling by 2x2 windows that tile the input (stride 2, no padding, every window in bounds): the
// shape of almost every CNN's downsampling pooling. Each input element then belongs to at most one
// window, so the backward writes each gradient once instead of accumulating, and a plane is a few
// kilobytes that stay in L1. The rows are Highway loops (nn_pool_simd.cc); ties and NaN follow
// replaces_max: the first maximum in row-major window order wins, a NaN being the maximum.
#include <algorithm>
#include <cstring>

#include "base/parallel.h"
#include "kernels/cpu/nn_pool_kernels.h"

namespace sprout {

bool pool_windows_tile(const Pool2DGeometry& g) {
  return g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.pt == 0 && g.pl == 0 && 2 * g.oh <= g.h &&
         2 * g.ow <= g.w;
}

template <class T>
void tiled_max_pool2d_forward(const Pool2DGeometry& g, const T* x, T* y) {
  const int64_t in_plane = g.h * g.w, out_plane = g.oh * g.ow;
  for_plane_ranges(g, [&](int64_t begin, int64_t end) {
    if (g.h == 2 * g.oh)  // the planes' rows follow each other with no row left over: one block
      return simd_max_pool2x2_rows(x + begin * in_plane, y + begin * out_plane, (end - begin) * g.oh, g.ow, g.w);
    for (int64_t p = begin; p < end; ++p) simd_max_pool2x2_rows(x + p * in_plane, y + p * out_plane, g.oh, g.ow, g.w);
  });
}

template <class T>
void tiled_max_pool2d_backward(const Pool2DGeometry& g, const T* x, const T* dy, T* dx) {
  const int64_t in_plane = g.h * g.w, out_plane = g.oh * g.ow;
  const bool covered = g.h == 2 * g.oh && g.w == 2 * g.ow;  // every input element is in a window
  for_plane_ranges(g, [&](int64_t begin, int64_t end) {
    if (covered)
      return simd_max_pool2x2_grad_rows(x + begin * in_plane, dy + begin * out_plane, dx + begin * in_plane,
                                        (end - begin) * g.oh, g.ow, g.w);
    std::memset(dx + begin * in_plane, 0, static_cast<size_t>((end - begin) * in_plane) * sizeof(T));
    for (int64_t p = begin; p < end; ++p)
      simd_max_pool2x2_grad_rows(x + p * in_plane, dy + p * out_plane, dx + p * in_plane, g.oh, g.ow, g.w);
  });
}

template void tiled_max_pool2d_forward<float>(const Pool2DGeometry&, const float*, float*);
template void tiled_max_pool2d_forward<double>(const Pool2DGeometry&, const double*, double*);
template void tiled_max_pool2d_backward<float>(const Pool2DGeometry&, const float*, const float*, float*);
template void tiled_max_pool2d_backward<double>(const Pool2DGeometry&, const double*, const double*, double*);

}  // namespace sprout
