#include "data/tensor_op.h"

#include "base/error.h"

namespace sprout::data {

Row ImageOp::apply(Row columns, Rng& rng) const {
  SPROUT_CHECK(columns.size() == 1, ValueError, name(), ": takes one image column, but got ", columns.size(),
               " columns");
  SPROUT_CHECK(!columns[0].is_string(), TypeError, name(), ": expected an image, but got text");
  return Row{apply_image(columns[0].tensor(), rng)};
}

RowFunction chain_ops(std::vector<TensorOpPtr> ops) {
  return [ops = std::move(ops)](Row row, const RowContext& ctx) {
    Rng rng(ctx.seed);
    for (const auto& op : ops) row = op->apply(std::move(row), rng);
    return row;
  };
}

}  // namespace sprout::data
