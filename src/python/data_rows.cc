// Rows between Python and the engine; Python callables behind the engine's interfaces.
// Note [The GIL in the pipeline] in data_rows.h.
#include "python/data_rows.h"

#include <nanobind/stl/string.h>

#include "base/error.h"

using namespace nanobind::literals;

namespace sprout::py {

namespace {

const nb::object& numpy_asarray() {
  static nb::object* fn = new nb::object(nb::module_::import_("numpy").attr("asarray"));
  return *fn;
}

std::string py_type_name(nb::handle h) { return py_text(nb::str(h.type().attr("__name__"))); }

std::string short_repr(nb::handle h) {
  std::string r = py_text(nb::repr(h));
  return r.size() > 80 ? r.substr(0, 77) + "..." : r;
}

}  // namespace

namespace {

// A NumPy array of str or bytes -> text with the array's shape.
data::StringArray strings_from_array(nb::handle array) {
  data::StringArray out;
  for (nb::handle d : nb::iter(array.attr("shape"))) out.shape.push_back(nb::cast<int64_t>(d));
  for (nb::handle item : nb::iter(array.attr("ravel")().attr("tolist")())) {
    if (PyBytes_Check(item.ptr()))
      out.values.emplace_back(PyBytes_AS_STRING(item.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(item.ptr())));
    else
      out.values.emplace_back(nb::cast<std::string>(item));
  }
  return out;
}

}  // namespace

data::Field value_to_field(nb::handle value, const char* api, size_t column) {
  if (nb::isinstance<Tensor>(value)) {
    const Tensor& t = nb::cast<const Tensor&>(value);
    // Memory borrowed from Python would need the GIL to free: the row takes a copy instead.
    return t.storage()->owned() ? t : t.clone();
  }
  if (PyUnicode_Check(value.ptr())) return data::Field::string(nb::cast<std::string>(value));
  if (PyBytes_Check(value.ptr()))
    return data::Field::string(std::string(PyBytes_AS_STRING(value.ptr()), PyBytes_GET_SIZE(value.ptr())));
  nb::object array = nb::borrow(value);
  nb::ndarray<nb::ro, nb::device::cpu> nd;
  if (!nb::try_cast(array, nd)) {
    array = numpy_asarray()(value);
    const std::string kind = nb::cast<std::string>(array.attr("dtype").attr("kind"));
    if (kind == "U" || kind == "S") return strings_from_array(array);
    if (!nb::try_cast(array, nd))
      throw TypeError(str(api, ": column ", column, " holds a ", py_type_name(value), " (", short_repr(value),
                          ") that has no tensor form; expected a NumPy array, a number, a (nested) list of numbers or "
                          "a sprout.Tensor or text; converting to NumPy gives dtype ",
                          py_text(nb::str(nb::handle(array.attr("dtype"))))));
  }
  return from_ndarray(nd, array).clone();
}

data::Row result_to_row(nb::handle result, size_t num_columns, const char* api) {
  data::Row row;
  const bool is_sequence = nb::isinstance<nb::tuple>(result) || nb::isinstance<nb::list>(result);
  if (num_columns == 1 && !nb::isinstance<nb::tuple>(result)) {
    row.push_back(value_to_field(result, api, 0));
    return row;
  }
  SPROUT_CHECK(is_sequence, TypeError, api, ": expected a tuple of ", num_columns, " columns, but got a ",
               py_type_name(result));
  const size_t n = nb::len(result);
  SPROUT_CHECK(n == num_columns, RuntimeError, api, ": expected ", num_columns, " columns, but got ", n);
  row.reserve(n);
  for (size_t i = 0; i < n; ++i) row.push_back(value_to_field(result[i], api, i));
  return row;
}

nb::object field_to_python(const data::Field& field, bool as_numpy) {
  if (!field.is_string()) return as_numpy ? to_numpy(field.tensor()) : wrap(field.tensor());
  // Text has no tensor form: it is a NumPy str array in both modes, as in MindSpore.
  static nb::object* np_array = new nb::object(nb::module_::import_("numpy").attr("array"));
  const data::StringArray& s = field.strings();
  nb::list values;
  for (const std::string& v : s.values) values.append(nb::str(v.data(), v.size()));
  nb::list shape;
  for (int64_t d : s.shape) shape.append(d);
  return (*np_array)(values, "dtype"_a = "str").attr("reshape")(nb::tuple(shape));
}

nb::tuple row_to_python(const data::Row& row, bool as_numpy) {
  nb::list out;
  for (const data::Field& f : row) out.append(field_to_python(f, as_numpy));
  return nb::tuple(out);
}

namespace {

class PythonRandomAccessSource final : public data::RowSource {
 public:
  PythonRandomAccessSource(nb::handle source, int64_t size, size_t num_columns)
      : source_(source), size_(size), num_columns_(num_columns) {}
  int64_t size() const override { return size_; }
  data::Row get(int64_t index) const override {
    nb::gil_scoped_acquire gil;
    nb::object result = source_.get()[nb::int_(index)];
    return result_to_row(result, num_columns_, "GeneratorDataset");
  }

 private:
  PyRef source_;
  int64_t size_;
  size_t num_columns_;
};

class PythonStream final : public data::RowStream {
 public:
  PythonStream(nb::handle make_iterable, size_t num_columns) : make_iterable_(make_iterable), num_columns_(num_columns) {}
  ~PythonStream() override {
    nb::gil_scoped_acquire gil;
    iterator_.reset();
  }
  void restart() override {
    nb::gil_scoped_acquire gil;
    nb::object iterable = make_iterable_.get()();
    iterator_ = std::make_unique<nb::object>(nb::iter(iterable));
  }
  std::optional<data::Row> next() override {
    nb::gil_scoped_acquire gil;
    PyObject* item = PyIter_Next(iterator_->ptr());
    if (!item) {
      if (PyErr_Occurred()) throw nb::python_error();
      return std::nullopt;
    }
    nb::object result = nb::steal(item);
    return result_to_row(result, num_columns_, "GeneratorDataset");
  }

 private:
  PyRef make_iterable_;
  size_t num_columns_;
  std::unique_ptr<nb::object> iterator_;
};

nb::tuple call_args(const data::Row& row) { return row_to_python(row, /*as_numpy=*/true); }

}  // namespace

data::RowSourcePtr python_random_access_source(nb::handle source, int64_t size, size_t num_columns) {
  return std::make_shared<PythonRandomAccessSource>(source, size, num_columns);
}

data::RowStreamPtr python_stream(nb::handle make_iterable, size_t num_columns) {
  return std::make_shared<PythonStream>(make_iterable, num_columns);
}

data::BatchFunction python_batch_function(nb::handle fn) {
  auto ref = std::make_shared<PyRef>(fn);
  return [ref](data::Columns columns, const data::BatchInfo& info) {
    nb::gil_scoped_acquire gil;
    static nb::object* batch_info_class =
        new nb::object(nb::module_::import_("sprout.dataset.operations").attr("BatchInfo"));
    nb::list args;
    for (const auto& column : columns) {
      nb::list rows;
      for (const auto& f : column) rows.append(field_to_python(f, true));
      args.append(rows);
    }
    args.append((*batch_info_class)(info.batch_num, info.epoch_num));
    nb::object result = ref->get()(*nb::tuple(args));
    if (!nb::isinstance<nb::tuple>(result)) result = nb::make_tuple(result);
    data::Columns out;
    for (size_t c = 0; c < nb::len(result); ++c) {
      std::vector<data::Field> rows;
      for (nb::handle item : nb::iter(result[c])) rows.push_back(value_to_field(item, "batch (per_batch_map)", c));
      out.push_back(std::move(rows));
    }
    return out;
  };
}

data::RowPredicate python_row_predicate(nb::handle predicate) {
  auto ref = std::make_shared<PyRef>(predicate);
  return [ref](data::Row row, const data::RowContext&) {
    nb::gil_scoped_acquire gil;
    nb::object result = ref->get()(*call_args(row));
    const int truth = PyObject_IsTrue(result.ptr());
    if (truth < 0) throw nb::python_error();
    return truth == 1;
  };
}

}  // namespace sprout::py
