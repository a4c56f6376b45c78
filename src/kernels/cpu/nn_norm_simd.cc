// Highway implementation of nn_norm_simd.h (Note [Highway dynamic dispatch] in simd.cc). Eight floats
// at a time are widened to a vector of doubles; the last n % 8 go through the scalar formula.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_norm_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "kernels/cpu/nn_norm_simd.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace {

const hn::ScalableTag<double> dd;
const hn::Rebind<float, decltype(dd)> df;  // as many floats as dd has doubles
using VD = hn::Vec<decltype(dd)>;

VD widen(const float* p) { return hn::PromoteTo(dd, hn::LoadU(df, p)); }

// Calls step(k, i) for i = 0, lanes, 2 lanes, ... while a whole vector fits, k = 0..3 in turn (the
// accumulator to use: four independent add chains); returns where the scalar tail starts.
template <class Step>
HWY_INLINE int64_t by_vectors(int64_t n, Step step) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(dd));
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    step(0, i);
    step(1, i + lanes);
    step(2, i + 2 * lanes);
    step(3, i + 3 * lanes);
  }
  for (; i + lanes <= n; i += lanes) step(0, i);
  return i;
}

double total(const VD (&acc)[4]) {
  return hn::GetLane(hn::SumOfLanes(dd, hn::Add(hn::Add(acc[0], acc[1]), hn::Add(acc[2], acc[3]))));
}

}  // namespace

double ChannelSum(const float* x, int64_t n) {
  VD acc[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  int64_t i = by_vectors(n, [&](int k, int64_t at) { acc[k] = hn::Add(acc[k], widen(x + at)); });
  double sum = total(acc);
  for (; i < n; ++i) sum += x[i];
  return sum;
}

double ChannelSumSqDev(const float* x, int64_t n, double mu) {
  const VD m = hn::Set(dd, mu);
  VD acc[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  int64_t i = by_vectors(n, [&](int k, int64_t at) {
    const VD dev = hn::Sub(widen(x + at), m);
    acc[k] = hn::MulAdd(dev, dev, acc[k]);
  });
  double sum = total(acc);
  for (; i < n; ++i) sum += (x[i] - mu) * (x[i] - mu);
  return sum;
}

void ChannelGradSums(const float* dy, const float* x, int64_t n, double mu, double* sum_dy, double* sum_dy_dev) {
  const VD m = hn::Set(dd, mu);
  VD dys[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  VD devs[4] = {hn::Zero(dd), hn::Zero(dd), hn::Zero(dd), hn::Zero(dd)};
  int64_t i = by_vectors(n, [&](int k, int64_t at) {
    const VD g = widen(dy + at);
    dys[k] = hn::Add(dys[k], g);
    devs[k] = hn::MulAdd(g, hn::Sub(widen(x + at), m), devs[k]);
  });
  double s_dy = total(dys), s_dev = total(devs);
  for (; i < n; ++i) {
    s_dy += dy[i];
    s_dev += static_cast<double>(dy[i]) * (x[i] - mu);
  }
  *sum_dy += s_dy;
  *sum_dy_dev += s_dev;
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(ChannelSum);
HWY_EXPORT(ChannelSumSqDev);
HWY_EXPORT(ChannelGradSums);

double simd_channel_sum(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(ChannelSum)(x, n); }
double simd_channel_sum_sq_dev(const float* x, int64_t n, double mu) {
  return HWY_DYNAMIC_DISPATCH(ChannelSumSqDev)(x, n, mu);
}
void simd_channel_grad_sums(const float* dy, const float* x, int64_t n, double mu, double* sum_dy,
                            double* sum_dy_dev) {
  HWY_DYNAMIC_DISPATCH(ChannelGradSums)(dy, x, n, mu, sum_dy, sum_dy_dev);
}
}  // namespace sprout
#endif
