// Highway implementation of nn_rnn_cell_simd.h (Note [Highway dynamic dispatch] in simd.cc). Tails go
// through padded stack buffers with the same vector code, so a unit's result never depends on where it
// sits in the row. Sums and products are written in the order of the composite cell they replace
// (ops.lstm_cell/gru_cell before the fused ops), so results agree to the last bits except where the
// compiler contracts a multiply-add.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/nn_rnn_cell_simd.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include <algorithm>

#include "kernels/cpu/nn_rnn_cell_simd.h"
#include "kernels/cpu/simd_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
// Helpers are file-local: nn_act_simd.cc has templates of the same names in this namespace. The
// sigmoid is simd_exp-inl.h's, the one the Sigmoid kernel computes.
namespace {

// tanh as the Tanh kernel computes it (simd_math.cc): float32 by tanh_f32 (Note [Float32 tanh]), double
// by Highway's Tanh, which is exactly +-1 beyond |x| = 18.7; clamping first keeps infinities inside its
// domain, NaN stays NaN.
template <class D, class V>
HWY_INLINE V tanh_v(D d, V x) {
  if constexpr (sizeof(hn::TFromD<D>) == 4) {
    return tanh_f32(d, x);
  } else {
    const V cap = hn::Set(d, 20);
    const V t = hn::Tanh(d, hn::Min(hn::Max(x, hn::Neg(cap)), cap));
    return hn::IfThenElse(hn::IsNaN(x), x, t);
  }
}

// Gate k's pre-activation parts at unit j: (input_gates + input_bias), (hidden_gates + hidden_bias).
template <class D, class T = hn::TFromD<D>>
HWY_INLINE auto input_part(D d, const CellGates<T>& g, int k, int64_t j) {
  const int64_t at = k * g.stride + j;
  return hn::Add(hn::LoadU(d, g.input_gates + at), hn::LoadU(d, g.input_bias + at));
}
template <class D, class T = hn::TFromD<D>>
HWY_INLINE auto hidden_part(D d, const CellGates<T>& g, int k, int64_t j) {
  const int64_t at = k * g.stride + j;
  return hn::Add(hn::LoadU(d, g.hidden_gates + at), hn::LoadU(d, g.hidden_bias + at));
}
template <class D, class T = hn::TFromD<D>>
HWY_INLINE auto gate(D d, const CellGates<T>& g, int k, int64_t j) {
  return hn::Add(input_part(d, g, k, j), hidden_part(d, g, k, j));
}

// The LSTM's activations at unit j: i, f, g, o and tanh(cy), with cy.
template <class V>
struct LstmActs {
  V i, f, g, o, c, tc;
};
template <class D, class T = hn::TFromD<D>>
HWY_INLINE auto lstm_acts(D d, const CellGates<T>& gs, const T* cx, int64_t j) {
  using V = hn::Vec<D>;
  LstmActs<V> a;
  a.i = sigmoid(d, gate(d, gs, 0, j));
  a.f = sigmoid(d, gate(d, gs, 1, j));
  a.g = tanh_v(d, gate(d, gs, 2, j));
  a.o = sigmoid(d, gate(d, gs, 3, j));
  a.c = hn::Add(hn::Mul(a.f, hn::LoadU(d, cx + j)), hn::Mul(a.i, a.g));
  a.tc = tanh_v(d, a.c);
  return a;
}

template <class D, class T = hn::TFromD<D>>
HWY_INLINE void lstm_block(D d, const CellGates<T>& g, const T* cx, T* hy, T* cy, int64_t j) {
  auto a = lstm_acts(d, g, cx, j);
  hn::StoreU(a.c, d, cy + j);
  hn::StoreU(hn::Mul(a.o, a.tc), d, hy + j);
}

template <class D, class T = hn::TFromD<D>>
HWY_INLINE void lstm_grad_block(D d, const CellGates<T>& g, const T* cx, const T* dhy, const T* dcy, T* d_gates,
                                T* dcx, int64_t j) {
  const auto one = hn::Set(d, 1);
  auto a = lstm_acts(d, g, cx, j);
  const auto dh = hn::LoadU(d, dhy + j);
  // dcy plus what flows through hy = o tanh(cy).
  const auto dc = hn::Add(hn::LoadU(d, dcy + j), hn::Mul(hn::Mul(dh, a.o), hn::Sub(one, hn::Mul(a.tc, a.tc))));
  auto sig_prime = [&](auto s) { return hn::Mul(s, hn::Sub(one, s)); };
  hn::StoreU(hn::Mul(hn::Mul(dc, a.g), sig_prime(a.i)), d, d_gates + j);
  hn::StoreU(hn::Mul(hn::Mul(dc, hn::LoadU(d, cx + j)), sig_prime(a.f)), d, d_gates + g.stride + j);
  hn::StoreU(hn::Mul(hn::Mul(dc, a.i), hn::Sub(one, hn::Mul(a.g, a.g))), d, d_gates + 2 * g.stride + j);
  hn::StoreU(hn::Mul(hn::Mul(dh, a.tc), sig_prime(a.o)), d, d_gates + 3 * g.stride + j);
  hn::StoreU(hn::Mul(dc, a.f), d, dcx + j);
}

// The GRU's activations at unit j: r, z, n and h_n (the hidden part of the n gate, bias included).
template <class V>
struct GruActs {
  V r, z, n, hn;
};
template <class D, class T = hn::TFromD<D>>
HWY_INLINE auto gru_acts(D d, const CellGates<T>& g, int64_t j) {
  GruActs<hn::Vec<D>> a;
  a.r = sigmoid(d, gate(d, g, 0, j));
  a.z = sigmoid(d, gate(d, g, 1, j));
  a.hn = hidden_part(d, g, 2, j);
  a.n = tanh_v(d, hn::Add(input_part(d, g, 2, j), hn::Mul(a.r, a.hn)));
  return a;
}

template <class D, class T = hn::TFromD<D>>
HWY_INLINE void gru_block(D d, const CellGates<T>& g, const T* hx, T* hy, int64_t j) {
  auto a = gru_acts(d, g, j);
  hn::StoreU(hn::Add(a.n, hn::Mul(a.z, hn::Sub(hn::LoadU(d, hx + j), a.n))), d, hy + j);
}

template <class D, class T = hn::TFromD<D>>
HWY_INLINE void gru_grad_block(D d, const CellGates<T>& g, const T* hx, const T* dhy, T* dig, T* dhg, T* dhx,
                               int64_t j) {
  const auto one = hn::Set(d, 1);
  auto a = gru_acts(d, g, j);
  const auto dh = hn::LoadU(d, dhy + j);
  const auto dn = hn::Mul(hn::Mul(dh, hn::Sub(one, a.z)), hn::Sub(one, hn::Mul(a.n, a.n)));
  const auto dz = hn::Mul(hn::Mul(dh, hn::Sub(hn::LoadU(d, hx + j), a.n)), hn::Mul(a.z, hn::Sub(one, a.z)));
  const auto dr = hn::Mul(hn::Mul(dn, a.hn), hn::Mul(a.r, hn::Sub(one, a.r)));
  const int64_t s = g.stride;
  hn::StoreU(dr, d, dig + j);
  hn::StoreU(dr, d, dhg + j);
  hn::StoreU(dz, d, dig + s + j);
  hn::StoreU(dz, d, dhg + s + j);
  hn::StoreU(dn, d, dig + 2 * s + j);
  hn::StoreU(hn::Mul(dn, a.r), d, dhg + 2 * s + j);
  hn::StoreU(hn::Mul(dh, a.z), d, dhx + j);
}

// Padded copies of the last m (< lanes) units of a row: `gates` arrays of gate-strided values and
// `states` arrays of one value per unit, each slot kLanes long, zero-filled past m.
template <class T, size_t kLanes>
struct Tail {
  HWY_ALIGN T gates[4][4 * kLanes] = {};   // input_gates, hidden_gates, input_bias, hidden_bias
  HWY_ALIGN T outs[2][4 * kLanes] = {};    // gate-shaped results
  HWY_ALIGN T states[5][kLanes] = {};      // per-unit inputs and results

  CellGates<T> load(const CellGates<T>& g, int gates_per_unit, int64_t j, int64_t m) {
    const T* src[4] = {g.input_gates, g.hidden_gates, g.input_bias, g.hidden_bias};
    for (int a = 0; a < 4; ++a)
      for (int k = 0; k < gates_per_unit; ++k) std::copy_n(src[a] + k * g.stride + j, m, gates[a] + k * kLanes);
    return CellGates<T>{gates[0], gates[1], gates[2], gates[3], static_cast<int64_t>(kLanes)};
  }
  T* state_in(int s, const T* from, int64_t m) {
    std::copy_n(from, m, states[s]);
    return states[s];
  }
  void store_gates(int o, T* to, int64_t stride, int gates_per_unit, int64_t m) {
    for (int k = 0; k < gates_per_unit; ++k) std::copy_n(outs[o] + k * kLanes, m, to + k * stride);
  }
};

template <class T>
void LstmCell(const CellGates<T>& g, const T* cx, T* hy, T* cy, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t j = 0;
  for (; j + lanes <= n; j += lanes) lstm_block(d, g, cx, hy, cy, j);
  if (j == n) return;
  const int64_t m = n - j;
  Tail<T, hn::MaxLanes(d)> t;
  CellGates<T> tg = t.load(g, 4, j, m);
  lstm_block(d, tg, t.state_in(0, cx + j, m), t.states[1], t.states[2], 0);
  std::copy_n(t.states[1], m, hy + j);
  std::copy_n(t.states[2], m, cy + j);
}

template <class T>
void LstmCellGrad(const CellGates<T>& g, const T* cx, const T* dhy, const T* dcy, T* d_gates, T* dcx, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t j = 0;
  for (; j + lanes <= n; j += lanes) lstm_grad_block(d, g, cx, dhy, dcy, d_gates, dcx, j);
  if (j == n) return;
  const int64_t m = n - j;
  Tail<T, hn::MaxLanes(d)> t;
  CellGates<T> tg = t.load(g, 4, j, m);
  lstm_grad_block(d, tg, t.state_in(0, cx + j, m), t.state_in(1, dhy + j, m), t.state_in(2, dcy + j, m), t.outs[0],
                  t.states[3], 0);
  t.store_gates(0, d_gates + j, g.stride, 4, m);
  std::copy_n(t.states[3], m, dcx + j);
}

template <class T>
void GruCell(const CellGates<T>& g, const T* hx, T* hy, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t j = 0;
  for (; j + lanes <= n; j += lanes) gru_block(d, g, hx, hy, j);
  if (j == n) return;
  const int64_t m = n - j;
  Tail<T, hn::MaxLanes(d)> t;
  CellGates<T> tg = t.load(g, 3, j, m);
  gru_block(d, tg, t.state_in(0, hx + j, m), t.states[1], 0);
  std::copy_n(t.states[1], m, hy + j);
}

template <class T>
void GruCellGrad(const CellGates<T>& g, const T* hx, const T* dhy, T* dig, T* dhg, T* dhx, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t j = 0;
  for (; j + lanes <= n; j += lanes) gru_grad_block(d, g, hx, dhy, dig, dhg, dhx, j);
  if (j == n) return;
  const int64_t m = n - j;
  Tail<T, hn::MaxLanes(d)> t;
  CellGates<T> tg = t.load(g, 3, j, m);
  gru_grad_block(d, tg, t.state_in(0, hx + j, m), t.state_in(1, dhy + j, m), t.outs[0], t.outs[1], t.states[2], 0);
  t.store_gates(0, dig + j, g.stride, 3, m);
  t.store_gates(1, dhg + j, g.stride, 3, m);
  std::copy_n(t.states[2], m, dhx + j);
}

}  // namespace

void LstmCellF32(const CellGates<float>& g, const float* cx, float* hy, float* cy, int64_t n) { LstmCell(g, cx, hy, cy, n); }
void LstmCellF64(const CellGates<double>& g, const double* cx, double* hy, double* cy, int64_t n) {
  LstmCell(g, cx, hy, cy, n);
}
void LstmCellGradF32(const CellGates<float>& g, const float* cx, const float* dhy, const float* dcy, float* dg,
                     float* dcx, int64_t n) {
  LstmCellGrad(g, cx, dhy, dcy, dg, dcx, n);
}
void LstmCellGradF64(const CellGates<double>& g, const double* cx, const double* dhy, const double* dcy, double* dg,
                     double* dcx, int64_t n) {
  LstmCellGrad(g, cx, dhy, dcy, dg, dcx, n);
}
void GruCellF32(const CellGates<float>& g, const float* hx, float* hy, int64_t n) { GruCell(g, hx, hy, n); }
void GruCellF64(const CellGates<double>& g, const double* hx, double* hy, int64_t n) { GruCell(g, hx, hy, n); }
void GruCellGradF32(const CellGates<float>& g, const float* hx, const float* dhy, float* dig, float* dhg, float* dhx,
                    int64_t n) {
  GruCellGrad(g, hx, dhy, dig, dhg, dhx, n);
}
void GruCellGradF64(const CellGates<double>& g, const double* hx, const double* dhy, double* dig, double* dhg,
                    double* dhx, int64_t n) {
  GruCellGrad(g, hx, dhy, dig, dhg, dhx, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(LstmCellF32);
HWY_EXPORT(LstmCellF64);
HWY_EXPORT(LstmCellGradF32);
HWY_EXPORT(LstmCellGradF64);
HWY_EXPORT(GruCellF32);
HWY_EXPORT(GruCellF64);
HWY_EXPORT(GruCellGradF32);
HWY_EXPORT(GruCellGradF64);

void simd_lstm_cell(const CellGates<float>& g, const float* cx, float* hy, float* cy, int64_t n) {
  HWY_DYNAMIC_DISPATCH(LstmCellF32)(g, cx, hy, cy, n);
}
void simd_lstm_cell(const CellGates<double>& g, const double* cx, double* hy, double* cy, int64_t n) {
  HWY_DYNAMIC_DISPATCH(LstmCellF64)(g, cx, hy, cy, n);
}
void simd_lstm_cell_grad(const CellGates<float>& g, const float* cx, const float* dhy, const float* dcy,
                         float* d_gates, float* dcx, int64_t n) {
  HWY_DYNAMIC_DISPATCH(LstmCellGradF32)(g, cx, dhy, dcy, d_gates, dcx, n);
}
void simd_lstm_cell_grad(const CellGates<double>& g, const double* cx, const double* dhy, const double* dcy,
                         double* d_gates, double* dcx, int64_t n) {
  HWY_DYNAMIC_DISPATCH(LstmCellGradF64)(g, cx, dhy, dcy, d_gates, dcx, n);
}
void simd_gru_cell(const CellGates<float>& g, const float* hx, float* hy, int64_t n) {
  HWY_DYNAMIC_DISPATCH(GruCellF32)(g, hx, hy, n);
}
void simd_gru_cell(const CellGates<double>& g, const double* hx, double* hy, int64_t n) {
  HWY_DYNAMIC_DISPATCH(GruCellF64)(g, hx, hy, n);
}
void simd_gru_cell_grad(const CellGates<float>& g, const float* hx, const float* dhy, float* d_input_gates,
                        float* d_hidden_gates, float* dhx, int64_t n) {
  HWY_DYNAMIC_DISPATCH(GruCellGradF32)(g, hx, dhy, d_input_gates, d_hidden_gates, dhx, n);
}
void simd_gru_cell_grad(const CellGates<double>& g, const double* hx, const double* dhy, double* d_input_gates,
                        double* d_hidden_gates, double* dhx, int64_t n) {
  HWY_DYNAMIC_DISPATCH(GruCellGradF64)(g, hx, dhy, d_input_gates, d_hidden_gates, dhx, n);
}
}  // namespace sprout
#endif
