// sprout._C.dataset: the pipeline engine (src/data) for python/sprout/dataset. The Python layer keeps
// the Dataset objects (a description); each iterator builds a fresh tree of engine nodes from it.
#include <nanobind/stl/function.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <thread>

#include "data/batch_node.h"
#include "data/errors.h"
#include "data/iterator.h"
#include "data/shuffle_node.h"
#include "data/structure_nodes.h"
#include "python/data_rows.h"

namespace sprout::py {

namespace {

using data::ColumnNames;
using data::NodePtr;

// Python exceptions raised in a user callable keep their type and traceback; the engine's note on
// where it happened is added to the exception object (PEP 678 notes), so the user sees both.
std::exception_ptr annotate_python_error(std::exception_ptr error, const std::string& where) {
  try {
    std::rethrow_exception(error);
  } catch (nb::python_error& e) {
    nb::gil_scoped_acquire gil;
    nb::object note = nb::str(("[sprout.dataset] raised " + where).c_str());
    if (PyObject_CallMethod(e.value().ptr(), "add_note", "O", note.ptr()) == nullptr) PyErr_Clear();
    return error;
  } catch (...) {
    return nullptr;
  }
}

// The consumer's side of an iterator. Waiting for rows happens without the GIL; dropping the object
// stops the pipeline, also without the GIL, so workers inside Python callables can finish
// (Note [Stopping a pipeline]).
class PyIterator {
 public:
  PyIterator(NodePtr root, int64_t num_epochs, size_t prefetch, bool as_numpy)
      : it_(std::make_unique<data::PipelineIterator>(std::move(root), num_epochs, prefetch)), as_numpy_(as_numpy) {}
  ~PyIterator() { stop(); }

  // The next row as a tuple; None at the end of an epoch; raises StopIteration when all epochs are done.
  nb::object next() {
    if (!it_) throw nb::stop_iteration();  // stopped: nothing more, ever
    data::Row row;
    data::PipelineIterator::Status status;
    try {
      nb::gil_scoped_release release;
      status = it_->next(row, [] {
        nb::gil_scoped_acquire gil;
        return PyErr_CheckSignals() != 0;  // leaves the KeyboardInterrupt set for this thread
      });
    } catch (const data::Interrupted&) {
      throw nb::python_error();
    }
    switch (status) {
      case data::PipelineIterator::Status::Row: return row_to_python(row, as_numpy_);
      case data::PipelineIterator::Status::EpochEnd: return nb::none();
      case data::PipelineIterator::Status::Finished: throw nb::stop_iteration();
    }
    return nb::none();
  }

  void stop() {
    if (!it_) return;
    if (data::on_engine_thread()) {
      // Collected by the garbage collector on one of the engine's threads, maybe this pipeline's own:
      // joining from here could wait on itself, so a fresh thread stops it.
      std::thread([it = std::move(it_)]() mutable { it.reset(); }).detach();
      return;
    }
    nb::gil_scoped_release release;
    it_.reset();
  }

 private:
  std::unique_ptr<data::PipelineIterator> it_;
  bool as_numpy_;
};

std::vector<Tensor> tensors_from_arrays(const nb::list& arrays) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < arrays.size(); ++i) {
    data::Field f = value_to_field(arrays[i], "NumpySlicesDataset", i);
    SPROUT_CHECK(!f.is_string(), TypeError, "NumpySlicesDataset: column ", i, " holds text; expected numbers");
    out.push_back(f.tensor());
  }
  return out;
}

}  // namespace

void bind_data(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("dataset", "The data pipeline engine behind sprout.dataset.");
  data::set_foreign_error_annotator(&annotate_python_error);
  bind_data_sources(m);
  bind_data_vision(m);

  nb::class_<data::Sampler>(m, "Sampler");
  m.def("sequential_sampler", &data::sequential_sampler, nb::arg("start_index"), nb::arg("num_samples"));
  m.def("random_sampler", &data::random_sampler, nb::arg("replacement"), nb::arg("num_samples"), nb::arg("seed"));
  m.def("distributed_sampler", &data::distributed_sampler, nb::arg("num_shards"), nb::arg("shard_id"),
        nb::arg("shuffle"), nb::arg("num_samples"), nb::arg("offset"), nb::arg("seed"));
  m.def("subset_sampler", &data::subset_sampler, nb::arg("indices"), nb::arg("shuffle"), nb::arg("num_samples"),
        nb::arg("seed"));
  m.def("weighted_random_sampler", &data::weighted_random_sampler, nb::arg("weights"), nb::arg("num_samples"),
        nb::arg("replacement"), nb::arg("seed"));
  m.def("pk_sampler", &data::pk_sampler, nb::arg("labels"), nb::arg("num_val"), nb::arg("shuffle"),
        nb::arg("num_samples"), nb::arg("seed"));
  m.def("block_sampler", &data::block_sampler, nb::arg("block_sizes"), nb::arg("shuffle_blocks"),
        nb::arg("shuffle_within"), nb::arg("num_shards"), nb::arg("shard_id"), nb::arg("num_samples"), nb::arg("seed"));

  nb::class_<data::DatasetNode>(m, "Node")
      .def_prop_ro("columns", &data::DatasetNode::columns)
      .def("size", &data::DatasetNode::size)
      .def_prop_rw("label", &data::DatasetNode::label, &data::DatasetNode::set_label);

  m.def("slices_source", [](nb::list arrays, const ColumnNames& names, data::SamplerPtr sampler, int workers,
                            size_t prefetch) -> NodePtr {
    auto source = data::tensor_slice_source(tensors_from_arrays(arrays), names);
    return std::make_shared<data::RandomAccessSourceNode>(source, std::move(sampler), names, workers, prefetch);
  });
  m.def("random_access_source", [](nb::handle source, int64_t size, const ColumnNames& names,
                                   data::SamplerPtr sampler, int workers, size_t prefetch) -> NodePtr {
    auto rows = python_random_access_source(source, size, names.size());
    return std::make_shared<data::RandomAccessSourceNode>(rows, std::move(sampler), names, workers, prefetch);
  });
  m.def("stream_source", [](nb::handle make_iterable, const ColumnNames& names, int64_t num_samples,
                            int64_t known_size) -> NodePtr {
    return std::make_shared<data::StreamSourceNode>(python_stream(make_iterable, names.size()), names, num_samples,
                                                    known_size);
  });
  m.def("filter", [](NodePtr child, nb::handle predicate, const ColumnNames& input_columns, int workers,
                     size_t prefetch) -> NodePtr {
    return std::make_shared<data::FilterNode>(std::move(child), python_row_predicate(predicate), input_columns,
                                              workers, prefetch);
  });
  m.def("batch", [](NodePtr child, int64_t batch_size, bool drop_remainder, int workers, size_t prefetch,
                    nb::handle per_batch_map, const ColumnNames& input_columns, const ColumnNames& output_columns,
                    nb::dict pad_info) -> NodePtr {
    std::map<std::string, data::PadSpec> pads;
    for (auto [name, spec] : pad_info) {
      data::PadSpec p;
      nb::handle shape = spec[0];
      if (!shape.is_none())
        for (nb::handle d : shape) p.shape.push_back(d.is_none() ? -1 : nb::cast<int64_t>(d));
      p.value = nb::cast<double>(spec[1]);
      pads[nb::cast<std::string>(name)] = std::move(p);
    }
    data::BatchFunction fn = per_batch_map.is_none() ? nullptr : python_batch_function(per_batch_map);
    return std::make_shared<data::BatchNode>(std::move(child), batch_size, drop_remainder, workers, prefetch,
                                             std::move(fn), input_columns, output_columns, std::move(pads));
  }, nb::arg("child"), nb::arg("batch_size"), nb::arg("drop_remainder"), nb::arg("workers"), nb::arg("prefetch"),
        nb::arg("per_batch_map").none(), nb::arg("input_columns"), nb::arg("output_columns"), nb::arg("pad_info"));
  m.def("shuffle", [](NodePtr child, int64_t buffer_size, uint64_t seed) -> NodePtr {
    return std::make_shared<data::ShuffleNode>(std::move(child), buffer_size, seed);
  });
  m.def("repeat", [](NodePtr child, int64_t count) -> NodePtr {
    return std::make_shared<data::RepeatNode>(std::move(child), count);
  });
  m.def("take", [](NodePtr child, int64_t count) -> NodePtr {
    return std::make_shared<data::TakeNode>(std::move(child), count);
  });
  m.def("skip", [](NodePtr child, int64_t count) -> NodePtr {
    return std::make_shared<data::SkipNode>(std::move(child), count);
  });
  m.def("project", [](NodePtr child, const ColumnNames& columns) -> NodePtr {
    return data::ColumnSelectNode::project(std::move(child), columns);
  });
  m.def("rename", [](NodePtr child, const ColumnNames& from, const ColumnNames& to) -> NodePtr {
    return data::ColumnSelectNode::rename(std::move(child), from, to);
  });
  m.def("zip", [](std::vector<NodePtr> children) -> NodePtr { return std::make_shared<data::ZipNode>(std::move(children)); });
  m.def("concat", [](std::vector<NodePtr> children) -> NodePtr {
    return std::make_shared<data::ConcatNode>(std::move(children));
  });

  nb::class_<PyIterator>(m, "Iterator")
      .def(nb::init<NodePtr, int64_t, size_t, bool>(), nb::arg("root"), nb::arg("num_epochs"), nb::arg("prefetch"),
           nb::arg("output_numpy"))
      .def("next", &PyIterator::next)
      .def("stop", &PyIterator::stop);
}

}  // namespace sprout::py
