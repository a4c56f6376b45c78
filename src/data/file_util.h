// Reading whole files for the file-format sources, with errors that name the API and the file.
#pragma once

#include <string>

#include "tensor/tensor.h"

namespace sprout::data {

// The bytes of `path` as a 1-D UInt8 tensor. A missing or unreadable file is a ValueError naming
// `api` and the path.
Tensor read_file_bytes(const std::string& api, const std::string& path);

// Big-endian 32-bit integer at `p` (IDX headers).
inline uint32_t read_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

}  // namespace sprout::data
