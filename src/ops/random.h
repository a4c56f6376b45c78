// Attributes of the random ops (StandardNormal, UniformReal, UniformInt, Bernoulli, Multinomial,
// RandomCategorical, Randperm, RandomShuffle), shared with their kernels.
//
// Note [Random ops]
// As Dropout (Note [Dropout randomness]), every random op is a pure function of its seeds: Philox4x32-10
// keyed by the two seeds, counting by output element (or by sample, for the sampling ops), so results
// do not depend on the thread count and equal seeds give equal tensors. Both seeds 0 (Bernoulli: seed
// -1) asks for fresh seeds on every call, MindSpore's "random seed". The functional forms
// (ops.standard_normal, ops.uniform, ops.randint, ...) draw both seeds from the global generator
// (ms.set_seed) unless given one, so a seeded script is reproducible while successive calls differ.
//
// Arguments MindSpore passes as inputs but that fix the output's shape (shape, num_samples) are call-time
// attributes; values that only bound the draws (UniformInt's minval and maxval, Randperm's n, whose
// output's shape comes from max_length) stay tensor inputs, checked by the kernel.
#pragma once

#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

// StandardNormal, UniformReal: Op(seed, seed2)(shape).
struct RandomShapeAttrs {
  int64_t seed = 0;
  int64_t seed2 = 0;
  std::vector<int64_t> shape;
  static constexpr auto fields() {
    return std::tuple{attr("seed", &RandomShapeAttrs::seed, "First seed of the generator (0 with seed2 = 0: random)."),
                      attr("seed2", &RandomShapeAttrs::seed2, "Second seed of the generator."),
                      attr("shape", &RandomShapeAttrs::shape, "Shape of the output.").call()};
  }
};

// UniformInt(seed, seed2)(shape, minval, maxval): integers in [minval, maxval). The bounds are 0-d integer
// tensors (MindSpore's inputs), data that graph mode may compute; the Python class takes the call in
// MindSpore's order and turns Python ints into tensors.
struct UniformIntAttrs {
  int64_t seed = 0;
  int64_t seed2 = 0;
  std::vector<int64_t> shape;
  static constexpr auto fields() {
    return std::tuple{attr("seed", &UniformIntAttrs::seed, "First seed of the generator (0 with seed2 = 0: random)."),
                      attr("seed2", &UniformIntAttrs::seed2, "Second seed of the generator."),
                      attr("shape", &UniformIntAttrs::shape, "Shape of the output.").call()};
  }
};

// Bernoulli(seed, offset)(x, p).
struct BernoulliAttrs {
  int64_t seed = -1;
  int64_t offset = 0;
  static constexpr auto fields() {
    return std::tuple{attr("seed", &BernoulliAttrs::seed, "Seed of the generator (-1: random)."),
                      attr("offset", &BernoulliAttrs::offset, "Selects an independent stream for the same seed.")};
  }
};

// Multinomial(seed, seed2, dtype)(x, num_samples).
struct MultinomialAttrs {
  int64_t seed = 0;
  int64_t seed2 = 0;
  DType dtype = DType::Int32;
  int64_t num_samples = 1;
  static constexpr auto fields() {
    return std::tuple{attr("seed", &MultinomialAttrs::seed, "First seed of the generator (0 with seed2 = 0: random)."),
                      attr("seed2", &MultinomialAttrs::seed2, "Second seed of the generator."),
                      attr("dtype", &MultinomialAttrs::dtype, "Dtype of the indices: Int32 or Int64."),
                      attr("num_samples", &MultinomialAttrs::num_samples, "Samples drawn per row.").call()};
  }
};

// RandomCategorical(dtype)(logits, num_sample, seed).
struct RandomCategoricalAttrs {
  DType dtype = DType::Int64;
  int64_t num_sample = 1;
  int64_t seed = 0;
  static constexpr auto fields() {
    return std::tuple{attr("dtype", &RandomCategoricalAttrs::dtype, "Dtype of the indices: Int16, Int32 or Int64."),
                      attr("num_sample", &RandomCategoricalAttrs::num_sample, "Samples drawn per row.").call(),
                      attr("seed", &RandomCategoricalAttrs::seed, "Seed of the generator (0: random).").call()};
  }
};

// Randperm(max_length, pad, dtype, seed, seed2)(n), n an integer tensor of one element (MindSpore's
// input; its value is data, checked by the kernel). MindSpore's Randperm has no seed attributes;
// Sprout adds them (0, 0: random, as the others) so that a permutation can be reproduced.
struct RandpermAttrs {
  int64_t max_length = 1;
  int64_t pad = -1;
  DType dtype = DType::Int32;
  int64_t seed = 0;
  int64_t seed2 = 0;
  static constexpr auto fields() {
    return std::tuple{attr("max_length", &RandpermAttrs::max_length, "Length of the output; at least n."),
                      attr("pad", &RandpermAttrs::pad, "Value of the entries after the first n."),
                      attr("dtype", &RandpermAttrs::dtype, "Integer dtype of the output."),
                      attr("seed", &RandpermAttrs::seed, "First seed of the generator (0 with seed2 = 0: random)."),
                      attr("seed2", &RandpermAttrs::seed2, "Second seed of the generator.")};
  }
};

// RandomShuffle(seed, seed2)(x).
struct RandomShuffleAttrs {
  int64_t seed = 0;
  int64_t seed2 = 0;
  static constexpr auto fields() {
    return std::tuple{attr("seed", &RandomShuffleAttrs::seed, "First seed of the generator (0 with seed2 = 0: random)."),
                      attr("seed2", &RandomShuffleAttrs::seed2, "Second seed of the generator.")};
  }
};

}  // namespace sprout
