// The CPU kernel of Print (Note [Print] in ops/debug_print.cc).
#include "ops/debug_print.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

void print_kernel(const PrintAttrs& attrs, std::span<const Tensor> in, std::span<Tensor> out) {
  print_tensors(attrs.format, in);
  *out[0].data<int32_t>() = 0;
}

}  // namespace

SPROUT_REGISTER(debug_print_cpu) { register_kernel<PrintAttrs>("Print", Device::CPU, print_kernel); }

}  // namespace sprout
