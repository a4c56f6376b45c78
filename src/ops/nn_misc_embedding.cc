// Embedding: rows of a weight table picked by integer indices, and EmbeddingDenseBackward, its
// transpose (scatter-add of per-index rows into a table). Each one's gradient is the other, so both
// rules stay within the pair and any order of derivative exists.
#include "ops/infer_util.h"
#include "ops/nn_act_bprop.h"
#include "ops/nn_misc.h"

namespace sprout {
namespace {

using nn::V;

void check_indices(const OpDef& op, size_t index, const TensorSpec& t) {
  check_dtype_in(op, index, t, {DType::Int32, DType::Int64});
}

void check_padding_idx(const OpDef& op, int64_t padding_idx, int64_t rows) {
  SPROUT_CHECK(padding_idx >= -1 && padding_idx < rows, ValueError, op.name, ": 'padding_idx' must be in [0, ", rows,
               ") or -1 for none, but got ", padding_idx);
}

std::vector<TensorSpec> infer_embedding(const OpDef& op, const EmbeddingAttrs& a, std::span<const TensorSpec> in) {
  check_indices(op, 0, in[0]);
  check_floating(op, 1, in[1]);
  SPROUT_CHECK(in[1].shape.size() == 2, ValueError, op.name, ": 'weight' must be 2-d (num_embeddings, dim), but got shape ",
               shape_str(in[1].shape));
  check_padding_idx(op, a.padding_idx, in[1].shape[0]);
  Shape out = in[0].shape;
  out.push_back(in[1].shape[1]);
  return {TensorSpec{in[1].dtype, std::move(out)}};
}

std::vector<TensorSpec> infer_embedding_backward(const OpDef& op, const EmbeddingDenseBackwardAttrs& a,
                                                 std::span<const TensorSpec> in) {
  check_floating(op, 0, in[0]);
  check_indices(op, 1, in[1]);
  const Shape &g = in[0].shape, &idx = in[1].shape;
  SPROUT_CHECK(g.size() == idx.size() + 1 && std::equal(idx.begin(), idx.end(), g.begin()), ValueError, op.name,
               ": 'grad' must have shape indices.shape + (dim,) = ", shape_str(idx), " + (dim,), but got ", shape_str(g));
  SPROUT_CHECK(a.num_weights >= 0, ValueError, op.name, ": 'num_weights' must be non-negative, but got ", a.num_weights);
  check_padding_idx(op, a.padding_idx, a.num_weights);
  return {TensorSpec{in[0].dtype, Shape{a.num_weights, g.back()}}};
}

// d grad of a scatter-add is a gather: row n gets dout[indices[n]] (divided by the count of
// indices[n] when scaled by frequency; zero for the padding row).
std::vector<V> embedding_backward_bprop(BpropBuilder& b) {
  const auto& a = b.prim().attrs_as<EmbeddingDenseBackwardAttrs>();
  V indices = b.input(1), d = b.dout();
  if (a.scale_grad_by_freq) {
    Shape ones_shape = b.spec(indices).shape;
    ones_shape.push_back(1);
    V one = b.emitter().constant(Tensor::scalar(1.0, b.spec(d).dtype));
    V counts = b.emitter().emit(b.prim().with_attr("padding_idx", int64_t{-1}).with_attr("scale_grad_by_freq", false),
                                std::vector<V>{b.broadcast_to(one, ones_shape), indices});
    d = b.div(d, b.emitter().emit("Maximum", {counts, one}));
  }
  V gathered = b.emitter().emit("Embedding", {indices, d});
  if (a.padding_idx >= 0) {
    Shape col = b.spec(indices).shape;
    col.push_back(1);
    V pad = b.scalar(static_cast<double>(a.padding_idx), b.spec(indices).dtype);
    gathered = b.mul(gathered, b.reshape(b.mask(b.emitter().emit("NotEqual", {indices, pad}), gathered), col));
  }
  return {gathered, V{}};
}

}  // namespace

SPROUT_REGISTER(nn_misc_embedding) {
  define_op<EmbeddingAttrs>("Embedding")
      .doc("Rows of 'weight' (num_embeddings, dim) at integer 'input' indices: shape input.shape + (dim,).")
      .inputs({"input", "weight"})
      .outputs({"output"})
      .infer(infer_embedding)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const auto& a = b.prim().attrs_as<EmbeddingAttrs>();
        Primitive back = Primitive::make("EmbeddingDenseBackward")
                             .with_attr("num_weights", b.spec(b.input(1)).shape[0])
                             .with_attr("padding_idx", a.padding_idx)
                             .with_attr("scale_grad_by_freq", a.scale_grad_by_freq);
        return {V{}, b.emitter().emit(back, std::vector<V>{b.dout(), b.input(0)})};
      }));
  define_op<EmbeddingDenseBackwardAttrs>("EmbeddingDenseBackward")
      .doc("Scatter-adds rows of 'grad' into a (num_weights, dim) table at 'indices': the gradient of Embedding.")
      .inputs({"grad", "indices"})
      .outputs({"output"})
      .infer(infer_embedding_backward)
      .bprop(bprop_rule(embedding_backward_bprop));
}

}  // namespace sprout
