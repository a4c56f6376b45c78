// The CPU allocator: 64-byte aligned blocks (a cache line, and a full AVX-512 vector) kept in
// per-size free lists so that the steady state of a training loop allocates nothing from the OS.
// Storages of up to 64 bytes do not come here (Note [Tiny storages in one allocation]).
//
// Note [Caching allocator]
// Requests round up to a size class: 64-byte steps up to 1 KiB, then four classes per power of two,
// so at most 25% is wasted. A freed block goes back to its class's free list; a request takes the
// smallest cached block of its class or a larger one up to twice its size (best fit), so tensors of
// different sizes reuse the same resident memory. The cache is bounded
// (SPROUT_ALLOCATOR_CACHE_MB, default 1024 MiB): past the bound blocks go back to the OS, and
// `empty_cache()` releases everything cached. Thread-safe: a mutex guards the lists; allocation is
// rare next to the kernels it feeds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sprout {

inline constexpr size_t kAlignment = 64;

struct AllocatorStats {
  size_t allocated_bytes = 0;   // in use by tensors now (size-class bytes)
  size_t peak_allocated_bytes = 0;
  size_t cached_bytes = 0;      // free, kept for reuse
  uint64_t os_allocations = 0;  // calls that reached the OS
  uint64_t cache_hits = 0;
};

class CpuAllocator {
 public:
  static CpuAllocator& instance();

  // A block of at least `nbytes` (64-byte aligned; never null: throws RuntimeError when out of memory).
  void* allocate(size_t nbytes);
  void deallocate(void* ptr, size_t nbytes);

  void empty_cache();
  AllocatorStats stats() const;
  void reset_peak();
  static size_t size_class(size_t nbytes);

 private:
  CpuAllocator();
  ~CpuAllocator();
  struct Impl;
  Impl* impl_;
};

}  // namespace sprout
