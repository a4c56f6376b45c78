#include "tensor/allocator.h"

#include <bit>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <sys/mman.h>

#include "base/error.h"

namespace sprout {

struct CpuAllocator::Impl {
  mutable std::mutex mutex;
  // Size class -> free blocks. An emptied list stays: freeing into it then allocates nothing (a map
  // node and a vector per cycle made a tiny op's alloc/free pair cost two mallocs and two frees).
  std::map<size_t, std::vector<void*>> free_lists;
  std::unordered_map<void*, size_t> larger;          // blocks handed out from a larger class: their class
  AllocatorStats stats;
  size_t cache_limit = 0;
};

CpuAllocator::CpuAllocator() : impl_(new Impl) {
  size_t mb = 1024;
  if (const char* env = std::getenv("SPROUT_ALLOCATOR_CACHE_MB")) mb = std::strtoull(env, nullptr, 10);
  impl_->cache_limit = mb << 20;
}

CpuAllocator::~CpuAllocator() {
  empty_cache();
  delete impl_;
}

CpuAllocator& CpuAllocator::instance() {
  // Deliberately leaked: tensors held by Python objects may be freed after static destructors run.
  static CpuAllocator* allocator = new CpuAllocator();
  return *allocator;
}

size_t CpuAllocator::size_class(size_t nbytes) {
  if (nbytes <= 1024) return nbytes <= kAlignment ? kAlignment : (nbytes + kAlignment - 1) & ~(kAlignment - 1);
  // Four classes per power of two: step = 2^(floor(log2(n)) - 2).
  size_t step = std::bit_floor(nbytes) >> 2;
  return (nbytes + step - 1) & ~(step - 1);
}

namespace {

// Note [Huge pages for large blocks]
// A block of 4 MiB or more starts on a 2 MiB boundary and is marked MADV_HUGEPAGE (the kernel's
// transparent huge pages are commonly set to `madvise`, so nothing is huge unless asked for). A stream
// over 4 KiB pages misses the TLB every 4 KiB; over huge pages every 2 MiB. Measured on an AMD Zen 4
// host, the same runs alternating: eager x * y + z over 4M floats (five 16 MiB streams) 1.6-1.75 ->
// 1.2 ms; a ResNet-18 training step 531 -> 523 ms. NumPy marks its allocations from 4 MiB the same
// way, so PyTorch tensors made from NumPy arrays had that advantage over Sprout's own copies.
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kHugePageMinBlock = size_t{4} << 20;

void* os_allocate(size_t cls) {
  if (cls < kHugePageMinBlock) return std::aligned_alloc(kAlignment, cls);
  void* ptr = nullptr;
  if (posix_memalign(&ptr, kHugePage, cls) != 0) return nullptr;
  madvise(ptr, cls & ~(kHugePage - 1), MADV_HUGEPAGE);  // advice only: a failure leaves 4 KiB pages
  return ptr;
}

}  // namespace

void* CpuAllocator::allocate(size_t nbytes) {
  size_t cls = size_class(nbytes);
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto& s = impl_->stats;
    s.allocated_bytes += cls;
    if (s.allocated_bytes > s.peak_allocated_bytes) s.peak_allocated_bytes = s.allocated_bytes;
    // Best fit among cached blocks up to twice the size: a step's many tensor sizes then share the
    // blocks already resident instead of each class keeping its own (the process's peak resident
    // memory follows live bytes, not live bytes plus every class's high-water mark).
    // At most nine classes lie in [cls, 2 cls] (64-byte steps up to 1 KiB, four per power of two above).
    auto it = impl_->free_lists.lower_bound(cls);
    while (it != impl_->free_lists.end() && it->first <= 2 * cls && it->second.empty()) ++it;
    if (it != impl_->free_lists.end() && it->first <= 2 * cls) {
      const size_t got = it->first;
      void* ptr = it->second.back();
      it->second.pop_back();
      if (got != cls) impl_->larger.emplace(ptr, got);
      s.allocated_bytes += got - cls;
      if (s.allocated_bytes > s.peak_allocated_bytes) s.peak_allocated_bytes = s.allocated_bytes;
      s.cached_bytes -= got;
      ++s.cache_hits;
      return ptr;
    }
    ++s.os_allocations;
  }
  void* ptr = os_allocate(cls);
  if (!ptr) {
    empty_cache();  // give the cache back and try once more before failing
    ptr = os_allocate(cls);
  }
  if (!ptr) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stats.allocated_bytes -= cls;
    throw RuntimeError(str("CPU allocator: out of memory allocating ", nbytes, " bytes"));
  }
  return ptr;
}

void CpuAllocator::deallocate(void* ptr, size_t nbytes) {
  if (!ptr) return;
  size_t cls = size_class(nbytes);
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    if (!impl_->larger.empty()) {
      if (auto it = impl_->larger.find(ptr); it != impl_->larger.end()) {
        cls = it->second;
        impl_->larger.erase(it);
      }
    }
    auto& s = impl_->stats;
    s.allocated_bytes -= cls;
    if (s.cached_bytes + cls <= impl_->cache_limit) {
      impl_->free_lists[cls].push_back(ptr);
      s.cached_bytes += cls;
      return;
    }
  }
  std::free(ptr);
}

void CpuAllocator::empty_cache() {
  std::map<size_t, std::vector<void*>> lists;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    lists.swap(impl_->free_lists);
    impl_->stats.cached_bytes = 0;
  }
  for (auto& [cls, blocks] : lists)
    for (void* p : blocks) std::free(p);
}

AllocatorStats CpuAllocator::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats;
}

void CpuAllocator::reset_peak() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->stats.peak_allocated_bytes = impl_->stats.allocated_bytes;
}

}  // namespace sprout
