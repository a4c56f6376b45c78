// CPU kernels of Embedding (a row copy per index) and EmbeddingDenseBackward (scatter-add). Indices are
// checked before any work, so a bad index is a ValueError, never a wild read or write.
//
// The scatter-add splits the *table rows* across threads: every thread zeroes the rows it owns, scans
// all indices and adds only into those rows. No two threads touch a row, no atomics are needed, and
// each row sums its contributions in index order, so the result does not depend on the thread count.
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernels/cpu/nn_act_common.h"
#include "base/parallel.h"
#include "ops/nn_misc.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

std::vector<int64_t> read_indices(std::string_view op, std::string_view arg, const Tensor& t, int64_t rows) {
  Tensor c = contiguous_as(t, DType::Int64);
  const int64_t* p = c.data<int64_t>();
  std::vector<int64_t> out(p, p + c.numel());
  for (size_t n = 0; n < out.size(); ++n)
    SPROUT_CHECK(out[n] >= 0 && out[n] < rows, ValueError, op, ": '", arg, "' must hold indices in [0, ", rows,
                 "), but element ", n, " is ", out[n]);
  return out;
}

void embedding_kernel(const EmbeddingAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor weight = in[1].contiguous();
  const int64_t rows = weight.shape()[0], dim = weight.shape()[1];
  std::vector<int64_t> idx = read_indices("Embedding", "input", in[0], rows);
  const size_t row_bytes = static_cast<size_t>(dim) * weight.itemsize();
  const char* src = static_cast<const char*>(weight.raw_data());
  char* dst = static_cast<char*>(out[0].raw_data());
  parallel_for(static_cast<int64_t>(idx.size()), std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(dim, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t n = b; n < e; ++n) std::memcpy(dst + n * row_bytes, src + idx[n] * row_bytes, row_bytes);
               });
}

void embedding_backward_kernel(const EmbeddingDenseBackwardAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t rows = a.num_weights, dim = out[0].shape()[1];
  std::vector<int64_t> idx = read_indices("EmbeddingDenseBackward", "indices", in[1], rows);
  std::vector<int64_t> counts;
  if (a.scale_grad_by_freq) {
    counts.assign(static_cast<size_t>(rows), 0);
    for (int64_t i : idx) ++counts[i];
  }
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = act_compute_t<T>;
      Tensor grad = contiguous_as(in[0], dtype_of<C>());
      // Float32/Float64 scatter straight into the output; the half types into a float table converted after.
      const bool direct = std::is_same_v<T, C> && out[0].is_contiguous();
      Tensor table = direct ? out[0] : Tensor::empty(out[0].shape(), dtype_of<C>());
      const C* pg = grad.data<C>();
      C* pt = table.data<C>();
      // Each thread zeroes its own rows and then adds into them: one parallel pass over the table.
      const int64_t work = (rows + static_cast<int64_t>(idx.size())) * dim;
      parallel_for(rows, work < kParallelGrain ? rows + 1 : 1, [&](int64_t r0, int64_t r1) {
        std::memset(pt + r0 * dim, 0, static_cast<size_t>((r1 - r0) * dim) * sizeof(C));
        for (size_t n = 0; n < idx.size(); ++n) {
          const int64_t r = idx[n];
          if (r < r0 || r >= r1 || r == a.padding_idx) continue;
          const C scale = a.scale_grad_by_freq ? C(1) / static_cast<C>(counts[r]) : C(1);
          C* row = pt + r * dim;
          const C* g = pg + static_cast<int64_t>(n) * dim;
          for (int64_t c = 0; c < dim; ++c) row[c] += scale * g[c];
        }
      });
      if (!direct) convert_into(table, out[0]);
    } else {
      SPROUT_ASSERT(false, "EmbeddingDenseBackward kernel on ", name(out[0].dtype()));
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_misc_embedding) {
  register_kernel<EmbeddingAttrs>("Embedding", Device::CPU, embedding_kernel);
  register_kernel<EmbeddingDenseBackwardAttrs>("EmbeddingDenseBackward", Device::CPU, embedding_backward_kernel);
}

}  // namespace sprout
