#include <gtest/gtest.h>

#include "runtime/autograd/backward.h"
#include "runtime/autograd/graph.h"
#include "runtime/eager.h"

namespace sprout {
namespace {

Tensor run1(const char* op, std::initializer_list<Tensor> in) {
  std::vector<Tensor> v(in);
  return run_eager(Primitive::make(op), v)[0];
}

TEST(Autograd, NothingIsRecordedOutsideAScope) {
  Tensor x = track(Tensor::scalar(2.0, DType::Float64));
  Tensor y = run1("Mul", {x, x});
  EXPECT_FALSE(y.autograd());
}

TEST(Autograd, ProductRule) {
  GradScope scope;
  Tensor x = track(Tensor::scalar(3.0, DType::Float64));
  Tensor y = run1("Mul", {run1("Mul", {x, x}), x});  // x^3
  Tensor sens[1] = {Tensor::scalar(1.0, DType::Float64)};
  Tensor roots[1] = {y}, targets[1] = {x};
  EXPECT_DOUBLE_EQ(backward(roots, sens, targets)[0].element_as_double(0), 27.0);
}

TEST(Autograd, SecondOrderThroughARecordedBackward) {
  GradScope outer;
  Tensor x = track(Tensor::scalar(2.0, DType::Float64));
  Tensor dx;
  // The inner scope closes before its backward runs (as ms.grad does); the outer one records it.
  Tensor xi = track(x);
  Tensor y;
  {
    GradScope inner;
    y = run1("Mul", {run1("Mul", {xi, xi}), xi});
  }
  Tensor sens[1] = {Tensor::scalar(1.0, DType::Float64)};
  Tensor roots[1] = {y}, targets[1] = {xi};
  dx = backward(roots, sens, targets)[0];  // 3x^2, recorded by the outer scope
  EXPECT_DOUBLE_EQ(dx.element_as_double(0), 12.0);
  ASSERT_TRUE(dx.autograd());
  Tensor roots2[1] = {dx}, targets2[1] = {x};
  EXPECT_DOUBLE_EQ(backward(roots2, sens, targets2)[0].element_as_double(0), 12.0);  // 6x
}

TEST(Autograd, NoGradPausesRecording) {
  GradScope scope;
  Tensor x = track(Tensor::scalar(1.0, DType::Float32));
  NoGradGuard guard;
  EXPECT_FALSE(run1("Exp", {x}).autograd());
}

}  // namespace
}  // namespace sprout
