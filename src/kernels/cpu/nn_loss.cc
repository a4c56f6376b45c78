// CPU kernels of the log-softmax based losses (SoftmaxCrossEntropyWithLogits,
// SparseSoftmaxCrossEntropyWithLogits, NLLLoss). Rows of logits run the SIMD max / exp-sum loops of the
// softmax kernel; inputs in other layouts or half precision are converted to contiguous float first.
// Class indices are checked before any work, so a bad index is a ValueError, never a wild read.
#include <vector>

#include "base/parallel.h"
#include "kernels/cpu/nn_loss_rows.h"
#include "kernels/cpu/simd.h"
#include "ops/nn_loss.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

void softmax_ce_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t rows = in[0].shape()[0], classes = in[0].shape()[1];
  if (rows == 0) return;
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    if (classes == 0) {  // log(sum of nothing) = -inf; no labels weigh it: loss 0
      Tensor z = Tensor::zeros(out[0].shape(), dtype_of<C>());
      convert_into(z, out[0]);
      return;
    }
    Tensor x = contiguous_as(in[0], dtype_of<C>()), y = contiguous_as(in[1], dtype_of<C>());
    Tensor loss = Tensor::empty(out[0].shape(), dtype_of<C>()), backprop = Tensor::empty(out[1].shape(), dtype_of<C>());
    const C *px = x.data<C>(), *py = y.data<C>();
    C *pl = loss.data<C>(), *pb = backprop.data<C>();
    parallel_for(rows, std::max<int64_t>(1, kParallelGrain / 8 / classes), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        const C *xr = px + r * classes, *yr = py + r * classes;
        C* br = pb + r * classes;
        const RowExp<C> e = row_exp(xr, classes, br);  // br = exp(x - max)
        const C lse = e.log_sum_exp(), inv = C(1) / e.sum;
        C total = 0;
        for (int64_t c = 0; c < classes; ++c) {
          if (yr[c] != C(0)) total += yr[c] * (lse - xr[c]);  // a 0 label adds 0 even where x = -inf
          br[c] = br[c] * inv - yr[c];
        }
        pl[r] = total;
      }
    });
    convert_into(loss, out[0]);
    convert_into(backprop, out[1]);
  });
}

void sparse_softmax_ce_kernel(const SparseSoftmaxCrossEntropyAttrs& a, std::span<const Tensor> in,
                              std::span<Tensor> out) {
  const int64_t rows = in[0].shape()[0], classes = in[0].shape()[1];
  const std::string_view op = "SparseSoftmaxCrossEntropyWithLogits";
  std::vector<int64_t> labels = read_labels(op, in[1], classes);
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    Tensor x = contiguous_as(in[0], dtype_of<C>());
    Tensor result = Tensor::empty(out[0].shape(), dtype_of<C>());
    const C* px = x.data<C>();
    std::vector<C> losses(static_cast<size_t>(rows));
    const C inv_rows = C(1) / static_cast<C>(rows);
    parallel_for(rows, std::max<int64_t>(1, kParallelGrain / 8 / std::max<int64_t>(classes, 1)), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        const C* xr = px + r * classes;
        C* g = a.is_grad ? result.data<C>() + r * classes : nullptr;  // the loss needs no exp stored
        const RowExp<C> ex = row_exp(xr, classes, g);
        if (a.is_grad) {  // (softmax - onehot) / N
          const C scale = inv_rows / ex.sum;
          simd_binary(BinaryOp::Mul, g, 1, &scale, 0, g, classes);
          g[labels[r]] -= inv_rows;
        } else {
          losses[r] = ex.log_sum_exp() - xr[labels[r]];
        }
      }
    });
    if (!a.is_grad) {
      double total = 0;
      for (C l : losses) total += l;
      result.data<C>()[0] = static_cast<C>(total / static_cast<double>(rows));  // 0 rows: NaN, as a mean of nothing
    }
    convert_into(result, out[0]);
  });
}

void nll_loss_kernel(const NLLLossAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  const int64_t rows = in[0].shape()[0], classes = in[0].shape()[1];
  const Reduction reduction = parse_reduction("NLLLoss", a.reduction);
  std::vector<int64_t> labels = read_labels("NLLLoss", in[1], classes, a.ignore_index);
  with_compute_type(in[0].dtype(), [&](auto zero) {
    using C = decltype(zero);
    Tensor x = contiguous_as(in[0], dtype_of<C>()), w = contiguous_as(in[2], dtype_of<C>());
    const C *px = x.data<C>(), *pw = w.data<C>();
    Tensor loss = Tensor::empty(out[0].shape(), dtype_of<C>()), total_weight = Tensor::empty(Shape{}, dtype_of<C>());
    double sum = 0, weight_sum = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t t = labels[r];
      const bool kept = t != a.ignore_index;
      const C wt = kept ? pw[t] : C(0);
      const C l = kept ? -wt * px[r * classes + t] : C(0);
      if (reduction == Reduction::None) loss.data<C>()[r] = l;
      sum += l;
      weight_sum += wt;
    }
    if (reduction != Reduction::None)
      loss.data<C>()[0] = static_cast<C>(reduction == Reduction::Mean ? sum / weight_sum : sum);
    total_weight.data<C>()[0] = static_cast<C>(weight_sum);
    convert_into(loss, out[0]);
    convert_into(total_weight, out[1]);
  });
}

}  // namespace

SPROUT_REGISTER(cpu_nn_loss) {
  register_kernel<NoAttrs>("SoftmaxCrossEntropyWithLogits", Device::CPU, softmax_ce_kernel);
  register_kernel<SparseSoftmaxCrossEntropyAttrs>("SparseSoftmaxCrossEntropyWithLogits", Device::CPU,
                                                  sparse_softmax_ce_kernel);
  register_kernel<NLLLossAttrs>("NLLLoss", Device::CPU, nll_loss_kernel);
}

}  // namespace sprout
