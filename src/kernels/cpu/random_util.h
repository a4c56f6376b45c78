// Shared by the random kernels (Note [Random ops]): the Philox key of a call and the word stream.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>

#include "kernels/cpu/nn_misc_philox.h"
#include "base/parallel.h"

namespace sprout {

// The key for seeds (seed0, seed1); `fresh` asks for new seeds on every call: the OS's entropy once,
// then a counter, so two calls in a row never share a stream.
inline std::array<uint32_t, 2> random_key(int64_t seed0, int64_t seed1, bool fresh) {
  if (fresh) {
    static std::atomic<uint64_t> calls{0};
    static const uint64_t base = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    return philox_key(base ^ 0xA5A5A5A5A5A5A5A5ull, calls.fetch_add(1) + 1);
  }
  return philox_key(static_cast<uint64_t>(seed0), static_cast<uint64_t>(seed1));
}

// Word w of the stream is word w % 4 of Philox block w / 4. Calls fn(first, words, m) with words[t] =
// word first + t for consecutive runs covering [0, count), split across threads by groups of blocks,
// so the values never depend on the thread count.
template <class Fn>
void for_each_word(int64_t count, std::array<uint32_t, 2> key, Fn&& fn) {
  constexpr int kGroup = 16;
  constexpr int64_t kWords = 4 * kGroup;
  const int64_t groups = (count + kWords - 1) / kWords;
  parallel_for(groups, kParallelGrain / kWords, [&](int64_t b, int64_t e) {
    uint32_t bits[4][kGroup], words[kWords];
    for (int64_t g = b; g < e; ++g) {
      philox4x32_blocks<kGroup>(static_cast<uint64_t>(g) * kGroup, key, bits);
      for (int j = 0; j < kGroup; ++j)
        for (int w = 0; w < 4; ++w) words[4 * j + w] = bits[w][j];
      const int64_t first = g * kWords;
      fn(first, static_cast<const uint32_t*>(words), std::min(kWords, count - first));
    }
  });
}

// A uniform double in [0, 1) from 53 random bits of two words.
inline double uniform53(uint32_t hi, uint32_t lo) {
  return static_cast<double>(((uint64_t{hi} << 32 | lo) >> 11)) * (1.0 / 9007199254740992.0);
}

// Uniform in [0, range) from 64 random bits (multiply-shift: bias below range / 2^64).
inline uint64_t below(uint32_t hi, uint32_t lo, uint64_t range) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(uint64_t{hi} << 32 | lo) * range) >> 64);
}

}  // namespace sprout
