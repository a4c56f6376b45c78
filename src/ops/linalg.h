// Attributes of the linear-algebra ops (linalg.cc, linalg_cholesky.cc, linalg_svd.cc, linalg_qr.cc), shared with
// their CPU kernels, and the shape rule of those that take a batch of square matrices (..., n, n).
#pragma once

#include <tuple>

#include "ops/attrs.h"
#include "ops/op_def.h"

namespace sprout {

// MatrixInverse and MatrixSolve: use the transpose of the matrix (MindSpore's conjugate transpose; the
// same for real dtypes).
struct LinalgAdjointAttrs {
  bool adjoint = false;
  static constexpr auto fields() {
    return std::tuple{attr("adjoint", &LinalgAdjointAttrs::adjoint, "Use the (conjugate) transpose of the matrix.")};
  }
};

struct CholeskyAttrs {
  bool upper = false;
  static constexpr auto fields() {
    return std::tuple{attr("upper", &CholeskyAttrs::upper, "Return upper-triangular U with A = U^T U instead of "
                                                           "lower-triangular L with A = L L^T.")};
  }
};

struct SvdAttrs {
  bool full_matrices = false;
  bool compute_uv = true;
  static constexpr auto fields() {
    return std::tuple{attr("full_matrices", &SvdAttrs::full_matrices, "Return square U (M x M) and V (N x N) rather "
                                                                      "than their leading min(M, N) columns."),
                      attr("compute_uv", &SvdAttrs::compute_uv,
                           "Compute U and V; without, they are empty (shape (0,)).")};
  }
};

struct QrAttrs {
  bool full_matrices = false;
  static constexpr auto fields() {
    return std::tuple{attr("full_matrices", &QrAttrs::full_matrices, "Return square Q (M x M) and R of the input's "
                                                                    "shape (M x N) rather than Q's leading min(M, N) "
                                                                    "columns and R's leading rows.")};
  }
};

// User errors unless input `index` is a Float32/Float64 batch of square matrices (rank >= 2, last two
// dims equal and within LAPACK's 32-bit sizes).
void check_square_matrices(const OpDef& op, size_t index, const TensorSpec& spec);
// The same for a batch of matrices of any shape (..., m, n).
void check_matrices(const OpDef& op, size_t index, const TensorSpec& spec);

}  // namespace sprout
