#include "kernels/cpu/onednn.h"

namespace sprout::onednn {

dnnl::engine& engine() {
  static dnnl::engine* e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

dnnl::stream& stream() {
  static dnnl::stream* s = new dnnl::stream(engine());
  return *s;
}

}  // namespace sprout::onednn
