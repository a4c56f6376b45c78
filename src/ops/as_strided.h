// Attributes of AsStrided / AsStridedScatter: a strided window over the *logical row-major* layout of
// the input (not over its memory, which may be a non-contiguous view), so the op means the same in
// eager and graph mode whatever the input's layout.
#pragma once

#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct AsStridedAttrs {
  std::vector<int64_t> size;
  std::vector<int64_t> stride;
  int64_t storage_offset = 0;
  static constexpr auto fields() {
    return std::tuple{attr("size", &AsStridedAttrs::size, "Shape of the window.").call(),
                      attr("stride", &AsStridedAttrs::stride, "Element strides of the window.").call(),
                      attr("storage_offset", &AsStridedAttrs::storage_offset, "First element of the window.").call()};
  }
};

// AsStridedScatter adds its input into a zero tensor of `input_size` at the window's positions: the
// transpose (gradient) of AsStrided.
struct AsStridedScatterAttrs : AsStridedAttrs {
  std::vector<int64_t> input_size;
  static constexpr auto fields() {
    return std::tuple_cat(AsStridedAttrs::fields(),
                          std::tuple{attr("input_size", &AsStridedScatterAttrs::input_size,
                                          "Shape of the tensor the window lies in.").call()});
  }
};

}  // namespace sprout
