// Tensor indexing with NumPy's rules. Note [Tensor indexing] in tensor_index.h.
#include "python/tensor_index.h"
#include "runtime/autograd/graph.h"

#include <algorithm>
#include <cstring>

#include "runtime/eager.h"

namespace sprout::py {
namespace {

[[noreturn]] void index_error(const std::string& msg) { throw nb::index_error(msg.c_str()); }

Tensor run1(std::string_view op, std::vector<Tensor> inputs,
            std::initializer_list<std::pair<std::string_view, AttrValue>> attrs = {}) {
  Primitive p = Primitive::make(op);
  for (const auto& [name, value] : attrs) p = p.with_attr(name, value);
  return run_eager(p, inputs)[0];
}

enum class Kind { Int, Slice, NewAxis, Ellipsis, IntArray, BoolArray };

struct Item {
  Kind kind;
  nb::handle obj;
  int64_t value = 0;  // Kind::Int
  Tensor array;       // Kind::IntArray (Int64) and Kind::BoolArray
};

Item array_item(nb::handle obj, Tensor array) {
  if (array.dtype() == DType::Bool) return Item{Kind::BoolArray, obj, 0, array};
  if (!is_integral(array.dtype()))
    index_error(str("Tensor index: tensors used as indices must be of integer or bool dtype, but got ",
                    name(array.dtype())));
  return Item{Kind::IntArray, obj, 0, cast(array, DType::Int64)};
}

std::vector<Item> parse(nb::handle index) {
  nb::tuple items = nb::isinstance<nb::tuple>(index) ? nb::borrow<nb::tuple>(index) : nb::make_tuple(index);
  std::vector<Item> out;
  bool seen_ellipsis = false;
  for (nb::handle item : items) {
    if (PyBool_Check(item.ptr())) {
      throw TypeError("Tensor index: a Python bool is not an index; index with a bool Tensor mask instead");
    } else if (nb::isinstance<Tensor>(item)) {
      out.push_back(array_item(item, nb::cast<Tensor>(item)));
    } else if (nb::isinstance<nb::list>(item) || nb::isinstance<nb::tuple>(item) ||
               nb::hasattr(item, "__array_interface__")) {
      bool empty_list = !nb::hasattr(item, "__array_interface__") && nb::len(item) == 0;
      Tensor array = empty_list ? Tensor::empty(Shape{0}, DType::Int64) : to_tensor(item);
      out.push_back(array_item(item, array));
    } else if (PyLong_Check(item.ptr()) || nb::hasattr(item, "__index__")) {
      out.push_back(Item{Kind::Int, item, nb::cast<int64_t>(item.attr("__index__")()), {}});
    } else if (PySlice_Check(item.ptr())) {
      out.push_back(Item{Kind::Slice, item, 0, {}});
    } else if (item.is_none()) {
      out.push_back(Item{Kind::NewAxis, item, 0, {}});
    } else if (item.ptr() == Py_Ellipsis) {
      if (seen_ellipsis) index_error("Tensor index: an index can only have a single ellipsis ('...')");
      seen_ellipsis = true;
      out.push_back(Item{Kind::Ellipsis, item, 0, {}});
    } else {
      throw TypeError(str("Tensor index: an index must be an int, slice, None or Ellipsis (basic indexing) or an ",
                          "integer or bool Tensor, list or array (advanced indexing), but got ",
                          py_text(nb::str(item.type().attr("__name__")))));
    }
  }
  return out;
}

int64_t consumed_dims(const std::vector<Item>& items) {
  int64_t n = 0;
  for (const Item& it : items) {
    if (it.kind == Kind::BoolArray) n += it.array.ndim();
    else if (it.kind == Kind::Int || it.kind == Kind::Slice || it.kind == Kind::IntArray) ++n;
  }
  return n;
}

int64_t checked_index(int64_t i, int64_t size, int64_t dim) {
  if (i < -size || i >= size)
    index_error(str("Tensor index: index ", i, " is out of bounds for axis ", dim, " with size ", size));
  return i < 0 ? i + size : i;
}

// The indices of the True elements of `mask`, one Int64 tensor per axis (NumPy's nonzero).
std::vector<Tensor> nonzero(const Tensor& mask) {
  Tensor m = mask.contiguous();
  const bool* p = m.data<bool>();
  const int64_t n = m.numel(), k = m.ndim();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += p[i];
  std::vector<Tensor> out;
  for (int64_t d = 0; d < k; ++d) out.push_back(Tensor::empty(Shape{count}, DType::Int64));
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!p[i]) continue;
    int64_t rest = i;
    for (int64_t d = k - 1; d >= 0; --d) {
      out[d].data<int64_t>()[at] = rest % m.shape()[d];
      rest /= m.shape()[d];
    }
    ++at;
  }
  return out;
}

// What an index does to a tensor: `view` after the basic items (the advanced axes kept whole), and for
// each advanced axis of `view`, its index array (Int64, not yet broadcast).
struct Plan {
  Tensor view;
  std::vector<int64_t> dims;
  std::vector<Tensor> indices;
  bool adjacent = true;  // advanced items next to each other: their result dims stay in place
  Shape broadcast;       // shape the index arrays broadcast to
};

Plan make_plan(const Tensor& t, const std::vector<Item>& items, bool any_advanced) {
  const int64_t consumed = consumed_dims(items);
  if (consumed > t.ndim())
    index_error(str("Tensor index: too many indices for a tensor of rank ", t.ndim(), ": ", consumed, " given"));
  Plan plan{t, {}, {}, true, {}};
  int64_t dim = 0, last_advanced_item = -1;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    const bool advanced =
        it.kind == Kind::IntArray || it.kind == Kind::BoolArray || (any_advanced && it.kind == Kind::Int);
    if (advanced) {
      if (last_advanced_item >= 0 && last_advanced_item != static_cast<int64_t>(i) - 1) plan.adjacent = false;
      last_advanced_item = static_cast<int64_t>(i);
    }
    switch (it.kind) {
      case Kind::NewAxis: plan.view = plan.view.unsqueeze(dim++); break;
      case Kind::Ellipsis: dim += t.ndim() - consumed; break;
      case Kind::Slice: {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(it.obj.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
        plan.view = plan.view.slice(dim++, start, stop, step);
        break;
      }
      case Kind::Int: {
        int64_t i0 = checked_index(it.value, plan.view.shape()[dim], dim);
        if (!any_advanced) {
          plan.view = plan.view.select(dim, i0);
        } else {
          plan.dims.push_back(dim++);
          plan.indices.push_back(Tensor::scalar_int(i0, DType::Int64));
        }
        break;
      }
      case Kind::IntArray: {
        Tensor idx = it.array.contiguous();
        const int64_t* p = idx.data<int64_t>();
        for (int64_t k = 0, n = idx.numel(); k < n; ++k) checked_index(p[k], plan.view.shape()[dim], dim);
        plan.dims.push_back(dim++);
        plan.indices.push_back(idx);
        break;
      }
      case Kind::BoolArray: {
        const int64_t k = it.array.ndim();
        if (k == 0) index_error("Tensor index: a 0-d bool tensor is not supported as an index");
        for (int64_t d = 0; d < k; ++d)
          if (it.array.shape()[d] != plan.view.shape()[dim + d])
            index_error(str("Tensor index: the boolean index of shape ", shape_str(it.array.shape()),
                            " does not match the indexed tensor's axes ", dim, "..", dim + k - 1, " of shape ",
                            shape_str(plan.view.shape())));
        for (Tensor& idx : nonzero(it.array)) {
          plan.dims.push_back(dim++);
          plan.indices.push_back(std::move(idx));
        }
        break;
      }
    }
  }
  for (size_t j = 0; j < plan.indices.size(); ++j) {
    const Shape& shape = plan.indices[j].shape();
    try {
      plan.broadcast = j == 0 ? shape : broadcast_shapes("Tensor index", plan.broadcast, shape);
    } catch (const ValueError&) {
      index_error(str("Tensor index: shape mismatch: the index arrays could not be broadcast together (",
                      shape_str(plan.broadcast), " and ", shape_str(shape), ")"));
    }
  }
  return plan;
}

// Axes of the view with the advanced ones first, in order.
std::vector<int64_t> advanced_first(const Plan& plan) {
  std::vector<int64_t> perm(plan.dims);
  for (int64_t d = 0; d < plan.view.ndim(); ++d)
    if (std::find(plan.dims.begin(), plan.dims.end(), d) == plan.dims.end()) perm.push_back(d);
  return perm;
}

// Moves the first `count` axes of an `ndim`-axis tensor to position `to`.
std::vector<int64_t> move_front_to(int64_t count, int64_t to, int64_t ndim) {
  std::vector<int64_t> perm;
  for (int64_t d = count; d < count + to; ++d) perm.push_back(d);
  for (int64_t d = 0; d < count; ++d) perm.push_back(d);
  for (int64_t d = count + to; d < ndim; ++d) perm.push_back(d);
  return perm;
}

bool has_advanced(const std::vector<Item>& items) {
  for (const Item& it : items)
    if (it.kind == Kind::IntArray || it.kind == Kind::BoolArray) return true;
  return false;
}

// While a gradient is being taken through `t`, the view of the basic items must be an op the tape
// records: the same window, expressed as AsStrided over t's logical row-major layout (whose gradient,
// AsStridedScatter, is differentiable again, so indexing works at any order).
Plan make_recorded_plan(const Tensor& t, const std::vector<Item>& items, bool advanced) {
  Tensor logical(nullptr, t.dtype(), t.shape(), contiguous_strides(t.shape()), 0);  // metadata only
  Plan plan = make_plan(logical, items, advanced);
  const Tensor& w = plan.view;
  plan.view = run1("AsStrided", {t}, {{"size", std::vector<int64_t>(w.shape().begin(), w.shape().end())},
                                       {"stride", std::vector<int64_t>(w.strides().begin(), w.strides().end())},
                                       {"storage_offset", w.offset()}});
  return plan;
}

}  // namespace

Tensor tensor_getitem(const Tensor& t, nb::handle index) {
  std::vector<Item> items = parse(index);
  const bool advanced = has_advanced(items);
  if (advanced && items.size() == 1 && items[0].kind == Kind::BoolArray && items[0].array.shape() == t.shape())
    return run1("MaskedSelect", {t, items[0].array});  // x[mask] over every axis
  Plan plan = t.autograd() && is_recording() ? make_recorded_plan(t, items, advanced) : make_plan(t, items, advanced);
  if (!advanced) return plan.view;
  if (plan.indices.size() == 1)  // one index array: Gather puts its dims where the axis was
    return run1("Gather", {plan.view, plan.indices[0]}, {{"axis", plan.dims[0]}});
  std::vector<Tensor> columns;
  const std::vector<int64_t> broadcast(plan.broadcast.begin(), plan.broadcast.end());
  for (const Tensor& idx : plan.indices) columns.push_back(run1("BroadcastTo", {idx}, {{"shape", broadcast}}));
  Tensor coords = run_eager(Primitive::make("Stack").with_attr("axis", int64_t{-1}), columns)[0];
  Tensor moved = run1("Transpose", {plan.view}, {{"perm", advanced_first(plan)}});
  Tensor out = run1("GatherNd", {moved, coords});
  const int64_t b = static_cast<int64_t>(plan.broadcast.size());
  if (plan.adjacent && plan.dims[0] > 0)
    out = run1("Transpose", {out}, {{"perm", move_front_to(b, plan.dims[0], out.ndim())}});
  return out;
}

void tensor_setitem(const Tensor& t, nb::handle index, nb::handle value) {
  SPROUT_CHECK(!(t.autograd() && is_recording()), RuntimeError,
               "Tensor index assignment: a tensor a gradient is being taken through is written by "
               "Tensor.__setitem__'s differentiable path, not here");
  std::vector<Item> items = parse(index);
  const bool advanced = has_advanced(items);
  Plan plan = make_plan(t, items, advanced);
  Tensor v = cast(to_tensor(value), t.dtype());
  t.bump_version();  // Note [In-place writes and saved values]
  if (!advanced) {
    plan.view.copy_from(v.expand(plan.view.shape()));
    return;
  }
  // The value broadcasts against the shape indexing would return; bring it to [broadcast..., rest...].
  const int64_t m = static_cast<int64_t>(plan.dims.size()), b = static_cast<int64_t>(plan.broadcast.size());
  Tensor moved = plan.view.permute(advanced_first(plan));
  Shape rest(moved.shape().begin() + m, moved.shape().end());
  Shape result = plan.broadcast;
  for (int64_t d : rest) result.push_back(d);
  if (plan.adjacent && plan.dims[0] > 0) {  // the result's index dims sit at dims[0]
    Shape shown;
    for (int64_t d = 0; d < plan.dims[0]; ++d) shown.push_back(plan.view.shape()[d]);
    for (int64_t d : plan.broadcast) shown.push_back(d);
    for (int64_t d = plan.dims[0] + m; d < plan.view.ndim(); ++d) shown.push_back(plan.view.shape()[d]);
    std::vector<int64_t> back = move_front_to(b, plan.dims[0], static_cast<int64_t>(shown.size()));
    std::vector<int64_t> to_front(back.size());
    for (size_t i = 0; i < back.size(); ++i) to_front[static_cast<size_t>(back[i])] = static_cast<int64_t>(i);
    v = v.expand(shown).permute(to_front);
  } else {
    v = v.expand(result);
  }
  const int64_t rows = numel(plan.broadcast);
  Shape row_shape{rows};
  for (int64_t d : rest) row_shape.push_back(d);
  Tensor values = v.contiguous().reshape(row_shape);

  std::vector<std::vector<int64_t>> idx;  // per advanced axis, its index for each row, checked
  for (int64_t j = 0; j < m; ++j) {
    Tensor col = plan.indices[j].expand(plan.broadcast).contiguous();
    std::vector<int64_t> column(col.data<int64_t>(), col.data<int64_t>() + rows);
    for (int64_t& i : column) i = checked_index(i, moved.shape()[j], plan.dims[j]);
    idx.push_back(std::move(column));
  }
  Strides rest_strides(moved.strides().begin() + m, moved.strides().end());
  const size_t item = t.itemsize();
  char* base = static_cast<char*>(t.storage()->data());
  const char* src = static_cast<const char*>(values.raw_data());
  for (int64_t r = 0; r < rows; ++r) {  // in order: a repeated index keeps the last value, as NumPy
    int64_t offset = moved.offset();
    for (int64_t j = 0; j < m; ++j) offset += idx[j][r] * moved.strides()[j];
    if (rest.empty()) {
      std::memcpy(base + offset * static_cast<int64_t>(item), src + r * static_cast<int64_t>(item), item);
    } else {
      moved.as_strided(rest, rest_strides, offset).copy_from(values.select(0, r));
    }
  }
}

}  // namespace sprout::py
