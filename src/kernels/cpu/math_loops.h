// Loop drivers shared by the math kernels: elementwise work over broadcast operands, split across
// threads by elements (NdLoop::run_elements), so one long row and many short rows parallelize alike.
#pragma once

#include <algorithm>
#include <array>
#include <span>

#include "base/parallel.h"
#include "kernels/cpu/transposed_operands.h"
#include "tensor/nd_loop.h"
#include "tensor/tensor.h"

namespace sprout {

// Operand 0 is `out`; operands 1..K-1 are `in` broadcast to out's shape (stride 0 where broadcast), a
// transposed one copied in tiles first (transposed_operands.h).
// Calls row(ptrs, strides, n): ptrs[k] points at the row start of operand k, strides[k] is its inner
// stride in elements. `grain` is the element count below which one thread does all the work.
template <size_t K, class Row>
void for_each_broadcast_row(std::span<const Tensor> in, const Tensor& out, int64_t grain, Row&& row) {
  std::array<Tensor, K> ops;
  ops[0] = out;
  for (size_t k = 1; k < K; ++k) ops[k] = in_row_order(in[k - 1], out).expand(out.shape());
  std::array<std::span<const int64_t>, K> strides;
  for (size_t k = 0; k < K; ++k) strides[k] = std::span<const int64_t>(ops[k].strides());
  NdLoop<K> loop(out.shape(), strides);
  std::array<int64_t, K> inner;
  std::array<char*, K> base;
  std::array<int64_t, K> item;
  for (size_t k = 0; k < K; ++k) {
    inner[k] = loop.inner_stride(k);
    base[k] = static_cast<char*>(ops[k].raw_data());
    item[k] = static_cast<int64_t>(ops[k].itemsize());
  }
  parallel_for(out.numel(), grain, [&](int64_t begin, int64_t end) {
    loop.run_elements(begin, end, [&](const std::array<int64_t, K>& off, int64_t n) {
      std::array<char*, K> ptrs;
      for (size_t k = 0; k < K; ++k) ptrs[k] = base[k] + off[k] * item[k];
      row(ptrs, inner, n);
    });
  });
}

// Runs fn(block, m) over x's row (stride sx) in blocks of compute type C staged on the stack, writing fn's
// results to o's row (stride so): the vector math of simd_math.h and simd_special.h on half types, strided
// rows, or float rows computed in double.
template <class T, class C, class Fn>
void run_staged(const T* x, int64_t sx, T* o, int64_t so, int64_t n, Fn&& fn) {
  constexpr int64_t kBlock = 256;  // elements per block: fits in L1 with room to spare
  C buf[kBlock];
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    for (int64_t j = 0; j < m; ++j) buf[j] = static_cast<C>(x[(i + j) * sx]);
    fn(buf, m);
    for (int64_t j = 0; j < m; ++j) o[(i + j) * so] = static_cast<T>(buf[j]);
  }
}

}  // namespace sprout
