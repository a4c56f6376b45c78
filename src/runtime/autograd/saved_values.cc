#include "runtime/autograd/saved_values.h"

#include <array>
#include <unordered_map>
#include <vector>

#include "ops/emitter.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

// An Emitter whose values are specs: emitting an op infers its outputs and marks its inputs read.
class ProbeEmitter final : public Emitter {
 public:
  Value add(TensorSpec spec) {
    specs_.push_back(std::move(spec));
    read_.push_back(false);
    return Value{static_cast<int32_t>(specs_.size() - 1)};
  }
  bool was_read(Value v) const { return read_[static_cast<size_t>(v.id)]; }

  std::vector<Value> emit_outputs(const Primitive& prim, std::span<const Value> inputs) override {
    const OpDef& def = prim.def();
    std::vector<TensorSpec> in;
    std::vector<DType> dtypes;
    for (Value v : inputs) {
      read_[static_cast<size_t>(v.id)] = true;
      in.push_back(specs_[static_cast<size_t>(v.id)]);
      dtypes.push_back(in.back().dtype);
    }
    if (std::optional<DType> common = policy_dtype(def, dtypes))
      for (TensorSpec& s : in) s.dtype = *common;
    std::vector<Value> out;
    for (TensorSpec& s : def.infer(def, prim.attrs(), in)) out.push_back(add(std::move(s)));
    return out;
  }
  Value constant(const Tensor& value) override { return add(TensorSpec{value.dtype(), value.shape()}); }
  TensorSpec spec(Value v) const override { return specs_[static_cast<size_t>(v.id)]; }
  Value zeros_like(Value like) override { return add(specs_[static_cast<size_t>(like.id)]); }

 private:
  std::vector<TensorSpec> specs_;
  std::vector<bool> read_;
};

// The reads of the rule asked only for the gradients of the tracked inputs: the others are never
// wanted, and what only their gradients read (the other operand of a product with a constant) need
// not be kept.
BpropReads probe(const Primitive& prim, std::span<const Tensor> inputs, std::span<const Tensor> outputs,
                 std::span<const uint8_t> tracked) {
  const OpDef& def = prim.def();
  if (!def.bprop || inputs.size() > 64 || outputs.size() > 64) return {};
  ProbeEmitter e;
  std::vector<Emitter::Value> in, out, dout;
  for (const Tensor& t : inputs) in.push_back(e.add(TensorSpec{t.dtype(), t.shape()}));
  for (const Tensor& t : outputs) out.push_back(e.add(TensorSpec{t.dtype(), t.shape()}));
  for (const Tensor& t : outputs) dout.push_back(e.add(TensorSpec{t.dtype(), t.shape()}));
  try {
    def.bprop(e, BpropArgs{prim, in, out, dout, tracked});
  } catch (...) {
    return {};  // keep everything; the real backward reports whatever is wrong
  }
  BpropReads reads{0, 0};
  for (size_t i = 0; i < in.size(); ++i)
    if (e.was_read(in[i])) reads.inputs |= uint64_t{1} << i;
  for (size_t i = 0; i < out.size(); ++i)
    if (e.was_read(out[i])) reads.outputs |= uint64_t{1} << i;
  return reads;
}

// The cache: one entry per (primitive attributes, specs) seen on this thread. The entry keeps its
// Primitive, so the attributes' address it is keyed by cannot be reused by another primitive.
struct CacheEntry {
  Primitive prim;
  std::vector<TensorSpec> specs;  // inputs, then outputs
  std::vector<uint8_t> tracked;
  BpropReads reads;
};

size_t mix(size_t h, size_t v) { return (h ^ v) * 0x100000001b3ull; }

size_t spec_hash(std::span<const Tensor> ts, size_t h) {
  for (const Tensor& t : ts) {
    h = mix(h, static_cast<size_t>(t.dtype()) + 0x9e37u);
    for (int64_t d : t.shape()) h = mix(h, static_cast<size_t>(d));
  }
  return h;
}

bool same_specs(const CacheEntry& e, std::span<const Tensor> inputs, std::span<const Tensor> outputs) {
  if (e.specs.size() != inputs.size() + outputs.size()) return false;
  size_t i = 0;
  for (std::span<const Tensor> ts : {inputs, outputs})
    for (const Tensor& t : ts) {
      const TensorSpec& s = e.specs[i++];
      if (s.dtype != t.dtype() || s.shape != t.shape()) return false;
    }
  return true;
}

constexpr size_t kMaxCacheEntries = 4096;  // primitives made per call (call-time attributes) churn it

}  // namespace

BpropReads bprop_reads(const Primitive& prim, std::span<const Tensor> inputs, std::span<const Tensor> outputs) {
  thread_local std::unordered_map<size_t, CacheEntry> cache;
  std::vector<uint8_t> tracked;
  tracked.reserve(inputs.size());
  size_t key = mix(reinterpret_cast<size_t>(prim.attrs()), reinterpret_cast<size_t>(&prim.def()));
  for (const Tensor& t : inputs) {
    tracked.push_back(t.autograd() ? 1 : 0);
    key = mix(key, tracked.back());
  }
  key = spec_hash(outputs, spec_hash(inputs, mix(key, inputs.size())));
  auto found = cache.find(key);
  if (found != cache.end() && found->second.prim.attrs() == prim.attrs() &&
      &found->second.prim.def() == &prim.def() && found->second.tracked == tracked &&
      same_specs(found->second, inputs, outputs))
    return found->second.reads;
  if (cache.size() >= kMaxCacheEntries) cache.clear();
  CacheEntry entry{prim, {}, tracked, probe(prim, inputs, outputs, tracked)};
  for (std::span<const Tensor> ts : {inputs, outputs})
    for (const Tensor& t : ts) entry.specs.push_back(TensorSpec{t.dtype(), t.shape()});
  BpropReads reads = entry.reads;
  cache.insert_or_assign(key, std::move(entry));
  return reads;
}

Tensor unsaved_placeholder(const Tensor& t) {
  static const std::array<Tensor, kNumDTypes> zeros = [] {
    std::array<Tensor, kNumDTypes> z;
    for (int i = 0; i < kNumDTypes; ++i) z[static_cast<size_t>(i)] = Tensor::zeros({}, static_cast<DType>(i));
    return z;
  }();
  std::vector<int64_t> strides(t.shape().size(), 0);
  return zeros[static_cast<size_t>(t.dtype())].as_strided(t.shape(), strides, 0);
}

}  // namespace sprout
