// sprout._C: the compiled core. Each area binds itself; see bindings.h.
#include "python/bindings.h"

NB_MODULE(_C, m) {
  using namespace sprout::py;
  m.doc() = "Sprout's C++ core: tensors, the op registry, eager dispatch.";
  bind_errors(m);
  bind_dtype(m);
  bind_tensor(m);
  bind_ops(m);
  bind_runtime(m);
  bind_autograd(m);
  bind_io(m);
  bind_data(m);
}
