#include "kernels/cpu/onednn.h"

#include "tensor/allocator.h"

namespace sprout::onednn {

dnnl::engine& engine() {
  static dnnl::engine* e = new dnnl::engine(dnnl::engine::kind::cpu, 0);
  return *e;
}

dnnl::stream& stream() {
  static dnnl::stream* s = new dnnl::stream(engine());
  return *s;
}

Temporaries::~Temporaries() {
  for (auto& [ptr, bytes] : buffers_) CpuAllocator::instance().deallocate(ptr, bytes);
}

dnnl::memory Temporaries::memory(const dnnl::memory::desc& desc) {
  size_t bytes = desc.get_size();
  void* ptr = CpuAllocator::instance().allocate(bytes);
  buffers_.emplace_back(ptr, bytes);
  return dnnl::memory(desc, engine(), ptr);
}

void Temporaries::add_scratchpad(const dnnl::memory::desc& scratchpad, std::unordered_map<int, dnnl::memory>& args) {
  if (scratchpad.get_size() > 0) args.emplace(DNNL_ARG_SCRATCHPAD, memory(scratchpad));
}

dnnl::primitive_attr user_scratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

bool native_bfloat16() {
  static const bool native = [] {
    const auto isa = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
    const auto bf16 = static_cast<unsigned>(dnnl::cpu_isa::avx512_core_bf16);  // ISA values are feature masks
    return (isa & bf16) == bf16;
  }();
  return native;
}

}  // namespace sprout::onednn
