#include "io/mindir_values.h"

#include <cstring>

#include "base/error.h"

namespace sprout::mindir {

using Attr = mind_ir::AttributeProto;

void write_constant(const Constant& value, Attr& out, int nest) {
  const auto* ints = value ? std::get_if<std::vector<int64_t>>(&*value) : nullptr;
  if (nest > 0 && ints) {  // ((a, b), (c, d), ...): MindSpore's spelling of Pad's paddings
    SPROUT_ASSERT(ints->size() % static_cast<size_t>(nest) == 0, "write_constant: ", ints->size(),
                  " ints do not make tuples of ", nest);
    out.set_type(Attr::TUPLE);
    for (size_t i = 0; i < ints->size(); i += static_cast<size_t>(nest))
      write_constant(AttrValue(std::vector<int64_t>(ints->begin() + static_cast<std::ptrdiff_t>(i),
                                                    ints->begin() + static_cast<std::ptrdiff_t>(i) + nest)),
                     *out.add_values());
    return;
  }
  if (!value) {
    out.set_type(Attr::NONE);
    return;
  }
  std::visit(
      [&](const auto& v) {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, bool>) {
          out.set_type(Attr::BOOL);
          out.set_i(v);
        } else if constexpr (std::is_same_v<V, int64_t>) {
          out.set_type(Attr::INT64);
          out.set_i(v);
        } else if constexpr (std::is_same_v<V, double>) {
          out.set_type(Attr::FLOAT);
          out.set_f(static_cast<float>(v));
        } else if constexpr (std::is_same_v<V, std::string>) {
          out.set_type(Attr::STRING);
          out.set_s(v);
        } else if constexpr (std::is_same_v<V, std::vector<int64_t>>) {
          out.set_type(Attr::TUPLE);
          for (int64_t i : v) {
            Attr* item = out.add_values();
            item->set_type(Attr::INT64);
            item->add_ints(i);
          }
        } else if constexpr (std::is_same_v<V, std::vector<double>>) {
          out.set_type(Attr::TUPLE);
          for (double d : v) {
            Attr* item = out.add_values();
            item->set_type(Attr::FLOAT);
            item->add_floats(static_cast<float>(d));
          }
        } else {  // DType: MindSpore's TypeId
          out.set_type(Attr::INT64);
          out.set_i(type_id(v));
        }
      },
      *value);
}

namespace {

// An integer item of a tuple: MindSpore writes it in `ints` (one entry) or in `i`.
int64_t tuple_int(const Attr& a) { return a.ints_size() > 0 ? a.ints(0) : a.i(); }
double tuple_float(const Attr& a) {
  if (a.type() == Attr::DOUBLE) return a.doubles_size() > 0 ? a.doubles(0) : a.d();
  return a.floats_size() > 0 ? a.floats(0) : a.f();
}
bool is_integer(Attr::AttributeType t) {
  return t == Attr::INT8 || t == Attr::INT16 || t == Attr::INT32 || t == Attr::INT64 || t == Attr::UINT8 ||
         t == Attr::UINT16 || t == Attr::UINT32 || t == Attr::UINT64;
}

}  // namespace

Constant read_constant(const Attr& a, const std::string& where) {
  switch (a.type()) {
    case Attr::NONE: return std::nullopt;
    case Attr::BOOL: return AttrValue(a.i() != 0);
    case Attr::FLOAT: return AttrValue(static_cast<double>(a.f()));
    case Attr::DOUBLE: return AttrValue(a.d());
    case Attr::STRING: return AttrValue(a.s());
    case Attr::TUPLE:
    case Attr::LIST: {
      if (!a.values().empty() && (a.values(0).type() == Attr::TUPLE || a.values(0).type() == Attr::LIST)) {
        std::vector<int64_t> flat;  // ((a, b), (c, d)) -> (a, b, c, d): nested tuples of ints, row-major
        for (const Attr& item : a.values()) {
          Constant inner = read_constant(item, where);
          const auto* v = inner ? std::get_if<std::vector<int64_t>>(&*inner) : nullptr;
          SPROUT_CHECK(v, RuntimeError, "load MindIR: ", where, " holds nested tuples that are not of ints");
          flat.insert(flat.end(), v->begin(), v->end());
        }
        return AttrValue(flat);
      }
      bool floats = false;
      for (const Attr& item : a.values()) {
        SPROUT_CHECK(is_integer(item.type()) || item.type() == Attr::FLOAT || item.type() == Attr::DOUBLE, RuntimeError,
                     "load MindIR: ", where, " holds a tuple of ", Attr::AttributeType_Name(item.type()),
                     "; Sprout reads tuples of numbers");
        floats = floats || !is_integer(item.type());
      }
      if (floats) {
        std::vector<double> v;
        for (const Attr& item : a.values()) v.push_back(is_integer(item.type()) ? double(tuple_int(item)) : tuple_float(item));
        return AttrValue(v);
      }
      std::vector<int64_t> v;
      for (const Attr& item : a.values()) v.push_back(tuple_int(item));
      return AttrValue(v);
    }
    default:
      if (is_integer(a.type())) return AttrValue(static_cast<int64_t>(a.i()));
      throw RuntimeError(str("load MindIR: ", where, " is a ", Attr::AttributeType_Name(a.type()),
                             " constant, which Sprout cannot read"));
  }
}

int32_t tensor_data_type(DType dtype) {
  using T = mind_ir::TensorProto;
  switch (dtype) {
    case DType::Bool: return T::BOOL;
    case DType::Int8: return T::INT8;
    case DType::Int16: return T::INT16;
    case DType::Int32: return T::INT32;
    case DType::Int64: return T::INT64;
    case DType::UInt8: return T::UINT8;
    case DType::UInt16: return T::UINT16;
    case DType::UInt32: return T::UINT32;
    case DType::UInt64: return T::UINT64;
    case DType::Float16: return T::FLOAT16;
    case DType::BFloat16: return T::BFLOAT16;
    case DType::Float32: return T::FLOAT;
    case DType::Float64: return T::DOUBLE;
  }
  return T::UNDEFINED;
}

DType dtype_of_data_type(int32_t data_type, const std::string& where) {
  if (data_type == mind_ir::TensorProto::FLOAT64) return DType::Float64;  // MindSpore has two codes for it
  for (int i = 0; i < kNumDTypes; ++i)
    if (tensor_data_type(static_cast<DType>(i)) == data_type) return static_cast<DType>(i);
  const auto* e = mind_ir::TensorProto::DataType_descriptor()->FindValueByNumber(data_type);
  throw RuntimeError(str("load MindIR: ", where, " has data type ", e ? e->name() : std::to_string(data_type),
                         ", which Sprout does not have"));
}

void write_tensor(const Tensor& t, bool with_data, mind_ir::TensorProto& out) {
  for (int64_t d : t.shape()) out.add_dims(d);
  out.set_data_type(tensor_data_type(t.dtype()));
  if (with_data) {
    Tensor c = t.contiguous();
    out.set_raw_data(static_cast<const char*>(c.raw_data()), c.nbytes());
  }
}

Tensor read_tensor(const mind_ir::TensorProto& t, const std::string& where) {
  Shape shape;
  for (int64_t d : t.dims()) {
    SPROUT_CHECK(d >= 0, RuntimeError, "load MindIR: ", where, " has a dimension of unknown size (", d,
                 "); Sprout loads models of fixed shapes");
    shape.push_back(d);
  }
  SPROUT_CHECK(t.compression_type() == mind_ir::TensorProto::NO_COMPRESSION && !t.has_external_data(), RuntimeError,
               "load MindIR: ", where, " is compressed or stored outside the file; Sprout reads inline raw data");
  Tensor out = Tensor::empty(shape, dtype_of_data_type(t.data_type(), where));
  SPROUT_CHECK(t.raw_data().size() == static_cast<size_t>(out.nbytes()), RuntimeError, "load MindIR: ", where,
               " holds ", t.raw_data().size(), " bytes; its dims and type need ", out.nbytes());
  std::memcpy(out.raw_data(), t.raw_data().data(), t.raw_data().size());
  return out;
}

}  // namespace sprout::mindir
