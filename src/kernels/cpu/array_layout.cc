// CPU kernels of GatherElements, TensorScatterElements, Roll, Meshgrid and Pad.
// Roll, Meshgrid and Pad are strided block copies (Tensor::copy_from walks both sides with NdLoop);
// the element-index ops walk the index tensor once with an odometer that keeps the data offset.
#include <cstring>
#include <string>

#include "kernels/cpu/index_util.h"
#include "base/parallel.h"
#include "ops/array_attrs.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// Calls fn(k, data_offset) for every element k (row-major) of an index tensor of shape `shape`, where
// data_offset is the element's offset in a contiguous tensor of `data_shape` with the axis-`axis`
// coordinate replaced by idx[k] (already normalized).
template <class Fn>
void walk_elements(const Shape& shape, const Shape& data_shape, int64_t axis, const std::vector<int64_t>& idx, Fn fn) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  Strides data_strides = contiguous_strides(data_shape);
  Shape coord(shape.size(), 0);
  int64_t base = 0;  // offset of coord with the axis coordinate left out
  for (size_t k = 0; k < idx.size(); ++k) {
    fn(k, base + idx[k] * data_strides[axis]);
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (d != axis) base += data_strides[d];
      if (++coord[d] < shape[d]) break;
      if (d != axis) base -= shape[d] * data_strides[d];
      coord[d] = 0;
    }
  }
}

int64_t norm_axis(int64_t axis, int64_t ndim) { return axis < 0 ? axis + ndim : axis; }

void gather_elements_kernel(const GatherElementsAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor data = in[0].contiguous();
  const int64_t axis = norm_axis(a.dim, data.ndim());
  std::vector<int64_t> idx = read_indices(in[1]);
  normalize_indices("GatherElements", "index", idx, data.shape()[axis]);
  const size_t item = data.itemsize();
  const char* src = static_cast<const char*>(data.raw_data());
  char* dst = static_cast<char*>(out[0].raw_data());
  walk_elements(in[1].shape(), data.shape(), axis, idx, [&](size_t k, int64_t off) {
    std::memcpy(dst + k * item, src + off * static_cast<int64_t>(item), item);
  });
}

void scatter_elements_kernel(const ScatterElementsAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t axis = norm_axis(a.axis, in[0].ndim());
  std::vector<int64_t> idx = read_indices(in[1]);
  normalize_indices("TensorScatterElements", "indices", idx, in[0].shape()[axis]);
  out[0].copy_from(in[0]);
  const Tensor updates = in[2].contiguous();
  const bool add = a.reduction == "add";
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = compute_t<T>;
    T* dst = out[0].template data<T>();
    const T* src = updates.template data<T>();
    walk_elements(in[1].shape(), out[0].shape(), axis, idx, [&](size_t k, int64_t off) {
      if constexpr (std::is_same_v<T, bool>) {
        dst[off] = add ? (dst[off] || src[k]) : src[k];
      } else {
        dst[off] = add ? static_cast<T>(static_cast<C>(dst[off]) + static_cast<C>(src[k])) : src[k];
      }
    });
  });
}

// Rolling one axis by s is two block copies: [0, n - s) -> [s, n) and [n - s, n) -> [0, s).
void roll_axis(const Tensor& src, const Tensor& dst, int64_t axis, int64_t shift) {
  const int64_t n = src.shape()[axis];
  const int64_t s = n == 0 ? 0 : ((shift % n) + n) % n;
  dst.slice(axis, s, n, 1).copy_from(src.slice(axis, 0, n - s, 1));
  if (s > 0) dst.slice(axis, 0, s, 1).copy_from(src.slice(axis, n - s, n, 1));
}

void roll_kernel(const RollAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  if (in[0].ndim() == 0) {  // one element: nothing moves
    out[0].copy_from(in[0]);
    return;
  }
  if (a.axis.empty()) {  // over the flattened tensor
    const Shape flat{in[0].numel()};
    roll_axis(in[0].reshape(flat), out[0].view(flat), 0, a.shift[0]);
    return;
  }
  Tensor src = in[0];
  for (size_t i = 0; i < a.axis.size(); ++i) {
    const bool last = i + 1 == a.axis.size();
    Tensor dst = last ? out[0] : Tensor::empty(in[0].shape(), in[0].dtype());
    roll_axis(src, dst, norm_axis(a.axis[i], in[0].ndim()), a.shift[i]);
    src = dst;
  }
}

void meshgrid_kernel(const MeshgridAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const size_t n = in.size();
  for (size_t i = 0; i < n; ++i) {
    int64_t axis = (a.indexing == "xy" && n >= 2 && i < 2) ? static_cast<int64_t>(1 - i) : static_cast<int64_t>(i);
    Shape shape(n, 1);
    shape[axis] = in[i].shape()[0];
    out[i].copy_from(in[i].reshape(shape).expand(out[i].shape()));
  }
}

void pad_kernel(const PadAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  std::memset(out[0].raw_data(), 0, out[0].nbytes());
  Tensor inner = out[0];
  for (int64_t d = 0; d < in[0].ndim(); ++d)
    inner = inner.slice(d, a.paddings[2 * d], a.paddings[2 * d] + in[0].shape()[d], 1);
  inner.copy_from(in[0]);
}

}  // namespace

SPROUT_REGISTER(cpu_array_layout) {
  register_kernel<GatherElementsAttrs>("GatherElements", Device::CPU, gather_elements_kernel);
  register_kernel<ScatterElementsAttrs>("TensorScatterElements", Device::CPU, scatter_elements_kernel);
  register_kernel<RollAttrs>("Roll", Device::CPU, roll_kernel);
  register_kernel<MeshgridAttrs>("Meshgrid", Device::CPU, meshgrid_kernel);
  register_kernel<PadAttrs>("Pad", Device::CPU, pad_kernel);
}

}  // namespace sprout
