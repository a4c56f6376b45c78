// Highway implementation of simd_cdist.h (Note [Highway dynamic dispatch] in simd.cc; Note [Distances by
// tiles] in simd_cdist.h).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_cdist.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cpu/simd_cdist.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

enum class Norm { Two, One, Max, Count, Power };

// Folds one difference vector into an accumulator, and turns the sum into the distance.
template <Norm N, class D>
struct Fold {
  using V = hn::Vec<D>;
  using T = hn::TFromD<D>;
  V p, inv_p;

  HWY_INLINE V add(D d, V acc, V diff) const {
    if constexpr (N == Norm::Two) return hn::MulAdd(diff, diff, acc);
    if constexpr (N == Norm::One) return hn::Add(acc, hn::Abs(diff));
    if constexpr (N == Norm::Max) {  // NaN wins, as in a sum
      const V size = hn::Abs(diff);
      return hn::IfThenElse(hn::Or(hn::Gt(size, acc), hn::IsNaN(size)), size, acc);
    }
    if constexpr (N == Norm::Count) {
      return hn::Add(acc, hn::IfThenElseZero(hn::Ne(diff, hn::Zero(d)), hn::Set(d, T(1))));
    }
    if constexpr (N == Norm::Power) {  // |diff|^p as exp(p log |diff|), 0 at 0
      const V size = hn::Abs(diff);
      const V power = hn::Exp(d, hn::Mul(p, hn::Log(d, size)));
      return hn::Add(acc, hn::IfThenElse(hn::Eq(size, hn::Zero(d)), hn::Zero(d), power));
    }
  }

  HWY_INLINE V finish(D d, V acc) const {
    if constexpr (N == Norm::Two) return hn::Sqrt(acc);
    if constexpr (N == Norm::Power) {
      const V root = hn::Exp(d, hn::Mul(inv_p, hn::Log(d, acc)));
      return hn::IfThenElse(hn::Eq(acc, hn::Zero(d)), acc, hn::IfThenElse(hn::IsInf(acc), acc, root));
    }
    return acc;
  }
};

// Distances from ROWS rows of a (row length M) to the second set's rows j .. j + 2 lanes (columns of bt's
// panels), into out's rows (ldo apart): the first `width` columns, the others being padding.
template <int ROWS, Norm N, class D, class T = hn::TFromD<D>>
HWY_INLINE void tile(D d, const Fold<N, D>& fold, const T* a, int64_t M, const T* bt, int64_t j, int64_t width,
                     T* out, int64_t ldo) {
  using V = hn::Vec<D>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  V acc0[ROWS], acc1[ROWS];
  for (int r = 0; r < ROWS; ++r) acc0[r] = acc1[r] = hn::Zero(d);
  const T* panel = bt + (j / kCdistPanel) * M * kCdistPanel + j % kCdistPanel;
  for (int64_t k = 0; k < M; ++k) {
    const V b0 = hn::LoadU(d, panel + k * kCdistPanel), b1 = hn::LoadU(d, panel + k * kCdistPanel + lanes);
    for (int r = 0; r < ROWS; ++r) {
      const V x = hn::Set(d, a[r * M + k]);
      acc0[r] = fold.add(d, acc0[r], hn::Sub(x, b0));
      acc1[r] = fold.add(d, acc1[r], hn::Sub(x, b1));
    }
  }
  HWY_ALIGN T row[2 * hn::MaxLanes(d)];
  for (int r = 0; r < ROWS; ++r) {
    if (width == 2 * lanes) {
      hn::StoreU(fold.finish(d, acc0[r]), d, out + r * ldo + j);
      hn::StoreU(fold.finish(d, acc1[r]), d, out + r * ldo + j + lanes);
    } else {
      hn::Store(fold.finish(d, acc0[r]), d, row);
      hn::Store(fold.finish(d, acc1[r]), d, row + lanes);
      std::memcpy(out + r * ldo + j, row, static_cast<size_t>(width) * sizeof(T));
    }
  }
}

template <Norm N, class T>
void cdist_rows(T p, const T* a, const T* bt, int64_t M, int64_t R, int64_t begin, int64_t end, T* out) {
  using D = hn::ScalableTag<T>;
  const D d;
  const Fold<N, D> fold{hn::Set(d, p), hn::Set(d, T(1) / p)};
  const int64_t step = 2 * static_cast<int64_t>(hn::Lanes(d));
  static_assert(kCdistPanel % (2 * hn::MaxLanes(d)) == 0, "a tile would straddle two panels");
  int64_t i = begin;
  for (; i + 8 <= end; i += 8)
    for (int64_t j = 0; j < R; j += step)
      tile<8>(d, fold, a + i * M, M, bt, j, std::min(step, R - j), out + i * R, R);
  for (; i + 4 <= end; i += 4)
    for (int64_t j = 0; j < R; j += step)
      tile<4>(d, fold, a + i * M, M, bt, j, std::min(step, R - j), out + i * R, R);
  for (; i < end; ++i)
    for (int64_t j = 0; j < R; j += step)
      tile<1>(d, fold, a + i * M, M, bt, j, std::min(step, R - j), out + i * R, R);
}

template <class T>
void cdist_impl(double p, const T* a, const T* bt, int64_t M, int64_t R, int64_t begin, int64_t end, T* out) {
  const T q = static_cast<T>(p);
  if (p == 2) return cdist_rows<Norm::Two>(q, a, bt, M, R, begin, end, out);
  if (p == 1) return cdist_rows<Norm::One>(q, a, bt, M, R, begin, end, out);
  if (std::isinf(p)) return cdist_rows<Norm::Max>(q, a, bt, M, R, begin, end, out);
  if (p == 0) return cdist_rows<Norm::Count>(q, a, bt, M, R, begin, end, out);
  return cdist_rows<Norm::Power>(q, a, bt, M, R, begin, end, out);
}
void CdistF32(double p, const float* a, const float* bt, int64_t M, int64_t R, int64_t begin, int64_t end,
              float* out) {
  cdist_impl(p, a, bt, M, R, begin, end, out);
}
void CdistF64(double p, const double* a, const double* bt, int64_t M, int64_t R, int64_t begin, int64_t end,
              double* out) {
  cdist_impl(p, a, bt, M, R, begin, end, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(CdistF32);
HWY_EXPORT(CdistF64);

void simd_cdist(double p, const float* a, const float* bt, int64_t M, int64_t R, int64_t row_begin,
                int64_t row_end, float* out) {
  HWY_DYNAMIC_DISPATCH(CdistF32)(p, a, bt, M, R, row_begin, row_end, out);
}
void simd_cdist(double p, const double* a, const double* bt, int64_t M, int64_t R, int64_t row_begin,
                int64_t row_end, double* out) {
  HWY_DYNAMIC_DISPATCH(CdistF64)(p, a, bt, M, R, row_begin, row_end, out);
}
}  // namespace sprout
#endif
