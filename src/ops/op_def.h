// The operator registry. Note [An op is one record]
// Every operator is declared once, as an OpDef: its name (MindSpore's primitive name), its tensor
// inputs and outputs, its typed attributes, the dtype policy for its inputs, a pure infer function
// (abstract inputs -> abstract outputs), its kernels per device and its bprop rule. Everything else is
// derived from these records: the Python `ops.X` classes and `ops.x` functions, eager dispatch,
// the compiler's shape inference, the generated op table in docs/.
//
// Ops are declared in src/ops/<family>.cc with define_op<Attrs>(...); kernels live one layer up in
// src/kernels/<device>/ and attach themselves with register_kernel<Attrs>(...), so ops/ never depends
// on kernels/. Both run as static initializers; either may come first, the registry creates an entry
// on first mention and checks completeness when it is frozen (first lookup from outside).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"
#include "ops/attrs.h"
#include "ops/emitter.h"
#include "tensor/tensor.h"

namespace sprout {

// What the infer function sees of a tensor: everything but its values.
struct TensorSpec {
  DType dtype = DType::Float32;
  Shape shape;
  friend bool operator==(const TensorSpec& a, const TensorSpec& b) { return a.dtype == b.dtype && a.shape == b.shape; }
};
std::string spec_str(const TensorSpec& s);  // "Tensor[Float32](2, 3)"

enum class Device : uint8_t { CPU };
inline constexpr int kNumDevices = 1;

// How input dtypes are reconciled before the kernel runs (MindSpore's implicit type conversion).
enum class DTypePolicy : uint8_t {
  Exact,           // the infer function checks dtypes itself; inputs are passed as given
  Promote,         // all inputs are cast to their promoted type (promote_types)
  PromoteToFloat,  // as Promote, then bool/integer results become float32 (true division, exp, ...)
};

struct OpDef;
using InferFn = std::function<std::vector<TensorSpec>(const OpDef&, const void* attrs, std::span<const TensorSpec>)>;
using KernelFn = std::function<void(const void* attrs, std::span<const Tensor> inputs, std::span<Tensor> outputs)>;
// An op whose outputs alias its input (Reshape of contiguous data, Transpose, BroadcastTo) provides
// a view function; eager mode calls it instead of allocating and running a kernel.
using ViewFn = std::function<std::vector<Tensor>(const void* attrs, std::span<const Tensor> inputs)>;
using BpropFn = std::function<std::vector<Emitter::Value>(Emitter&, const BpropArgs&)>;

struct OpDef {
  std::string name;
  std::string doc;
  std::vector<std::string> inputs;   // tensor inputs, MindSpore's names
  std::vector<std::string> outputs;
  bool variadic = false;             // takes any number of inputs (AddN, Concat)
  bool tuple_output = false;         // gives a tuple even of one result (Split: attributes set the count)
  DTypePolicy dtype_policy = DTypePolicy::Exact;
  std::unique_ptr<AttrSchema> attrs;
  // Every attribute at its default (set with `attrs`), shared by the primitives built without
  // attributes (bprop rules build a few per backward node; attributes are immutable, with_attr copies).
  std::shared_ptr<void> default_attrs;
  InferFn infer;
  ViewFn view;
  KernelFn kernels[kNumDevices];
  BpropFn bprop;
  std::vector<bool> non_differentiable_outputs;  // e.g. ArgMax indices; empty = all differentiable
  // Writes an input in place or draws random numbers: the compiler keeps it, in program order.
  bool side_effect = false;
  // Draws random numbers (a side effect too): compiled code runs it on a new stream each time (Note
  // [Random streams in compiled code]).
  bool random = false;

  const KernelFn& kernel(Device d) const { return kernels[static_cast<int>(d)]; }
  size_t min_inputs() const { return variadic ? 0 : inputs.size(); }
};

class OpRegistry {
 public:
  static OpRegistry& instance();
  OpDef& entry(std::string_view name);     // creates an empty record on first mention (registration only)
  const OpDef* find(std::string_view name) const;
  const OpDef& get(std::string_view name) const;  // ValueError if unknown
  std::vector<const OpDef*> all() const;   // sorted by name

 private:
  OpRegistry() = default;
  std::vector<std::unique_ptr<OpDef>> ops_;
  // Names to records: bprop rules look ops up by name for every backward node, and a scan of several
  // hundred names was 7% of a small backward pass's profile. Keys view the records' own names.
  std::unordered_map<std::string_view, OpDef*> by_name_;
};

// A primitive instance: an op and values for its attributes. Cheap to copy (attrs are shared and
// immutable once built; `with_attr` copies on write).
class Primitive {
 public:
  Primitive() = default;
  explicit Primitive(const OpDef& def) : def_(&def), attrs_(def.default_attrs) {}
  Primitive(const OpDef& def, std::shared_ptr<void> attrs) : def_(&def), attrs_(std::move(attrs)) {}
  static Primitive make(std::string_view op) { return Primitive(OpRegistry::instance().get(op)); }

  const OpDef& def() const { return *def_; }
  const std::string& name() const { return def_->name; }
  const void* attrs() const { return attrs_.get(); }
  template <class A>
  const A& attrs_as() const { return *static_cast<const A*>(attrs_.get()); }
  AttrValue attr(std::string_view name) const;
  Primitive with_attr(std::string_view name, const AttrValue& value) const;
  std::string to_string() const;  // "MatMul(transpose_a=False, transpose_b=True)"
  bool operator==(const Primitive& other) const;

 private:
  const OpDef* def_ = nullptr;
  std::shared_ptr<void> attrs_;
};

// Declares an op with attribute struct A. Chain the setters; the record lives in the registry.
template <class A>
class OpBuilder {
 public:
  explicit OpBuilder(std::string_view name) : def_(OpRegistry::instance().entry(name)) {
    def_.attrs = std::make_unique<TypedAttrSchema<A>>();
    def_.default_attrs = def_.attrs->make_default();
  }
  OpBuilder& doc(std::string text) { def_.doc = std::move(text); return *this; }
  OpBuilder& inputs(std::vector<std::string> names) { def_.inputs = std::move(names); return *this; }
  OpBuilder& outputs(std::vector<std::string> names) { def_.outputs = std::move(names); return *this; }
  OpBuilder& variadic() { def_.variadic = true; return *this; }
  OpBuilder& tuple_output() { def_.tuple_output = true; return *this; }
  OpBuilder& dtype_policy(DTypePolicy p) { def_.dtype_policy = p; return *this; }
  OpBuilder& non_differentiable(std::vector<bool> outs) { def_.non_differentiable_outputs = std::move(outs); return *this; }
  OpBuilder& infer(std::vector<TensorSpec> (*fn)(const OpDef&, const A&, std::span<const TensorSpec>)) {
    def_.infer = [fn](const OpDef& d, const void* a, std::span<const TensorSpec> in) {
      return fn(d, *static_cast<const A*>(a), in);
    };
    return *this;
  }
  OpBuilder& view(std::vector<Tensor> (*fn)(const A&, std::span<const Tensor>)) {
    def_.view = [fn](const void* a, std::span<const Tensor> in) { return fn(*static_cast<const A*>(a), in); };
    return *this;
  }
  OpBuilder& bprop(BpropFn fn) { def_.bprop = std::move(fn); return *this; }
  OpBuilder& side_effect() { def_.side_effect = true; return *this; }
  OpBuilder& random() { def_.side_effect = def_.random = true; return *this; }
  const OpDef& done() { return def_; }

 private:
  OpDef& def_;
};

template <class A>
OpBuilder<A> define_op(std::string_view name) { return OpBuilder<A>(name); }

template <class A>
void register_kernel(std::string_view op, Device device,
                     void (*fn)(const A&, std::span<const Tensor>, std::span<Tensor>)) {
  OpRegistry::instance().entry(op).kernels[static_cast<int>(device)] =
      [fn](const void* a, std::span<const Tensor> in, std::span<Tensor> out) { fn(*static_cast<const A*>(a), in, out); };
}

// Glue for static registration: `SPROUT_REGISTER(unique_name) { define_op<...>(...)...; }`
#define SPROUT_REGISTER(tag)                              \
  static void sprout_register_##tag();                    \
  static const bool sprout_registered_##tag = [] {        \
    sprout_register_##tag();                              \
    return true;                                          \
  }();                                                    \
  static void sprout_register_##tag()

}  // namespace sprout
