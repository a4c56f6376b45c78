// sprout._C.dataset, transforms implemented in C++ (src/data/vision_ops.h, augment_ops.h): factories
// for each op, eager application to NumPy arrays, and map over a mix of C++ ops and Python callables.
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "data/augment_ops.h"
#include "data/vision_ops.h"
#include "python/data_rows.h"

namespace sprout::py {

namespace {

using data::Fill;
using data::Range;
using data::Size2;

data::Interpolation interpolation(int i) {
  SPROUT_CHECK(i >= 0 && i <= 3, ValueError, "interpolation code ", i, " is not one of 0..3");
  return static_cast<data::Interpolation>(i);
}
data::BorderMode border(int b) {
  SPROUT_CHECK(b >= 0 && b <= 3, ValueError, "padding mode code ", b, " is not one of 0..3");
  return static_cast<data::BorderMode>(b);
}

// One step of a map: a C++ op (run without the GIL) or a Python callable fn(seed, *columns).
struct Step {
  data::TensorOpPtr op;
  std::shared_ptr<PyRef> python;
};

data::RowFunction mixed_chain(std::vector<Step> steps, size_t num_outputs) {
  return [steps = std::move(steps), num_outputs](data::Row row, const data::RowContext& ctx) {
    data::Rng rng(ctx.seed);
    for (size_t k = 0; k < steps.size(); ++k) {
      if (steps[k].op) {
        row = steps[k].op->apply(std::move(row), rng);
        continue;
      }
      nb::gil_scoped_acquire gil;
      const uint64_t seed = data::mix_seed({ctx.seed, k});
      nb::object result = steps[k].python->get()(nb::int_(seed), *row_to_python(row, true));
      const bool last = k + 1 == steps.size();
      row = result_to_row(result, last ? num_outputs : (nb::isinstance<nb::tuple>(result) ? nb::len(result) : 1), "map");
    }
    return row;
  };
}

}  // namespace

void bind_data_vision_more(nb::module_& m);  // data_vision_more.cc: the colour and geometry transforms

void bind_data_vision(nb::module_& m) {
  nb::class_<data::TensorOp>(m, "TensorOp").def_prop_ro("name", &data::TensorOp::name);

  m.def("apply_op", [](const data::TensorOpPtr& op, nb::list columns, uint64_t seed) {
    data::Row row;
    for (size_t i = 0; i < columns.size(); ++i) row.push_back(value_to_field(columns[i], op->name().c_str(), i));
    {
      nb::gil_scoped_release release;
      data::Rng rng(seed);
      row = op->apply(std::move(row), rng);
    }
    return row_to_python(row, true);
  });
  m.def("map_ops", [](data::NodePtr child, nb::list steps, const data::ColumnNames& input_columns,
                      const data::ColumnNames& output_columns, size_t num_outputs, int workers, size_t prefetch,
                      uint64_t seed) -> data::NodePtr {
    std::vector<Step> chain;
    for (nb::handle s : steps) {
      if (nb::isinstance<data::TensorOp>(s))
        chain.push_back({nb::cast<data::TensorOpPtr>(s), nullptr});
      else
        chain.push_back({nullptr, std::make_shared<PyRef>(s)});
    }
    return std::make_shared<data::MapNode>(std::move(child), mixed_chain(std::move(chain), num_outputs), input_columns,
                                           output_columns, workers, prefetch, seed);
  });

  m.def("decode_op", &data::decode_op);
  m.def("resize_op", [](Size2 size, bool keep_ratio, int interp) {
    return data::resize_op(size, keep_ratio, interpolation(interp));
  });
  m.def("center_crop_op", &data::center_crop_op);
  m.def("random_crop_op", [](Size2 size, std::array<int64_t, 4> padding, bool pad_if_needed, Fill fill, int mode) {
    return data::random_crop_op(size, padding, pad_if_needed, fill, border(mode));
  });
  m.def("random_resized_crop_op", [](Size2 size, Range scale, Range ratio, int interp, int max_attempts) {
    return data::random_resized_crop_op(size, scale, ratio, interpolation(interp), max_attempts);
  });
  m.def("random_crop_decode_resize_op", [](Size2 size, Range scale, Range ratio, int interp, int max_attempts) {
    return data::random_crop_decode_resize_op(size, scale, ratio, interpolation(interp), max_attempts);
  });
  m.def("random_flip_op", &data::random_flip_op);
  m.def("random_rotation_op", [](Range degrees, int interp, bool expand,
                                 std::optional<std::pair<double, double>> center, Fill fill) {
    return data::random_rotation_op(degrees, interpolation(interp), expand, center, fill);
  });
  m.def("random_affine_op", [](Range degrees, Range translate_x, Range translate_y, Range scale, Range shear_x,
                               Range shear_y, int interp, Fill fill) {
    return data::random_affine_op(degrees, translate_x, translate_y, scale, shear_x, shear_y, interpolation(interp),
                                  fill);
  });
  m.def("random_color_adjust_op", &data::random_color_adjust_op);
  m.def("random_erasing_op", &data::random_erasing_op);
  m.def("pad_op", [](std::array<int64_t, 4> padding, Fill fill, int mode) {
    return data::pad_op(padding, fill, border(mode));
  });
  m.def("rescale_op", &data::rescale_op);
  m.def("normalize_op", &data::normalize_op);
  m.def("hwc2chw_op", &data::hwc2chw_op);
  m.def("to_tensor_op", &data::to_tensor_op);
  m.def("convert_color_op", &data::convert_color_op);
  m.def("grayscale_op", &data::grayscale_op);
  m.def("cutmix_batch_op", &data::cutmix_batch_op);
  m.def("mixup_batch_op", &data::mixup_batch_op);
  m.def("auto_augment_op", [](int policy, int interp, Fill fill) {
    SPROUT_CHECK(policy >= 0 && policy <= 2, ValueError, "AutoAugment: policy code ", policy, " is not one of 0..2");
    return data::auto_augment_op(static_cast<data::AutoAugmentPolicy>(policy), interpolation(interp), fill);
  });
  m.def("rand_augment_op", [](int num_ops, int magnitude, int bins, int interp, Fill fill) {
    return data::rand_augment_op(num_ops, magnitude, bins, interpolation(interp), fill);
  });
  m.def("augment_image", [](nb::handle image, const std::string& op, double magnitude, int interp, Fill fill) {
    Tensor t = value_to_field(image, "augment_image", 0).tensor();
    Tensor out;
    {
      nb::gil_scoped_release release;
      out = data::augment_image(t, op, magnitude, interpolation(interp), fill);
    }
    return to_numpy(out);
  });
  bind_data_vision_more(m);
}

}  // namespace sprout::py
