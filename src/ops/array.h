// Attributes of the layout ops (Cast, Reshape, Transpose), shared with their kernels.
#pragma once

#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct CastAttrs {
  DType dst_type = DType::Float32;
  static constexpr auto fields() {
    return std::tuple{attr("dst_type", &CastAttrs::dst_type, "The dtype to convert to.").call()};
  }
};

struct ReshapeAttrs {
  std::vector<int64_t> shape;
  static constexpr auto fields() {
    return std::tuple{attr("shape", &ReshapeAttrs::shape, "The new shape; one entry may be -1.").call()};
  }
};

struct TransposeAttrs {
  std::vector<int64_t> perm;
  static constexpr auto fields() {
    return std::tuple{attr("perm", &TransposeAttrs::perm, "The permutation of the axes.").call()};
  }
};

struct BroadcastToAttrs {
  std::vector<int64_t> shape;
  static constexpr auto fields() {
    return std::tuple{attr("shape", &BroadcastToAttrs::shape, "The target shape; -1 keeps that dimension.")};
  }
};

}  // namespace sprout
