// A block of memory that tensors view. Either owned (from the CpuAllocator) or borrowed from
// outside (a NumPy array, a DLPack producer): a borrowed block keeps its owner alive through
// `keep_alive` and never frees the memory itself.
#pragma once

#include <cstddef>
#include <memory>

#include "tensor/allocator.h"

namespace sprout {

class Storage {
 public:
  // Owned memory of `nbytes` from the CPU allocator (uninitialized).
  static std::shared_ptr<Storage> allocate(size_t nbytes);
  // Borrowed memory: `keep_alive` is held until the last view of this storage is gone.
  static std::shared_ptr<Storage> borrow(void* data, size_t nbytes, std::shared_ptr<void> keep_alive);

  Storage(void* data, size_t nbytes, std::shared_ptr<void> keep_alive)
      : data_(data), nbytes_(nbytes), keep_alive_(std::move(keep_alive)) {}
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  bool owned() const { return !keep_alive_; }

 private:
  void* data_;
  size_t nbytes_;
  std::shared_ptr<void> keep_alive_;
};

inline std::shared_ptr<Storage> Storage::allocate(size_t nbytes) {
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
  if (!keep_alive_) CpuAllocator::instance().deallocate(data_, nbytes_);
}

}  // namespace sprout
