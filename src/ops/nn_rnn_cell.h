// The fused LSTM/GRU cell ops (nn_rnn_cell.cc): shared shape checks and their bprop rules
// (nn_rnn_cell_bprop.cc).
#pragma once

#include <cstdint>
#include <span>

#include "ops/op_def.h"

namespace sprout {

struct CellShape {
  int64_t batch;
  int64_t hidden;
};

// Checks inputs (input_gates, hidden_gates, state, input_bias, hidden_bias, sensitivities...) of a cell op
// with `gates` gates per hidden unit (LSTM 4, GRU 3); user errors name the op and the input.
CellShape check_cell_inputs(const OpDef& op, std::span<const TensorSpec> in, int64_t gates);

BpropFn lstm_cell_bprop();
BpropFn lstm_cell_grad_bprop();
BpropFn gru_cell_bprop();
BpropFn gru_cell_grad_bprop();

}  // namespace sprout
