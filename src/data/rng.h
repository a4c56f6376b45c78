// Deterministic randomness for the pipeline.
//
// Note [Seeds in the pipeline]
// Every random decision (a sampler's permutation, the shuffle buffer, a random transform) draws from a
// generator seeded by mix(pipeline seed, epoch, position). Nothing depends on thread scheduling, so a
// pipeline gives the same rows in the same order for a given seed whatever num_parallel_workers is.
// The generator is our own (splitmix64 for seeding, xoshiro256** for draws), not std::mt19937 with
// std::uniform_int_distribution, whose output differs between standard libraries.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace sprout::data {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One 64-bit seed from several parts (seed, epoch, row...): order matters, collisions are negligible.
inline uint64_t mix_seed(std::initializer_list<uint64_t> parts) {
  uint64_t state = 0x6A09E667F3BCC908ull;
  uint64_t out = 0;
  for (uint64_t p : parts) {
    state ^= p;
    out = splitmix64(state);
  }
  return out;
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (auto& s : s_) s = splitmix64(seed);
  }
  uint64_t next_u64() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n) without modulo bias (Lemire's method).
  uint64_t uniform(uint64_t n) {
    if (n <= 1) return 0;
    __uint128_t m = static_cast<__uint128_t>(next_u64()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = -n % n;
      while (low < threshold) {
        m = static_cast<__uint128_t>(next_u64()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }
  // Uniform in [0, 1).
  double uniform_real() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[uniform(i)]);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace sprout::data
