// Image resizing: ResizeBilinearV2 and ResizeNearestNeighbor, and their gradient ops
// (Note [Resize coordinates]). Inputs are NCHW; only H and W change.
#include "ops/nn_resize.h"

#include "ops/bprop_builder.h"
#include "ops/infer_util.h"

namespace sprout {
namespace {

constexpr std::initializer_list<DType> kTypes = {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64};

void check_image(const OpDef& op, size_t input, const TensorSpec& x) {
  check_dtype_in(op, input, x, kTypes);
  SPROUT_CHECK(x.shape.size() == 4, ValueError, op.name, ": '", op.inputs[input],
               "' must be 4-d (N, C, H, W), but got shape ", shape_str(x.shape));
  SPROUT_CHECK(x.shape[2] > 0 && x.shape[3] > 0, ValueError, op.name, ": '", op.inputs[input],
               "' of shape ", shape_str(x.shape), " has an empty image; there is nothing to resize");
}

Shape resized(const OpDef& op, const Shape& x, const std::vector<int64_t>& size) {
  SPROUT_CHECK(size.size() == 2 && size[0] > 0 && size[1] > 0, ValueError, op.name,
               ": 'size' must be 2 positive ints (height, width), but got ", shape_str(size));
  return Shape{x[0], x[1], size[0], size[1]};
}

void check_modes(const OpDef& op, bool align_corners, bool half_pixel) {
  SPROUT_CHECK(!(align_corners && half_pixel), ValueError, op.name,
               ": 'align_corners' and 'half_pixel_centers' cannot both be True");
}

std::vector<TensorSpec> infer_bilinear(const OpDef& op, const ResizeBilinearAttrs& a, std::span<const TensorSpec> in) {
  check_image(op, 0, in[0]);
  check_modes(op, a.align_corners, a.half_pixel_centers);
  return {TensorSpec{in[0].dtype, resized(op, in[0].shape, a.size)}};
}

std::vector<TensorSpec> infer_bilinear_grad(const OpDef& op, const ResizeBilinearGradAttrs& a,
                                            std::span<const TensorSpec> in) {
  check_image(op, 0, in[0]);
  check_image(op, 1, in[1]);
  check_modes(op, a.align_corners, a.half_pixel_centers);
  SPROUT_CHECK(in[0].shape[0] == in[1].shape[0] && in[0].shape[1] == in[1].shape[1] && in[0].dtype == in[1].dtype,
               ValueError, op.name, ": 'grads' ", spec_str(in[0]), " and 'original_image' ", spec_str(in[1]),
               " must agree in dtype, batch and channels");
  return {in[1]};
}

std::vector<TensorSpec> infer_nearest(const OpDef& op, const ResizeNearestNeighborAttrs& a,
                                      std::span<const TensorSpec> in) {
  check_image(op, 0, in[0]);
  return {TensorSpec{in[0].dtype, resized(op, in[0].shape, a.size)}};
}

std::vector<TensorSpec> infer_nearest_grad(const OpDef& op, const ResizeNearestNeighborGradAttrs& a,
                                           std::span<const TensorSpec> in) {
  check_image(op, 0, in[0]);
  return {TensorSpec{in[0].dtype, resized(op, in[0].shape, a.size)}};
}

using V = BpropBuilder::V;

std::vector<int64_t> image_size(BpropBuilder& b, V v) {
  Shape s = b.spec(v).shape;
  return {s[2], s[3]};
}

}  // namespace

SPROUT_REGISTER(nn_resize) {
  define_op<ResizeBilinearAttrs>("ResizeBilinearV2")
      .doc("Resizes the images of an NCHW tensor by bilinear interpolation (Note [Resize coordinates]).")
      .inputs({"x"})
      .outputs({"output"})
      .infer(infer_bilinear)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const auto& a = b.prim().attrs_as<ResizeBilinearAttrs>();
        return {b.emitter().emit("ResizeBilinearGrad", {b.dout(), b.input(0)},
                                 {{"align_corners", a.align_corners}, {"half_pixel_centers", a.half_pixel_centers}})};
      }));
  define_op<ResizeBilinearGradAttrs>("ResizeBilinearGrad")
      .doc("Gradient of ResizeBilinearV2 with respect to its input, shaped like 'original_image'.")
      .inputs({"grads", "original_image"})
      .outputs({"output"})
      .infer(infer_bilinear_grad)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        const auto& a = b.prim().attrs_as<ResizeBilinearGradAttrs>();
        V dgrads = b.emitter().emit("ResizeBilinearV2", {b.dout()},
                                    {{"align_corners", a.align_corners},
                                     {"half_pixel_centers", a.half_pixel_centers},
                                     {"size", image_size(b, b.input(0))}});
        return {dgrads, b.emitter().zeros_like(b.input(1))};  // the image only gives the output's shape
      }));
  define_op<ResizeNearestNeighborAttrs>("ResizeNearestNeighbor")
      .doc("Resizes the images of an NCHW tensor to 'size' by nearest-neighbour sampling.")
      .inputs({"input_x"})
      .outputs({"output"})
      .infer(infer_nearest)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().emit("ResizeNearestNeighborGrad", {b.dout()},
                                 {{"align_corners", b.prim().attrs_as<ResizeNearestNeighborAttrs>().align_corners},
                                  {"size", image_size(b, b.input(0))}})};
      }));
  define_op<ResizeNearestNeighborGradAttrs>("ResizeNearestNeighborGrad")
      .doc("Gradient of ResizeNearestNeighbor: each output's gradient added to the pixel it copied.")
      .inputs({"grads"})
      .outputs({"output"})
      .infer(infer_nearest_grad)
      .bprop(bprop_rule([](BpropBuilder& b) -> std::vector<V> {
        return {b.emitter().emit("ResizeNearestNeighbor", {b.dout()},
                                 {{"size", image_size(b, b.input(0))},
                                  {"align_corners", b.prim().attrs_as<ResizeNearestNeighborGradAttrs>().align_corners}})};
      }));
}

}  // namespace sprout
