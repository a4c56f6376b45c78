// The compute buffers of the recurrent kernels (nn_rnn_cell.cc, nn_rnn_sequence.cc): Float32/Float64
// inputs that are contiguous are read in place; other layouts, and Float16/BFloat16 (computed in float,
// as the activation kernels do), go through contiguous compute-type copies.
#pragma once

#include <span>
#include <vector>

#include "kernels/cpu/nn_act_common.h"

namespace sprout {

inline DType compute_dtype(DType t) { return t == DType::Float64 ? DType::Float64 : DType::Float32; }

// The kernel's inputs as contiguous tensors of the compute dtype, and outputs it can write directly:
// the real outputs when they already are such, else scratch tensors copied back by finish().
struct ComputeBuffers {
  std::vector<Tensor> in, out;
  std::span<Tensor> real_out;

  ComputeBuffers(std::span<const Tensor> inputs, std::span<Tensor> outputs) : real_out(outputs) {
    const DType c = compute_dtype(inputs[0].dtype());
    for (const Tensor& t : inputs) in.push_back(contiguous_as(t, c));
    for (Tensor& t : outputs)
      out.push_back(t.dtype() == c && t.is_contiguous() ? t : Tensor::empty(t.shape(), c));
  }
  template <class C>
  const C* in_data(size_t i) const { return static_cast<const C*>(in[i].raw_data()); }
  template <class C>
  C* out_data(size_t i) { return static_cast<C*>(out[i].raw_data()); }
  void finish() {
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i].raw_data() != real_out[i].raw_data()) convert_into(out[i], real_out[i]);
  }
};

}  // namespace sprout
