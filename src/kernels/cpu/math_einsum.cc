// CPU kernel of Einsum (ops/math_einsum.cc). Each operand first loses its repeated labels (a
// diagonal is a strided view, no copy) and the labels no other operand or the output has (summed);
// operands are then contracted pairwise, left to right, each pair as one BatchMatMul: shared labels
// still needed later are the batch, shared labels needed nowhere else are contracted. The work is
// done by the ReduceSum and BatchMatMul kernels; this file only arranges axes.
#include <algorithm>
#include <vector>

#include "ops/math_einsum.h"
#include "ops/matmul.h"
#include "ops/op_def.h"
#include "ops/reduce.h"

namespace sprout {
namespace {

struct Labeled {
  Tensor t;
  std::vector<int> labels;
};

bool contains(const std::vector<int>& xs, int x) { return std::find(xs.begin(), xs.end(), x) != xs.end(); }

Labeled take_diagonals(Labeled x) {
  for (size_t j = 0; j < x.labels.size(); ++j) {
    size_t i = static_cast<size_t>(std::find(x.labels.begin(), x.labels.end(), x.labels[j]) - x.labels.begin());
    if (i == j) continue;
    Shape shape = x.t.shape();
    Strides strides = x.t.strides();
    strides[i] += strides[j];  // walking the diagonal steps both axes at once
    shape.erase(shape.begin() + static_cast<long>(j));
    strides.erase(strides.begin() + static_cast<long>(j));
    x.t = x.t.as_strided(shape, strides, x.t.offset());
    x.labels.erase(x.labels.begin() + static_cast<long>(j));
    --j;
  }
  return x;
}

Labeled sum_labels(Labeled x, const std::vector<int>& keep) {
  ReduceAttrs attrs;
  std::vector<int> left;
  for (size_t a = 0; a < x.labels.size(); ++a) {
    if (contains(keep, x.labels[a])) left.push_back(x.labels[a]);
    else attrs.axis.push_back(static_cast<int64_t>(a));
  }
  if (attrs.axis.empty()) return x;  // (an empty axis list would mean "every axis" to ReduceSum)
  Shape shape;
  for (size_t a = 0; a < x.labels.size(); ++a)
    if (contains(left, x.labels[a])) shape.push_back(x.t.shape()[a]);
  Tensor out = Tensor::empty(shape, x.t.dtype());
  static const KernelFn& reduce_sum = OpRegistry::instance().get("ReduceSum").kernel(Device::CPU);
  Tensor outs[1] = {out};
  reduce_sum(&attrs, std::span<const Tensor>(&x.t, 1), outs);
  return {out, left};
}

// x's axes in the order of `order` (labels), broadcast to the plan's sizes where they are batch or
// contracted axes, as a contiguous [prod(first), prod(second), prod(third)] block.
Tensor as_3d(const Labeled& x, const std::vector<int>& order, const EinsumPlan& plan, size_t split1, size_t split2,
             const std::vector<int>& broadcast) {
  Shape perm, target;
  for (int l : order) {
    int64_t a = std::find(x.labels.begin(), x.labels.end(), l) - x.labels.begin();
    perm.push_back(a);
    target.push_back(contains(broadcast, l) ? plan.sizes[static_cast<size_t>(l)] : x.t.shape()[a]);
  }
  Tensor t = x.t.permute(perm).expand(target);
  int64_t d[3] = {1, 1, 1};
  for (size_t k = 0; k < target.size(); ++k) d[k < split1 ? 0 : k < split2 ? 1 : 2] *= target[k];
  return t.contiguous().view(Shape{d[0], d[1], d[2]});
}

Labeled contract(const Labeled& a, const Labeled& b, const std::vector<int>& keep, const EinsumPlan& plan) {
  std::vector<int> batch, summed, left, right;
  for (int l : a.labels) {
    if (contains(b.labels, l)) (contains(keep, l) ? batch : summed).push_back(l);
    else left.push_back(l);
  }
  for (int l : b.labels)
    if (!contains(a.labels, l)) right.push_back(l);
  std::vector<int> shared = batch;
  shared.insert(shared.end(), summed.begin(), summed.end());
  std::vector<int> order_a = batch, order_b = batch;
  order_a.insert(order_a.end(), left.begin(), left.end());
  order_a.insert(order_a.end(), summed.begin(), summed.end());
  order_b.insert(order_b.end(), summed.begin(), summed.end());
  order_b.insert(order_b.end(), right.begin(), right.end());
  Tensor a3 = as_3d(a, order_a, plan, batch.size(), batch.size() + left.size(), shared);
  Tensor b3 = as_3d(b, order_b, plan, batch.size(), batch.size() + summed.size(), shared);
  Tensor out = Tensor::empty(Shape{a3.shape()[0], a3.shape()[1], b3.shape()[2]}, a3.dtype());
  static const KernelFn& bmm = OpRegistry::instance().get("BatchMatMul").kernel(Device::CPU);
  MatMulAttrs attrs;
  Tensor ins[2] = {a3, b3}, outs[1] = {out};
  bmm(&attrs, ins, outs);
  Labeled result{out, batch};
  result.labels.insert(result.labels.end(), left.begin(), left.end());
  result.labels.insert(result.labels.end(), right.begin(), right.end());
  Shape shape;
  for (int l : batch) shape.push_back(plan.sizes[static_cast<size_t>(l)]);
  for (int l : left) shape.push_back(a.t.shape()[std::find(a.labels.begin(), a.labels.end(), l) - a.labels.begin()]);
  for (int l : right) shape.push_back(b.t.shape()[std::find(b.labels.begin(), b.labels.end(), l) - b.labels.begin()]);
  result.t = out.view(shape);
  return result;
}

void einsum_kernel(const EinsumAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  std::vector<Shape> shapes;
  for (const Tensor& t : in) shapes.push_back(t.shape());
  const EinsumPlan plan = plan_einsum("Einsum", attrs.equation, shapes);
  // The labels still needed once operands [0, k] are combined (or, with `except`, by anyone but it).
  auto needed = [&](size_t after, size_t except) {
    std::vector<int> keep = plan.output;
    for (size_t j = after; j < in.size(); ++j)
      if (j != except) keep.insert(keep.end(), plan.inputs[j].begin(), plan.inputs[j].end());
    return keep;
  };
  std::vector<Labeled> xs;
  for (size_t k = 0; k < in.size(); ++k)
    xs.push_back(sum_labels(take_diagonals({in[k], plan.inputs[k]}), needed(0, k)));
  Labeled acc = xs[0];
  for (size_t k = 1; k < xs.size(); ++k) acc = contract(acc, xs[k], needed(k + 1, in.size()), plan);
  acc = sum_labels(acc, plan.output);
  Shape perm;
  for (int l : plan.output) perm.push_back(std::find(acc.labels.begin(), acc.labels.end(), l) - acc.labels.begin());
  out[0].copy_from(acc.t.permute(perm));
}

}  // namespace

SPROUT_REGISTER(cpu_math_einsum) { register_kernel<EinsumAttrs>("Einsum", Device::CPU, einsum_kernel); }

}  // namespace sprout
