// Vocabulary the linear-algebra bprop rules share: transposing a batch of matrices, scaling each matrix
// by one scalar of a batch, vectors as rows or columns, and the linalg ops emitted through the Emitter.
#pragma once

#include <numeric>
#include <vector>

#include "ops/bprop_builder.h"
#include "tensor/tensor.h"

namespace sprout::linalg {

using V = BpropBuilder::V;

// x with its last two axes swapped: every matrix of the batch transposed.
inline V transpose_matrices(BpropBuilder& b, V x) {
  const int64_t rank = static_cast<int64_t>(b.spec(x).shape.size());
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::swap(perm[rank - 2], perm[rank - 1]);
  return b.transpose(x, std::move(perm));
}

// A batch of scalars (shape S) as shape (S..., 1, 1), to scale the batch of matrices it belongs to.
inline V per_matrix(BpropBuilder& b, V scalars) {
  Shape shape = b.spec(scalars).shape;
  shape.push_back(1);
  shape.push_back(1);
  return b.reshape(scalars, shape);
}

// inv(a), or inv(a^T) with `adjoint`.
inline V matrix_inverse(BpropBuilder& b, V a, bool adjoint) {
  return b.emitter().emit("MatrixInverse", {a}, {{"adjoint", adjoint}});
}

// inv(a) rhs, or inv(a^T) rhs with `adjoint`.
inline V matrix_solve(BpropBuilder& b, V a, V rhs, bool adjoint) {
  return b.emitter().emit("MatrixSolve", {a, rhs}, {{"adjoint", adjoint}});
}

// The k x k identity in `dtype`, a constant.
inline V eye(BpropBuilder& b, int64_t k, DType dtype) {
  Tensor identity = Tensor::zeros(Shape{k, k}, DType::Float64);
  for (int64_t i = 0; i < k; ++i) identity.data<double>()[i * k + i] = 1;
  return b.cast(b.emitter().constant(identity), dtype);
}

// A batch of vectors (shape (S..., k)) as rows (S..., 1, k) or columns (S..., k, 1).
inline V as_rows(BpropBuilder& b, V vectors) {
  Shape shape = b.spec(vectors).shape;
  shape.insert(shape.end() - 1, 1);
  return b.reshape(vectors, shape);
}
inline V as_columns(BpropBuilder& b, V vectors) {
  Shape shape = b.spec(vectors).shape;
  shape.push_back(1);
  return b.reshape(vectors, shape);
}

inline V tril(BpropBuilder& b, V x, int64_t diagonal) {
  return b.emitter().emit("Tril", {x}, {{"diagonal", diagonal}});
}

}  // namespace sprout::linalg
