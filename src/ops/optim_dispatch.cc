#include "ops/optim_dispatch.h"

namespace sprout {

std::vector<Tensor> run_in_place(const OpDef& def, const void* attrs, std::span<const Tensor> in,
                                 std::string_view roles) {
  SPROUT_ASSERT(roles.size() == in.size(), def.name, ": ", roles.size(), " roles for ", in.size(), " inputs");
  // A state that is not contiguous (a strided Parameter view) is updated in a contiguous copy and
  // copied back, so kernels only ever see dense memory.
  std::vector<Tensor> args(in.begin(), in.end()), states;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!args[i].is_contiguous()) args[i] = args[i].clone();
    if (roles[i] == 'u') states.push_back(args[i]);
  }
  def.kernel(Device::CPU)(attrs, args, states);
  std::vector<Tensor> out;
  for (size_t i = 0, s = 0; i < in.size(); ++i) {
    if (roles[i] != 'u') continue;
    if (args[i].raw_data() != in[i].raw_data()) in[i].copy_from(args[i]);
    in[i].bump_version();  // Note [In-place writes and saved values]
    if (s++ < def.outputs.size()) out.push_back(in[i]);
  }
  return out;
}

}  // namespace sprout
