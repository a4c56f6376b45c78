// MindIR model files from Python: sprout.train.serialization's export / load build on these.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "io/mindir.h"
#include "python/bindings.h"
#include "python/ir_handles.h"

namespace sprout::py {

void bind_mindir(nb::module_& m) {
  m.def("export_mindir", [](PyGraph& graph, size_t n_inputs, std::vector<std::pair<std::string, Tensor>> weights,
                            bool single_output, const std::string& version, const std::string& path) {
    std::vector<mindir::NamedTensor> named;
    for (auto& [name, value] : weights) named.push_back({name, value});
    mindir::export_mindir(*graph.graph, n_inputs, named, single_output, version, path);
  }, nb::arg("graph"), nb::arg("n_inputs"), nb::arg("weights"), nb::arg("single_output"), nb::arg("version"), nb::arg("path"),
     "Optimizes a staged graph (in place) and writes it with its weights as a MindIR file.");
  m.def("load_mindir", [](const std::string& path) {
    mindir::Model model;
    {
      nb::gil_scoped_release release;  // file I/O and parsing
      model = mindir::import_mindir(path);
    }
    std::vector<std::tuple<std::string, DType, std::vector<int64_t>>> inputs;
    for (size_t i = 0; i < model.input_specs.size(); ++i) {
      const TensorSpec& s = model.input_specs[i];
      inputs.emplace_back(model.input_names[i], s.dtype, std::vector<int64_t>(s.shape.begin(), s.shape.end()));
    }
    std::vector<std::pair<std::string, Tensor>> weights;
    for (mindir::NamedTensor& w : model.weights) weights.emplace_back(w.name, w.value);
    return std::make_tuple(PyGraph{model.module, model.graph}, inputs, weights, model.single_output);
  }, nb::arg("path"),
     "Reads a MindIR file: (graph, [(input name, dtype, shape)], [(weight name, Tensor)], single_output).");
}

}  // namespace sprout::py
