// sprout._C.dataset, file-format sources: MNIST, CIFAR, text, CSV, image files; and the image codec.
// Each factory parses its files once into a RowSource that the Python Dataset keeps, so a second
// iterator (or get_dataset_size) does not read the files again.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "data/binary_sources.h"
#include "data/image_codec.h"
#include "data/image_folder.h"
#include "data/text_sources.h"
#include "python/data_rows.h"

namespace sprout::py {

namespace {

data::CsvColumn csv_column(nb::handle default_value, size_t index) {
  data::CsvColumn c;
  if (default_value.is_none()) return c;  // a text column with "" for empty fields
  c.has_default = true;
  if (PyBool_Check(default_value.ptr())) {
    throw TypeError(str("CSVDataset: column_defaults[", index, "] is a bool; expected an int, a float or a str"));
  } else if (PyLong_Check(default_value.ptr())) {
    c.type = data::CsvType::Int;
    c.default_value = std::to_string(nb::cast<int64_t>(default_value));
  } else if (PyFloat_Check(default_value.ptr())) {
    c.type = data::CsvType::Float;
    c.default_value = py_text(nb::repr(default_value));
  } else if (PyUnicode_Check(default_value.ptr())) {
    c.default_value = nb::cast<std::string>(default_value);
  } else {
    throw TypeError(str("CSVDataset: column_defaults[", index, "] is a ",
                        py_text(nb::str(default_value.type().attr("__name__"))),
                        "; expected an int, a float or a str"));
  }
  return c;
}

Tensor bytes_tensor(nb::handle array, const char* api) {
  data::Field f = value_to_field(array, api, 0);
  SPROUT_CHECK(!f.is_string(), TypeError, api, ": expected encoded image bytes (a 1-D uint8 array), but got text");
  return f.tensor();
}

}  // namespace

void bind_data_sources(nb::module_& m) {
  nb::class_<data::RowSource>(m, "RowSource").def("size", &data::RowSource::size);

  m.def("sampled_source", [](data::RowSourcePtr source, const data::ColumnNames& names, data::SamplerPtr sampler,
                             int workers, size_t prefetch) -> data::NodePtr {
    return std::make_shared<data::RandomAccessSourceNode>(std::move(source), std::move(sampler), names, workers,
                                                          prefetch);
  });
  m.def("mnist_source", [](const std::vector<std::pair<std::string, std::string>>& files) {
    nb::gil_scoped_release release;
    return data::mnist_source(files);
  });
  m.def("cifar_source", [](const std::vector<std::string>& files, bool cifar100) {
    nb::gil_scoped_release release;
    return data::cifar_source(files, cifar100);
  });
  m.def("text_file_source", [](const std::vector<std::string>& files) {
    std::vector<int64_t> sizes;
    data::RowSourcePtr source;
    {
      nb::gil_scoped_release release;
      source = data::text_file_source(files, &sizes);
    }
    return std::make_pair(source, sizes);
  });
  m.def("csv_source", [](const std::vector<std::string>& files, const std::string& delimiter, nb::list defaults,
                         bool skip_header) {
    SPROUT_CHECK(delimiter.size() == 1, ValueError, "CSVDataset: field_delim must be one character, but got '",
                 delimiter, "'");
    std::vector<data::CsvColumn> columns;
    for (size_t i = 0; i < defaults.size(); ++i) columns.push_back(csv_column(defaults[i], i));
    std::vector<int64_t> sizes;
    data::RowSourcePtr source;
    {
      nb::gil_scoped_release release;
      source = data::csv_source(files, delimiter[0], columns, skip_header, &sizes);
    }
    return std::make_pair(source, sizes);
  });
  m.def("image_files_source", &data::image_files_source, nb::arg("paths"), nb::arg("labels"), nb::arg("decode"));

  m.def("decode_image", [](nb::handle encoded, const std::string& what) {
    Tensor bytes = bytes_tensor(encoded, "Decode");
    Tensor image;
    {
      nb::gil_scoped_release release;
      image = data::decode_image(bytes, what);
    }
    return to_numpy(image);
  });
  m.def("encode_image", [](nb::handle image, const std::string& extension) {
    return to_numpy(data::encode_image(value_to_field(image, "encode_image", 0).tensor(), extension));
  });
}

}  // namespace sprout::py
