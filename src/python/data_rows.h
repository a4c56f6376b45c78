// The Python side of the pipeline engine: rows to and from Python objects, and the engine's
// interfaces (RowSource, RowStream, RowFunction, RowPredicate) implemented by Python callables.
//
// Note [The GIL in the pipeline]
// Engine threads run without the GIL. A Python callable is entered with gil_scoped_acquire and left
// as soon as its result is converted (copied into Sprout storage, so the rows that travel through the
// engine hold no Python references and can be freed on any thread). Objects the engine keeps
// (callables, sources) are held by PyRef, which takes the GIL to release them, so a pipeline tree can
// be destroyed on any thread.
#pragma once

#include <memory>

#include "data/batch_node.h"
#include "data/map_node.h"
#include "data/sources.h"
#include "python/bindings.h"

namespace sprout::py {

// A Python reference the engine may drop on any thread.
class PyRef {
 public:
  explicit PyRef(nb::handle h) : obj_(new nb::object(nb::borrow(h))) {}
  ~PyRef() {
    nb::gil_scoped_acquire gil;
    delete obj_;
  }
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  const nb::object& get() const { return *obj_; }

 private:
  nb::object* obj_;
};

// A Python value -> a Field owning its memory: NumPy arrays, numbers, nested lists and sprout.Tensors
// become tensors; str, bytes and NumPy str arrays become text. The TypeError for a value with neither
// form names `api` and the column; the engine's note adds the row.
data::Field value_to_field(nb::handle value, const char* api, size_t column);
// A field -> NumPy array (sharing memory) or sprout.Tensor; text is always a NumPy str array.
nb::object field_to_python(const data::Field& field, bool as_numpy);
// A callable's result -> a row of `num_columns`: a tuple/list of values, or one value for one column.
data::Row result_to_row(nb::handle result, size_t num_columns, const char* api);
// Row -> tuple of field_to_python of each field.
nb::tuple row_to_python(const data::Row& row, bool as_numpy);

// source[i] for i in [0, size): GeneratorDataset over a random-access source.
data::RowSourcePtr python_random_access_source(nb::handle source, int64_t size, size_t num_columns);
// iter(make_iterable()) each epoch: GeneratorDataset over a generator function or an iterable.
data::RowStreamPtr python_stream(nb::handle make_iterable, size_t num_columns);
// per_batch_map(*columns, batch_info) -> output columns; each column a list of the batch's rows.
data::BatchFunction python_batch_function(nb::handle fn);
// predicate(*columns) -> truthy.
data::RowPredicate python_row_predicate(nb::handle predicate);

// Parts of sprout._C.dataset bound in their own files (called by bind_data).
void bind_data_sources(nb::module_& m);  // data_sources.cc: file-format sources, image codec
void bind_data_vision(nb::module_& m);   // data_vision.cc: C++ transforms (TensorOps), map over them

}  // namespace sprout::py
