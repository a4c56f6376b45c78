// Process-wide runtime settings: threads, allocator statistics.
#include <nanobind/stl/string.h>

#include "base/parallel.h"
#include "kernels/cpu/gemm.h"
#include "kernels/cpu/mkl_blas.h"
#include "ops/debug_print.h"
#include "runtime/op_profile.h"
#include "python/bindings.h"
#include "tensor/allocator.h"

namespace sprout::py {

void bind_runtime(nb::module_& m) {
  m.def("set_num_threads", [](int n) {
    SPROUT_CHECK(n >= 1, ValueError, "set_context: 'runtime_num_threads' must be a positive int, but got ", n);
    set_num_threads(n);
  });
  m.def("get_num_threads", &num_threads);
  m.def("set_mkl_library", &set_mkl_library, "Where libmkl_rt is (Note [MKL at run time]); before the first product.");
  m.def("set_matmul_backend", &set_matmul_backend, "Forces float32 products onto one backend, or 'auto'.");
  m.def("mkl_status", &mkl_status, "'MKL <version>' when MKL loads, else why it does not.");
  m.def("allocator_stats", [] {
    AllocatorStats s = CpuAllocator::instance().stats();
    nb::dict d;
    d["allocated_bytes"] = s.allocated_bytes;
    d["peak_allocated_bytes"] = s.peak_allocated_bytes;
    d["cached_bytes"] = s.cached_bytes;
    d["os_allocations"] = s.os_allocations;
    d["cache_hits"] = s.cache_hits;
    return d;
  });
  m.def("empty_cache", [] { CpuAllocator::instance().empty_cache(); });
  m.def("reset_peak_allocated", [] { CpuAllocator::instance().reset_peak(); });
  m.def("set_op_profiling", &set_op_profiling, "Turns per-op timing (eager and compiled) on or off.");
  m.def("op_profile", [] {
    nb::list out;
    for (const OpTime& t : op_profile()) out.append(nb::make_tuple(t.name, t.calls, t.ns));
    return out;
  }, "[(op name, calls, nanoseconds)], most time first.");
  m.def("clear_op_profile", &clear_op_profile);
  m.def("set_print_sink", [](nb::callable fn) {
    // Kept for the life of the process (never destroyed after the interpreter is gone).
    auto* held = new nb::callable(std::move(fn));
    set_print_sink([held](const std::string& format, std::span<const Tensor> tensors) {
      nb::gil_scoped_acquire gil;
      nb::list items;
      for (const Tensor& t : tensors) items.append(wrap(t));
      (*held)(format, items);
    });
  }, "Where Print sends its text: fn(format, tensors).");
}

}  // namespace sprout::py
