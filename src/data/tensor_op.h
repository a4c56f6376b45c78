// TensorOp: a transform implemented in C++ (vision ops, automatic augmentation), run by map without
// the GIL. A chain of them is one RowFunction; random ops draw from an Rng seeded by the row's seed
// (Note [Seeds in the pipeline]), so results do not depend on which worker runs them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/map_node.h"
#include "data/rng.h"

namespace sprout::data {

class TensorOp {
 public:
  virtual ~TensorOp() = default;
  virtual std::string name() const = 0;
  // Transforms the columns it is given; most ops take and return one image.
  virtual Row apply(Row columns, Rng& rng) const = 0;
};
using TensorOpPtr = std::shared_ptr<const TensorOp>;

// An op on one image (H, W, C) or (H, W): apply() checks the column count and calls apply_image.
class ImageOp : public TensorOp {
 public:
  Row apply(Row columns, Rng& rng) const override;
  virtual Tensor apply_image(const Tensor& image, Rng& rng) const = 0;
};

// Runs `ops` in turn on a row's input columns.
RowFunction chain_ops(std::vector<TensorOpPtr> ops);

}  // namespace sprout::data
