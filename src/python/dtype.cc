// sprout._C.DType: the dtype enum. Python names its members (ms.float32 is DType.Float32) and gives
// them MindSpore's printed form in sprout/common/dtype.py.
#include "python/bindings.h"

namespace sprout::py {

void bind_dtype(nb::module_& m) {
  nb::enum_<DType>(m, "DType")
      .value("Bool", DType::Bool)
      .value("Int8", DType::Int8)
      .value("Int16", DType::Int16)
      .value("Int32", DType::Int32)
      .value("Int64", DType::Int64)
      .value("UInt8", DType::UInt8)
      .value("Float16", DType::Float16)
      .value("BFloat16", DType::BFloat16)
      .value("Float32", DType::Float32)
      .value("Float64", DType::Float64)
      .value("UInt16", DType::UInt16)
      .value("UInt32", DType::UInt32)
      .value("UInt64", DType::UInt64);
  m.def("itemsize", [](DType t) { return itemsize(t); });
  m.def("promote_types", [](DType a, DType b) { return promote_types(a, b); });
  m.def("can_promote", [](DType a, DType b) { return can_promote(a, b); });
  m.def("is_floating", [](DType t) { return is_floating(t); });
}

}  // namespace sprout::py
