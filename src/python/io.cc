// Checkpoint files from Python: sprout.train.serialization builds on these.
#include <nanobind/stl/string.h>

#include "io/checkpoint.h"
#include "python/bindings.h"

namespace sprout::py {

void bind_io(nb::module_& m) {
  m.def("save_checkpoint_file", [](const std::string& path, nb::list items, bool crc_check) {
    // items: [(name, Tensor | str)]
    std::vector<CheckpointEntry> entries;
    for (nb::handle item : items) {
      nb::tuple pair = nb::cast<nb::tuple>(item);
      std::string name = py_text(nb::str(pair[0]));
      if (PyUnicode_Check(pair[1].ptr())) entries.push_back({name, py_text(nb::str(pair[1]))});
      else entries.push_back({name, nb::cast<Tensor>(pair[1])});
    }
    nb::gil_scoped_release release;  // file I/O: let other Python threads run
    save_checkpoint(path, entries, crc_check);
  });
  m.def("load_checkpoint_file", [](const std::string& path, bool crc_check) {
    std::vector<CheckpointEntry> entries;
    {
      nb::gil_scoped_release release;
      entries = load_checkpoint(path, crc_check);
    }
    nb::list out;
    for (CheckpointEntry& e : entries) {
      nb::object value = std::holds_alternative<std::string>(e.value)
                             ? nb::object(nb::str(std::get<std::string>(e.value).c_str()))
                             : wrap(std::get<Tensor>(e.value));
      out.append(nb::make_tuple(nb::str(e.name.c_str()), value));
    }
    return out;
  });
}

}  // namespace sprout::py
