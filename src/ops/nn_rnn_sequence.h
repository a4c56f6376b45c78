// The LSTM and GRU recurrences as one op (nn_rnn_sequence.cc) and its bprop rules (nn_rnn_sequence_bprop.cc).
#pragma once

#include <tuple>

#include "ops/attrs.h"
#include "ops/op_def.h"

namespace sprout {

struct RecurrenceAttrs {
  bool reverse = false;
  static constexpr auto fields() {
    return std::tuple{attr("reverse", &RecurrenceAttrs::reverse,
                           "Run the steps from the last to the first (a bidirectional layer's backward direction).")};
  }
};

BpropFn lstm_recurrence_bprop();
BpropFn lstm_recurrence_grad_bprop();
BpropFn gru_recurrence_bprop();
BpropFn gru_recurrence_grad_bprop();

}  // namespace sprout
