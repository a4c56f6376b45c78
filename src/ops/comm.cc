// Collective communication ops (Note [Collectives on MPI] in dist/communication.h): AllReduce, AllGather
// and Broadcast across the ranks of a data-parallel job. They are side effects, so the compiler keeps
// them and keeps them in program order: every rank must issue the same collectives in the same order.
#include "dist/communication.h"
#include "ops/array_bprop.h"
#include "ops/comm.h"
#include "ops/infer_util.h"
#include "ops/op_def.h"

namespace sprout {
namespace {

using V = Emitter::Value;

std::vector<TensorSpec> infer_all_reduce(const OpDef& op, const AllReduceAttrs& a, std::span<const TensorSpec> in) {
  dist::reduce_op_from_name(a.op, "AllReduce");
  dist::check_group(a.group, "AllReduce");
  return {in[0]};
}

std::vector<TensorSpec> infer_all_gather(const OpDef& op, const GroupAttrs& a, std::span<const TensorSpec> in) {
  dist::check_group(a.group, "AllGather");
  dist::check_initialized("AllGather");
  SPROUT_CHECK(!in[0].shape.empty(), ValueError, "AllGather: the input must have at least one axis (the ranks' "
               "tensors are joined along axis 0), but got a scalar");
  Shape out = in[0].shape;
  out[0] *= dist::size();
  return {TensorSpec{in[0].dtype, out}};
}

std::vector<TensorSpec> infer_broadcast(const OpDef& op, const BroadcastAttrs& a, std::span<const TensorSpec> in) {
  dist::check_group(a.group, "Broadcast");
  SPROUT_CHECK(!in.empty(), ValueError, "Broadcast: 'input_x' must hold at least one tensor, but got none");
  return {in.begin(), in.end()};
}

// d(sum over ranks of x) / dx_r: every rank's output gradient reaches every rank's input.
std::vector<V> all_reduce_bprop(BpropBuilder& b) {
  const AllReduceAttrs& a = b.prim().attrs_as<AllReduceAttrs>();
  SPROUT_CHECK(a.op == "sum", RuntimeError, "AllReduce: only op='sum' has a gradient, but this one is op='", a.op,
               "'");
  return {emit_op(b, "AllReduce", {b.dout()}, {{"op", std::string("sum")}, {"group", a.group}})};
}

// Rank r's input is block r of the gathered output, on every rank: its gradient is the sum over ranks
// of that block of their output gradients.
std::vector<V> all_gather_bprop(BpropBuilder& b) {
  const std::string& group = b.prim().attrs_as<GroupAttrs>().group;
  const Shape x = b.spec(b.input(0)).shape;
  V summed = emit_op(b, "AllReduce", {b.dout()}, {{"op", std::string("sum")}, {"group", group}});
  std::vector<int64_t> begin(x.size(), 0);
  begin[0] = x[0] * dist::rank();
  return {emit_op(b, "Slice", {summed}, {{"begin", begin}, {"size", std::vector<int64_t>(x.begin(), x.end())}})};
}

// Every rank's output is root's input: root's input gradient is the sum over ranks of the output
// gradients, the others get none. (Every rank issues the AllReduce: it is a collective.)
std::vector<V> broadcast_bprop(BpropBuilder& b) {
  const BroadcastAttrs& a = b.prim().attrs_as<BroadcastAttrs>();
  std::vector<V> grads;
  for (size_t i = 0; i < b.inputs().size(); ++i) {
    V summed = emit_op(b, "AllReduce", {b.dout(i)}, {{"op", std::string("sum")}, {"group", a.group}});
    grads.push_back(dist::rank() == a.root_rank ? summed : b.emitter().zeros_like(b.input(i)));
  }
  return grads;
}

}  // namespace

SPROUT_REGISTER(ops_comm) {
  define_op<AllReduceAttrs>("AllReduce")
      .doc("The elementwise sum (or max, min, product) of the tensor over all ranks, on every rank.")
      .inputs({"input_x"})
      .outputs({"output"})
      .side_effect()
      .infer(infer_all_reduce)
      .bprop(bprop_rule(all_reduce_bprop));
  define_op<GroupAttrs>("AllGather")
      .doc("The ranks' tensors joined along axis 0 in rank order, on every rank.")
      .inputs({"input_x"})
      .outputs({"output"})
      .side_effect()
      .infer(infer_all_gather)
      .bprop(bprop_rule(all_gather_bprop));
  define_op<BroadcastAttrs>("Broadcast")
      .doc("Every rank receives root_rank's tensors (a tuple in, a tuple out).")
      .inputs({"input_x"})
      .outputs({"output"})
      .variadic()
      .tuple_output()
      .side_effect()
      .infer(infer_broadcast)
      .bprop(bprop_rule(broadcast_bprop));
}

}  // namespace sprout
