// A copy run from its last bytes to its first, for rows whose destination sits just past the source
// modulo 4 KiB (Note [Copies just past their source] in copy_back_to_front.cc).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sprout {

// Whether a front-to-back copy from `src` to `dst` would stall on its own stores: dst lies less than a
// cache line past src modulo 4 KiB (and not at the same offset).
inline bool copy_stalls_front_to_back(const void* dst, const void* src) {
  const uintptr_t ahead = (reinterpret_cast<uintptr_t>(dst) - reinterpret_cast<uintptr_t>(src)) & 4095;
  return ahead != 0 && ahead < 64;
}

// memcpy(dst, src, bytes) for buffers that do not overlap, walking from the end: each group of
// vectors is loaded before any of it is stored.
void copy_back_to_front(void* dst, const void* src, size_t bytes);

}  // namespace sprout
