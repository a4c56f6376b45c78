// Values in MindIR files: constants as AttributeProto, tensors as TensorProto (proto/mind_ir.proto).
#pragma once

#include <string>

#include "io/mindir_ops.h"
#include "mind_ir.pb.h"
#include "tensor/tensor.h"

namespace sprout::mindir {

// A scalar, string or tuple constant, as MindSpore writes it (a float as float32, a tuple of ints as
// a TUPLE of INT64 values).
void write_constant(const Constant& value, mind_ir::AttributeProto& out, int nest = 0);
// The constant an attribute holds. RuntimeError naming `where` for kinds Sprout has no value for.
Constant read_constant(const mind_ir::AttributeProto& a, const std::string& where);

// A tensor's dims, dtype and (with `with_data`) its bytes.
void write_tensor(const Tensor& t, bool with_data, mind_ir::TensorProto& out);
// The TensorProto data_type of a dtype, and back (RuntimeError naming `where` for others).
int32_t tensor_data_type(DType dtype);
DType dtype_of_data_type(int32_t data_type, const std::string& where);
// A tensor from its dims, dtype and raw_data; RuntimeError naming `where` when the bytes do not match.
Tensor read_tensor(const mind_ir::TensorProto& t, const std::string& where);

}  // namespace sprout::mindir
