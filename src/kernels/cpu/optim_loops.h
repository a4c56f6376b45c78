// The loop the optimizer kernels share: one pass over var and its slots (Note [In-place updates]).
#pragma once

#include <array>
#include <span>
#include <type_traits>

#include "kernels/cpu/nn_act_common.h"
#include "base/parallel.h"
#include "tensor/tensor.h"

namespace sprout {

// A scalar hyperparameter (0-d or one-element tensor of any real dtype), read once per call.
inline double scalar_of(const Tensor& t) { return t.element_as_double(0); }

// Calls body(u, r, m) on consecutive runs of the contiguous tensors: u[k] points at m elements of
// states[k] (written in place), r[k] at m elements of reads[k], both in the compute type (float for
// the half types and Float32, double for Float64). Float32/Float64 pass the tensors' own memory; the
// half types go through stack buffers of kActBlock elements, converted in and out. Runs split
// across threads above kParallelGrain elements; the body is elementwise, so the split never changes
// a result.
template <size_t NU, size_t NR, class Body>
void fused_update(std::span<Tensor> states, const std::array<Tensor, NR>& reads, Body&& body) {
  SPROUT_ASSERT(states.size() == NU, "fused_update: ", states.size(), " states, expected ", NU);
  const int64_t n = states[0].numel();
  visit_dtype(states[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = act_compute_t<T>;
      std::array<T*, NU> u;
      std::array<const T*, NR> r;
      for (size_t k = 0; k < NU; ++k) u[k] = states[k].template data<T>();
      for (size_t k = 0; k < NR; ++k) r[k] = reads[k].template data<T>();
      parallel_for(n, kParallelGrain, [&](int64_t begin, int64_t end) {
        if constexpr (std::is_same_v<T, C>) {
          std::array<C*, NU> ub;
          std::array<const C*, NR> rb;
          for (size_t k = 0; k < NU; ++k) ub[k] = u[k] + begin;
          for (size_t k = 0; k < NR; ++k) rb[k] = r[k] + begin;
          body(ub, rb, end - begin);
        } else {
          C ubuf[NU][kActBlock], rbuf[NR == 0 ? 1 : NR][kActBlock];
          std::array<C*, NU> ub;
          std::array<const C*, NR> rb;
          for (size_t k = 0; k < NU; ++k) ub[k] = ubuf[k];
          for (size_t k = 0; k < NR; ++k) rb[k] = rbuf[k];
          for (int64_t i = begin; i < end; i += kActBlock) {
            const int64_t m = std::min(kActBlock, end - i);
            for (size_t k = 0; k < NU; ++k)
              for (int64_t j = 0; j < m; ++j) ubuf[k][j] = static_cast<C>(u[k][i + j]);
            for (size_t k = 0; k < NR; ++k)
              for (int64_t j = 0; j < m; ++j) rbuf[k][j] = static_cast<C>(r[k][i + j]);
            body(ub, rb, m);
            for (size_t k = 0; k < NU; ++k)
              for (int64_t j = 0; j < m; ++j) u[k][i + j] = static_cast<T>(ubuf[k][j]);
          }
        }
      });
    } else {
      SPROUT_ASSERT(false, "optimizer kernel on ", name(states[0].dtype()));
    }
  });
}

}  // namespace sprout
