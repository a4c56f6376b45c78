// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11): a counter-based
// generator. block(counter, key) is a pure function giving four 32-bit values, so element i of a
// random tensor can be produced by any thread, in any order, with the same result.
#pragma once

#include <array>
#include <cstdint>

#include "base/random_stream.h"

namespace sprout {

inline std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> c, std::array<uint32_t, 2> k) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u, kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t{kMul0} * c[0], p1 = uint64_t{kMul1} * c[2];
    c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<uint32_t>(p0)};
    k[0] += kWeyl0;
    k[1] += kWeyl1;
  }
  return c;
}

// B consecutive blocks first_block, first_block + 1, ... at once, as lane-parallel arrays (out[w][j] is
// word w of block j): the loops over j vectorize (32x32 -> 64-bit multiplies), several times faster
// than one block at a time. Bit-identical to philox4x32 on each block.
template <int B>
void philox4x32_blocks(uint64_t first_block, std::array<uint32_t, 2> k, uint32_t (&out)[4][B]) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u, kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  uint32_t c0[B], c1[B], c2[B], c3[B];
  for (int j = 0; j < B; ++j) {
    c0[j] = static_cast<uint32_t>(first_block + j);
    c1[j] = static_cast<uint32_t>((first_block + j) >> 32);
    c2[j] = c3[j] = 0;
  }
  for (int round = 0; round < 10; ++round) {
    for (int j = 0; j < B; ++j) {
      const uint64_t p0 = uint64_t{kMul0} * c0[j], p1 = uint64_t{kMul1} * c2[j];
      const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1[j] ^ k[0];
      const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3[j] ^ k[1];
      c1[j] = static_cast<uint32_t>(p1);
      c3[j] = static_cast<uint32_t>(p0);
      c0[j] = n0;
      c2[j] = n2;
    }
    k[0] += kWeyl0;
    k[1] += kWeyl1;
  }
  for (int j = 0; j < B; ++j) {
    out[0][j] = c0[j];
    out[1][j] = c1[j];
    out[2][j] = c2[j];
    out[3][j] = c3[j];
  }
}

// The key of a stream from two user seeds (SplitMix64 of both, so nearby seeds give unrelated keys) and
// the thread's random stream (Note [Random streams in compiled code]; 0 outside compiled code).
inline std::array<uint32_t, 2> philox_key(uint64_t seed0, uint64_t seed1) {
  uint64_t z = seed0 * 0x9E3779B97F4A7C15ull + seed1 + 0x632BE59BD9B4E019ull + t_random_stream * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return {static_cast<uint32_t>(z), static_cast<uint32_t>(z >> 32)};
}

// A uniform float in [0, 1) from 24 random bits (exactly representable, never 1).
inline float uniform_from_bits(uint32_t bits) { return static_cast<float>(bits >> 8) * (1.0f / 16777216.0f); }

}  // namespace sprout
