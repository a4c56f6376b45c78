// Runs a MindIR model with Sprout's C++ inference API (src/api/inference.h), no Python involved.
//
//   sprout_infer MODEL.mindir [INPUT.f32 ...]
//
// Each INPUT file holds one Float32 input's values, raw little-endian, in row-major order (without
// one, the input is zeros). Prints every output as "output <i> <type> [shape]" and one value per line.
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <vector>

#include "api/inference.h"

namespace inference = sprout::inference;

static std::vector<float> read_floats(const char* path, int64_t count) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot read '") + path + "'");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() != static_cast<size_t>(count) * sizeof(float))
    throw std::runtime_error(std::string("'") + path + "' holds " + std::to_string(bytes.size()) +
                             " bytes; the input needs " + std::to_string(count * sizeof(float)));
  std::vector<float> values(static_cast<size_t>(count));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.mindir [INPUT.f32 ...]\n", argv[0]);
    return 2;
  }
  try {
    inference::Model model = inference::Model::load(argv[1]);
    std::vector<inference::HostTensor> inputs;
    for (size_t i = 0; i < model.inputs().size(); ++i) {
      const inference::InputInfo& info = model.inputs()[i];
      int64_t count = 1;
      for (int64_t d : info.shape) count *= d;
      std::vector<float> values = static_cast<int>(i) + 2 < argc ? read_floats(argv[i + 2], count)
                                                                  : std::vector<float>(static_cast<size_t>(count));
      inputs.push_back(inference::HostTensor::from_floats(info.shape, values));
    }
    std::vector<inference::HostTensor> outputs = model.predict(inputs);
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::printf("output %zu %s [", i, inference::element_type_name(outputs[i].type));
      for (size_t d = 0; d < outputs[i].shape.size(); ++d) std::printf(d ? ", %lld" : "%lld", (long long)outputs[i].shape[d]);
      std::printf("]\n");
      for (float v : outputs[i].floats()) std::printf("%.9g\n", v);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sprout_infer: %s\n", e.what());
    return 1;
  }
  return 0;
}
