// Process-wide runtime settings: threads, allocator statistics.
#include "kernels/cpu/parallel.h"
#include "python/bindings.h"
#include "tensor/allocator.h"

namespace sprout::py {

void bind_runtime(nb::module_& m) {
  m.def("set_num_threads", [](int n) {
    SPROUT_CHECK(n >= 1, ValueError, "set_context: 'runtime_num_threads' must be a positive int, but got ", n);
    set_num_threads(n);
  });
  m.def("get_num_threads", &num_threads);
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
}

}  // namespace sprout::py
