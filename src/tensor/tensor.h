// Tensor: a view (dtype, shape, strides, offset) of a shared Storage.
//
// Note [Tensor is a value]
// A Tensor is a small value, copied freely: copying it makes another view of the same memory.
// Shapes and strides are inline small vectors, so creating a view allocates nothing; a new tensor
// allocates its storage block (from the caching allocator) and one control block. The Python object
// holds the Tensor inline, so an eager op costs one Python object, not a chain of heap objects.
// Strides are in elements. A view never outlives its storage: it holds a reference to it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "base/dtype.h"
#include "base/shape.h"
#include "tensor/storage.h"

namespace sprout {

// Autodiff bookkeeping of a tensor that a gradient is being taken through; defined by the runtime
// (runtime/autograd/graph.h). The tensor layer only carries the pointer: null for almost every
// tensor, so plain eager code pays one null pointer per tensor (Note [Eager autodiff]).
struct AutogradMeta;

class Tensor {
 public:
  Tensor() = default;  // an undefined tensor: defined() is false
  Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Strides strides, int64_t offset);

  // A new contiguous tensor with uninitialized / zeroed elements. `op` names the op whose output it is in
  // the errors of a shape too large to address or to allocate.
  static Tensor empty(std::span<const int64_t> shape, DType dtype, std::string_view op = "Tensor");
  static Tensor zeros(std::span<const int64_t> shape, DType dtype);
  // A 0-d tensor holding `value` converted to `dtype`.
  static Tensor scalar(double value, DType dtype);
  static Tensor scalar_int(int64_t value, DType dtype);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return sprout::numel(shape_); }
  size_t itemsize() const { return sprout::itemsize(dtype_); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(); }
  int64_t dim(int64_t axis) const;  // size of an axis, negative axes count from the end
  bool is_contiguous() const;
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  bool shares_storage(const Tensor& other) const { return storage_ == other.storage_; }
  // In-place writes to the storage so far (Note [In-place writes and saved values]); writers that
  // change a tensor's bytes in place, rather than fill a new output, bump it.
  uint32_t version() const { return storage_ ? storage_->version() : 0; }
  void bump_version() const {
    if (storage_) storage_->bump_version();
  }

  // Address of the first element (storage start + offset).
  void* raw_data() const {
    return static_cast<char*>(storage_->data()) + offset_ * static_cast<int64_t>(itemsize());
  }
  template <class T>
  T* data() const {
    SPROUT_ASSERT(dtype_of<T>() == dtype_, "data<", name(dtype_of<T>()), ">() on a ", name(dtype_), " tensor");
    return static_cast<T*>(raw_data());
  }

  // Views: share storage, never copy.
  Tensor view(std::span<const int64_t> shape) const;        // requires a contiguous tensor
  Tensor permute(std::span<const int64_t> dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor slice(int64_t dim, int64_t start, int64_t stop, int64_t step) const;  // Python slice semantics
  Tensor select(int64_t dim, int64_t index) const;           // drops `dim`
  Tensor expand(std::span<const int64_t> shape) const;      // broadcast to `shape`, stride 0 on new dims
  Tensor unsqueeze(int64_t dim) const;
  Tensor as_strided(std::span<const int64_t> shape, std::span<const int64_t> strides, int64_t offset) const;

  // May copy: a view when the layout allows, else a contiguous copy.
  Tensor reshape(std::span<const int64_t> shape) const;     // one -1 allowed
  Tensor contiguous() const;
  Tensor clone() const;                                     // always a fresh contiguous copy

  // Copies `src` (same dtype, broadcastable shape) into this tensor's elements.
  void copy_from(const Tensor& src) const;

  // Reinterprets the metadata in place (used by Tensor.set_dtype after a cast, and by in-place ops).
  void assign_view(const Tensor& other) { *this = other; }

  // Autodiff: where this tensor's gradient flows (null when no gradient is being taken through it).
  const std::shared_ptr<AutogradMeta>& autograd() const { return autograd_; }
  void set_autograd(std::shared_ptr<AutogradMeta> meta) { autograd_ = std::move(meta); }
  Tensor detached() const {  // the same view, without autodiff bookkeeping
    Tensor t = *this;
    t.autograd_.reset();
    return t;
  }

  // Element at a flat (row-major logical) index, as double: for printing and item().
  double element_as_double(int64_t flat_index) const;
  int64_t element_as_int(int64_t flat_index) const;

 private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::Float32;
  Shape shape_;
  Strides strides_;
  int64_t offset_ = 0;
  std::shared_ptr<AutogradMeta> autograd_;
};

// Resolves a requested shape with at most one -1 against numel; a ValueError names `op`.
Shape infer_reshape(std::string_view op, std::span<const int64_t> requested, int64_t numel);

// Strides that let a tensor of `shape`/`strides` be viewed as `new_shape` without a copy, if any.
bool compute_view_strides(std::span<const int64_t> shape, std::span<const int64_t> strides,
                          std::span<const int64_t> new_shape, Strides& new_strides);

}  // namespace sprout
