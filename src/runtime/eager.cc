#include "runtime/eager.h"

#include <array>

#include "ops/array.h"
#include "ops/infer_util.h"
#include "runtime/autograd/graph.h"
#include "runtime/op_profile.h"

namespace sprout {

std::optional<DType> policy_dtype(const OpDef& def, std::span<const DType> dtypes) {
  if (def.dtype_policy == DTypePolicy::Exact || dtypes.empty()) return std::nullopt;
  DType t = dtypes[0];
  for (DType d : dtypes.subspan(1)) {
    SPROUT_CHECK(can_promote(t, d), TypeError, def.name, ": implicit conversion between ", name(t), " and ", name(d),
                 " is not supported (MindSpore converts UInt16, UInt32 and UInt64 only with Bool); cast the inputs "
                 "to one dtype with astype first");
    t = promote_types(t, d);
  }
  if (def.dtype_policy == DTypePolicy::PromoteToFloat && !is_floating(t)) t = DType::Float32;
  return t;
}

Tensor cast(const Tensor& x, DType dtype) {
  if (x.dtype() == dtype) return x;
  static const OpDef& cast_def = OpRegistry::instance().get("Cast");
  if (x.autograd() && is_recording()) {  // a gradient flows through: record the Cast like any op
    Tensor in[1] = {x};
    return run_eager(Primitive::make("Cast").with_attr("dst_type", dtype), in)[0];
  }
  CastAttrs attrs{dtype};
  Tensor out = Tensor::empty(x.shape(), dtype);
  Tensor outs[1] = {out};
  cast_def.kernel(Device::CPU)(&attrs, std::span<const Tensor>(&x, 1), outs);
  return out;
}

void run_kernel(const OpDef& def, const KernelFn& kernel, const void* attrs, std::span<const Tensor> inputs,
                std::span<Tensor> outputs) {
  try {
    kernel(attrs, inputs, outputs);
  } catch (const std::bad_alloc&) {
    throw RuntimeError(str(def.name, ": out of memory for the scratch space of its kernel"));
  } catch (const std::length_error&) {
    throw RuntimeError(str(def.name, ": the inputs ask for a buffer larger than memory can hold"));
  }
}

std::vector<Tensor> run_eager(const Primitive& prim, std::span<const Tensor> given) {
  const OpDef& def = prim.def();
  OpTimer timer(def.name);
  check_input_count(def, given.size());

  SmallVector<DType, 8> dtypes;
  for (const Tensor& t : given) dtypes.push_back(t.dtype());
  std::optional<DType> common = policy_dtype(def, dtypes);
  std::vector<Tensor> cast_inputs;
  std::span<const Tensor> inputs = given;
  if (common) {
    bool need_cast = false;
    for (const Tensor& t : given) need_cast = need_cast || t.dtype() != *common;
    if (need_cast) {
      cast_inputs.reserve(given.size());
      for (const Tensor& t : given) cast_inputs.push_back(cast(t, *common));
      inputs = cast_inputs;
    }
  }

  std::array<TensorSpec, 4> local_specs;  // on the stack for up to four inputs (see run_with_operands)
  std::vector<TensorSpec> heap_specs(inputs.size() > local_specs.size() ? inputs.size() : 0);
  std::span<TensorSpec> in_specs = heap_specs.empty() ? std::span<TensorSpec>(local_specs.data(), inputs.size())
                                                       : std::span<TensorSpec>(heap_specs);
  for (size_t i = 0; i < inputs.size(); ++i) in_specs[i] = TensorSpec{inputs[i].dtype(), inputs[i].shape()};
  std::vector<TensorSpec> out_specs = def.infer(def, prim.attrs(), in_specs);

  if (def.view) {
    std::vector<Tensor> views = def.view(prim.attrs(), inputs);
    record_op(prim, inputs, views);
    return views;
  }

  const KernelFn& kernel = def.kernel(Device::CPU);
  SPROUT_CHECK(kernel, RuntimeError, def.name, ": no CPU kernel is registered for this op");
  std::vector<Tensor> outputs;
  outputs.reserve(out_specs.size());
  for (const TensorSpec& s : out_specs) outputs.push_back(Tensor::empty(s.shape, s.dtype, def.name));
  run_kernel(def, kernel, prim.attrs(), inputs, outputs);
  record_op(prim, inputs, outputs);
  return outputs;
}

}  // namespace sprout
