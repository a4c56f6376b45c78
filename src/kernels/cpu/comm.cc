// CPU kernels of the collectives (ops/comm.cc) on dist/communication.h. Float16 and BFloat16 go
// through Float32 copies, the other dtypes straight from the output's memory.
#include "dist/communication.h"
#include "kernels/cpu/nn_act_common.h"
#include "ops/comm.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

bool needs_float32(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

// Runs `collective` on `out`'s values (a Float32 copy for half types), in place.
template <class Fn>
void in_place(const Tensor& out, Fn collective) {
  if (!needs_float32(out.dtype())) {
    Tensor t = out;
    collective(t);
    return;
  }
  Tensor wide = contiguous_as(out, DType::Float32);
  collective(wide);
  convert_into(wide, out);
}

void all_reduce_kernel(const AllReduceAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  out[0].copy_from(in[0]);
  const dist::ReduceOp op = dist::reduce_op_from_name(a.op, "AllReduce");
  in_place(out[0], [&](Tensor& t) { dist::all_reduce(t, op); });
}

void all_gather_kernel(const GroupAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  Tensor gathered = dist::all_gather(needs_float32(in[0].dtype()) ? contiguous_as(in[0], DType::Float32) : in[0]);
  convert_into(gathered, out[0]);
}

void broadcast_kernel(const BroadcastAttrs& a, std::span<const Tensor> in, std::span<Tensor> out) {
  for (size_t i = 0; i < in.size(); ++i) {
    out[i].copy_from(in[i]);
    in_place(out[i], [&](Tensor& t) { dist::broadcast(t, static_cast<int>(a.root_rank)); });
  }
}

}  // namespace

SPROUT_REGISTER(cpu_comm) {
  register_kernel<AllReduceAttrs>("AllReduce", Device::CPU, all_reduce_kernel);
  register_kernel<GroupAttrs>("AllGather", Device::CPU, all_gather_kernel);
  register_kernel<BroadcastAttrs>("Broadcast", Device::CPU, broadcast_kernel);
}

}  // namespace sprout
