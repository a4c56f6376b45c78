// image_op(name, fn): an ImageOp from a name and a function of (image, rng) that checks the image first,
// the way most vision transforms are written (vision_ops.cc, vision_color_ops.cc, vision_geometry_ops.cc).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "data/image_ops.h"
#include "data/tensor_op.h"

namespace sprout::data {

template <class F>
class LambdaImageOp final : public ImageOp {
 public:
  LambdaImageOp(std::string name, F fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string name() const override { return name_; }
  Tensor apply_image(const Tensor& image, Rng& rng) const override {
    check_image(name_, image);
    return fn_(image, rng);
  }

 private:
  std::string name_;
  F fn_;
};

template <class F>
TensorOpPtr image_op(std::string name, F fn) {
  return std::make_shared<LambdaImageOp<F>>(std::move(name), std::move(fn));
}

}  // namespace sprout::data
