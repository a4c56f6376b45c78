// p-norm distances between two sets of rows (Cdist), in Highway vectors.
//
// Note [Distances by tiles]
// Distances are accumulated like a matrix product's tiles: four rows of the first set against two vectors
// of the second set's rows, whose features are transposed beforehand (bt, M x R) so that the distances from
// one row to consecutive rows of the second set fill a vector; per feature, two loads, four broadcasts and
// eight differences folded into eight accumulators. The differences themselves are taken, never the
// |a|^2 + |b|^2 - 2 a.b of a matrix product (PyTorch's route for p = 2 beyond 25 rows): that one cancels to
// an error of about sqrt(eps) |a| for near points and gives identical points a distance of 1e-3 or so.
// 2048 x 1024 rows of 64 float32 features, p = 2, two threads: 155 ms (ops.cdist's broadcast difference
// tensor, 512 MB) -> 1.9-2.2 ms (PyTorch, by a matrix product, 2.4).
#pragma once

#include <cstdint>

namespace sprout {

// The second set is packed in panels of this many of its rows (zero-padded at the end), each panel M x 32
// with its 32 rows' k-th features adjacent: feature k of row j at ((j / 32) * M + k) * 32 + j % 32. A tile
// then reads its panel in order, where a whole transposed M x R matrix would have had it read rows R apart
// (4 KB apart for R = 1024: every load in one L1 set).
inline constexpr int64_t kCdistPanel = 32;

// out[i * R + j] = (sum over k of |a[i * M + k] - b(j, k)|^p)^(1/p) for rows i in [row_begin, row_end), b
// packed in bt (p = inf: the largest |difference|; p = 0: the number of differences that are not 0).
void simd_cdist(double p, const float* a, const float* bt, int64_t M, int64_t R, int64_t row_begin,
                int64_t row_end, float* out);
void simd_cdist(double p, const double* a, const double* bt, int64_t M, int64_t R, int64_t row_begin,
                int64_t row_end, double* out);

}  // namespace sprout
