// sprout._C.Tensor: construction, metadata, NumPy / DLPack interop. Operators and indexing are in
// tensor_ops.cc; the rest of the Python Tensor API is added in sprout/common/tensor.py.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "python/bindings.h"
#include "runtime/autograd/graph.h"
#include "runtime/eager.h"

namespace sprout::py {

namespace {

// A copy of t that a gradient flows through while one is being recorded (an Identity op on the tape;
// a plain clone would cut t's gradient off: loss.astype(float32) of a float32 loss trained nothing).
Tensor recorded_clone(const Tensor& t) {
  if (!t.autograd() || !is_recording()) return t.clone();
  Tensor in[1] = {t};
  return run_eager(Primitive::make("Identity"), in)[0];
}

std::optional<nb::dlpack::dtype> dlpack_dtype(DType t) {
  using code = nb::dlpack::dtype_code;
  auto make = [](code c, int bits) { return nb::dlpack::dtype{static_cast<uint8_t>(c), static_cast<uint8_t>(bits), 1}; };
  switch (t) {
    case DType::Bool: return make(code::Bool, 8);
    case DType::Int8: return make(code::Int, 8);
    case DType::Int16: return make(code::Int, 16);
    case DType::Int32: return make(code::Int, 32);
    case DType::Int64: return make(code::Int, 64);
    case DType::UInt8: return make(code::UInt, 8);
    case DType::UInt16: return make(code::UInt, 16);
    case DType::UInt32: return make(code::UInt, 32);
    case DType::UInt64: return make(code::UInt, 64);
    case DType::Float16: return make(code::Float, 16);
    case DType::BFloat16: return make(code::Bfloat, 16);
    case DType::Float32: return make(code::Float, 32);
    case DType::Float64: return make(code::Float, 64);
  }
  return std::nullopt;
}

std::optional<DType> from_dlpack_dtype(nb::dlpack::dtype d) {
  using code = nb::dlpack::dtype_code;
  if (d.lanes != 1) return std::nullopt;
  switch (static_cast<code>(d.code)) {
    case code::Bool: return d.bits == 8 ? std::optional(DType::Bool) : std::nullopt;
    case code::Int:
      if (d.bits == 8) return DType::Int8;
      if (d.bits == 16) return DType::Int16;
      if (d.bits == 32) return DType::Int32;
      if (d.bits == 64) return DType::Int64;
      return std::nullopt;
    case code::UInt:
      if (d.bits == 8) return DType::UInt8;
      if (d.bits == 16) return DType::UInt16;
      if (d.bits == 32) return DType::UInt32;
      if (d.bits == 64) return DType::UInt64;
      return std::nullopt;
    case code::Float:
      if (d.bits == 16) return DType::Float16;
      if (d.bits == 32) return DType::Float32;
      if (d.bits == 64) return DType::Float64;
      return std::nullopt;
    case code::Bfloat: return d.bits == 16 ? std::optional(DType::BFloat16) : std::nullopt;
    default: return std::nullopt;
  }
}

bool has_negative_stride(const Tensor& t) {
  for (int64_t s : t.strides())
    if (s < 0) return true;
  return false;
}

nb::object convert_module() {
  static nb::object* mod = new nb::object(nb::module_::import_("sprout.common._convert"));
  return *mod;
}

std::optional<DType> optional_dtype(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  if (!nb::isinstance<DType>(h))
    throw TypeError(str("Tensor: 'dtype' must be a sprout dtype such as ms.float32, but got ",
                        py_text(nb::str(h.type().attr("__name__"))), " ",
                        py_text(nb::repr(h))));
  return nb::cast<DType>(h);
}

nb::ndarray<nb::ro, nb::device::cpu> as_cpu_array(nb::handle obj, const char* api) {
  nb::ndarray<nb::ro, nb::device::cpu> array;
  if (!nb::try_cast(obj, array))
    throw TypeError(str(api, ": expected a CPU array (NumPy array or DLPack producer) of a supported dtype, but got ",
                        py_text(nb::str(obj.type().attr("__name__")))));
  return array;
}

}  // namespace

nb::ndarray<> to_ndarray(const Tensor& t) {
  Tensor view = has_negative_stride(t) ? t.clone() : t;
  SmallVector<size_t, 6> shape(view.shape().begin(), view.shape().end());
  nb::capsule owner(new Tensor(view), [](void* p) noexcept { delete static_cast<Tensor*>(p); });
  return nb::ndarray<>(view.raw_data(), shape.size(), shape.data(), owner, view.strides().data(),
                       *dlpack_dtype(view.dtype()), nb::device::cpu::value);
}

nb::object to_numpy(const Tensor& t) {
  if (t.dtype() == DType::BFloat16) return to_numpy(cast(t, DType::Float32));  // NumPy has no bfloat16
  Tensor view = has_negative_stride(t) ? t.clone() : t;
  SmallVector<size_t, 6> shape(view.shape().begin(), view.shape().end());
  nb::capsule owner(new Tensor(view), [](void* p) noexcept { delete static_cast<Tensor*>(p); });
  nb::ndarray<nb::numpy> array(view.raw_data(), shape.size(), shape.data(), owner, view.strides().data(),
                               *dlpack_dtype(view.dtype()), nb::device::cpu::value);
  return array.cast();
}

// Read-only producers (NumPy's DLPack imports, read-only arrays) are accepted: Sprout does not track
// write permission, as PyTorch's from_dlpack does not.
Tensor from_ndarray(nb::ndarray<nb::ro, nb::device::cpu> array, nb::handle owner) {
  std::optional<DType> dtype = from_dlpack_dtype(array.dtype());
  SPROUT_CHECK(dtype, TypeError, "from_numpy/from_dlpack: unsupported element type (code ", int(array.dtype().code),
               ", ", int(array.dtype().bits), " bits); Sprout supports bool, int8/16/32/64, uint8, float16, "
               "bfloat16, float32 and float64");
  Shape shape;
  Strides strides;
  int64_t lo = 0, hi = 0;  // extent of the elements in memory, relative to data()
  for (size_t i = 0; i < array.ndim(); ++i) {
    shape.push_back(static_cast<int64_t>(array.shape(i)));
    strides.push_back(array.stride(i));
    if (array.shape(i) == 0) continue;
    int64_t span = (static_cast<int64_t>(array.shape(i)) - 1) * array.stride(i);
    (span < 0 ? lo : hi) += span;
  }
  size_t isz = itemsize(*dtype);
  char* first = static_cast<char*>(const_cast<void*>(array.data()));
  // Keep the producer alive for as long as any view of this memory exists; release it under the GIL.
  auto* keep = new nb::object(nb::borrow(owner));
  std::shared_ptr<void> keep_alive(keep, [](void* p) {
    nb::gil_scoped_acquire gil;
    delete static_cast<nb::object*>(p);
  });
  size_t nbytes = static_cast<size_t>(hi - lo + 1) * isz;
  auto storage = Storage::borrow(first + lo * static_cast<int64_t>(isz), nbytes, std::move(keep_alive));
  return Tensor(std::move(storage), *dtype, std::move(shape), std::move(strides), -lo);
}

Tensor to_tensor(nb::handle obj, std::optional<DType> dtype) {
  if (nb::isinstance<Tensor>(obj)) {
    const Tensor& t = nb::cast<const Tensor&>(obj);
    return dtype ? cast(t, *dtype) : t;
  }
  // (array, dtype) from the Python conversion rules; the array is a fresh or borrowed NumPy array.
  nb::tuple converted = nb::cast<nb::tuple>(convert_module().attr("to_array")(obj, dtype ? nb::cast(*dtype) : nb::none()));
  nb::object arr = converted[0];
  Tensor borrowed = from_ndarray(as_cpu_array(arr, "Tensor"), arr);
  DType target = nb::cast<DType>(converted[1]);
  Tensor owned = borrowed.clone();  // never alias the caller's array: Tensor(x) copies, like MindSpore
  return cast(owned, target);
}

// Note [Tensor objects without type lookups]
// nanobind finds a C++ type's Python type through a hash map keyed by its type_info, on every
// isinstance, cast and return: an eager `x + y` did that six times (the operator's operand checks,
// each operand's cast, the result). The Tensor type is looked up once here; the checks compare type
// pointers and a result is built in place. Tiny ops, Zen 4, alternating builds: `x + y` 432 -> 406 ns,
// `-x` (now a number slot too) 261 -> 237 ns, `ops.add(x, y)` 618 -> 597 ns.
namespace {
PyTypeObject* g_tensor_type = nullptr;  // set by bind_tensor
}  // namespace

bool is_tensor_object(nb::handle obj) {
  PyTypeObject* type = Py_TYPE(obj.ptr());
  return type == g_tensor_type || PyType_IsSubtype(type, g_tensor_type);
}

const Tensor* tensor_of(nb::handle obj) {
  PyTypeObject* type = Py_TYPE(obj.ptr());
  if (type != g_tensor_type && !PyType_IsSubtype(type, g_tensor_type)) return nullptr;
  SPROUT_CHECK(nb::inst_ready(obj), TypeError, "a Tensor whose __init__ never ran (made by Tensor.__new__ "
               "alone) cannot be used");
  return nb::inst_ptr<Tensor>(obj);
}

nb::object wrap(Tensor t) {
  nb::object obj = nb::inst_alloc(nb::handle(reinterpret_cast<PyObject*>(g_tensor_type)));
  new (nb::inst_ptr<Tensor>(obj)) Tensor(std::move(t));
  nb::inst_mark_ready(obj);
  return obj;
}

void bind_tensor(nb::module_& m) {
  // Weak references: Python keeps the gradient hooks of a tensor not yet tracked without keeping it alive
  // (python/sprout/common/grad_hooks.py).
  // Pooled: a dead Tensor object is parked for reuse (up to 128), so an eager op's result skips the
  // Python allocation, the GC's bookkeeping and nanobind's instance map (tiny ops.add 300 -> 252 ns,
  // Zen 4). Python subclasses (Parameter) are not pooled.
  nb::class_<Tensor> cls(m, "Tensor", nb::type_slots(tensor_number_slots()), nb::is_weak_referenceable(),
                        nb::pooled());
  g_tensor_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  cls.def(
         "__init__",
         [](Tensor* self, nb::handle input_data, nb::handle dtype, nb::handle shape, nb::handle init, bool) {
           std::optional<DType> dt = optional_dtype(dtype);
           if (nb::isinstance<Tensor>(input_data) && shape.is_none() && init.is_none()) {
             Tensor src = nb::cast<const Tensor&>(input_data);
             new (self) Tensor(dt && *dt != src.dtype() ? cast(src, *dt) : src.clone());
             return;
           }
           nb::tuple converted =
               nb::cast<nb::tuple>(convert_module().attr("tensor_init_array")(input_data, dtype, shape, init));
           nb::object arr = converted[0];
           Tensor t = from_ndarray(as_cpu_array(arr, "Tensor"), arr).clone();
           new (self) Tensor(cast(t, nb::cast<DType>(converted[1])));
         },
         nb::arg("input_data") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("shape") = nb::none(),
         nb::arg("init") = nb::none(), nb::arg("const_arg") = false)
      .def_prop_ro("shape",
                   [](const Tensor& t) {
                     nb::list out;
                     for (int64_t d : t.shape()) out.append(d);
                     return nb::tuple(out);
                   })
      .def_prop_ro("dtype", &Tensor::dtype)
      .def_prop_ro("ndim", &Tensor::ndim)
      .def_prop_ro("size", &Tensor::numel)
      .def_prop_ro("itemsize", &Tensor::itemsize)
      .def_prop_ro("nbytes", &Tensor::nbytes)
      .def_prop_ro("strides",
                   [](const Tensor& t) {
                     nb::list out;
                     for (int64_t s : t.strides()) out.append(s * static_cast<int64_t>(t.itemsize()));
                     return nb::tuple(out);
                   })
      .def("dim", &Tensor::ndim)
      .def("is_contiguous", &Tensor::is_contiguous)
      .def("storage_offset", &Tensor::offset, "Where the tensor starts in its storage, in elements.")
      .def("contiguous", &Tensor::contiguous)
      .def("_shares_memory", &Tensor::shares_storage)
      .def("_data_ptr", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.raw_data()); })
      .def("copy", &recorded_clone, "A new tensor with a copy of the data (the gradient flows through it).")
      .def("asnumpy", &to_numpy, "A NumPy array sharing this tensor's memory (a copy for bfloat16).")
      .def("__len__",
           [](const Tensor& t) {
             SPROUT_CHECK(t.ndim() > 0, TypeError, "len() of a 0-d tensor");
             return t.shape()[0];
           })
      .def("astype",
           [](const Tensor& t, DType dtype, bool copy) {
             if (dtype == t.dtype()) return copy ? recorded_clone(t) : t;
             return cast(t, dtype);
           },
           nb::arg("dtype"), nb::arg("copy") = true)
      .def("set_dtype",
           [](nb::handle self, DType dtype) {
             Tensor& t = nb::cast<Tensor&>(self);
             t.assign_view(cast(t, dtype));
             return nb::borrow(self);
           })
      .def("_assign_value",
           [](Tensor& self, const Tensor& value) {
             SPROUT_CHECK(self.shape() == value.shape(), ValueError, "assign_value: shape ", shape_str(value.shape()),
                          " does not match ", shape_str(self.shape()));
             self.assign_view(cast(value, self.dtype()).clone());
           })
      .def("_copy_from",
           [](Tensor& self, const Tensor& value) {
             self.copy_from(cast(value, self.dtype()));
             self.bump_version();  // Note [In-place writes and saved values]
           },
           "Writes value (broadcast) into this tensor's memory, in place.")
      .def("__dlpack__",
           [](const Tensor& t, nb::kwargs) { return nb::cast(to_ndarray(t)); },  // a "dltensor" capsule
           "The DLPack capsule of this tensor (memory shared). Keyword arguments of the protocol are accepted.")
      .def("__dlpack_device__", [](const Tensor&) { return nb::make_tuple(1, 0); })
      .def("_element", [](const Tensor& t, int64_t i) -> nb::object {
        if (t.dtype() == DType::Bool) return nb::bool_(t.element_as_int(i) != 0);
        if (is_floating(t.dtype())) return nb::float_(t.element_as_double(i));
        if (t.dtype() == DType::UInt64)  // above 2**63 as itself: element_as_int wraps it, the cast back unwraps
          return nb::steal(PyLong_FromUnsignedLongLong(static_cast<unsigned long long>(t.element_as_int(i))));
        return nb::int_(t.element_as_int(i));
      });
  bind_tensor_ops(cls);

  m.def("from_numpy", [](nb::handle array) { return from_ndarray(as_cpu_array(array, "from_numpy"), array); });
  m.def("from_dlpack", [](nb::handle obj) { return from_ndarray(as_cpu_array(obj, "from_dlpack"), obj); });
  m.def("to_tensor", [](nb::handle obj, nb::handle dtype) { return to_tensor(obj, optional_dtype(dtype)); },
        nb::arg("obj"), nb::arg("dtype") = nb::none());
}

}  // namespace sprout::py
