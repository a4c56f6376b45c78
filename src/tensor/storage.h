// A block of memory that tensors view. Either owned (from the CpuAllocator, or for tiny tensors
// inline: Note [Tiny storages in one allocation]) or borrowed from outside (a NumPy array, a DLPack
// producer): a borrowed block keeps its owner alive through `keep_alive` and never frees the memory
// itself.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "tensor/allocator.h"

namespace sprout {

class Storage {
 public:
  // Owned memory of `nbytes` (uninitialized).
  static std::shared_ptr<Storage> allocate(size_t nbytes);
  // Borrowed memory: `keep_alive` is held until the last view of this storage is gone.
  static std::shared_ptr<Storage> borrow(void* data, size_t nbytes, std::shared_ptr<void> keep_alive);

  // Note [Tiny storages in one allocation]
  // Up to kInlineBytes, the bytes live in the same heap block as the Storage and its shared_ptr
  // control block (one malloc), not in a block of the CpuAllocator (a mutex, a free list, and a
  // second malloc for the control block). A tiny eager op is mostly such overhead; timeit on
  // one-element float32 tensors, alternating builds: a chain of ops.add/mul/sub/exp 276 -> 252 ns per
  // op, ops.exp(x) 218 -> 187, -x 185 -> 157, x + y 239 -> 215. These bytes are 16-aligned (malloc's
  // alignment, enough for every dtype) rather than 64, and are not counted in the allocator's
  // statistics.
  static constexpr size_t kInlineBytes = 64;

  Storage(void* data, size_t nbytes, std::shared_ptr<void> keep_alive)
      : data_(data), nbytes_(nbytes), keep_alive_(std::move(keep_alive)) {}
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  bool owned() const { return !keep_alive_; }

  // How many times the bytes were written in place (Note [In-place writes and saved values]).
  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() const { version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  struct Inline;
  struct InlineTag {};
  Storage(InlineTag, void* data, size_t nbytes) : data_(data), nbytes_(nbytes), from_allocator_(false) {}

  void* data_;
  size_t nbytes_;
  std::shared_ptr<void> keep_alive_;
  bool from_allocator_ = true;  // owned and not inline: the CpuAllocator takes the bytes back
  mutable std::atomic<uint32_t> version_{0};
};

// A Storage and its bytes in one object.
struct Storage::Inline {
  explicit Inline(size_t nbytes) : storage(InlineTag{}, bytes, nbytes) {}
  Storage storage;
  alignas(16) std::byte bytes[kInlineBytes];
};

inline std::shared_ptr<Storage> Storage::allocate(size_t nbytes) {
  if (nbytes <= kInlineBytes) {
    auto block = std::make_shared<Inline>(nbytes);
    Storage* storage = &block->storage;
    return std::shared_ptr<Storage>(std::move(block), storage);  // owns the whole block
  }
  void* data = CpuAllocator::instance().allocate(nbytes);
  try {
    return std::make_shared<Storage>(data, nbytes, nullptr);
  } catch (...) {
    CpuAllocator::instance().deallocate(data, nbytes);
    throw;
  }
}

inline std::shared_ptr<Storage> Storage::borrow(void* data, size_t nbytes, std::shared_ptr<void> keep_alive) {
  if (!keep_alive) keep_alive = std::shared_ptr<void>(nullptr, [](void*) {});  // mark as borrowed
  return std::make_shared<Storage>(data, nbytes, std::move(keep_alive));
}

inline Storage::~Storage() {
  if (from_allocator_ && !keep_alive_) CpuAllocator::instance().deallocate(data_, nbytes_);
}

}  // namespace sprout
