// Attributes of the array ops (array_shape.cc, array_create.cc, array_index.cc, array_scan.cc),
// shared with their CPU kernels. Names and defaults follow MindSpore 2.x; values MindSpore passes as
// call inputs (axis of ExpandDims, multiples of Tile, shape of Fill ...) are `call()` attributes.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "ops/attrs.h"

namespace sprout {

struct ExpandDimsAttrs {
  int64_t axis = 0;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &ExpandDimsAttrs::axis, "Where the new axis of size 1 goes.").call()};
  }
};

struct SqueezeAttrs {
  std::vector<int64_t> axis;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &SqueezeAttrs::axis, "Axes of size 1 to remove; empty removes all of them.")};
  }
};

// Concat and Stack.
struct AxisAttrs {
  int64_t axis = 0;
  static constexpr auto fields() { return std::tuple{attr("axis", &AxisAttrs::axis, "The axis to work along.")}; }
};

struct SplitAttrs {
  int64_t axis = 0;
  int64_t output_num = 1;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &SplitAttrs::axis, "The axis to split."),
                      attr("output_num", &SplitAttrs::output_num, "Number of equal parts.")};
  }
};

struct SplitVAttrs {
  std::vector<int64_t> size_splits;
  int64_t split_dim = 0;
  int64_t num_split = 0;
  static constexpr auto fields() {
    return std::tuple{attr("size_splits", &SplitVAttrs::size_splits, "Size of each part; one entry may be -1."),
                      attr("split_dim", &SplitVAttrs::split_dim, "The axis to split."),
                      attr("num_split", &SplitVAttrs::num_split, "Number of parts (len(size_splits)).")};
  }
};

struct TileAttrs {
  std::vector<int64_t> multiples;
  static constexpr auto fields() {
    return std::tuple{attr("multiples", &TileAttrs::multiples, "Repetitions per axis.").call()};
  }
};

struct ReverseV2Attrs {
  std::vector<int64_t> axis;
  static constexpr auto fields() { return std::tuple{attr("axis", &ReverseV2Attrs::axis, "Axes to reverse.")}; }
};

// Ones, Zeros: shape and dtype given at call time.
struct ShapeTypeAttrs {
  std::vector<int64_t> shape;
  DType type = DType::Float32;
  static constexpr auto fields() {
    return std::tuple{attr("shape", &ShapeTypeAttrs::shape, "Shape of the output.").call(),
                      attr("type", &ShapeTypeAttrs::type, "Dtype of the output.").call()};
  }
};

struct FillAttrs {
  DType type = DType::Float32;
  std::vector<int64_t> shape;
  double value = 0;
  static constexpr auto fields() {
    return std::tuple{attr("type", &FillAttrs::type, "Dtype of the output.").call(),
                      attr("shape", &FillAttrs::shape, "Shape of the output.").call(),
                      attr("value", &FillAttrs::value, "The value every element takes.").call()};
  }
};

struct EyeAttrs {
  int64_t n = 1;
  int64_t m = 1;
  DType t = DType::Float32;
  static constexpr auto fields() {
    return std::tuple{attr("n", &EyeAttrs::n, "Number of rows.").call(),
                      attr("m", &EyeAttrs::m, "Number of columns.").call(),
                      attr("t", &EyeAttrs::t, "Dtype of the output.").call()};
  }
};

// Range's bounds decide its output shape, so they are attributes (MindSpore: 0-d tensors whose dtype is
// the output's; here `dtype` says it).
struct RangeAttrs {
  int64_t maxlen = 1000000;
  double start = 0;
  double limit = 0;
  double delta = 1;
  DType dtype = DType::Int64;
  static constexpr auto fields() {
    return std::tuple{attr("maxlen", &RangeAttrs::maxlen, "Largest number of elements allowed."),
                      attr("start", &RangeAttrs::start, "First value.").call(),
                      attr("limit", &RangeAttrs::limit, "End of the range (excluded).").call(),
                      attr("delta", &RangeAttrs::delta, "Step between values (nonzero).").call(),
                      attr("dtype", &RangeAttrs::dtype, "Dtype of the output.").call()};
  }
};

struct LinSpaceAttrs {
  int64_t num = 1;
  static constexpr auto fields() {
    return std::tuple{attr("num", &LinSpaceAttrs::num, "Number of values, start and stop included.").call()};
  }
};

// Tril, Triu.
struct DiagonalAttrs {
  int64_t diagonal = 0;
  static constexpr auto fields() {
    return std::tuple{attr("diagonal", &DiagonalAttrs::diagonal, "Which diagonal bounds the kept triangle.")};
  }
};

struct GatherAttrs {
  int64_t axis = 0;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &GatherAttrs::axis, "The axis to gather along.").call()};
  }
};

struct ScatterNdAttrs {
  std::vector<int64_t> shape;
  static constexpr auto fields() {
    return std::tuple{attr("shape", &ScatterNdAttrs::shape, "Shape of the output.").call()};
  }
};

struct SegmentAttrs {
  int64_t num_segments = 0;
  static constexpr auto fields() {
    return std::tuple{attr("num_segments", &SegmentAttrs::num_segments, "Number of segments (output rows).").call()};
  }
};

struct OneHotAttrs {
  int64_t axis = -1;
  int64_t depth = 0;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &OneHotAttrs::axis, "Where the one-hot axis goes."),
                      attr("depth", &OneHotAttrs::depth, "Number of classes.").call()};
  }
};

// Argmax, Argmin.
struct ArgAttrs {
  int64_t axis = -1;
  DType output_type = DType::Int32;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &ArgAttrs::axis, "The axis to search."),
                      attr("output_type", &ArgAttrs::output_type, "Dtype of the indices (Int32 or Int64).")};
  }
};

// Cummax, Cummin.
struct CumExtremeAttrs {
  int64_t axis = 0;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &CumExtremeAttrs::axis, "The axis to run along.")};
  }
};

// CumSum, CumProd.
struct CumAttrs {
  bool exclusive = false;
  bool reverse = false;
  int64_t axis = 0;
  static constexpr auto fields() {
    return std::tuple{attr("exclusive", &CumAttrs::exclusive, "Each output leaves out its own element."),
                      attr("reverse", &CumAttrs::reverse, "Accumulate from the end."),
                      attr("axis", &CumAttrs::axis, "The axis to accumulate along.").call()};
  }
};

struct SortAttrs {
  int64_t axis = -1;
  bool descending = false;
  static constexpr auto fields() {
    return std::tuple{attr("axis", &SortAttrs::axis, "The axis to sort along."),
                      attr("descending", &SortAttrs::descending, "Largest first.")};
  }
};

struct TopKAttrs {
  bool sorted = true;
  int64_t k = 1;
  static constexpr auto fields() {
    return std::tuple{attr("sorted", &TopKAttrs::sorted, "Return the k values in descending order."),
                      attr("k", &TopKAttrs::k, "How many of the largest values to return.").call()};
  }
};

struct SearchSortedAttrs {
  DType dtype = DType::Int64;
  bool right = false;
  static constexpr auto fields() {
    return std::tuple{attr("dtype", &SearchSortedAttrs::dtype, "Dtype of the positions: Int32 or Int64."),
                      attr("right", &SearchSortedAttrs::right, "Insert after equal values instead of before.")};
  }
};

struct GatherElementsAttrs {
  int64_t dim = 0;
  static constexpr auto fields() {
    return std::tuple{attr("dim", &GatherElementsAttrs::dim, "The axis the indices index.").call()};
  }
};

struct ScatterElementsAttrs {
  int64_t axis = 0;
  std::string reduction = "none";
  static constexpr auto fields() {
    return std::tuple{attr("axis", &ScatterElementsAttrs::axis, "The axis the indices index."),
                      attr("reduction", &ScatterElementsAttrs::reduction, "'none' replaces, 'add' accumulates.")};
  }
};

struct RollAttrs {
  std::vector<int64_t> shift;
  std::vector<int64_t> axis;
  static constexpr auto fields() {
    return std::tuple{attr("shift", &RollAttrs::shift, "Positions to shift by, per axis."),
                      attr("axis", &RollAttrs::axis, "Axes to roll; empty rolls the flattened tensor.")};
  }
};

struct MeshgridAttrs {
  std::string indexing = "xy";
  static constexpr auto fields() {
    return std::tuple{attr("indexing", &MeshgridAttrs::indexing, "'xy' (Cartesian) or 'ij' (matrix) indexing.")};
  }
};

// paddings: (before, after) per axis, flattened: [b0, a0, b1, a1, ...].
struct PadAttrs {
  std::vector<int64_t> paddings;
  static constexpr auto fields() {
    return std::tuple{attr("paddings", &PadAttrs::paddings, "(before, after) zero padding per axis.")};
  }
};

// PadEdges and PadEdgesGrad (Note [Padding from the edges]).
struct PadEdgesAttrs {
  std::vector<int64_t> paddings;
  std::string mode = "reflect";
  static constexpr auto fields() {
    return std::tuple{attr("paddings", &PadEdgesAttrs::paddings, "(before, after) elements per axis."),
                      attr("mode", &PadEdgesAttrs::mode, "'reflect', 'replicate' or 'circular'.")};
  }
};
// For an axis of n elements padded by (before, after): the index of x each output index reads.
std::vector<int64_t> pad_edges_map(int64_t n, int64_t before, int64_t after, std::string_view mode);

struct SliceAttrs {
  std::vector<int64_t> begin;
  std::vector<int64_t> size;
  static constexpr auto fields() {
    return std::tuple{attr("begin", &SliceAttrs::begin, "Start of the slice per axis.").call(),
                      attr("size", &SliceAttrs::size, "Length per axis; -1 takes the rest.").call()};
  }
};

// Bit i of a mask refers to entry i of begin/end/strides (TensorFlow's strided-slice semantics).
struct StridedSliceAttrs {
  int64_t begin_mask = 0;
  int64_t end_mask = 0;
  int64_t ellipsis_mask = 0;
  int64_t new_axis_mask = 0;
  int64_t shrink_axis_mask = 0;
  std::vector<int64_t> begin;
  std::vector<int64_t> end;
  std::vector<int64_t> strides;
  static constexpr auto fields() {
    return std::tuple{
        attr("begin_mask", &StridedSliceAttrs::begin_mask, "Bit i set: entry i starts at the beginning."),
        attr("end_mask", &StridedSliceAttrs::end_mask, "Bit i set: entry i runs to the end."),
        attr("ellipsis_mask", &StridedSliceAttrs::ellipsis_mask, "Bit i set: entry i is '...' (at most one bit)."),
        attr("new_axis_mask", &StridedSliceAttrs::new_axis_mask, "Bit i set: entry i inserts an axis of size 1."),
        attr("shrink_axis_mask", &StridedSliceAttrs::shrink_axis_mask,
             "Bit i set: entry i takes index begin[i] and drops the axis."),
        attr("begin", &StridedSliceAttrs::begin, "Start per entry.").call(),
        attr("end", &StridedSliceAttrs::end, "Stop (excluded) per entry.").call(),
        attr("strides", &StridedSliceAttrs::strides, "Step per entry (nonzero).").call()};
  }
};

struct ScatterAddAttrs {
  bool use_locking = false;
  static constexpr auto fields() {
    return std::tuple{attr("use_locking", &ScatterAddAttrs::use_locking, "Accepted for MindSpore compatibility; "
                                                                         "eager updates never race.")};
  }
};

}  // namespace sprout
