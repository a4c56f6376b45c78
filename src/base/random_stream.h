// Which stream of its seeds a random kernel draws (Note [Random streams in compiled code]).
#pragma once

#include <cstdint>

namespace sprout {

// Note [Random streams in compiled code]
// A random op is a pure function of its seeds (Note [Random ops]), and the functional forms draw fresh
// seeds from the global generator on every call. A compiled graph draws them once, when it is staged, so
// every run of the graph would repeat the same numbers: the same dropout mask at every training step.
// The VM therefore counts the runs of each random instruction and runs the k-th with stream k: the
// kernels' Philox keys mix k in (philox_key). Stream 0 is the eager call's, so a compiled step's first
// run draws what the same op with the same seeds draws eagerly, and a seeded script stays reproducible.
inline thread_local uint64_t t_random_stream = 0;

// Sets the stream of the random kernels run on this thread while it lives.
class RandomStreamScope {
 public:
  explicit RandomStreamScope(uint64_t stream) : saved_(t_random_stream) { t_random_stream = stream; }
  ~RandomStreamScope() { t_random_stream = saved_; }
  RandomStreamScope(const RandomStreamScope&) = delete;
  RandomStreamScope& operator=(const RandomStreamScope&) = delete;

 private:
  uint64_t saved_;
};

}  // namespace sprout
