// Attributes of dropout, embedding, attention and the recurrent cells, shared with their kernels.
#pragma once

#include <tuple>

#include "ops/attrs.h"

namespace sprout {

// Note [Dropout randomness]
// The mask is a pure function of (Seed0, Seed1, element index): Philox4x32-10, a counter-based
// generator, is keyed by the seeds and counts by element, so the mask does not depend on the
// thread count or on how the work is split, and equal seeds give equal masks (graph mode can
// recompute it). Seed0 = Seed1 = 0 asks for fresh seeds on every call (MindSpore's "random seed").
// ops.dropout draws both seeds from the global generator (ms.set_seed), so a seeded script
// reproduces its masks while successive calls still differ.
struct DropoutAttrs {
  double keep_prob = 0.5;
  int64_t Seed0 = 0;
  int64_t Seed1 = 0;
  static constexpr auto fields() {
    return std::tuple{attr("keep_prob", &DropoutAttrs::keep_prob, "Probability of keeping an element, in (0, 1]."),
                      attr("Seed0", &DropoutAttrs::Seed0, "First seed of the mask's generator (0 with Seed1 = 0: random)."),
                      attr("Seed1", &DropoutAttrs::Seed1, "Second seed of the mask's generator.")};
  }
};

}  // namespace sprout

namespace sprout {

// Embedding and its transpose share these: padding_idx names a row whose gradient stays zero (-1:
// none; ops.embedding maps Python's None and negative indices onto this), scale_grad_by_freq divides
// each row's gradient by how often its index occurs in the batch.
struct EmbeddingAttrs {
  int64_t padding_idx = -1;
  bool scale_grad_by_freq = false;
  static constexpr auto fields() {
    return std::tuple{attr("padding_idx", &EmbeddingAttrs::padding_idx, "Row whose gradient stays zero; -1: none.").call(),
                      attr("scale_grad_by_freq", &EmbeddingAttrs::scale_grad_by_freq,
                           "Divide each row's gradient by its index's count in the batch.").call()};
  }
};

struct EmbeddingDenseBackwardAttrs {
  int64_t num_weights = 0;
  int64_t padding_idx = -1;
  bool scale_grad_by_freq = false;
  static constexpr auto fields() {
    return std::tuple{attr("num_weights", &EmbeddingDenseBackwardAttrs::num_weights, "Rows of the table.").call(),
                      attr("padding_idx", &EmbeddingDenseBackwardAttrs::padding_idx, "Row left zero; -1: none.").call(),
                      attr("scale_grad_by_freq", &EmbeddingDenseBackwardAttrs::scale_grad_by_freq,
                           "Divide each row by its index's count.").call()};
  }
};

}  // namespace sprout
