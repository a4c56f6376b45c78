// CPU kernels of CrossEntropy and CrossEntropyGrad (Note [Cross entropy in one op]): rows of logits
// across threads, each row's max and exponentials by the softmax's SIMD loops (the forward's exp loop
// also taking the next row's max, Note [Softmax rows pipelined]); float16 and bfloat16 computed in
// float32. Labels are checked before any work.
#include <cmath>
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/nn_loss_rows.h"
#include "ops/nn_loss.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

// What both kernels read: the labels (checked), and per row the label's weight (0 when ignored).
struct CrossEntropyRows {
  std::vector<int64_t> labels;
  std::vector<double> label_weight;
  double total_weight = 0;  // T: the sum of label_weight
  double weight_sum = 0;    // W: the sum of the class weights
};

template <class C>
CrossEntropyRows cross_entropy_rows(std::string_view op, const CrossEntropyAttrs& a, const Tensor& labels,
                                    const C* w, int64_t classes) {
  CrossEntropyRows rows{read_labels(op, labels, classes, a.ignore_index), {}, 0, 0};
  rows.label_weight.resize(rows.labels.size());
  for (size_t n = 0; n < rows.labels.size(); ++n) {
    const int64_t t = rows.labels[n];
    rows.label_weight[n] = t == a.ignore_index ? 0.0 : static_cast<double>(w[t]);
    rows.total_weight += rows.label_weight[n];
  }
  for (int64_t c = 0; c < classes; ++c) rows.weight_sum += static_cast<double>(w[c]);
  return rows;
}

int64_t row_grain(int64_t classes) { return std::max<int64_t>(1, kParallelGrain / 8 / std::max<int64_t>(classes, 1)); }

void cross_entropy_kernel(const CrossEntropyAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t n = in[0].shape()[0], classes = in[0].shape()[1];
  const Reduction reduction = parse_reduction("CrossEntropy", a.reduction);
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    Tensor x = contiguous_as(in[0], dtype_of<C>()), w = contiguous_as(in[2], dtype_of<C>());
    const C *px = x.data<C>(), *pw = w.data<C>();
    const CrossEntropyRows rows = cross_entropy_rows("CrossEntropy", a, in[1], pw, classes);
    const double e = a.label_smoothing, spread = e / static_cast<double>(classes);
    std::vector<double> losses(static_cast<size_t>(n));
    Tensor lse_out = Tensor::empty(out[1].shape(), dtype_of<C>());
    C* lses = lse_out.data<C>();
    parallel_for(n, row_grain(classes), [&](int64_t begin, int64_t end) {
      C max = classes ? simd_reduce(ReduceOp::Max, px + begin * classes, classes) : C(0);
      std::vector<C> scratch(static_cast<size_t>(e > 0 ? classes : 0));
      for (int64_t r = begin; r < end; ++r) {
        const C* xr = px + r * classes;
        const C* next = r + 1 < end ? xr + classes : nullptr;
        C next_max = 0;
        const C sum = simd_exp_shifted_sum(xr, max, static_cast<C*>(nullptr), classes, next, &next_max);
        const double lse = static_cast<double>(max) + std::log(static_cast<double>(sum));
        lses[r] = static_cast<C>(lse);
        max = next_max;
        const int64_t t = rows.labels[r];
        if (t == a.ignore_index) {
          losses[r] = 0;
          continue;
        }
        double loss = (1 - e) * rows.label_weight[r] * (lse - xr[t]);
        if (e > 0) {  // (e / C) sum_c w_c (lse - x_c), the products in a row of scratch
          simd_binary(BinaryOp::Mul, xr, 1, pw, 1, scratch.data(), classes);
          const double weighted_x = simd_reduce(ReduceOp::Sum, scratch.data(), classes);
          loss += spread * (lse * rows.weight_sum - weighted_x);
        }
        losses[r] = loss;
      }
    });
    Tensor result = Tensor::empty(out[0].shape(), dtype_of<C>());
    if (reduction == Reduction::None) {
      for (int64_t r = 0; r < n; ++r) result.data<C>()[r] = static_cast<C>(losses[r]);
    } else {
      double total = 0;
      for (double l : losses) total += l;
      // 'mean' of no kept row is 0 / 0: NaN, as PyTorch's.
      result.data<C>()[0] = static_cast<C>(reduction == Reduction::Mean ? total / rows.total_weight : total);
    }
    convert_into(result, out[0]);
    convert_into(lse_out, out[1]);
  });
}

void cross_entropy_grad_kernel(const CrossEntropyAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t n = in[0].shape()[0], classes = in[0].shape()[1];
  const Reduction reduction = parse_reduction("CrossEntropyGrad", a.reduction);
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    Tensor x = contiguous_as(in[0], dtype_of<C>()), w = contiguous_as(in[2], dtype_of<C>());
    Tensor lse = contiguous_as(in[3], dtype_of<C>()), d = contiguous_as(in[4], dtype_of<C>());
    const C *px = x.data<C>(), *pw = w.data<C>(), *plse = lse.data<C>(), *pd = d.data<C>();
    const CrossEntropyRows rows = cross_entropy_rows("CrossEntropyGrad", a, in[1], pw, classes);
    const double e = a.label_smoothing, spread = e / static_cast<double>(classes);
    Tensor dx = Tensor::empty(out[0].shape(), dtype_of<C>());
    C* pdx = dx.data<C>();
    parallel_for(n, row_grain(classes), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        C* g = pdx + r * classes;
        const int64_t t = rows.labels[r];
        if (t == a.ignore_index) {
          std::fill_n(g, classes, C(0));
          continue;
        }
        const double s = reduction == Reduction::None ? pd[r]
                         : reduction == Reduction::Sum ? pd[0]
                                                       : pd[0] / rows.total_weight;
        const double w_t = rows.label_weight[r];
        // dx = s (a p - B): p = exp(x - lse), a = (1 - e) w_t + e W / C, B = (1 - e) w_t [c == t] + e w_c / C.
        const C scale = static_cast<C>(s * ((1 - e) * w_t + spread * rows.weight_sum));
        simd_scaled_exp_shifted(px + r * classes, plse[r], scale, e > 0 ? pw : nullptr, static_cast<C>(s * spread), g,
                                classes);
        g[t] -= static_cast<C>(s * (1 - e) * w_t);
      }
    });
    convert_into(dx, out[0]);
  });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_loss_cross_entropy) {
  register_kernel<CrossEntropyAttrs>("CrossEntropy", Device::CPU, cross_entropy_kernel);
  register_kernel<CrossEntropyAttrs>("CrossEntropyGrad", Device::CPU, cross_entropy_grad_kernel);
}

}  // namespace sprout
