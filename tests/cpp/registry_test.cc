#include <gtest/gtest.h>

#include "ops/matmul.h"
#include "ops/op_def.h"
#include "ops/reduce.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

TEST(Registry, EveryOpHasInferAndACpuKernel) {
  auto ops = OpRegistry::instance().all();
  EXPECT_GE(ops.size(), 25u);
  for (const OpDef* op : ops) {
    EXPECT_TRUE(op->infer) << op->name;
    EXPECT_TRUE(op->kernel(Device::CPU) || op->view) << op->name << " has no CPU kernel";
    EXPECT_FALSE(op->doc.empty()) << op->name;
  }
}

TEST(Registry, UnknownOpIsAValueError) { EXPECT_THROW(Primitive::make("NoSuchOp"), ValueError); }

TEST(Attrs, TypedStructReflectsDefaultsAndConversions) {
  Primitive p = Primitive::make("MatMul");
  EXPECT_EQ(p.to_string(), "MatMul(transpose_a=False, transpose_b=False)");
  Primitive q = p.with_attr("transpose_b", true);
  EXPECT_TRUE(q.attrs_as<MatMulAttrs>().transpose_b);
  EXPECT_FALSE(p.attrs_as<MatMulAttrs>().transpose_b);  // copy on write
  EXPECT_FALSE(p == q);
  EXPECT_TRUE(q == p.with_attr("transpose_b", true));
  EXPECT_THROW(p.with_attr("transpose_b", int64_t{3}), TypeError);
  EXPECT_THROW(p.with_attr("no_such_attr", true), TypeError);
  Primitive r = Primitive::make("ReduceSum").with_attr("axis", int64_t{1});  // int widens to a tuple
  EXPECT_EQ(r.attrs_as<ReduceAttrs>().axis, std::vector<int64_t>{1});
  EXPECT_EQ(OpRegistry::instance().get("ReduceSum").attrs->fields()[1].call_arg, true);
}

TEST(Infer, BroadcastErrorNamesOpAndShapes) {
  const OpDef& add = OpRegistry::instance().get("Add");
  std::vector<TensorSpec> in = {{DType::Float32, Shape{2, 3}}, {DType::Float32, Shape{4}}};
  try {
    add.infer(add, Primitive(add).attrs(), in);
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("Add"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(2, 3)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(4,)"), std::string::npos) << msg;
  }
}

TEST(Infer, MatMulShapes) {
  const OpDef& mm = OpRegistry::instance().get("BatchMatMul");
  Primitive p = Primitive(mm).with_attr("transpose_b", true);
  std::vector<TensorSpec> in = {{DType::Float32, Shape{5, 1, 2, 3}}, {DType::Float32, Shape{4, 7, 3}}};
  auto out = mm.infer(mm, p.attrs(), in);
  EXPECT_EQ(out[0].shape, (Shape{5, 4, 2, 7}));
  in[1].shape = Shape{4, 7, 2};
  EXPECT_THROW(mm.infer(mm, p.attrs(), in), ValueError);
}

TEST(Eager, PromotesMixedDtypes) {
  Tensor a = Tensor::scalar_int(3, DType::Int32);
  Tensor b = Tensor::scalar(0.5, DType::Float16);
  Tensor in[2] = {a, b};
  Tensor out = run_eager(Primitive::make("Add"), in)[0];
  EXPECT_EQ(out.dtype(), DType::Float16);
  EXPECT_EQ(out.element_as_double(0), 3.5);
  Tensor ints[2] = {Tensor::scalar_int(7, DType::Int64), Tensor::scalar_int(2, DType::Int64)};
  Tensor q = run_eager(Primitive::make("Div"), ints)[0];
  EXPECT_EQ(q.dtype(), DType::Float32);
  EXPECT_EQ(q.element_as_double(0), 3.5);
}

TEST(Eager, ReshapeAndTransposeAreViews) {
  Tensor x = Tensor::zeros(Shape{2, 3}, DType::Float32);
  Tensor in[1] = {x};
  Tensor r = run_eager(Primitive::make("Reshape").with_attr("shape", std::vector<int64_t>{3, 2}), in)[0];
  Tensor t = run_eager(Primitive::make("Transpose").with_attr("perm", std::vector<int64_t>{1, 0}), in)[0];
  EXPECT_TRUE(r.shares_storage(x));
  EXPECT_TRUE(t.shares_storage(x));
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
}

TEST(Eager, WrongInputCountIsAValueError) {
  Tensor x = Tensor::zeros(Shape{2}, DType::Float32);
  Tensor in[1] = {x};
  EXPECT_THROW(run_eager(Primitive::make("Add"), in), ValueError);
}

}  // namespace
}  // namespace sprout
