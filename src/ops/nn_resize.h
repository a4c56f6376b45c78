// Attributes of the image resize ops and the coordinate mapping they share with the kernels.
//
// Note [Resize coordinates]
// Output pixel o of an axis resized from `in` to `out` samples the input at
//   src = o * scale                   (default)
//   src = (o + 0.5) * scale - 0.5     (half_pixel_centers)
// with scale = (in - 1) / (out - 1) under align_corners (and out > 1), else in / out, as MindSpore (and
// TensorFlow) define them. Bilinear blends the two neighbours floor(src) and ceil(src), clamped to the
// image; nearest takes floor(src), or round(src) under align_corners. The gradient ops apply the
// transposed maps (each output's gradient added back to the cells it read), so the forward op is in turn
// the bprop of its gradient op.
#pragma once

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct ResizeBilinearAttrs {
  bool align_corners = false;
  bool half_pixel_centers = false;
  std::vector<int64_t> size;
  static constexpr auto fields() {
    return std::tuple{attr("align_corners", &ResizeBilinearAttrs::align_corners, "Map the corner pixels onto each other."),
                      attr("half_pixel_centers", &ResizeBilinearAttrs::half_pixel_centers,
                           "Sample at pixel centers (x + 0.5) * scale - 0.5."),
                      attr("size", &ResizeBilinearAttrs::size, "Output (height, width).").call()};
  }
};

struct ResizeBilinearGradAttrs {
  bool align_corners = false;
  bool half_pixel_centers = false;
  static constexpr auto fields() {
    return std::tuple{attr("align_corners", &ResizeBilinearGradAttrs::align_corners, "As the forward op's."),
                      attr("half_pixel_centers", &ResizeBilinearGradAttrs::half_pixel_centers, "As the forward op's.")};
  }
};

struct ResizeNearestNeighborAttrs {
  std::vector<int64_t> size;
  bool align_corners = false;
  static constexpr auto fields() {
    return std::tuple{attr("size", &ResizeNearestNeighborAttrs::size, "Output (height, width)."),
                      attr("align_corners", &ResizeNearestNeighborAttrs::align_corners,
                           "Map the corner pixels onto each other.")};
  }
};

struct ResizeNearestNeighborGradAttrs {
  bool align_corners = false;
  std::vector<int64_t> size;
  static constexpr auto fields() {
    return std::tuple{attr("align_corners", &ResizeNearestNeighborGradAttrs::align_corners, "As the forward op's."),
                      attr("size", &ResizeNearestNeighborGradAttrs::size, "(height, width) of the forward op's input.")
                          .call()};
  }
};

inline double resize_scale(int64_t in, int64_t out, bool align_corners) {
  return align_corners && out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1)
                                  : static_cast<double>(in) / static_cast<double>(out);
}

// One output coordinate's bilinear sample: input cells lo and hi, blended as (1 - frac) * lo + frac * hi.
struct LinearTap {
  int64_t lo, hi;
  double frac;
};

inline LinearTap linear_tap(int64_t o, int64_t in, int64_t out, bool align_corners, bool half_pixel) {
  double scale = resize_scale(in, out, align_corners);
  double src = half_pixel ? (static_cast<double>(o) + 0.5) * scale - 0.5 : static_cast<double>(o) * scale;
  double floor_src = std::floor(src);
  int64_t lo = std::max<int64_t>(static_cast<int64_t>(floor_src), 0);
  int64_t hi = std::min<int64_t>(static_cast<int64_t>(std::ceil(src)), in - 1);
  return {std::min(lo, in - 1), hi, src - floor_src};
}

inline int64_t nearest_tap(int64_t o, int64_t in, int64_t out, bool align_corners) {
  double src = static_cast<double>(o) * resize_scale(in, out, align_corners);
  int64_t i = static_cast<int64_t>(align_corners ? std::round(src) : std::floor(src));
  return std::min(i, in - 1);
}

}  // namespace sprout
