// StridedSlice: Python-style slicing spelled as begin/end/strides vectors and bit masks (MindSpore and
// TensorFlow semantics); a view in eager mode. The gradient scatters dout back to the positions the
// slice read, found by slicing a tensor of flat positions the same way.
#include <limits>

#include "ops/array_attrs.h"
#include "ops/array_bprop.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

using V = BpropBuilder::V;

// One step of the slice, in order over the input's axes and the inserted ones.
struct SliceStep {
  enum Kind { NewAxis, Index, Range } kind;
  int64_t start = 0, stop = 0, step = 1;  // Index uses start (normalized); Range uses Python slice bounds
};

std::vector<SliceStep> resolve(const OpDef& op, const StridedSliceAttrs& a, const Shape& x) {
  const size_t k = a.begin.size();
  SPROUT_CHECK(a.end.size() == k && a.strides.size() == k, ValueError, op.name,
               ": 'begin', 'end' and 'strides' must have the same length, but got ", k, ", ", a.end.size(), " and ",
               a.strides.size());
  auto bit = [](int64_t mask, size_t i) { return ((mask >> i) & 1) != 0; };
  SPROUT_CHECK((a.ellipsis_mask & (a.ellipsis_mask - 1)) == 0, ValueError, op.name,
               ": 'ellipsis_mask' may have at most one bit set, but got ", a.ellipsis_mask);
  int64_t consuming = 0;  // entries that consume an input axis
  for (size_t i = 0; i < k; ++i) consuming += !bit(a.ellipsis_mask, i) && !bit(a.new_axis_mask, i);
  const int64_t ndim = static_cast<int64_t>(x.size());
  SPROUT_CHECK(consuming <= ndim, ValueError, op.name, ": ", consuming, " entries index 'input_x' of rank ", ndim);
  std::vector<SliceStep> steps;
  int64_t dim = 0;
  auto full = [&] { steps.push_back({SliceStep::Range, 0, std::numeric_limits<int64_t>::max(), 1}); ++dim; };
  for (size_t i = 0; i < k; ++i) {
    if (bit(a.ellipsis_mask, i)) {
      for (int64_t n = ndim - consuming; n > 0; --n) full();
    } else if (bit(a.new_axis_mask, i)) {
      steps.push_back({SliceStep::NewAxis});
    } else if (bit(a.shrink_axis_mask, i)) {
      const int64_t size = x[dim], index = a.begin[i];
      SPROUT_CHECK(index >= -size && index < size, ValueError, op.name, ": index ", index, " (entry ", i,
                   ") is out of range for axis ", dim, " of size ", size);
      steps.push_back({SliceStep::Index, index < 0 ? index + size : index});
      ++dim;
    } else {
      const int64_t step = a.strides[i];
      SPROUT_CHECK(step != 0, ValueError, op.name, ": 'strides' must be nonzero, but entry ", i, " is 0");
      const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
      int64_t start = bit(a.begin_mask, i) ? (step > 0 ? 0 : hi) : a.begin[i];
      int64_t stop = bit(a.end_mask, i) ? (step > 0 ? hi : lo) : a.end[i];
      steps.push_back({SliceStep::Range, start, stop, step});
      ++dim;
    }
  }
  while (dim < ndim) full();
  return steps;
}

// Python's slice.indices() length for an axis of `size`.
int64_t range_length(int64_t size, int64_t start, int64_t stop, int64_t step) {
  auto clamp = [&](int64_t v, int64_t lo, int64_t hi) { return std::clamp(v < 0 ? v + size : v, lo, hi); };
  if (step > 0) {
    start = clamp(start, 0, size);
    stop = clamp(stop, 0, size);
    return stop > start ? (stop - start + step - 1) / step : 0;
  }
  start = clamp(start, -1, size - 1);
  stop = clamp(stop, -1, size - 1);
  return start > stop ? (start - stop - step - 1) / (-step) : 0;
}

std::vector<TensorSpec> infer_strided_slice(const OpDef& op, const StridedSliceAttrs& a,
                                            std::span<const TensorSpec> in) {
  Shape out;
  int64_t dim = 0;
  for (const SliceStep& s : resolve(op, a, in[0].shape)) {
    if (s.kind == SliceStep::NewAxis) out.push_back(1);
    else if (s.kind == SliceStep::Range) out.push_back(range_length(in[0].shape[dim++], s.start, s.stop, s.step));
    else ++dim;
  }
  return {TensorSpec{in[0].dtype, std::move(out)}};
}

std::vector<Tensor> view_strided_slice(const StridedSliceAttrs& a, std::span<const Tensor> in) {
  static const OpDef& def = OpRegistry::instance().get("StridedSlice");
  Tensor out = in[0];
  int64_t dim = 0;  // position in `out`
  for (const SliceStep& s : resolve(def, a, in[0].shape())) {
    if (s.kind == SliceStep::NewAxis) out = out.unsqueeze(dim++);
    else if (s.kind == SliceStep::Range) out = out.slice(dim++, s.start, s.stop, s.step);
    else out = out.select(dim, s.start);
  }
  return {out};
}

// dx = zeros with dout scattered to the flat positions StridedSlice read (no position twice).
std::vector<V> strided_slice_bprop(BpropBuilder& b) {
  const TensorSpec x = b.spec(b.input(0));
  const int64_t n = numel(x.shape);
  Primitive range = make_prim("Range", {{"start", 0.0}, {"limit", static_cast<double>(n)}, {"delta", 1.0},
                                        {"dtype", DType::Int64}, {"maxlen", std::max<int64_t>(n, 1)}});
  V positions = b.reshape(b.emitter().emit(range, std::span<const V>()), x.shape);
  V picked = b.emitter().emit(b.prim(), std::array<V, 1>{positions});
  const std::vector<int64_t> column{-1, 1}, flat{-1};
  V scattered = emit_op(b, "ScatterNd", {b.reshape(picked, column), b.reshape(b.dout(), flat)},
                        {{"shape", std::vector<int64_t>{n}}});
  return {b.reshape(scattered, x.shape)};
}

}  // namespace

SPROUT_REGISTER(array_strided_slice) {
  define_op<StridedSliceAttrs>("StridedSlice")
      .doc("x[begin:end:strides] per entry, with masks for omitted bounds, '...', new axes and indexing; a view.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_strided_slice)
      .view(view_strided_slice)
      .bprop(bprop_rule(strided_slice_bprop));
}

}  // namespace sprout
