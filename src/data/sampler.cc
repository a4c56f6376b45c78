#include "data/sampler.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "base/error.h"
#include "data/rng.h"

namespace sprout::data {

namespace {

int64_t clamp_samples(int64_t num_samples, int64_t available) {
  return num_samples > 0 ? std::min(num_samples, available) : available;
}

class SequentialSampler final : public Sampler {
 public:
  SequentialSampler(int64_t start, int64_t num) : start_(start), num_(num) {}
  int64_t num_samples(int64_t n) const override { return clamp_samples(num_, std::max<int64_t>(0, n - start_)); }
  std::vector<int64_t> indices(int64_t n, int64_t) const override {
    SPROUT_CHECK(start_ < n || n == 0, ValueError, "SequentialSampler: start_index ", start_,
                 " must be smaller than the dataset size ", n);
    std::vector<int64_t> out(static_cast<size_t>(num_samples(n)));
    std::iota(out.begin(), out.end(), start_);
    return out;
  }

 private:
  int64_t start_, num_;
};

class RandomSampler final : public Sampler {
 public:
  RandomSampler(bool replacement, int64_t num, uint64_t seed) : replacement_(replacement), num_(num), seed_(seed) {}
  int64_t num_samples(int64_t n) const override {
    return replacement_ && num_ > 0 ? num_ : clamp_samples(num_, n);
  }
  std::vector<int64_t> indices(int64_t n, int64_t epoch) const override {
    Rng rng(mix_seed({seed_, static_cast<uint64_t>(epoch)}));
    std::vector<int64_t> out;
    if (replacement_) {
      out.resize(static_cast<size_t>(num_samples(n)));
      for (auto& i : out) i = static_cast<int64_t>(rng.uniform(static_cast<uint64_t>(n)));
      return out;
    }
    out.resize(static_cast<size_t>(n));
    std::iota(out.begin(), out.end(), 0);
    rng.shuffle(out);
    out.resize(static_cast<size_t>(num_samples(n)));
    return out;
  }

 private:
  bool replacement_;
  int64_t num_;
  uint64_t seed_;
};

// Positions shard_id, shard_id + shards, ... of `order`, wrapping around so every shard gets
// ceil(n / shards) rows.
std::vector<int64_t> take_shard(const std::vector<int64_t>& order, int64_t shards, int64_t start) {
  std::vector<int64_t> out;
  const auto n = static_cast<int64_t>(order.size());
  if (n == 0) return out;
  const int64_t count = (n + shards - 1) / shards;
  for (int64_t k = 0; k < count; ++k) out.push_back(order[static_cast<size_t>((start + k * shards) % n)]);
  return out;
}

class DistributedSampler final : public Sampler {
 public:
  DistributedSampler(int64_t shards, int64_t id, bool shuffle, int64_t num, int64_t offset, uint64_t seed)
      : shards_(shards), id_(id), shuffle_(shuffle), num_(num), offset_(offset), seed_(seed) {
    SPROUT_CHECK(shards >= 1, ValueError, "DistributedSampler: num_shards must be >= 1, but got ", shards);
    SPROUT_CHECK(id >= 0 && id < shards, ValueError, "DistributedSampler: shard_id must be in [0, ", shards,
                 "), but got ", id);
  }
  int64_t per_shard(int64_t n) const { return (n + shards_ - 1) / shards_; }
  int64_t num_samples(int64_t n) const override { return clamp_samples(num_, n == 0 ? 0 : per_shard(n)); }
  std::vector<int64_t> indices(int64_t n, int64_t epoch) const override {
    std::vector<int64_t> all(static_cast<size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    // Every shard shuffles with the same seed, so the shards partition one permutation.
    if (shuffle_) Rng(mix_seed({seed_, static_cast<uint64_t>(epoch)})).shuffle(all);
    std::vector<int64_t> out = take_shard(all, shards_, (id_ + offset_) % shards_);
    out.resize(static_cast<size_t>(num_samples(n)));
    return out;
  }

 private:
  int64_t shards_, id_;
  bool shuffle_;
  int64_t num_, offset_;
  uint64_t seed_;
};

class SubsetSampler final : public Sampler {
 public:
  SubsetSampler(std::vector<int64_t> indices, bool shuffle, int64_t num, uint64_t seed)
      : indices_(std::move(indices)), shuffle_(shuffle), num_(num), seed_(seed) {}
  int64_t num_samples(int64_t) const override { return clamp_samples(num_, static_cast<int64_t>(indices_.size())); }
  std::vector<int64_t> indices(int64_t n, int64_t epoch) const override {
    for (size_t k = 0; k < indices_.size(); ++k)
      SPROUT_CHECK(indices_[k] >= 0 && indices_[k] < n, ValueError, shuffle_ ? "SubsetRandomSampler" : "SubsetSampler",
                   ": indices[", k, "] = ", indices_[k], " is out of range for a dataset of ", n, " rows");
    std::vector<int64_t> out = indices_;
    if (shuffle_) Rng(mix_seed({seed_, static_cast<uint64_t>(epoch)})).shuffle(out);
    out.resize(static_cast<size_t>(num_samples(n)));
    return out;
  }

 private:
  std::vector<int64_t> indices_;
  bool shuffle_;
  int64_t num_;
  uint64_t seed_;
};

class WeightedRandomSampler final : public Sampler {
 public:
  WeightedRandomSampler(std::vector<double> weights, int64_t num, bool replacement, uint64_t seed)
      : weights_(std::move(weights)), num_(num), replacement_(replacement), seed_(seed) {
    SPROUT_CHECK(!weights_.empty(), ValueError, "WeightedRandomSampler: weights must not be empty");
    int64_t positive = 0;
    for (size_t i = 0; i < weights_.size(); ++i) {
      SPROUT_CHECK(weights_[i] >= 0, ValueError, "WeightedRandomSampler: weights[", i, "] = ", weights_[i],
                   " is negative");
      positive += weights_[i] > 0;
    }
    SPROUT_CHECK(positive > 0, ValueError, "WeightedRandomSampler: all weights are zero");
    SPROUT_CHECK(replacement_ || num_ <= positive, ValueError, "WeightedRandomSampler: num_samples ", num_,
                 " exceeds the ", positive, " rows of non-zero weight, and replacement is False");
  }
  int64_t num_samples(int64_t) const override { return num_ > 0 ? num_ : static_cast<int64_t>(weights_.size()); }
  std::vector<int64_t> indices(int64_t n, int64_t epoch) const override {
    SPROUT_CHECK(static_cast<int64_t>(weights_.size()) <= n, ValueError, "WeightedRandomSampler: ", weights_.size(),
                 " weights for a dataset of only ", n, " rows");
    Rng rng(mix_seed({seed_, static_cast<uint64_t>(epoch)}));
    std::vector<double> w = weights_;
    std::vector<int64_t> out;
    const int64_t count = num_samples(n);
    for (int64_t k = 0; k < count; ++k) {
      std::vector<double> cumulative(w.size());
      std::partial_sum(w.begin(), w.end(), cumulative.begin());
      const double u = rng.uniform_real() * cumulative.back();
      auto idx = static_cast<int64_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
      idx = std::min<int64_t>(idx, static_cast<int64_t>(w.size()) - 1);
      while (w[static_cast<size_t>(idx)] == 0) --idx;  // u landed on the boundary of a zero weight
      out.push_back(idx);
      if (!replacement_) w[static_cast<size_t>(idx)] = 0;
    }
    return out;
  }

 private:
  std::vector<double> weights_;
  int64_t num_;
  bool replacement_;
  uint64_t seed_;
};

class PKSampler final : public Sampler {
 public:
  PKSampler(std::vector<int64_t> labels, int64_t num_val, bool shuffle, int64_t num, uint64_t seed)
      : num_val_(num_val), shuffle_(shuffle), num_(num), seed_(seed) {
    SPROUT_CHECK(num_val >= 1, ValueError, "PKSampler: num_val must be >= 1, but got ", num_val);
    for (size_t i = 0; i < labels.size(); ++i) by_class_[labels[i]].push_back(static_cast<int64_t>(i));
  }
  int64_t num_samples(int64_t) const override {
    return clamp_samples(num_, static_cast<int64_t>(by_class_.size()) * num_val_);
  }
  std::vector<int64_t> indices(int64_t n, int64_t epoch) const override {
    Rng rng(mix_seed({seed_, static_cast<uint64_t>(epoch)}));
    std::vector<const std::vector<int64_t>*> classes;
    for (const auto& [label, rows] : by_class_) classes.push_back(&rows);
    if (shuffle_) rng.shuffle(classes);
    std::vector<int64_t> out;
    for (const auto* rows : classes) {
      std::vector<int64_t> pick = *rows;
      if (shuffle_) rng.shuffle(pick);
      // A class with fewer than num_val rows repeats them, as MindSpore's PKSampler does.
      for (int64_t k = 0; k < num_val_; ++k) out.push_back(pick[static_cast<size_t>(k) % pick.size()]);
    }
    out.resize(static_cast<size_t>(num_samples(n)));
    return out;
  }

 private:
  std::map<int64_t, std::vector<int64_t>> by_class_;
  int64_t num_val_;
  bool shuffle_;
  int64_t num_;
  uint64_t seed_;
};

class BlockSampler final : public Sampler {
 public:
  BlockSampler(std::vector<int64_t> sizes, bool shuffle_blocks, bool shuffle_within, int64_t shards, int64_t id,
               int64_t num, uint64_t seed)
      : sizes_(std::move(sizes)), shuffle_blocks_(shuffle_blocks), shuffle_within_(shuffle_within), shards_(shards),
        id_(id), num_(num), seed_(seed) {
    SPROUT_CHECK(shards >= 1 && id >= 0 && id < shards, ValueError, "shard_id must be in [0, ", shards,
                 "), but got ", id);
  }
  int64_t num_samples(int64_t n) const override { return clamp_samples(num_, (n + shards_ - 1) / shards_); }
  std::vector<int64_t> indices(int64_t n, int64_t epoch) const override {
    Rng rng(mix_seed({seed_, static_cast<uint64_t>(epoch)}));
    std::vector<int64_t> starts;
    int64_t total = 0;
    for (int64_t s : sizes_) {
      starts.push_back(total);
      total += s;
    }
    SPROUT_ASSERT(total == n, "block sizes add up to ", total, " rows, the source has ", n);
    std::vector<size_t> blocks(sizes_.size());
    for (size_t b = 0; b < blocks.size(); ++b) blocks[b] = b;
    if (shuffle_blocks_) rng.shuffle(blocks);
    std::vector<int64_t> order;
    for (size_t b : blocks) {
      std::vector<int64_t> rows(static_cast<size_t>(sizes_[b]));
      std::iota(rows.begin(), rows.end(), starts[b]);
      if (shuffle_within_) rng.shuffle(rows);
      order.insert(order.end(), rows.begin(), rows.end());
    }
    std::vector<int64_t> out = take_shard(order, shards_, id_);
    out.resize(static_cast<size_t>(num_samples(n)));
    return out;
  }

 private:
  std::vector<int64_t> sizes_;
  bool shuffle_blocks_, shuffle_within_;
  int64_t shards_, id_, num_;
  uint64_t seed_;
};

}  // namespace

SamplerPtr block_sampler(std::vector<int64_t> block_sizes, bool shuffle_blocks, bool shuffle_within,
                         int64_t num_shards, int64_t shard_id, int64_t num_samples, uint64_t seed) {
  return std::make_shared<BlockSampler>(std::move(block_sizes), shuffle_blocks, shuffle_within, num_shards, shard_id,
                                        num_samples, seed);
}

SamplerPtr sequential_sampler(int64_t start_index, int64_t num_samples) {
  SPROUT_CHECK(start_index >= 0, ValueError, "SequentialSampler: start_index must be >= 0, but got ", start_index);
  return std::make_shared<SequentialSampler>(start_index, num_samples);
}
SamplerPtr random_sampler(bool replacement, int64_t num_samples, uint64_t seed) {
  return std::make_shared<RandomSampler>(replacement, num_samples, seed);
}
SamplerPtr distributed_sampler(int64_t num_shards, int64_t shard_id, bool shuffle, int64_t num_samples,
                               int64_t offset, uint64_t seed) {
  return std::make_shared<DistributedSampler>(num_shards, shard_id, shuffle, num_samples, offset, seed);
}
SamplerPtr subset_sampler(std::vector<int64_t> indices, bool shuffle, int64_t num_samples, uint64_t seed) {
  return std::make_shared<SubsetSampler>(std::move(indices), shuffle, num_samples, seed);
}
SamplerPtr weighted_random_sampler(std::vector<double> weights, int64_t num_samples, bool replacement,
                                   uint64_t seed) {
  return std::make_shared<WeightedRandomSampler>(std::move(weights), num_samples, replacement, seed);
}
SamplerPtr pk_sampler(std::vector<int64_t> labels, int64_t num_val, bool shuffle, int64_t num_samples,
                      uint64_t seed) {
  return std::make_shared<PKSampler>(std::move(labels), num_val, shuffle, num_samples, seed);
}

}  // namespace sprout::data
