// CPU kernels of PadEdges and PadEdgesGrad (Note [Padding from the edges]): rows of the last axis, each
// a gather of its few padded elements around one memcpy (forward) or add loop (gradient) of the
// unpadded middle, the row of x found through the other axes' index maps.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "base/parallel.h"
#include "ops/array_attrs.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

struct EdgeMaps {
  std::vector<std::vector<int64_t>> map;  // per axis: output index -> x index
  Shape x_shape, out_shape;
  int64_t rows = 1;                        // output rows: all axes but the last
  int64_t last_before = 0, last_n = 0;     // the last axis's padding before and its size in x

  // The offset in x (in elements, x contiguous) of the row of output row r.
  int64_t x_row(int64_t r) const {
    int64_t offset = 0, x_stride = x_shape.back();
    for (int64_t d = static_cast<int64_t>(out_shape.size()) - 2; d >= 0; --d) {
      const int64_t size = out_shape[static_cast<size_t>(d)];
      offset += map[static_cast<size_t>(d)][static_cast<size_t>(r % size)] * x_stride;
      x_stride *= x_shape[static_cast<size_t>(d)];
      r /= size;
    }
    return offset;
  }
};

EdgeMaps edge_maps(const PadEdgesAttrs& a, const Shape& x, const Shape& out) {
  EdgeMaps m{{}, x, out};
  for (size_t d = 0; d < x.size(); ++d) m.map.push_back(pad_edges_map(x[d], a.paddings[2 * d], a.paddings[2 * d + 1], a.mode));
  for (size_t d = 0; d + 1 < out.size(); ++d) m.rows *= out[d];
  m.last_before = a.paddings[2 * (x.size() - 1)];
  m.last_n = x.back();
  return m;
}

template <class T>
void pad_rows(const EdgeMaps& m, const T* x, T* out) {
  const int64_t width = m.out_shape.back();
  const std::vector<int64_t>& last = m.map.back();
  parallel_for(m.rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, width)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const T* src = x + m.x_row(r);
      T* dst = out + r * width;
      for (int64_t i = 0; i < m.last_before; ++i) dst[i] = src[last[static_cast<size_t>(i)]];
      std::memcpy(dst + m.last_before, src, static_cast<size_t>(m.last_n) * sizeof(T));
      for (int64_t i = m.last_before + m.last_n; i < width; ++i) dst[i] = src[last[static_cast<size_t>(i)]];
    }
  });
}

// dx[x row of r][last[i]] += dy[r][i]. Rows of different x rows never meet, so threads split the output
// rows by their leading axes that are not padded (x row r's rows are all of one such index); with the
// first axis padded, one thread does all.
template <class T>
void pad_grad_rows(const EdgeMaps& m, const T* dy, T* dx) {
  using C = compute_t<T>;
  std::memset(dx, 0, static_cast<size_t>(numel(m.x_shape)) * sizeof(T));
  int64_t groups = 1;
  for (size_t d = 0; d + 1 < m.out_shape.size() && m.out_shape[d] == m.x_shape[d]; ++d) groups *= m.out_shape[d];
  const int64_t rows_per_group = m.rows / groups, width = m.out_shape.back();
  const std::vector<int64_t>& last = m.map.back();
  parallel_for(groups, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, rows_per_group * width)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t r = begin * rows_per_group; r < end * rows_per_group; ++r) {
                   T* dst = dx + m.x_row(r);
                   const T* src = dy + r * width;
                   for (int64_t i = 0; i < width; ++i) {
                     T& to = dst[last[static_cast<size_t>(i)]];
                     to = static_cast<T>(static_cast<C>(to) + static_cast<C>(src[i]));
                   }
                 }
               });
}

void pad_edges_kernel(const PadEdgesAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].numel() == 0) return;
  if (in[0].ndim() == 0) return out[0].copy_from(in[0]);  // nothing to pad
  Tensor x = in[0].contiguous();
  const EdgeMaps m = edge_maps(a, x.shape(), out[0].shape());
  switch (x.itemsize()) {  // a copy: only the width of an element matters
    case 1: return pad_rows(m, static_cast<const uint8_t*>(x.raw_data()), static_cast<uint8_t*>(out[0].raw_data()));
    case 2: return pad_rows(m, static_cast<const uint16_t*>(x.raw_data()), static_cast<uint16_t*>(out[0].raw_data()));
    case 4: return pad_rows(m, static_cast<const uint32_t*>(x.raw_data()), static_cast<uint32_t*>(out[0].raw_data()));
    default: return pad_rows(m, static_cast<const uint64_t*>(x.raw_data()), static_cast<uint64_t*>(out[0].raw_data()));
  }
}

void pad_edges_grad_kernel(const PadEdgesAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  if (out[0].numel() == 0) return;
  if (in[0].ndim() == 0) return out[0].copy_from(in[0]);
  Tensor dy = in[0].contiguous();
  const EdgeMaps m = edge_maps(a, out[0].shape(), dy.shape());
  visit_dtype(dy.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool>) {
      SPROUT_ASSERT(false, "PadEdgesGrad kernel on Bool");
    } else {
      pad_grad_rows(m, dy.data<T>(), out[0].data<T>());
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_array_pad_edges) {
  register_kernel<PadEdgesAttrs>("PadEdges", Device::CPU, pad_edges_kernel);
  register_kernel<PadEdgesAttrs>("PadEdgesGrad", Device::CPU, pad_edges_grad_kernel);
}

}  // namespace sprout
