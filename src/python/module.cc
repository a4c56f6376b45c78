// sprout._C: the compiled core. Each area binds itself; see bindings.h.
#include "python/bindings.h"

NB_MODULE(_C, m) {
  using namespace sprout::py;
  m.doc() = "Sprout's C++ core: tensors, the op registry, eager dispatch.";
  // Module-level caches (primitives kept by the functional API, the conversion module) live until
  // exit on purpose; nanobind would report them as leaks at interpreter shutdown.
  nanobind::set_leak_warnings(false);
  bind_errors(m);
  bind_dtype(m);
  bind_tensor(m);
  bind_ops(m);
  bind_op_function(m);
  bind_runtime(m);
  bind_autograd(m);
  bind_io(m);
  bind_data(m);
  bind_ir(m);
  bind_mindir(m);
  bind_dist(m);
}
