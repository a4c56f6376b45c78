// sprout._C.dataset: factories of the colour and geometry transforms of src/data/vision_color_ops.h and
// vision_geometry_ops.h, and the image encoders behind vision.encode_jpeg / encode_png.
#include <opencv2/imgcodecs.hpp>

#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "data/image_codec.h"
#include "data/vision_color_ops.h"
#include "data/vision_geometry_ops.h"
#include "python/data_rows.h"

namespace sprout::py {

namespace {

data::Interpolation interpolation(int i) {
  SPROUT_CHECK(i >= 0 && i <= 3, ValueError, "interpolation code ", i, " is not one of 0..3");
  return static_cast<data::Interpolation>(i);
}
data::BorderMode border(int b) {
  SPROUT_CHECK(b >= 0 && b <= 3, ValueError, "padding mode code ", b, " is not one of 0..3");
  return static_cast<data::BorderMode>(b);
}

nb::object encode(nb::handle image, const char* api, const std::string& extension, std::vector<int> params) {
  Tensor t = value_to_field(image, api, 0).tensor();
  Tensor out;
  {
    nb::gil_scoped_release release;
    out = data::encode_image(t, extension, params);
  }
  return to_numpy(out);
}

}  // namespace

void bind_data_vision_more(nb::module_& m) {
  using data::Fill;
  using data::Point2;
  using data::Range;
  using data::Size2;
  m.def("adjust_brightness_op", &data::adjust_brightness_op);
  m.def("adjust_contrast_op", &data::adjust_contrast_op);
  m.def("adjust_saturation_op", &data::adjust_saturation_op);
  m.def("adjust_sharpness_op", &data::adjust_sharpness_op);
  m.def("adjust_gamma_op", &data::adjust_gamma_op);
  m.def("adjust_hue_op", &data::adjust_hue_op);
  m.def("auto_contrast_op", &data::auto_contrast_op);
  m.def("equalize_op", &data::equalize_op);
  m.def("invert_op", &data::invert_op);
  m.def("posterize_op", &data::posterize_op);
  m.def("solarize_op", &data::solarize_op);
  m.def("random_color_op", &data::random_color_op);
  m.def("random_sharpness_op", &data::random_sharpness_op);
  m.def("random_posterize_op", &data::random_posterize_op);
  m.def("random_solarize_op", &data::random_solarize_op);
  m.def("random_lighting_op", &data::random_lighting_op);
  m.def("random_apply_op", &data::random_apply_op);

  m.def("affine_op", [](double degrees, Point2 translate, double scale, Point2 shear, int interp, Fill fill) {
    return data::affine_op(degrees, translate, scale, shear, interpolation(interp), fill);
  });
  m.def("crop_op", &data::crop_op);
  m.def("flip_op", &data::flip_op);
  m.def("gaussian_blur_op", &data::gaussian_blur_op);
  m.def("pad_to_size_op", [](Size2 size, std::optional<std::pair<int64_t, int64_t>> offset, Fill fill, int mode) {
    return data::pad_to_size_op(size, offset, fill, border(mode));
  });
  m.def("perspective_op", [](std::array<Point2, 4> start, std::array<Point2, 4> end, int interp) {
    return data::perspective_op(start, end, interpolation(interp));
  });
  m.def("resized_crop_op", [](int64_t top, int64_t left, int64_t height, int64_t width, Size2 size, int interp) {
    return data::resized_crop_op(top, left, height, width, size, interpolation(interp));
  });
  m.def("erase_op", &data::erase_op);
  m.def("cut_out_op", &data::cut_out_op);
  m.def("slice_patches_op", &data::slice_patches_op);
  m.def("normalize_pad_op", &data::normalize_pad_op);
  m.def("random_resize_op", &data::random_resize_op);

  m.def("encode_jpeg", [](nb::handle image, int quality) {
    return encode(image, "encode_jpeg", ".jpg", {cv::IMWRITE_JPEG_QUALITY, quality});
  });
  m.def("encode_png", [](nb::handle image, int compression_level) {
    return encode(image, "encode_png", ".png", {cv::IMWRITE_PNG_COMPRESSION, compression_level});
  });
}

}  // namespace sprout::py
