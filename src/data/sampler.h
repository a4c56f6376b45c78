// Samplers: which rows of a random-access source an epoch reads, in which order.
//
// A sampler is a pure function of (dataset size, epoch): indices() returns the epoch's row indices.
// Random samplers draw from mix_seed(seed, epoch) (Note [Seeds in the pipeline]), so every epoch has a
// new order and a rerun with the same seed repeats it exactly. Sharding (DistributedSampler, or
// num_shards/shard_id on a source) pads the row list by wrapping around, as MindSpore does, so that
// every shard has the same number of rows and together they cover every row.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sprout::data {

class Sampler {
 public:
  virtual ~Sampler() = default;
  virtual std::vector<int64_t> indices(int64_t dataset_size, int64_t epoch) const = 0;
  // Length of indices() for a dataset of `dataset_size` rows.
  virtual int64_t num_samples(int64_t dataset_size) const = 0;
};
using SamplerPtr = std::shared_ptr<const Sampler>;

// num_samples <= 0 means "all rows" throughout.
SamplerPtr sequential_sampler(int64_t start_index, int64_t num_samples);
SamplerPtr random_sampler(bool replacement, int64_t num_samples, uint64_t seed);
SamplerPtr distributed_sampler(int64_t num_shards, int64_t shard_id, bool shuffle, int64_t num_samples,
                               int64_t offset, uint64_t seed);
// Rows from `indices`: in random order (SubsetRandomSampler) or as given (SubsetSampler).
SamplerPtr subset_sampler(std::vector<int64_t> indices, bool shuffle, int64_t num_samples, uint64_t seed);
SamplerPtr weighted_random_sampler(std::vector<double> weights, int64_t num_samples, bool replacement,
                                   uint64_t seed);
// num_val rows of each class in turn (classes in random order when shuffle); labels[i] is row i's class.
SamplerPtr pk_sampler(std::vector<int64_t> labels, int64_t num_val, bool shuffle, int64_t num_samples,
                      uint64_t seed);

// Rows grouped in consecutive blocks of `block_sizes` (the files of a text or CSV dataset): blocks in
// random order (shuffle_blocks, MindSpore's Shuffle.FILES) and/or rows in random order within each
// block (shuffle_within, Shuffle.INFILE); then every num_shards-th row from shard_id, padded by
// wrapping around like DistributedSampler.
SamplerPtr block_sampler(std::vector<int64_t> block_sizes, bool shuffle_blocks, bool shuffle_within,
                         int64_t num_shards, int64_t shard_id, int64_t num_samples, uint64_t seed);

}  // namespace sprout::data
