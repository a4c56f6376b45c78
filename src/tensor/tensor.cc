#include "tensor/tensor.h"

#include <algorithm>
#include <cstring>

#include "base/parallel.h"
#include "tensor/copy_back_to_front.h"
#include "tensor/nd_loop.h"
#include "tensor/transpose_tiles.h"

namespace sprout {

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape shape, Strides strides, int64_t offset)
    : storage_(std::move(storage)), dtype_(dtype), shape_(std::move(shape)), strides_(std::move(strides)),
      offset_(offset) {
  SPROUT_ASSERT(shape_.size() == strides_.size(), "shape and strides differ in rank");
}

namespace {

// Bytes of a contiguous tensor; a ValueError past what a 64-bit process can address (the product
// would otherwise wrap around, to a small buffer that the kernel overruns).
size_t checked_nbytes(std::string_view op, std::span<const int64_t> shape, DType dtype) {
  constexpr uint64_t kMaxBytes = uint64_t{1} << 47;  // x86-64 and AArch64 user address space
  uint64_t bytes = sprout::itemsize(dtype);
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  for (int64_t d : shape)
    SPROUT_CHECK(!__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes) && bytes <= kMaxBytes, ValueError,
                 op, ": an output of shape ", shape_str(shape), " and dtype ", name(dtype),
                 " would take more memory than a process can address");
  return static_cast<size_t>(bytes);
}

}  // namespace

Tensor Tensor::empty(std::span<const int64_t> shape, DType dtype, std::string_view op) {
  check_shape(op, "shape", shape);
  const size_t bytes = checked_nbytes(op, shape, dtype);
  std::shared_ptr<Storage> storage;
  try {
    storage = Storage::allocate(bytes);
  } catch (const RuntimeError& e) {
    throw RuntimeError(str(op, ": cannot allocate an output of shape ", shape_str(shape), " and dtype ",
                           name(dtype), " (", bytes, " bytes): ", e.what()));
  }
  return Tensor(std::move(storage), dtype, Shape(shape), contiguous_strides(shape), 0);
}

Tensor Tensor::zeros(std::span<const int64_t> shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  std::memset(t.raw_data(), 0, t.nbytes());
  return t;
}

Tensor Tensor::scalar(double value, DType dtype) {
  Tensor t = empty({}, dtype);
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    *t.data<T>() = static_cast<T>(static_cast<compute_t<T>>(value));
  });
  return t;
}

Tensor Tensor::scalar_int(int64_t value, DType dtype) {
  Tensor t = empty({}, dtype);
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    *t.data<T>() = static_cast<T>(static_cast<compute_t<T>>(value));
  });
  return t;
}

int64_t Tensor::dim(int64_t axis) const { return shape_[normalize_axis("Tensor.shape", "axis", axis, ndim())]; }

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = shape_.size(); i-- > 0;) {
    if (shape_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

Tensor Tensor::as_strided(std::span<const int64_t> shape, std::span<const int64_t> strides, int64_t offset) const {
  return Tensor(storage_, dtype_, Shape(shape), Strides(strides), offset);
}

Tensor Tensor::view(std::span<const int64_t> shape) const {
  Shape resolved = infer_reshape("Tensor.view", shape, numel());
  Strides new_strides;
  SPROUT_CHECK(compute_view_strides(shape_, strides_, resolved, new_strides), ValueError,
               "Tensor.view: a tensor of shape ", shape_str(shape_), " with strides ", shape_str(strides_),
               " cannot be viewed as ", shape_str(resolved), " without a copy; use reshape instead");
  return Tensor(storage_, dtype_, std::move(resolved), std::move(new_strides), offset_);
}

Tensor Tensor::reshape(std::span<const int64_t> shape) const {
  Shape resolved = infer_reshape("Reshape", shape, numel());
  Strides new_strides;
  if (compute_view_strides(shape_, strides_, resolved, new_strides))
    return Tensor(storage_, dtype_, std::move(resolved), std::move(new_strides), offset_);
  return contiguous().view(resolved);
}

Tensor Tensor::permute(std::span<const int64_t> dims) const {
  SPROUT_CHECK(static_cast<int64_t>(dims.size()) == ndim(), ValueError, "Transpose: 'perm' must have ",
               ndim(), " entries for a tensor of rank ", ndim(), ", but got ", shape_str(dims));
  Shape shape(dims.size());
  Strides strides(dims.size());
  SmallVector<bool, 8> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = normalize_axis("Transpose", "perm", dims[i], ndim());
    SPROUT_CHECK(!seen[d], ValueError, "Transpose: 'perm' must be a permutation of the axes, but got ",
                 shape_str(dims), " which repeats axis ", d);
    seen[d] = true;
    shape[i] = shape_[d];
    strides[i] = strides_[d];
  }
  return Tensor(storage_, dtype_, std::move(shape), std::move(strides), offset_);
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  Shape perm(shape_.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
  std::swap(perm[normalize_axis("transpose", "dim0", dim0, ndim())],
            perm[normalize_axis("transpose", "dim1", dim1, ndim())]);
  return permute(perm);
}

Tensor Tensor::slice(int64_t dim, int64_t start, int64_t stop, int64_t step) const {
  dim = normalize_axis("slice", "dim", dim, ndim());
  SPROUT_CHECK(step != 0, ValueError, "slice: 'step' must not be zero");
  const int64_t size = shape_[dim];
  // Python's slice.indices(): clamp start/stop into the valid range for the step's direction.
  auto clamp = [&](int64_t v, int64_t lo, int64_t hi) {
    if (v < 0) v += size;
    return std::clamp(v, lo, hi);
  };
  int64_t len;
  if (step > 0) {
    start = clamp(start, 0, size);
    stop = clamp(stop, 0, size);
    len = stop > start ? (stop - start + step - 1) / step : 0;
  } else {
    start = clamp(start, -1, size - 1);
    stop = clamp(stop, -1, size - 1);
    len = start > stop ? (start - stop - step - 1) / (-step) : 0;
  }
  Shape shape = shape_;
  Strides strides = strides_;
  shape[dim] = len;
  strides[dim] = strides_[dim] * step;
  int64_t offset = offset_ + (len > 0 ? start * strides_[dim] : 0);
  return Tensor(storage_, dtype_, std::move(shape), std::move(strides), offset);
}

Tensor Tensor::select(int64_t dim, int64_t index) const {
  dim = normalize_axis("select", "dim", dim, ndim());
  int64_t size = shape_[dim];
  SPROUT_CHECK(index >= -size && index < size, ValueError, "index ", index,
               " is out of bounds for axis ", dim, " with size ", size);
  if (index < 0) index += size;
  Shape shape = shape_;
  Strides strides = strides_;
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  return Tensor(storage_, dtype_, std::move(shape), std::move(strides), offset_ + index * strides_[dim]);
}

Tensor Tensor::expand(std::span<const int64_t> shape) const {
  SPROUT_CHECK(shape.size() >= shape_.size(), ValueError, "BroadcastTo: cannot broadcast a tensor of shape ",
               shape_str(shape_), " to the lower-rank shape ", shape_str(shape));
  size_t lead = shape.size() - shape_.size();
  Strides strides(shape.size(), 0);
  for (size_t i = 0; i < shape_.size(); ++i) {
    int64_t want = shape[lead + i];
    SPROUT_CHECK(shape_[i] == want || shape_[i] == 1, ValueError, "BroadcastTo: cannot broadcast shape ",
                 shape_str(shape_), " to ", shape_str(shape), ": dimension ", lead + i, " is ", shape_[i],
                 ", expected ", want, " or 1");
    strides[lead + i] = shape_[i] == 1 && want != 1 ? 0 : strides_[i];
  }
  return Tensor(storage_, dtype_, Shape(shape), std::move(strides), offset_);
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  dim = normalize_axis("ExpandDims", "axis", dim, ndim() + 1);
  Shape shape = shape_;
  Strides strides = strides_;
  int64_t stride = dim < ndim() ? strides_[dim] * shape_[dim] : 1;
  shape.insert(shape.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return Tensor(storage_, dtype_, std::move(shape), std::move(strides), offset_);
}

Tensor Tensor::contiguous() const { return is_contiguous() ? *this : clone(); }

Tensor Tensor::clone() const {
  Tensor out = empty(shape_, dtype_);
  out.copy_from(*this);
  return out;
}

namespace {
// n elements from src (stride ss) to dst (stride ds): memcpy when both are contiguous (back to front
// when the destination sits just past the source: Note [Copies just past their source]), a fill when
// the source is one broadcast value (the gradient of a sum made contiguous), else element by element.
template <class Word>
void copy_run(Word* d, int64_t ds, const Word* s, int64_t ss, int64_t n) {
  if (ds == 1 && ss == 1) {
    const size_t bytes = static_cast<size_t>(n) * sizeof(Word);
    if (bytes >= 256 && copy_stalls_front_to_back(d, s)) copy_back_to_front(d, s, bytes);
    else std::memcpy(d, s, bytes);
  } else if (ds == 1 && ss == 0) {
    std::fill(d, d + n, *s);
  } else {
    for (int64_t i = 0; i < n; ++i) d[i * ds] = s[i * ss];
  }
}

// Rows split across threads: a large strided copy (a transposed gradient made contiguous, joined by
// Concat) is bound by memory, which one core does not saturate. Fewer long rows than threads (a
// broadcast scalar is one row) split each row instead.
template <class Word>
void copy_rows(const NdLoop<2>& loop, int64_t numel, char* dst, const char* src) {
  const int64_t ds = loop.inner_stride(0), ss = loop.inner_stride(1);
  const int64_t rows = loop.rows(), row_length = rows ? numel / rows : 0;
  Word* d0 = reinterpret_cast<Word*>(dst);
  const Word* s0 = reinterpret_cast<const Word*>(src);
  if (rows < num_threads() && row_length >= 2 * kParallelGrain) {
    loop.run(0, rows, [&](const std::array<int64_t, 2>& off, int64_t n) {
      parallel_for(n, kParallelGrain, [&](int64_t b, int64_t e) {
        copy_run(d0 + off[0] + b * ds, ds, s0 + off[1] + b * ss, ss, e - b);
      });
    });
    return;
  }
  parallel_for(rows, std::max<int64_t>(1, kParallelGrain * 4 / std::max<int64_t>(row_length, 1)),
               [&](int64_t begin, int64_t end) {
    loop.run(begin, end, [&](const std::array<int64_t, 2>& off, int64_t n) {
      copy_run(d0 + off[0], ds, s0 + off[1], ss, n);
    });
  });
}

// Note [Transposing copies]
// A copy whose last two (collapsed) dimensions are swapped between source and destination, a
// transposed matrix made contiguous, reads one element per cache line when done row by row. Square
// tiles of kTile x kTile elements keep the lines of both sides in cache until every element of them
// has been used: 4096 x 1024 float32 12.7 -> 3.5 ms (PyTorch 16), float16 10.6 -> 2.4. (Tiles of 16
// measured the same, of 8 twice as slow.) Within a tile, 32-bit elements move as 16 x 16 blocks of
// AVX-512 shuffles (transpose_tiles.h) instead of a load and a store each: two threads, Zen 4, float32
// 1024 x 1024 1.47 -> 0.14 ms, (8, 128, 1024) -> (8, 1024, 128) 1.37 -> 0.15, NCHW (32, 64, 32, 32) to
// NHWC 2.8 -> 0.4 (NumPy: 4.1, 3.4, 6.8).
constexpr int64_t kTile = 32;

// Whether `loop` (destination, source) is such a copy: destination contiguous along the last
// dimension, source along the one before it.
bool is_transposing(const NdLoop<2>& loop) {
  const Shape& shape = loop.shape();
  const size_t r = shape.size();
  return r >= 2 && shape[r - 1] >= kTile && shape[r - 2] >= kTile && loop.strides(0)[r - 1] == 1 &&
         loop.strides(1)[r - 2] == 1;
}

template <class Word>
void copy_transposing(const NdLoop<2>& loop, char* dst, const char* src) {
  const Shape& shape = loop.shape();
  const size_t r = shape.size();
  const int64_t rows = shape[r - 2], cols = shape[r - 1];
  const int64_t d_row = loop.strides(0)[r - 2], s_col = loop.strides(1)[r - 1];
  const int64_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (cols + kTile - 1) / kTile;
  const int64_t matrices = numel(std::span<const int64_t>(shape).first(r - 2));
  Word* d0 = reinterpret_cast<Word*>(dst);
  const Word* s0 = reinterpret_cast<const Word*>(src);
  parallel_for(matrices * row_tiles, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      int64_t matrix = task / row_tiles, d_off = 0, s_off = 0;
      for (int64_t d = static_cast<int64_t>(r) - 3; d >= 0; --d) {
        const int64_t i = matrix % shape[d];
        matrix /= shape[d];
        d_off += i * loop.strides(0)[d];
        s_off += i * loop.strides(1)[d];
      }
      const int64_t r0 = task % row_tiles * kTile, r1 = std::min(r0 + kTile, rows);
      for (int64_t ct = 0; ct < col_tiles; ++ct) {
        const int64_t c0 = ct * kTile, c1 = std::min(c0 + kTile, cols);
        if constexpr (sizeof(Word) == 4) {  // the source tile is (c1 - c0) rows of (r1 - r0), s_col apart
          transpose_block32(reinterpret_cast<const uint32_t*>(s0 + s_off + r0 + c0 * s_col), s_col, c1 - c0, r1 - r0,
                            reinterpret_cast<uint32_t*>(d0 + d_off + r0 * d_row + c0), d_row);
          continue;
        }
        for (int64_t i = r0; i < r1; ++i) {
          Word* d = d0 + d_off + i * d_row;
          const Word* s = s0 + s_off + i;
          for (int64_t j = c0; j < c1; ++j) d[j] = s[j * s_col];
        }
      }
    }
  });
}

template <class Word>
void copy_any(const NdLoop<2>& loop, int64_t numel, char* dst, const char* src) {
  if (is_transposing(loop)) return copy_transposing<Word>(loop, dst, src);
  copy_rows<Word>(loop, numel, dst, src);
}
}  // namespace

void Tensor::copy_from(const Tensor& src) const {
  SPROUT_ASSERT(src.dtype() == dtype_, "copy_from between ", name(src.dtype()), " and ", name(dtype_));
  Tensor from = src.shape() == shape_ ? src : src.expand(shape_);
  NdLoop<2> loop(shape_, {std::span<const int64_t>(strides_), std::span<const int64_t>(from.strides())});
  char* dst = static_cast<char*>(raw_data());
  const char* s = static_cast<const char*>(from.raw_data());
  switch (itemsize()) {
    case 1: copy_any<uint8_t>(loop, numel(), dst, s); break;
    case 2: copy_any<uint16_t>(loop, numel(), dst, s); break;
    case 4: copy_any<uint32_t>(loop, numel(), dst, s); break;
    case 8: copy_any<uint64_t>(loop, numel(), dst, s); break;
    default: SPROUT_ASSERT(false, "unexpected itemsize ", itemsize());
  }
}

namespace {
int64_t storage_offset_of(const Tensor& t, int64_t flat) {
  int64_t off = t.offset();
  for (int64_t d = t.ndim() - 1; d >= 0; --d) {
    int64_t size = t.shape()[d];
    off += (flat % size) * t.strides()[d];
    flat /= size;
  }
  return off;
}
}  // namespace

double Tensor::element_as_double(int64_t flat_index) const {
  int64_t off = storage_offset_of(*this, flat_index);
  return visit_dtype(dtype_, [&](auto zero) {
    using T = decltype(zero);
    return static_cast<double>(static_cast<compute_t<T>>(static_cast<const T*>(storage_->data())[off]));
  });
}

int64_t Tensor::element_as_int(int64_t flat_index) const {
  int64_t off = storage_offset_of(*this, flat_index);
  return visit_dtype(dtype_, [&](auto zero) {
    using T = decltype(zero);
    return static_cast<int64_t>(static_cast<compute_t<T>>(static_cast<const T*>(storage_->data())[off]));
  });
}

Shape infer_reshape(std::string_view op, std::span<const int64_t> requested, int64_t total) {
  Shape shape(requested);
  int64_t known = 1;
  int64_t infer_at = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      SPROUT_CHECK(infer_at < 0, ValueError, op, ": 'shape' may contain at most one -1, but got ",
                   shape_str(requested));
      infer_at = static_cast<int64_t>(i);
    } else {
      SPROUT_CHECK(shape[i] >= 0, ValueError, op, ": 'shape' entries must be non-negative or -1, but got ",
                   shape_str(requested));
      known *= shape[i];
    }
  }
  if (infer_at >= 0) {
    SPROUT_CHECK(known != 0 && total % known == 0, ValueError, op, ": cannot reshape a tensor of ", total,
                 " elements into shape ", shape_str(requested));
    shape[infer_at] = total / known;
  }
  SPROUT_CHECK(sprout::numel(shape) == total, ValueError, op, ": cannot reshape a tensor of ", total,
               " elements into shape ", shape_str(requested), " (", sprout::numel(shape), " elements)");
  return shape;
}

bool compute_view_strides(std::span<const int64_t> shape, std::span<const int64_t> strides,
                          std::span<const int64_t> new_shape, Strides& new_strides) {
  // Walk old and new dims together, matching groups of equal element count; each old group must be
  // contiguous in itself to be split or merged into the new group.
  new_strides = Strides(new_shape.size());
  if (sprout::numel(shape) == 0) {
    new_strides = contiguous_strides(new_shape);
    return true;
  }
  size_t oi = 0, ni = 0;
  const size_t on = shape.size(), nn = new_shape.size();
  while (ni < nn || oi < on) {
    // Skip size-1 dims: any stride works for them.
    if (ni < nn && new_shape[ni] == 1) { new_strides[ni++] = 1; continue; }
    if (oi < on && shape[oi] == 1) { ++oi; continue; }
    if (ni >= nn || oi >= on) return false;
    size_t o_begin = oi, n_begin = ni;
    int64_t o_count = shape[oi++], n_count = new_shape[ni++];
    while (o_count != n_count) {
      if (o_count < n_count) {
        if (oi >= on) return false;
        o_count *= shape[oi++];
      } else {
        if (ni >= nn) return false;
        n_count *= new_shape[ni++];
      }
    }
    // The old group must be contiguous in itself (ignoring its size-1 dims); its innermost
    // non-1 dim gives the stride the new group builds on.
    int64_t stride = 0;
    bool first = true;
    for (size_t k = oi; k-- > o_begin;) {
      if (shape[k] == 1) continue;
      if (!first && strides[k] != stride) return false;
      if (first) first = false;
      stride = strides[k] * shape[k];
    }
    for (size_t k = oi; k-- > o_begin;)
      if (shape[k] != 1) { stride = strides[k]; break; }
    for (size_t k = ni; k-- > n_begin;) {
      new_strides[k] = stride;
      stride *= new_shape[k];
    }
  }
  return true;
}

}  // namespace sprout
