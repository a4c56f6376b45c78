// Print: the op behind `print(...)` in graph mode and MindSpore's ops.Print (Note [Print]).
#pragma once

#include <functional>
#include <span>
#include <string>

#include "tensor/tensor.h"

namespace sprout {

struct PrintAttrs {
  std::string format;  // "{}" marks where each tensor goes; empty: the tensors separated by spaces
  static constexpr auto fields();
};

// Where printed text goes: the Python layer installs print() (so tensors print as in PYNATIVE);
// without it, a plain rendering goes to stdout.
using PrintSink = std::function<void(const std::string& format, std::span<const Tensor> tensors)>;
void set_print_sink(PrintSink sink);
void print_tensors(const std::string& format, std::span<const Tensor> tensors);

}  // namespace sprout
