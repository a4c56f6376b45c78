// CutMixBatch and MixUpBatch: mix the images of a batch with a permutation of themselves and the
// one-hot labels in proportion (Yun et al. 2019; Zhang et al. 2018), as MindSpore's ops.
#include <cmath>

#include "base/error.h"
#include "data/random_util.h"
#include "data/vision_ops.h"

namespace sprout::data {

namespace {

class BatchMixOp : public TensorOp {
 public:
  Row apply(Row columns, Rng& rng) const override {
    SPROUT_CHECK(columns.size() == 2 && !columns[0].is_string() && !columns[1].is_string(), ValueError, name(),
                 ": takes two columns (images, labels), but got ", columns.size());
    const Tensor& images = columns[0].tensor();
    const Tensor& labels = columns[1].tensor();
    SPROUT_CHECK(images.ndim() == 4 && (images.dtype() == DType::UInt8 || images.dtype() == DType::Float32),
                 TypeError, name(), ": expected a batch of images (N, H, W, C) or (N, C, H, W) of uint8 or float32, "
                 "but got ", name_of(images));
    // (N, num_classes), or (N, ..., num_classes) for several labels per image: each image's labels mix as one row.
    SPROUT_CHECK(labels.ndim() >= 2 && labels.dim(0) == images.dim(0), ValueError, name(),
                 ": expected one-hot labels (N, num_classes) or (N, ..., num_classes) with N = ", images.dim(0),
                 ", but got ", name_of(labels), "; apply transforms.OneHot before batch");
    std::vector<int64_t> perm(static_cast<size_t>(images.dim(0)));
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
    rng.shuffle(perm);
    Tensor out_images = images.clone();
    Tensor out_labels = Tensor::empty(labels.shape(), DType::Float32);
    out_labels.copy_from(labels.dtype() == DType::Float32 ? labels : cast_labels(labels));
    mix(images, out_images, out_labels, perm, rng);
    return Row{out_images, out_labels};
  }

 protected:
  virtual void mix(const Tensor& images, Tensor& out_images, Tensor& out_labels, const std::vector<int64_t>& perm,
                   Rng& rng) const = 0;

  static std::string name_of(const Tensor& t) { return str(sprout::name(t.dtype()), " of shape ", shape_str(t.shape())); }
  static Tensor cast_labels(const Tensor& labels) {
    Tensor out = Tensor::empty(labels.shape(), DType::Float32);
    for (int64_t i = 0; i < labels.numel(); ++i) out.data<float>()[i] = static_cast<float>(labels.element_as_double(i));
    return out;
  }
  // out_labels[i] = lam * labels[i] + (1 - lam) * labels[perm[i]]
  static void mix_labels(Tensor& out_labels, int64_t i, int64_t j, const Tensor& original, double lam) {
    const int64_t k = out_labels.numel() / out_labels.dim(0);
    float* row = out_labels.data<float>() + i * k;
    const float* other = original.data<float>() + j * k;
    for (int64_t c = 0; c < k; ++c) row[c] = static_cast<float>(lam * row[c] + (1 - lam) * other[c]);
  }
};

class CutMixBatch final : public BatchMixOp {
 public:
  CutMixBatch(bool nhwc, double alpha, double prob) : nhwc_(nhwc), alpha_(alpha), prob_(prob) {}
  std::string name() const override { return "CutMixBatch"; }

 private:
  void mix(const Tensor& images, Tensor& out_images, Tensor& out_labels, const std::vector<int64_t>& perm,
           Rng& rng) const override {
    const Tensor labels = out_labels.clone();
    const int64_t H = images.dim(nhwc_ ? 1 : 2), W = images.dim(nhwc_ ? 2 : 3);
    for (int64_t i = 0; i < images.dim(0); ++i) {
      if (rng.uniform_real() >= prob_) continue;
      const double lam = beta(rng, alpha_, alpha_);
      const double cut = std::sqrt(1.0 - lam);
      const auto ch = static_cast<int64_t>(H * cut), cw = static_cast<int64_t>(W * cut);
      const int64_t cy = uniform_int(rng, 0, H - 1), cx = uniform_int(rng, 0, W - 1);
      const int64_t y0 = std::clamp<int64_t>(cy - ch / 2, 0, H), y1 = std::clamp<int64_t>(cy + ch / 2, 0, H);
      const int64_t x0 = std::clamp<int64_t>(cx - cw / 2, 0, W), x1 = std::clamp<int64_t>(cx + cw / 2, 0, W);
      if (y1 <= y0 || x1 <= x0) continue;
      const int64_t j = perm[static_cast<size_t>(i)];
      const int64_t hd = nhwc_ ? 1 : 2, wd = hd + 1;
      out_images.select(0, i).slice(hd - 1, y0, y1, 1).slice(wd - 1, x0, x1, 1).copy_from(
          images.select(0, j).slice(hd - 1, y0, y1, 1).slice(wd - 1, x0, x1, 1));
      // The label weight is the share of the image that stayed.
      const double kept = 1.0 - static_cast<double>((y1 - y0) * (x1 - x0)) / static_cast<double>(H * W);
      mix_labels(out_labels, i, j, labels, kept);
    }
  }
  bool nhwc_;
  double alpha_, prob_;
};

class MixUpBatch final : public BatchMixOp {
 public:
  explicit MixUpBatch(double alpha) : alpha_(alpha) {}
  std::string name() const override { return "MixUpBatch"; }

 private:
  void mix(const Tensor& images, Tensor& out_images, Tensor& out_labels, const std::vector<int64_t>& perm,
           Rng& rng) const override {
    const Tensor labels = out_labels.clone();
    const double lam = beta(rng, alpha_, alpha_);  // one weight for the batch, as MindSpore
    const int64_t per_image = images.numel() / images.dim(0);
    const Tensor src = images.contiguous();
    for (int64_t i = 0; i < images.dim(0); ++i) {
      const int64_t j = perm[static_cast<size_t>(i)];
      for (int64_t p = 0; p < per_image; ++p) {
        const double v = lam * src.element_as_double(i * per_image + p) +
                         (1 - lam) * src.element_as_double(j * per_image + p);
        if (images.dtype() == DType::UInt8)
          static_cast<uint8_t*>(out_images.raw_data())[i * per_image + p] =
              static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
        else
          out_images.data<float>()[i * per_image + p] = static_cast<float>(v);
      }
      mix_labels(out_labels, i, j, labels, lam);
    }
  }
  double alpha_;
};

}  // namespace

TensorOpPtr cutmix_batch_op(bool nhwc, double alpha, double prob) {
  return std::make_shared<CutMixBatch>(nhwc, alpha, prob);
}
TensorOpPtr mixup_batch_op(double alpha) { return std::make_shared<MixUpBatch>(alpha); }

}  // namespace sprout::data
