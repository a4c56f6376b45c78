// MindIR model files (.mindir) in MindSpore's format: a compiled graph with its weights, written
// from Sprout and read back, or read from MindSpore (Note [MindIR ops] in mindir_ops.cc).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/func_graph.h"
#include "ops/op_def.h"
#include "tensor/tensor.h"

namespace sprout::mindir {

struct NamedTensor {
  std::string name;
  Tensor value;
};

// Writes `entry` (a staged graph: its first `n_inputs` parameters are the model's inputs, the rest
// the `weights`, in order) to `path`, atomically. The graph is optimized first (inlined, folded, dead
// code dropped; in place), and must then be straight-line code of ops with a MindIR form; its output
// is a tuple of tensors, written as one tensor when `single_output`. `model_version` is the
// producer's version (Sprout's). RuntimeError naming the op or construct otherwise, or when the file
// cannot be written.
void export_mindir(ir::FuncGraph& entry, size_t n_inputs, const std::vector<NamedTensor>& weights, bool single_output,
                   const std::string& model_version, const std::string& path);

// A model read from a file: its graph takes the inputs, then the weights, and returns a tuple of
// tensors (one tensor when `single_output`).
struct Model {
  std::shared_ptr<ir::Module> module;
  ir::FuncGraph* graph = nullptr;
  std::vector<std::string> input_names;
  std::vector<TensorSpec> input_specs;
  std::vector<NamedTensor> weights;
  bool single_output = true;
};

// Reads a MindIR file written by Sprout or by MindSpore. RuntimeError naming the file and what is
// wrong when it is missing or corrupt, or uses an op or construct Sprout cannot load.
Model import_mindir(const std::string& path);

}  // namespace sprout::mindir
