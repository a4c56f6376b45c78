// The C++ inference API (api/inference.h) on the MindIR reader, the compiler and the VM.
#include "api/inference.h"

#include <cstring>
#include <stdexcept>

#include "base/error.h"
#include "compiler/passes.h"
#include "io/mindir.h"
#include "runtime/vm.h"

namespace sprout::inference {

static_assert(static_cast<int>(ElementType::Float64) == static_cast<int>(DType::Float64) &&
                  static_cast<int>(ElementType::Float32) == static_cast<int>(DType::Float32) &&
                  static_cast<int>(ElementType::Bool) == static_cast<int>(DType::Bool) &&
                  static_cast<int>(ElementType::UInt64) == static_cast<int>(DType::UInt64),
              "ElementType follows DType's order");

size_t element_size(ElementType type) { return itemsize(static_cast<DType>(type)); }
const char* element_type_name(ElementType type) { return name(static_cast<DType>(type)).data(); }

namespace {

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

int64_t count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

}  // namespace

int64_t HostTensor::numel() const { return count(shape); }

HostTensor HostTensor::from_floats(std::vector<int64_t> shape, const std::vector<float>& values) {
  if (count(shape) != static_cast<int64_t>(values.size()))
    throw std::invalid_argument(str("HostTensor::from_floats: shape ", shape_str(shape), " holds ", count(shape),
                                    " values, but got ", values.size()));
  HostTensor t{ElementType::Float32, std::move(shape), std::vector<std::byte>(values.size() * sizeof(float))};
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

std::vector<float> HostTensor::floats() const {
  if (type != ElementType::Float32)
    throw std::invalid_argument(str("HostTensor::floats: the tensor is ", element_type_name(type), ", not Float32"));
  std::vector<float> out(static_cast<size_t>(numel()));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

struct Model::Impl {
  mindir::Model model;
  std::unique_ptr<vm::Program> program;
  std::vector<InputInfo> inputs;
};

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::load(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->model = mindir::import_mindir(path);
  impl->program = compiler::compile_graph(*impl->model.graph, {}).program;
  for (size_t i = 0; i < impl->model.input_specs.size(); ++i) {
    const TensorSpec& s = impl->model.input_specs[i];
    impl->inputs.push_back({impl->model.input_names[i], static_cast<ElementType>(s.dtype),
                            std::vector<int64_t>(s.shape.begin(), s.shape.end())});
  }
  return Model(std::move(impl));
}

const std::vector<InputInfo>& Model::inputs() const { return impl_->inputs; }

std::vector<HostTensor> Model::predict(const std::vector<HostTensor>& inputs) const {
  const std::vector<InputInfo>& expected = impl_->inputs;
  if (inputs.size() != expected.size())
    throw std::invalid_argument(str("Model::predict: the model takes ", expected.size(), " inputs, but got ",
                                    inputs.size()));
  std::vector<vm::VmValue> args;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HostTensor& in = inputs[i];
    if (in.type != expected[i].type || in.shape != expected[i].shape)
      throw std::invalid_argument(str("Model::predict: input '", expected[i].name, "' must be ",
                                      element_type_name(expected[i].type), shape_str(expected[i].shape), ", but got ",
                                      element_type_name(in.type), shape_str(in.shape)));
    if (in.bytes.size() != static_cast<size_t>(in.numel()) * element_size(in.type))
      throw std::invalid_argument(str("Model::predict: input '", expected[i].name, "' holds ", in.bytes.size(),
                                      " bytes; its shape and type need ", in.numel() * element_size(in.type)));
    Tensor t = Tensor::empty(Shape(in.shape.begin(), in.shape.end()), static_cast<DType>(in.type));
    std::memcpy(t.raw_data(), in.bytes.data(), in.bytes.size());
    args.push_back(vm::VmValue{t});
  }
  for (const mindir::NamedTensor& w : impl_->model.weights) args.push_back(vm::VmValue{w.value});
  vm::VmValue result = impl_->program->run(std::move(args));
  std::vector<HostTensor> outputs;
  for (const vm::VmValue& v : **result.tuple()) {
    Tensor t = v.tensor()->contiguous();
    HostTensor out{static_cast<ElementType>(t.dtype()), std::vector<int64_t>(t.shape().begin(), t.shape().end()),
                   std::vector<std::byte>(t.nbytes())};
    std::memcpy(out.bytes.data(), t.raw_data(), t.nbytes());
    outputs.push_back(std::move(out));
  }
  return outputs;
}

}  // namespace sprout::inference
