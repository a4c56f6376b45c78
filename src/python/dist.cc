// Joining a data-parallel job from Python: sprout.communication builds on these.
#include <nanobind/stl/string.h>

#include "dist/communication.h"
#include "python/bindings.h"

namespace sprout::py {

void bind_dist(nb::module_& m) {
  m.def("dist_init", &dist::init, "Joins the MPI job (a process started without mpirun is a job of one).");
  m.def("dist_finalize", &dist::finalize, "Leaves the MPI job; no collective may follow.");
  m.def("dist_initialized", &dist::initialized);
  m.def("dist_rank", &dist::rank);
  m.def("dist_size", &dist::size);
  m.def("dist_barrier", &dist::barrier);
  m.def("dist_check_group", [](const std::string& group, const std::string& api) {
    dist::check_group(group, api.c_str());
  }, "ValueError naming `api` unless `group` is the world group.");
}

}  // namespace sprout::py
