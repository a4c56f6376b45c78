// The C++ inference API (api/inference.h) on a MindIR file written by export_mindir: a hand-built
// dense layer with softmax, run through Model and compared with the same ops run eagerly.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#include "api/inference.h"
#include "compiler/graph_emit.h"
#include "io/mindir.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

using namespace ir;

Tensor ramp(Shape shape, float scale) {
  Tensor t = Tensor::empty(shape, DType::Float32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = scale * static_cast<float>((i * 7) % 11 - 5);
  return t;
}

Tensor eager(const Primitive& prim, std::vector<Tensor> in) { return run_eager(prim, in)[0]; }

class InferenceApi : public ::testing::Test {
 protected:
  // softmax(relu(x @ w^T + b)), x (2, 3), w (4, 3), b (4,), written to a temporary file.
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() / ("sprout_inference_test_" + std::to_string(::getpid()) + ".mindir"))
                .string();
    Module m;
    FuncGraph* g = m.new_graph("dense");
    ParameterNode* x = g->add_parameter("x");
    ParameterNode* w = g->add_parameter("w");
    ParameterNode* b = g->add_parameter("b");
    x->set_abstract(tensor_abstract(DType::Float32, {2, 3}));
    w->set_abstract(tensor_abstract(DType::Float32, {4, 3}));
    b->set_abstract(tensor_abstract(DType::Float32, {4}));
    AnfNode* y = compiler::emit_primitive(*g, matmul_, std::vector<AnfNode*>{x, w})[0];
    y = compiler::emit_primitive(*g, Primitive::make("Add"), std::vector<AnfNode*>{y, b})[0];
    y = compiler::emit_primitive(*g, Primitive::make("ReLU"), std::vector<AnfNode*>{y})[0];
    y = compiler::emit_primitive(*g, Primitive::make("Softmax"), std::vector<AnfNode*>{y})[0];
    g->set_output(compiler::emit_make_tuple(*g, {y}));
    mindir::export_mindir(*g, 1, {{"w", w_}, {"b", b_}}, true, "test", path_);
  }
  void TearDown() override { std::filesystem::remove(path_); }

  std::string path_;
  Primitive matmul_ = Primitive::make("MatMul").with_attr("transpose_b", AttrValue(true));
  Tensor w_ = ramp({4, 3}, 0.25f), b_ = ramp({4}, 0.1f);
};

TEST_F(InferenceApi, PredictMatchesTheOpsRunEagerly) {
  inference::Model model = inference::Model::load(path_);
  ASSERT_EQ(model.inputs().size(), 1u);
  EXPECT_EQ(model.inputs()[0].name, "x");
  EXPECT_EQ(model.inputs()[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(model.inputs()[0].type, inference::ElementType::Float32);

  Tensor x = ramp({2, 3}, 0.5f);
  std::vector<float> xs(x.data<float>(), x.data<float>() + 6);
  std::vector<inference::HostTensor> out = model.predict({inference::HostTensor::from_floats({2, 3}, xs)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape, (std::vector<int64_t>{2, 4}));

  Tensor want = eager(Primitive::make("Softmax"),
                      {eager(Primitive::make("ReLU"), {eager(Primitive::make("Add"), {eager(matmul_, {x, w_}), b_})})});
  std::vector<float> got = out[0].floats();
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(got[i], want.data<float>()[i], 1e-6f) << "element " << i;
  EXPECT_EQ(model.predict({inference::HostTensor::from_floats({2, 3}, xs)})[0].floats(), got) << "runs again";
}

TEST_F(InferenceApi, BadInputsAndFilesAreClearErrors) {
  inference::Model model = inference::Model::load(path_);
  try {
    model.predict({inference::HostTensor::from_floats({3, 2}, std::vector<float>(6))});
    FAIL() << "a wrong shape was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "Model::predict: input 'x' must be Float32[2, 3], but got Float32[3, 2]");
  }
  EXPECT_THROW(model.predict({}), std::invalid_argument);
  EXPECT_THROW(inference::HostTensor::from_floats({2, 2}, std::vector<float>(3)), std::invalid_argument);
  try {
    inference::Model::load(path_ + ".missing");
    FAIL() << "a missing file loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sprout
