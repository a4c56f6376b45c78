#include "data/binary_sources.h"

#include "base/error.h"
#include "data/file_util.h"

namespace sprout::data {

namespace {

constexpr uint32_t kIdxImagesMagic = 0x00000803;  // unsigned byte, 3 dimensions
constexpr uint32_t kIdxLabelsMagic = 0x00000801;  // unsigned byte, 1 dimension

// Rows are (image, labels...) slices of per-file tensors: images (N, H, W, C) UInt8, labels (N, k) Int32.
class SlicedImageSource final : public RowSource {
 public:
  struct Part {
    Tensor images;
    Tensor labels;
  };
  explicit SlicedImageSource(std::vector<Part> parts) : parts_(std::move(parts)) {
    for (const auto& p : parts_) size_ += p.images.dim(0);
  }
  int64_t size() const override { return size_; }
  Row get(int64_t index) const override {
    for (const auto& p : parts_) {
      if (index < p.images.dim(0)) {
        Row row{p.images.select(0, index).clone()};
        const Tensor labels = p.labels.select(0, index);
        for (int64_t k = 0; k < labels.dim(0); ++k) row.push_back(labels.select(0, k).clone());
        return row;
      }
      index -= p.images.dim(0);
    }
    throw ValueError(str("row ", index, " is out of range"));
  }

 private:
  std::vector<Part> parts_;
  int64_t size_ = 0;
};

Tensor widen_labels(const uint8_t* src, int64_t rows, int64_t per_row) {
  Tensor labels = Tensor::empty(Shape{rows, per_row}, DType::Int32);
  int32_t* dst = labels.data<int32_t>();
  for (int64_t i = 0; i < rows * per_row; ++i) dst[i] = src[i];
  return labels;
}

SlicedImageSource::Part read_mnist_pair(const std::string& image_path, const std::string& label_path) {
  const char* api = "MnistDataset";
  Tensor images = read_file_bytes(api, image_path);
  Tensor labels = read_file_bytes(api, label_path);
  const auto* ib = static_cast<const uint8_t*>(images.raw_data());
  const auto* lb = static_cast<const uint8_t*>(labels.raw_data());
  SPROUT_CHECK(images.numel() >= 16, RuntimeError, api, ": '", image_path, "' is truncated: ", images.numel(),
               " bytes, shorter than the 16-byte IDX image header");
  SPROUT_CHECK(read_be32(ib) == kIdxImagesMagic, RuntimeError, api, ": '", image_path,
               "' is not an IDX image file: magic number ", read_be32(ib), ", expected ", kIdxImagesMagic);
  SPROUT_CHECK(labels.numel() >= 8, RuntimeError, api, ": '", label_path, "' is truncated: ", labels.numel(),
               " bytes, shorter than the 8-byte IDX label header");
  SPROUT_CHECK(read_be32(lb) == kIdxLabelsMagic, RuntimeError, api, ": '", label_path,
               "' is not an IDX label file: magic number ", read_be32(lb), ", expected ", kIdxLabelsMagic);
  const int64_t n = read_be32(ib + 4), rows = read_be32(ib + 8), cols = read_be32(ib + 12);
  const int64_t expected = 16 + n * rows * cols;
  SPROUT_CHECK(images.numel() >= expected, RuntimeError, api, ": '", image_path, "' is truncated: its header says ",
               n, " images of ", rows, "x", cols, " (", expected, " bytes) but the file has ", images.numel());
  const int64_t num_labels = read_be32(lb + 4);
  SPROUT_CHECK(labels.numel() >= 8 + num_labels, RuntimeError, api, ": '", label_path,
               "' is truncated: its header says ", num_labels, " labels but the file has ", labels.numel() - 8);
  SPROUT_CHECK(num_labels == n, RuntimeError, api, ": '", image_path, "' has ", n, " images but '", label_path,
               "' has ", num_labels, " labels");
  const int64_t shape[] = {n, rows, cols, 1};
  Tensor pixels = images.slice(0, 16, expected, 1).view(shape);
  return {pixels, widen_labels(lb + 8, n, 1)};
}

SlicedImageSource::Part read_cifar_file(const std::string& path, bool cifar100) {
  const char* api = cifar100 ? "Cifar100Dataset" : "Cifar10Dataset";
  const int64_t label_bytes = cifar100 ? 2 : 1, image_bytes = 3 * 32 * 32, record = label_bytes + image_bytes;
  Tensor bytes = read_file_bytes(api, path);
  SPROUT_CHECK(bytes.numel() > 0 && bytes.numel() % record == 0, RuntimeError, api, ": '", path, "' has ",
               bytes.numel(), " bytes, not a positive multiple of the ", record,
               "-byte record; the file is truncated or not a CIFAR", cifar100 ? "-100" : "-10", " binary batch");
  const int64_t n = bytes.numel() / record;
  const auto* src = static_cast<const uint8_t*>(bytes.raw_data());
  Tensor images = Tensor::empty(Shape{n, 32, 32, 3}, DType::UInt8);
  Tensor labels = Tensor::empty(Shape{n, label_bytes}, DType::Int32);
  auto* img = static_cast<uint8_t*>(images.raw_data());
  int32_t* lab = labels.data<int32_t>();
  const int max_label = cifar100 ? 99 : 9;
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* r = src + i * record;
    for (int64_t k = 0; k < label_bytes; ++k) {
      SPROUT_CHECK(r[k] <= max_label, RuntimeError, api, ": '", path, "' record ", i, " has label ", int(r[k]),
                   ", outside [0, ", max_label, "]; the file is not a CIFAR", cifar100 ? "-100" : "-10",
                   " binary batch");
      lab[i * label_bytes + k] = r[k];
    }
    const uint8_t* chw = r + label_bytes;
    uint8_t* hwc = img + i * image_bytes;
    for (int c = 0; c < 3; ++c)
      for (int p = 0; p < 1024; ++p) hwc[p * 3 + c] = chw[c * 1024 + p];
  }
  return {images, labels};
}

}  // namespace

RowSourcePtr mnist_source(const std::vector<std::pair<std::string, std::string>>& image_label_files) {
  std::vector<SlicedImageSource::Part> parts;
  for (const auto& [images, labels] : image_label_files) parts.push_back(read_mnist_pair(images, labels));
  return std::make_shared<SlicedImageSource>(std::move(parts));
}

RowSourcePtr cifar_source(const std::vector<std::string>& files, bool cifar100) {
  std::vector<SlicedImageSource::Part> parts;
  for (const auto& f : files) parts.push_back(read_cifar_file(f, cifar100));
  return std::make_shared<SlicedImageSource>(std::move(parts));
}

}  // namespace sprout::data
