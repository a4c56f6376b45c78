// Sprout's C++ inference API: run a MindIR model (written by sprout.export, or by MindSpore's export)
// from C++, without Python. Link with libsprout_inference.so; this header is all a program includes.
//
//   auto model = sprout::inference::Model::load("lenet.mindir");
//   auto x = sprout::inference::HostTensor::from_floats({1, 1, 32, 32}, pixels);
//   std::vector<float> logits = model.predict({x})[0].floats();
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#define SPROUT_API __attribute__((visibility("default")))

namespace sprout::inference {

// Element types, in the order of Sprout's DType.
enum class ElementType : uint8_t {
  Bool, Int8, Int16, Int32, Int64, UInt8, Float16, BFloat16, Float32, Float64, UInt16, UInt32, UInt64
};
SPROUT_API size_t element_size(ElementType type);
SPROUT_API const char* element_type_name(ElementType type);  // "Float32"

// A row-major tensor in host memory.
struct SPROUT_API HostTensor {
  ElementType type = ElementType::Float32;
  std::vector<int64_t> shape;
  std::vector<std::byte> bytes;  // numel() * element_size(type) of them

  // std::invalid_argument when `values` does not hold exactly the shape's element count.
  static HostTensor from_floats(std::vector<int64_t> shape, const std::vector<float>& values);
  int64_t numel() const;
  // The values of a Float32 tensor; std::invalid_argument for other types.
  std::vector<float> floats() const;
};

struct InputInfo {
  std::string name;
  ElementType type;
  std::vector<int64_t> shape;
};

// A model read from a MindIR file and compiled once. predict() may be called any number of times, from
// one thread at a time.
class SPROUT_API Model {
 public:
  // std::runtime_error naming the file and the problem when it is missing or corrupt, or uses an op
  // Sprout cannot run.
  static Model load(const std::string& path);
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  ~Model();

  // The inputs predict() takes, in order: the shapes and types the model was exported for.
  const std::vector<InputInfo>& inputs() const;
  // The model's outputs for `inputs`. std::invalid_argument naming the input when the count, a type or
  // a shape differs from inputs().
  std::vector<HostTensor> predict(const std::vector<HostTensor>& inputs) const;

 private:
  struct Impl;
  explicit Model(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sprout::inference
